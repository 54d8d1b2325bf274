/**
 * The store's records in memory: one Map per kind, and what changes them all at once (loading a
 * snapshot, applying a row as the database holds it, removing a partner, reading everything again).
 *
 * Only the store holds one (store.ts, privately): it writes a change to the database first and then
 * here, so the Maps always match what was saved. Nothing in this file writes to the database.
 */
import type { Kind } from './driver.js';
import { EventLog, type EventRecord } from './events.js';
import { isFinal } from './status.js';
import type {
  AccountRecord,
  Change,
  DeliveryRecord,
  GenerationRecord,
  IdempotencyRecord,
  OutcomeRecord,
  SandboxRecord,
  SessionRecord,
  Snapshot,
  TopicRecord,
  VideoRecord,
} from './records.js';

/** What {@link Store.removePartner} removed that a caller still has to end: sessions' streams, files. */
export interface RemovedPartner {
  sessionKeys: string[];
  videoIDs: string[];
  topicIDs: string[];
}

/** The Maps of the store's records, see the top of this file. */
export class StoreMaps {
  readonly accounts = new Map<string, AccountRecord>();
  /** `partnerID \n externalID` → the account's ID. */
  readonly accountByExternalID = new Map<string, string>();
  /** By {@link sessionKey} of their token. */
  readonly sessions = new Map<string, SessionRecord>();
  /** `partnerID \n jti` → epoch seconds after which the jti may be forgotten. */
  readonly usedJtis = new Map<string, number>();
  readonly outbox = new Map<string, DeliveryRecord>();
  /** `partnerID \n accountID \n key` → the key's record. */
  readonly idempotencyKeys = new Map<string, IdempotencyRecord>();
  readonly events = new EventLog();
  readonly topics = new Map<string, TopicRecord>();
  readonly generations = new Map<string, GenerationRecord>();
  readonly videos = new Map<string, VideoRecord>();
  /** New records whose first write failed: they do not exist, and later changes to them are dropped. */
  readonly dropped = new WeakSet<object>();
  /** Partners whose records were removed (ended sandboxes): nothing of theirs is written again. */
  readonly removedPartners = new Set<string>();
  /**
   * The sandboxes kept in a database several processes share, by partner ID (empty elsewhere: a
   * process's sandboxes are then its own, in sandboxes.ts).
   */
  readonly sandboxes = new Map<string, SandboxRecord>();
  /**
   * The forced outcomes of the test controls waiting for their job, by ID, in the order they were
   * committed: on a database several processes share (empty elsewhere: test-controls.ts keeps them).
   */
  readonly outcomes = new Map<string, OutcomeRecord>();

  /** The Map of a topic, generation or video. */
  map(kind: Change['kind']): Map<string, Change['record']> {
    return (kind === 'topic' ? this.topics : kind === 'generation' ? this.generations : this.videos) as Map<
      string,
      Change['record']
    >;
  }

  setAccount(account: AccountRecord): void {
    this.accounts.set(account.id, account);
    if (account.externalID !== undefined) {
      this.accountByExternalID.set(`${account.partnerID}\n${account.externalID}`, account.id);
    }
  }

  load(snapshot: Snapshot): void {
    for (const account of snapshot.accounts) this.setAccount(account);
    for (const [key, session] of snapshot.sessions) this.sessions.set(key, session);
    for (const topic of snapshot.topics) this.topics.set(topic.id, topic);
    for (const generation of snapshot.generations) this.generations.set(generation.requestId, generation);
    for (const video of snapshot.videos) this.videos.set(video.id, video);
    for (const { partnerID, jti, until } of snapshot.usedJtis) this.usedJtis.set(`${partnerID}\n${jti}`, until);
    for (const delivery of snapshot.outbox) this.outbox.set(delivery.id, delivery);
    for (const record of snapshot.idempotencyKeys ?? []) {
      this.idempotencyKeys.set(`${record.partnerID}\n${record.accountID}\n${record.key}`, record);
    }
    for (const record of snapshot.sandboxes ?? []) this.sandboxes.set(record.partnerID, record);
    for (const record of snapshot.outcomes ?? []) this.outcomes.set(record.id, record);
  }

