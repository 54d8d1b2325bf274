/**
 * The store's part on a database several processes share (PostgreSQL, postgres.ts): the records
 * only such a database keeps (sandboxes, the test controls' forced outcomes), what the other
 * processes committed (applied to the Maps and told to the listeners), and reading everything again.
 *
 * It writes through the store's wall only: the store makes one (store.ts, privately) and hands it
 * the Maps and the few steps of its wall it needs, so nothing here is a door into the store.
 */
import { InvalidStateError } from 'video-plugin/internal';
import type { Driver, RemoteChange } from './driver.js';
import { storageError } from './errors.js';
import type { RemovedPartner, StoreMaps } from './maps.js';
import type { Change, OutcomeRecord, SandboxEnd, SandboxRecord, Snapshot } from './records.js';

/** Told of the sandboxes other processes make and end, on a database several processes share. */
export interface SandboxListener {
  made(record: Readonly<SandboxRecord>): void;
  /** Its records are already out of the store's Maps. */
  ended(partnerID: string, how: SandboxEnd, removed: RemovedPartner): void;
}

/** The steps of the store's wall (store.ts) that the shared records write through. */
export interface Wall {
  /** Runs a write in a transaction that first reads the others' commits. */
  shared<T>(fn: () => T): T;
  afterCommit(fn: () => void): void;
  /** Whether a transaction is open, and the outcomes it took (see {@link SharedRecords.takeOutcome}). */
  transaction(): { taken?: Set<string> } | undefined;
  /** Whether writes are refused until every record is read again. */
  stale(): boolean;
  refuseRemoved(partnerID: string): void;
  /** Tells the store's listeners of a topic, generation or video that changed. */
  changed(change: Change): void;
}

/** See the top of this file. */
export class SharedRecords {
  readonly #maps: StoreMaps;
  readonly #db: Driver | undefined;
  readonly #wall: Wall;
  readonly #sandboxListeners = new Set<SandboxListener>();
  /** Told the key of each session another process ended (a log-out there), see {@link onSessionEnded}. */
  readonly #sessionsEnded = new Set<(sessionKey: string) => void>();
  /** Told of each release of the test controls another process committed, see {@link onRelease}. */
  readonly #releases = new Set<(partnerID: string | undefined) => void>();

  constructor(maps: StoreMaps, db: Driver | undefined, wall: Wall) {
    this.#maps = maps;
    this.#db = db;
    this.#wall = wall;
  }

  /** See {@link Store.onSessionEnded}. */
  onSessionEnded(listener: (sessionKey: string) => void): () => void {
    this.#sessionsEnded.add(listener);
    return () => this.#sessionsEnded.delete(listener);
  }

  /** Forgets every listener (the store is closed). */
  clear(): void {
    this.#sessionsEnded.clear();
    this.#releases.clear();
  }

  // --- sandboxes as shared records ---

  /** See {@link Store.sharesSandboxes}. */
  get sharesSandboxes(): boolean {
    return this.#db?.putSandbox !== undefined;
  }

  /** See {@link Store.followSandboxes}. */
  followSandboxes(listener: SandboxListener): () => void {
    this.#sandboxListeners.add(listener);
    return () => this.#sandboxListeners.delete(listener);
  }

