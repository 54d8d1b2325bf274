/**
 * The writes of accounts, their sessions and the token IDs they used (store.ts, `addAccount` and
 * the others). The store calls these with its Maps (maps.ts) and its wall (wall.ts), which it holds
 * privately: each is written through the wall, in a transaction on a shared database.
 */
import { randomBytes } from 'node:crypto';
import { AccountAlreadyExistsError, InvalidStateError } from 'video-plugin/internal';
import { nowISO, sessionKey } from './ids.js';
import type { StoreMaps } from './maps.js';
import type { AccountRecord, Owner, SessionRecord } from './records.js';
import type { Wall } from './wall.js';

/** See {@link Store.addAccount}. */
export function addAccount(maps: StoreMaps, wall: Wall, account: AccountRecord): void {
  wall.shared(() => {
    wall.refuseRemoved(account.partnerID);
    const key = account.externalID === undefined ? undefined : `${account.partnerID}\n${account.externalID}`;
    if (key !== undefined && maps.accountByExternalID.has(key)) {
      throw new AccountAlreadyExistsError(
        `An account with externalID "${account.externalID}" already exists for partner "${account.partnerID}". Log in with loginAccount instead, or use another externalID.`,
        { externalID: account.externalID },
      );
    }
    wall.write({ kind: 'account', key: account.id }, (db) => db.putAccount(account));
    maps.setAccount(account);
  });
}

/** See {@link Store.saveAccount}. */
export function saveAccount(maps: StoreMaps, wall: Wall, account: AccountRecord): void {
  wall.shared(() => {
    wall.refuseRemoved(account.partnerID);
    const current = maps.accounts.get(account.id);
    if (!current || current.externalID !== account.externalID || current.partnerID !== account.partnerID) {
      throw new InvalidStateError(`saveAccount: account "${account.id}" is not stored as given.`);
    }
    wall.write({ kind: 'account', key: account.id }, (db) => db.putAccount(account));
    maps.setAccount(account);
  });
}

/** See {@link Store.createSession}. */
export function createSession(maps: StoreMaps, wall: Wall, owner: Owner): string {
  return wall.shared(() => {
    wall.refuseRemoved(owner.partnerID);
    const token = randomBytes(32).toString('base64url');
    const key = sessionKey(token);
    const session: SessionRecord = { partnerID: owner.partnerID, accountID: owner.accountID, createdAt: nowISO() };
    wall.write({ kind: 'session', key }, (db) => db.putSession(key, session));
    maps.sessions.set(key, session);
    return token;
  });
}

/** See {@link Store.deleteSession}. */
export function deleteSession(maps: StoreMaps, wall: Wall, key: string): boolean {
  return wall.shared(() => {
    if (!maps.sessions.has(key)) return false;
    wall.write({ kind: 'session', key }, (db) => db.deleteSession(key));
    return maps.sessions.delete(key);
  });
}

/** See {@link Store.useJti}. */
export function useJti(
  maps: StoreMaps,
  wall: Wall,
  partnerID: string,
  jti: string,
  until: number,
  now: number,
): boolean {
  return wall.shared(() => {
    wall.refuseRemoved(partnerID);
    for (const [used, expiry] of maps.usedJtis) if (expiry < now) maps.usedJtis.delete(used);
    const key = `${partnerID}\n${jti}`;
    if (maps.usedJtis.has(key)) return false;
    wall.write({ kind: 'jti', key }, (db) => db.useJti(partnerID, jti, until, now));
    maps.usedJtis.set(key, until);
    return true;
  });
}
