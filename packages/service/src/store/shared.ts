/**
 * The store's part on a database several processes share (PostgreSQL, postgres.ts): the records
 * only such a database keeps (sandboxes, the test controls' forced outcomes), what the other
 * processes committed (applied to the Maps and told to the listeners), and reading everything again.
 *
 * It writes through the store's wall only (wall.ts): the store makes one (store.ts, privately) and
 * hands it the Maps and the wall, so nothing here is a door into the store.
 */
import { InvalidStateError } from 'video-plugin/internal';
import type { RemoteChange } from './driver.js';
import { storageError } from './errors.js';
import type { RemovedPartner, StoreMaps } from './maps.js';
import type { Change, OutcomeRecord, SandboxEnd, SandboxRecord, Snapshot } from './records.js';
import type { Wall } from './wall.js';

/** Told of the sandboxes other processes make and end, on a database several processes share. */
export interface SandboxListener {
  made(record: Readonly<SandboxRecord>): void;
  /** Its records are already out of the store's Maps. */
  ended(partnerID: string, how: SandboxEnd, removed: RemovedPartner): void;
}

/** See the top of this file. */
export class SharedRecords {
  readonly #maps: StoreMaps;
  readonly #wall: Wall;
  /** Tells the store's listeners of a topic, generation or video another process changed. */
  readonly #changed: (change: Change) => void;
  readonly #sandboxListeners = new Set<SandboxListener>();
  /** Told the key of each session another process ended (a log-out there), see {@link onSessionEnded}. */
  readonly #sessionsEnded = new Set<(sessionKey: string) => void>();
  /** Told of each release of the test controls another process committed, see {@link onRelease}. */
  readonly #releases = new Set<(partnerID: string | undefined) => void>();

  constructor(maps: StoreMaps, wall: Wall, changed: (change: Change) => void) {
    this.#maps = maps;
    this.#wall = wall;
    this.#changed = changed;
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

  /** Whether sandboxes are records of the database, served by every process that shares it. */
  get sharesSandboxes(): boolean {
    return this.#wall.db?.putSandbox !== undefined;
  }

  /** Calls `listener` when another process makes or ends a sandbox (a shared database). Returns the unsubscribe. */
  followSandboxes(listener: SandboxListener): () => void {
    this.#sandboxListeners.add(listener);
    return () => this.#sandboxListeners.delete(listener);
  }

  /**
   * Saves a new sandbox, so that every process serves it. Within a transaction (which on a shared
   * database first reads the others' commits under their common lock), a count of
   * {@link Store.sandboxes} made before it in the same transaction still holds at its commit.
   *
   * @throws {InvalidStateError} when sandboxes are no records here (a data file, memory).
   */
  addSandbox(record: SandboxRecord): void {
    const db = this.#wall.db;
    if (!db?.putSandbox) throw new InvalidStateError('addSandbox: this store keeps no sandboxes.');
    this.#wall.shared(() => {
      if (this.#wall.stale) throw storageError(db, new Error('the database cannot be reached'));
      try {
        db.putSandbox?.(record);
      } catch (error) {
        throw db.isDatabaseError(error) ? storageError(db, error) : error;
      }
      this.#wall.afterCommit(() => this.#maps.sandboxes.set(record.partnerID, record));
    });
  }

  /**
   * Ends a sandbox kept in the database: removes it and every record of it in one transaction,
   * which first reads the others' commits under their common lock; so of two processes ending it
   * at once, one removes it and the other finds it gone (undefined; the other's change, read then,
   * was told to the {@link followSandboxes} listeners).
   *
   * @throws {DataFileError} when the database refuses the removal (then nothing is removed).
   */
  endSandbox(partnerID: string, how: SandboxEnd): RemovedPartner | undefined {
    if (this.#wall.current) throw new InvalidStateError('endSandbox: not within a transaction.');
    const db = this.#wall.db;
    if (!db?.putSandbox) throw new InvalidStateError('endSandbox: this store keeps no sandboxes.');
    if (this.#wall.stale) throw storageError(db, new Error('the database cannot be reached'));
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

  /** Whether forced outcomes are records of the database, taken by the jobs of every process that shares it. */
  get sharesOutcomes(): boolean {
    return this.#wall.db?.putOutcome !== undefined;
  }

  /**
   * Saves a forced outcome of the test controls, queued after every one committed before it (by any process).
   *
   * @throws {InvalidStateError} when outcomes are no records here (a data file, memory).
   */
  queueOutcome(record: OutcomeRecord): void {
    const db = this.#wall.db;
    if (!db?.putOutcome) throw new InvalidStateError('queueOutcome: this store keeps no forced outcomes.');
    this.#wall.shared(() => {
      this.#wall.refuseRemoved(record.partnerID);
      if (this.#wall.stale) throw storageError(db, new Error('the database cannot be reached'));
      db.putOutcome?.(record);
      this.#wall.afterCommit(() => this.#maps.outcomes.set(record.id, record));
    });
  }

  /**
   * Takes the first queued outcome that `matches`, in the transaction that queues its job: that
   * transaction has read every process's commits under their common lock, so each outcome is taken
   * once, by the first job queued after it, and is gone only if the job commits.
   */
  takeOutcome(matches: (record: Readonly<OutcomeRecord>) => boolean): OutcomeRecord | undefined {
    const db = this.#wall.db;
    if (!db?.deleteOutcome) return undefined;
    return this.#wall.shared(() => {
      const taken = (this.#wall.current!.taken ??= new Set());
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

  /**
   * Removes the partner's queued outcomes (none given: every partner's), and tells the other
   * processes, whose {@link onRelease} listeners let go of their stalled jobs. How many were queued.
   */
  releaseOutcomes(partnerID: string | undefined): number {
    const db = this.#wall.db;
    if (!db?.releaseOutcomes) throw new InvalidStateError('releaseOutcomes: this store keeps no forced outcomes.');
    return this.#wall.shared(() => {
      if (this.#wall.stale) throw storageError(db, new Error('the database cannot be reached'));
      const cleared = [...this.#maps.outcomes.values()].filter(
        (record) => partnerID === undefined || record.partnerID === partnerID,
      ).length;
      db.releaseOutcomes?.(partnerID);
      this.#wall.afterCommit(() => this.#maps.dropOutcomes(partnerID));
      return cleared;
    });
  }

  /**
   * Calls `listener` with the partner ID (undefined: every partner) of each release of the test
   * controls that another process committed. Returns the unsubscribe.
   */
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
      if (changed) this.#changed(changed);
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