  /** See {@link Store.addSandbox}. */
  addSandbox(record: SandboxRecord): void {
    const db = this.#db;
    if (!db?.putSandbox) throw new InvalidStateError('addSandbox: this store keeps no sandboxes.');
    this.#wall.shared(() => {
      if (this.#wall.stale()) throw storageError(db, new Error('the database cannot be reached'));
      try {
        db.putSandbox?.(record);
      } catch (error) {
        throw db.isDatabaseError(error) ? storageError(db, error) : error;
      }
      this.#wall.afterCommit(() => this.#maps.sandboxes.set(record.partnerID, record));
    });
  }

  /** See {@link Store.endSandbox}. */
  endSandbox(partnerID: string, how: SandboxEnd): RemovedPartner | undefined {
    if (this.#wall.transaction()) throw new InvalidStateError('endSandbox: not within a transaction.');
    const db = this.#db;
    if (!db?.putSandbox) throw new InvalidStateError('endSandbox: this store keeps no sandboxes.');
    if (this.#wall.stale()) throw storageError(db, new Error('the database cannot be reached'));
    let found = false;
    try {
      db.transaction(() => {
        found = this.#maps.sandboxes.has(partnerID);
        if (found) db.removePartner(partnerID, how);
      });
    } catch (error) {
      throw db.isDatabaseError(error) ? storageError(db, error) : error;
    }
    if (!found) return undefined;
    this.#maps.sandboxes.delete(partnerID);
    return this.#maps.forgetPartner(partnerID);
  }

  // --- the test controls' forced outcomes as shared records ---

  /** See {@link Store.sharesOutcomes}. */
  get sharesOutcomes(): boolean {
    return this.#db?.putOutcome !== undefined;
  }

  /** See {@link Store.queueOutcome}. */
  queueOutcome(record: OutcomeRecord): void {
    const db = this.#db;
    if (!db?.putOutcome) throw new InvalidStateError('queueOutcome: this store keeps no forced outcomes.');
    this.#wall.shared(() => {
      this.#wall.refuseRemoved(record.partnerID);
      if (this.#wall.stale()) throw storageError(db, new Error('the database cannot be reached'));
      db.putOutcome?.(record);
      this.#wall.afterCommit(() => this.#maps.outcomes.set(record.id, record));
    });
  }

  /** See {@link Store.takeOutcome}. */
  takeOutcome(matches: (record: Readonly<OutcomeRecord>) => boolean): OutcomeRecord | undefined {
    const db = this.#db;
    if (!db?.deleteOutcome) return undefined;
    return this.#wall.shared(() => {
      const taken = (this.#wall.transaction()!.taken ??= new Set());
      for (const [id, record] of this.#maps.outcomes) {
        if (taken.has(id) || !matches(record)) continue;
        db.deleteOutcome?.(id);
        taken.add(id);
        this.#wall.afterCommit(() => this.#maps.outcomes.delete(id));
        return record;
      }
      return undefined;
    });
  }

  /** See {@link Store.releaseOutcomes}. */
  releaseOutcomes(partnerID: string | undefined): number {
    const db = this.#db;
    if (!db?.releaseOutcomes) throw new InvalidStateError('releaseOutcomes: this store keeps no forced outcomes.');
    return this.#wall.shared(() => {
      if (this.#wall.stale()) throw storageError(db, new Error('the database cannot be reached'));
      const cleared = [...this.#maps.outcomes.values()].filter(
        (record) => partnerID === undefined || record.partnerID === partnerID,
      ).length;
      db.releaseOutcomes?.(partnerID);
      this.#wall.afterCommit(() => this.#maps.dropOutcomes(partnerID));
      return cleared;
    });
  }

  /** See {@link Store.onRelease}. */
  onRelease(listener: (partnerID: string | undefined) => void): () => void {
    this.#releases.add(listener);
    return () => this.#releases.delete(listener);
  }

  // --- what the other processes committed ---

  /** What other processes committed, applied in order and told to the listeners. */
  applyRemote(changes: RemoteChange[]): void {
    const maps = this.#maps;
    for (const { kind, key, record } of changes) {
      if (kind === 'partner') {
        const removed = maps.forgetPartner(key);
        const known = maps.sandboxes.delete(key);
        const ended = (record as { ended?: SandboxEnd } | undefined)?.ended;
        if (known || ended)
          for (const listener of this.#sandboxListeners) listener.ended(key, ended ?? 'reset', removed);
        continue;
      }
      if (kind === 'sandbox') {
        const sandbox = record as SandboxRecord;
        maps.sandboxes.set(key, sandbox);
        for (const listener of this.#sandboxListeners) listener.made(sandbox);
        continue;
      }
      if (kind === 'outcome') {
        if (!record) maps.outcomes.delete(key);
        else if (!maps.removedPartners.has((record as OutcomeRecord).partnerID))
          maps.outcomes.set(key, record as OutcomeRecord);
        continue;
      }
      if (kind === 'release') {
        const partnerID = key === '' ? undefined : key;
        maps.dropOutcomes(partnerID);
        for (const listener of this.#releases) listener(partnerID);
        continue;
      }
      if (maps.removedPartners.has((record as { partnerID?: string } | undefined)?.partnerID ?? '')) continue;
      const ended = kind === 'session' && !record && maps.sessions.has(key);
      const changed = maps.apply(kind, key, record);
      if (ended) for (const listener of this.#sessionsEnded) listener(key);
      if (changed) this.#wall.changed(changed);
    }
  }

  /**
   * Replaces the Maps by a snapshot read after an outage ({@link StoreMaps.reload}), and tells the
   * sandbox listeners what the other processes' changes would have told meanwhile.
   */
  reload(snapshot: Snapshot, events: Set<number>): void {
    const maps = this.#maps;
    // The sandboxes another process ended meanwhile, with their records (sessions included, whose
    // streams are to end), as their changes would have told.
    const stored = new Set((snapshot.sandboxes ?? []).map((record) => record.partnerID));
    const ended: [string, SandboxEnd, RemovedPartner][] = [];
    for (const [partnerID, before] of maps.sandboxes) {
      if (stored.has(partnerID)) continue;
      ended.push([partnerID, before.expiresAt <= Date.now() ? 'expired' : 'reset', maps.forgetPartner(partnerID)]);
    }
    const known = new Set(maps.sandboxes.keys());
    maps.sandboxes.clear();
    maps.reload(snapshot, events);
    for (const [partnerID, how, removed] of ended) {
      for (const listener of this.#sandboxListeners) listener.ended(partnerID, how, removed);
    }
    for (const [partnerID, record] of maps.sandboxes) {
      if (!known.has(partnerID)) for (const listener of this.#sandboxListeners) listener.made(record);
    }
  }
}