  /**
   * Makes a row's in-memory copy what the database holds (`stored`, undefined when it holds none):
   * after a write that did not hold, and for a row another process wrote. Returns the record when
   * a topic, generation or video changed (for the listeners).
   */
  apply(kind: Kind, key: string, stored: unknown): Change | undefined {
    if (kind === 'account') {
      const current = this.accounts.get(key);
      if (current?.externalID !== undefined)
        this.accountByExternalID.delete(`${current.partnerID}\n${current.externalID}`);
      this.accounts.delete(key);
      if (stored) this.setAccount(stored as AccountRecord);
    } else if (kind === 'session') {
      if (stored) this.sessions.set(key, stored as SessionRecord);
      else this.sessions.delete(key);
    } else if (kind === 'jti') {
      if (typeof stored === 'number') this.usedJtis.set(key, stored);
      else this.usedJtis.delete(key);
    } else if (kind === 'delivery') {
      if (stored) this.outbox.set(key, stored as DeliveryRecord);
      else this.outbox.delete(key);
    } else if (kind === 'event') {
      if (!stored) this.events.remove(Number(key));
      else if (!this.events.has(Number(key))) this.events.add(stored as EventRecord);
    } else if (kind === 'idempotency') {
      if (stored) this.idempotencyKeys.set(key, stored as IdempotencyRecord);
      else this.idempotencyKeys.delete(key);
    } else {
      // Records the jobs hold keep their identity: their fields go back to the stored ones.
      const map: Map<string, object> = this.map(kind);
      const current = map.get(key);
      if (!stored) {
        map.delete(key);
        if (current) this.dropped.add(current);
        return undefined;
      }
      if (current) {
        for (const field of Object.keys(current)) delete (current as Record<string, unknown>)[field];
        Object.assign(current, stored);
      } else {
        map.set(key, stored as object);
      }
      return { kind, record: map.get(key) } as Change;
    }
    return undefined;
  }

  /**
   * Replaces every record by the snapshot's (the event log keeps the sequence numbers in `events`):
   * records the jobs hold keep their identity (their fields are replaced), those not in it are
   * dropped. The sandboxes are left to the caller, which tells their listeners.
   */
  reload(snapshot: Snapshot, events: Set<number>): void {
    const reconcile = <R extends object>(map: Map<string, R>, stored: R[], key: (record: R) => string) => {
      const byKey = new Map(stored.map((record) => [key(record), record]));
      for (const [id, current] of map) {
        if (byKey.has(id)) continue;
        map.delete(id);
        this.dropped.add(current);
      }
      for (const [id, record] of byKey) {
        const current = map.get(id);
        if (!current) {
          map.set(id, record);
          continue;
        }
        for (const field of Object.keys(current)) delete (current as Record<string, unknown>)[field];
        Object.assign(current, record);
      }
    };
    reconcile(this.topics, snapshot.topics, (topic) => topic.id);
    reconcile(this.generations, snapshot.generations, (generation) => generation.requestId);
    reconcile(this.videos, snapshot.videos, (video) => video.id);
    for (const map of [this.accounts, this.accountByExternalID, this.sessions, this.usedJtis, this.outbox]) {
      map.clear();
    }
    this.idempotencyKeys.clear();
    this.outcomes.clear();
    this.load({ ...snapshot, topics: [], generations: [], videos: [] });
    this.events.retain((seq) => events.has(seq));
  }

  /** Removes the partner's queued outcomes (none given: every partner's). */
  dropOutcomes(partnerID: string | undefined): void {
    for (const [id, record] of this.outcomes) {
      if (partnerID === undefined || record.partnerID === partnerID) this.outcomes.delete(id);
    }
  }

  /** Takes the partner's records out of the Maps (removed from the database, here or by another process). */
  forgetPartner(partnerID: string): RemovedPartner {
    this.removedPartners.add(partnerID);
    const take = <V extends { partnerID: string }>(map: Map<string, V>): string[] => {
      const keys: string[] = [];
      for (const [key, record] of map) {
        if (record.partnerID !== partnerID) continue;
        map.delete(key);
        this.dropped.add(record);
        keys.push(key);
      }
      return keys;
    };
    take(this.accounts);
    for (const key of [...this.accountByExternalID.keys()]) {
      if (key.startsWith(`${partnerID}\n`)) this.accountByExternalID.delete(key);
    }
    const sessionKeys = take(this.sessions);
    const topicIDs = take(this.topics);
    take(this.generations);
    const videoIDs = take(this.videos);
    take(this.outbox);
    take(this.idempotencyKeys);
    for (const key of [...this.usedJtis.keys()]) if (key.startsWith(`${partnerID}\n`)) this.usedJtis.delete(key);
    this.events.removePartner(partnerID);
    this.dropOutcomes(partnerID);
    return { sessionKeys, videoIDs, topicIDs };
  }

  /** See {@link Store.unfinishedOf}. */
  unfinishedOf(partnerID: string, except?: string): number {
    let count = 0;
    for (const map of [this.topics, this.generations])
      for (const [key, record] of map) {
        if (key !== except && record.partnerID === partnerID && !isFinal(record.status)) count++;
      }
    for (const [key, video] of this.videos) {
      if (key !== except && video.partnerID === partnerID && video.renders.some((render) => !isFinal(render.status)))
        count++;
    }
    return count;
  }

  /** See {@link Store.partnerIDs}. */
  partnerIDs(): Set<string> {
    const ids = new Set<string>(this.events.partnerIDs());
    for (const map of [this.accounts, this.sessions, this.topics, this.generations, this.videos, this.outbox]) {
      for (const record of map.values() as Iterable<{ partnerID: string }>) ids.add(record.partnerID);
    }
    for (const record of this.idempotencyKeys.values()) ids.add(record.partnerID);
    for (const key of this.usedJtis.keys()) ids.add(key.slice(0, key.indexOf('\n')));
    return ids;
  }
}
