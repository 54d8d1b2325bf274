/**
 * The idempotency keys of start requests ({@link Store.idempotent}): one request per key of an
 * account, its answer kept for 24 hours. The store calls these with its Maps (maps.ts) and its wall
 * (wall.ts), which it holds privately: every key is written through the wall.
 */
import { InvalidParameterError } from 'video-plugin/internal';
import type { StoreMaps } from './maps.js';
import type { IdempotencyRecord, Owner } from './records.js';
import type { Wall } from './wall.js';

/** How long an idempotency key is kept, in seconds: 24 hours. */
export const IDEMPOTENCY_KEY_SECONDS = 24 * 60 * 60;

/** One start request under a key: see {@link Store.idempotent}. */
export interface IdempotentStart<T> {
  owner: Owner;
  key: string;
  fingerprint: string;
  start: () => T;
  /** Epoch seconds. */
  now: number;
}

/** See {@link Store.idempotent}. */
export function idempotent<T extends Record<string, unknown>>(
  maps: StoreMaps,
  wall: Wall,
  { owner, key, fingerprint, start, now }: IdempotentStart<T>,
): { result: T; replayed: boolean } {
  wall.refuseRemoved(owner.partnerID);
  return wall.transaction(() => {
    pruneIdempotencyKeys(maps, wall, now);
    const mapKey = `${owner.partnerID}\n${owner.accountID}\n${key}`;
    const stored = maps.idempotencyKeys.get(mapKey);
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        throw new InvalidParameterError(
          'idempotency_key_reused',
          `options.idempotencyKey ${JSON.stringify(key)} (the Idempotency-Key header) was used in the last 24 hours for another request of this account (other parameters or another method): use a new key for a new request, and the same parameters to retry the first one.`,
          { field: 'options.idempotencyKey', idempotencyKey: key },
        );
      }
      return { result: stored.result as T, replayed: true };
    }
    const result = start();
    const record: IdempotencyRecord = {
      partnerID: owner.partnerID,
      accountID: owner.accountID,
      key,
      fingerprint,
      result,
      expiresAt: now + IDEMPOTENCY_KEY_SECONDS,
    };
    wall.write({ kind: 'idempotency', key: mapKey }, (db) => db.putIdempotencyKey(record));
    maps.idempotencyKeys.set(mapKey, record);
    return { result, replayed: false };
  });
}

/** See {@link Store.pruneIdempotencyKeys}. */
export function pruneIdempotencyKeys(maps: StoreMaps, wall: Wall, now: number): number {
  let pruned = 0;
  for (const [mapKey, record] of maps.idempotencyKeys) {
    if (record.expiresAt > now) continue;
    maps.idempotencyKeys.delete(mapKey);
    pruned++;
  }
  // Also those a previous run left in the file (they are not read at open).
  wall.write({ kind: 'idempotency', key: '' }, (db) => db.pruneIdempotencyKeys(now));
  return pruned;
}
