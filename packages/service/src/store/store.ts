/**
 * The service's data: accounts, sessions, topics, generations, videos, used token IDs and the
 * webhook outbox. The Maps are what the service reads; only the store writes.
 *
 * The store is a wall: every change goes through one of its methods, which writes it — with
 * `--data FILE`, to the SQLite database, committed before the method returns, so before the request
 * that made it is answered — then updates the Maps and tells the listeners (the status streams).
 * A write that fails throws (a request then answers 500) and leaves the Maps as the file has them.
 * Without a data file nothing is written anywhere: the Maps are all there is.
 *
 * Node runs one request at a time between awaits, so a check-then-insert done without an await in
 * between (externalID, jti) cannot race.
 *
 * This file is the store's API; the store alone holds the two objects everything is written with,
 * in private fields: its Maps (maps.ts: the records in memory, and what changes them all at once)
 * and its wall (wall.ts: the transaction, a row's write and its undoing, the outage). The writes of
 * one concern are beside it, called with those two: accounts, sessions and token IDs (accounts.ts),
 * idempotency keys (idempotency.ts), the records and changes of a database several processes share
 * (shared.ts). Also beside it: the opening (open.ts), the reads on behalf of an account (owned.ts),
 * the SQL (database.ts, postgres.ts), the records and their types (records.ts), the status order
 * (status.ts), the IDs (ids.ts), the event log (events.ts). None of them imports this file. */
import { randomBytes } from 'node:crypto';
import { type WebhookEvent, InvalidStateError } from 'video-plugin/internal';
import { addAccount, createSession, deleteSession, saveAccount, useJti } from './accounts.js';
import { Database } from './database.js';
import type { Driver } from './driver.js';
import { DataFileError, storageError } from './errors.js';
import { EventCursors, type EventLogPage } from './events.js';
import { CursorSeal } from '../cursors.js';
import { nowISO } from './ids.js';
import type { Lock } from './lock.js';
import { StoreMaps, type RemovedPartner } from './maps.js';
import { openDatabase } from './open.js';
import { ownedBy, ownedGeneration, ownedTopic, ownedVideo } from './owned.js';
import { SharedRecords, type SandboxListener } from './shared.js';
import { eventsSince, nowSeconds, Wall } from './wall.js';
import { idempotent, pruneIdempotencyKeys } from './idempotency.js';
import { isFinal, moved } from './status.js';
import type {
  AccountRecord,
  Change,
  DeliveryRecord,
  GenerationRecord,
  OutcomeRecord,
  Owner,
  Patch,
  RecordRef,
  RenderRecord,
  SandboxEnd,
  SandboxRecord,
  SessionRecord,
  Status,
  StatusError,
  TopicRecord,
  VideoRecord,
} from './records.js';

export type {
  AccountRecord,
  Change,
  Patch,
  RecordRef,
  DeliveryRecord,
  GenerationRecord,
  IdempotencyRecord,
  OutcomeRecord,
  Owner,
  RenderRecord,
  SandboxEnd,
  SandboxRecord,
  SessionRecord,
  Status,
  StatusError,
  StatusRecord,
  TopicRecord,
  VideoRecord,
} from './records.js';
export { DataFileError } from './errors.js';
export type { EventLogPage } from './events.js';
export { fingerprint, newId, nowISO, sessionKey } from './ids.js';
export type { RemovedPartner } from './maps.js';
export type { SandboxListener } from './shared.js';

export { IDEMPOTENCY_KEY_SECONDS } from './idempotency.js';

/** The service's state, in memory, and with a data file in an SQLite database. */
export class Store {
  readonly #maps = new StoreMaps();
  readonly accounts: ReadonlyMap<string, AccountRecord> = this.#maps.accounts;
  /** Sessions by {@link sessionKey} of their token. */
  readonly sessions: ReadonlyMap<string, SessionRecord> = this.#maps.sessions;
  /** `partnerID \n jti` → epoch seconds after which the jti may be forgotten. */
  readonly usedJtis: ReadonlyMap<string, number> = this.#maps.usedJtis;
  /** Read only: changed with {@link insert}, {@link update}, {@link progressed} and {@link advance}. */
  readonly topics: ReadonlyMap<string, Readonly<TopicRecord>> = this.#maps.topics;
  readonly generations: ReadonlyMap<string, Readonly<GenerationRecord>> = this.#maps.generations;
  readonly videos: ReadonlyMap<string, Readonly<VideoRecord>> = this.#maps.videos;
  /**
   * The sandboxes kept in a database several processes share, by partner ID (empty elsewhere: a
   * process's sandboxes are then its own, in sandboxes.ts).
   */
  readonly sandboxes: ReadonlyMap<string, Readonly<SandboxRecord>> = this.#maps.sandboxes;

  readonly #listeners = new Set<(change: Change) => void>();
  readonly #lock: Lock | undefined;
  /** How a write is made and undone (wall.ts). */
  readonly #wall: Wall;
  /** The records and listeners of a database several processes share (shared.ts). */
  readonly #remote: SharedRecords;
  #eventCursors = new EventCursors(new CursorSeal(randomBytes(32)), 0);

  private constructor(db?: Driver, lock?: Lock) {
    this.#lock = lock;
    this.#wall = new Wall(this.#maps, db, (snapshot, events) => this.#remote.reload(snapshot, events));
    this.#remote = new SharedRecords(this.#maps, this.#wall, (change) => {
      for (const listener of this.#listeners) listener(change);
    });
  }

  /**
   * Opens the store. Without a file the data lives in memory. With one: takes the file's lock (one
   * process per file), imports a 0.1 JSON data file, opens the database and reads it all. With a
   * PostgreSQL database: migrates and claims it (postgres.ts), follows the other processes' commits,
   * then reads it all.
   *
   * @throws {DataFileError} when the file is in use, not a data file of this service, or unreadable;
   * when the database cannot be reached (DatabaseUnreachableError), is in use, or is newer.
   */
  static async open(file?: string, database?: string): Promise<Store> {
    const opened = await openDatabase(file, database);
    if (!opened) return new Store();
    const { db, lock, name } = opened;
    const store = new Store(db, lock);
    db.follow?.((changes) => store.#remote.applyRemote(changes));
    try {
      store.#read(db);
    } catch (error) {
      try {
        db.close();
      } finally {
        lock?.release();
      }
      throw new DataFileError(`Cannot read ${name} (${(error as Error).message}).`, { cause: error });
    }
    return store;
  }

  /** Reads everything the database keeps into the Maps, and the event log's cursor key. */
  #read(db: Driver): void {
    const { key, plainUntil } = db.eventCursorSettings();
    this.#eventCursors = new EventCursors(new CursorSeal(key), plainUntil);
    this.#maps.load(db.load(nowSeconds()));
    for (const record of db.loadEvents(eventsSince())) this.#maps.events.add(record);
  }

  /** The event log's cursors: sealed with the data file's key (a new one for data in memory). */
  get eventCursors(): EventCursors {
    return this.#eventCursors;
  }

  /** The data file, or undefined when the data lives in memory. */
  get file(): string | undefined {
    return this.#wall.db instanceof Database ? this.#wall.db.file : undefined;
  }

  /** Where the data is kept, for the log: the data file, the database URL without its password, or undefined (memory). */
  get location(): string | undefined {
    return this.#wall.db?.label;
  }

  /** How many listeners are subscribed (the open streams). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Calls `listener` on every topic, generation and video change. Returns the unsubscribe. */
  subscribe(listener: (change: Change) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Calls `listener` with the key of each session that another process sharing the database ended
   * (its log-out): this process's streams and sockets of that session end at once, as they do after
   * a log-out here. Returns the unsubscribe.
   */
  onSessionEnded(listener: (sessionKey: string) => void): () => void {
    return this.#remote.onSessionEnded(listener);
  }

  /**
   * Runs `fn`, whose changes are then saved together or not at all: a request that writes several
   * rows (an account, its session and its webhook) wraps them in one. Listeners and
   * {@link afterCommit} callbacks run once it is committed. Nests (an inner one is part of the outer).
   */
  transaction<T>(fn: () => T): T {
    return this.#wall.transaction(fn);
  }

  /** Runs `fn` once the current transaction is committed (at once outside of one); not if it fails. */
  afterCommit(fn: () => void): void {
    this.#wall.afterCommit(fn);
  }

  // --- topics, generations and videos: the transitions ---
  // Each one changes the record the store holds (the jobs keep reading the same object), writes it
  // and, once committed, publishes it to the listeners: exactly once per call.

  /**
   * Saves a new topic, generation or video and publishes it.
   *
   * @throws {InvalidStateError} `invalid_state` when the store already holds a record with its key.
   */
  insert(change: Change): void {
    this.#wall.shared(() => {
      this.#wall.refuseRemoved(change.record.partnerID);
      const key = keyOf(change);
      if (this.#maps.map(change.kind).has(key)) {
        throw new InvalidStateError(`insert: the ${change.kind} "${key}" is already stored.`);
      }
      this.#save(change, {}, false);
    });
  }

  /** Changes fields of a stored record (not its status: see {@link advance}), stamps `updatedAt`, saves and publishes it. */
  update<K extends Change['kind']>(change: RecordRef<K>, patch: Patch<K>): void {
    this.#save(change, patch, true);
  }

  /**
   * A job's progress step: like {@link update} without stamping `updatedAt` (the record's content did
   * not change, only how far its job is).
   */
  progressed<K extends Change['kind']>(change: RecordRef<K>, patch: Patch<K>): void {
    this.#save(change, patch, false);
  }

  /**
   * Moves a topic or generation to `status` in the order of status.ts (the only way it moves), with
   * `error` for FAILED and `patch` in the same step; stamps `updatedAt`, saves and publishes it.
   *
   * @throws {InvalidStateError} `invalid_state` on a move the order does not allow (nothing is saved).
   */
  advance<K extends 'topic' | 'generation'>(
    change: RecordRef<K>,
    status: Status,
    error?: StatusError,
    patch: Patch<K> = {},
  ): void {
    const { status: next, error: failure } = moved(change.record, status, error);
    this.#save(change, { ...patch, status: next, ...(failure ? { error: failure } : {}) }, true);
  }

  /**
   * Ends a video's renders that are not over yet: each moves (through PROCESSING) to `status` with
   * `fields`; every render gets `progress`. Stamps the video's `updatedAt`, saves and publishes it.
   */
  advanceRenders(
    video: Readonly<VideoRecord>,
    status: 'COMPLETE' | 'FAILED',
    progress: RenderRecord['progress'],
    fields: Partial<Omit<RenderRecord, 'format' | 'status' | 'progress'>> = {},
  ): void {
    const renders = video.renders.map((render): RenderRecord => {
      const next = { ...render, ...(progress ? { progress } : {}) };
      if (isFinal(next.status)) return next;
      return { ...moved(next.status === 'PENDING' ? moved(next, 'PROCESSING') : next, status), ...fields };
    });
    this.#save({ kind: 'video', record: video }, { renders }, true);
  }

  /**
   * Applies `patch` to the record the store holds under the change's key (inserting the change's
   * record when it holds none), writes it and publishes it after the commit.
   */
  #save(ref: RecordRef, patch: object, stamp: boolean): void {
    this.#wall.shared(() => {
      const change = ref as Change;
      if (this.#maps.dropped.has(change.record) || this.#maps.removedPartners.has(change.record.partnerID)) return;
      const key = keyOf(change);
      const map = this.#maps.map(change.kind);
      const record = (map.get(key) ?? change.record) as Change['record'];
      Object.assign(record, patch, stamp ? { updatedAt: nowISO() } : {});
      const saved = { kind: change.kind, record } as Change;
      this.#wall.write({ kind: change.kind, key }, (db) => {
        if (saved.kind === 'topic') db.putTopic(saved.record);
        else if (saved.kind === 'generation') db.putGeneration(saved.record);
        else db.putVideo(saved.record);
      });
      map.set(key, record);
      this.afterCommit(() => {
        for (const listener of this.#listeners) listener(saved);
      });
    });
  }

  // --- accounts and sessions: their writes in accounts.ts ---

  /** Adds an account; refuses an externalID the partner already uses. */
  addAccount(account: AccountRecord): void {
    addAccount(this.#maps, this.#wall, account);
  }

  /** Replaces a stored account (same ID and externalID) by its new version. */
  saveAccount(account: AccountRecord): void {
    saveAccount(this.#maps, this.#wall, account);
  }

  /** The partner's account with this ID, or undefined. */
  findAccount(partnerID: string, accountID: string): AccountRecord | undefined {
    const account = this.#maps.accounts.get(accountID);
    return account?.partnerID === partnerID ? account : undefined;
  }

  /** The partner's account with this externalID, or undefined. */
  findAccountByExternalID(partnerID: string, externalID: string): AccountRecord | undefined {
    const id = this.#maps.accountByExternalID.get(`${partnerID}\n${externalID}`);
    return id === undefined ? undefined : this.#maps.accounts.get(id);
  }

  /** Opens a session on an account; returns its token (only its hash is kept). */
  createSession(owner: Owner): string {
    return createSession(this.#maps, this.#wall, owner);
  }

  /** Ends the session stored under `key` ({@link sessionKey}); false when there was none. */
  deleteSession(key: string): boolean {
    return deleteSession(this.#maps, this.#wall, key);
  }

  /**
   * Records the use of a token ID until `until` (epoch seconds); false when the partner already
   * used it. Token IDs whose time is over are forgotten on the way.
   */
  useJti(partnerID: string, jti: string, until: number, now = nowSeconds()): boolean {
    return useJti(this.#maps, this.#wall, partnerID, jti, until, now);
  }

  // --- idempotency keys of start requests ---

  /**
   * Runs `start` once per idempotency key of the account: the first time, `start` makes the request
   * and its answer is kept with the key for 24 hours (saved in the same transaction as what `start`
   * saved, so two requests with one key make one job); later, the kept answer is returned
   * (`replayed`). `fingerprint` ({@link fingerprint}) tells the same request from another one.
   *
   * @throws {InvalidParameterError} `idempotency_key_reused` when the key was used with another body.
   */
  idempotent<T extends Record<string, unknown>>(
    owner: Owner,
    key: string,
    fingerprint: string,
    start: () => T,
    now = nowSeconds(),
  ): { result: T; replayed: boolean } {
    return idempotent(this.#maps, this.#wall, { owner, key, fingerprint, start, now });
  }

  /** Forgets the idempotency keys whose 24 hours are over at `now` (epoch seconds); how many. */
  pruneIdempotencyKeys(now = nowSeconds()): number {
    return pruneIdempotencyKeys(this.#maps, this.#wall, now);
  }

  /** How many idempotency keys are kept (for the tests). */
  get idempotencyKeyCount(): number {
    return this.#maps.idempotencyKeys.size;
  }

  // --- the shared job queue ---

  /**
   * Adds a job of the shared queue (jobs/queue.ts: pg-boss's own insert) to the current
   * transaction, so that it commits with the record it works on, or not at all.
   *
   * @throws {InvalidStateError} on a database that has no shared queue (SQLite, memory).
   */
  queueJob(insert: { sql: string; values: unknown[] }): void {
    const db = this.#wall.db;
    if (!db?.putQueued) throw new InvalidStateError('queueJob: the store has no shared job queue.');
    this.#wall.shared(() => {
      if (this.#wall.closed) return;
      if (this.#wall.stale) throw storageError(db, new Error('the database cannot be reached'));
      db.putQueued?.(insert);
    });
  }

  // --- the webhook outbox ---

  /** Webhook deliveries not over yet (those a previous run left included), oldest first. */
  deliveries(): DeliveryRecord[] {
    return [...this.#maps.outbox.values()];
  }

  /** Saves a delivery before it is tried, or its new count of tries. */
  saveDelivery(delivery: DeliveryRecord): void {
    this.#wall.shared(() => {
      this.#wall.refuseRemoved(delivery.partnerID);
      this.#wall.write({ kind: 'delivery', key: delivery.id }, (db) => db.putDelivery(delivery));
      this.#maps.outbox.set(delivery.id, delivery);
    });
  }

  /** Removes a delivery that is over (delivered, or given up). */
  removeDelivery(id: string): void {
    this.#wall.shared(() => {
      if (!this.#maps.outbox.has(id)) return;
      this.#wall.write({ kind: 'delivery', key: id }, (db) => db.deleteDelivery(id));
      this.#maps.outbox.delete(id);
    });
  }

  // --- the event log ---

  /**
   * Keeps a webhook event in the partner's log (with the change that made it, in its transaction),
   * forgetting the events older than `EVENT_RETENTION_DAYS` days on the way.
   */
  appendEvent(partnerID: string, event: WebhookEvent): void {
    this.#wall.shared(() => {
      this.#wall.refuseRemoved(partnerID);
      const record = { seq: this.#maps.events.nextSeq(), partnerID, event };
      const since = eventsSince();
      this.#wall.write({ kind: 'event', key: String(record.seq) }, (db) => db.putEvent(record, since));
      this.#maps.events.prune(since);
      this.#maps.events.add(record);
    });
  }

  /** Up to `limit` of the partner's events after the cursor `after` (0: from the oldest kept). */
  events(partnerID: string, after: number, limit: number): EventLogPage {
    return this.#maps.events.page(partnerID, after, limit);
  }

  /**
   * The partner's logged event with this ID, unless it is older than `EVENT_RETENTION_DAYS`
   * days (another partner's event is not found).
   */
  findEvent(partnerID: string, id: string): WebhookEvent | undefined {
    const event = this.#maps.events.find(partnerID, id);
    return event && event.createdAt >= eventsSince() ? event : undefined;
  }

  /** How many events the log keeps (for the tests). */
  get eventCount(): number {
    return this.#maps.events.size;
  }

  // --- a partner's records, all at once (sandboxes) ---

  /**
   * How many of the partner's searches, generations and renders have not ended (their jobs run or
   * wait), not counting the record whose key is `except` (the one being started).
   */
  unfinishedOf(partnerID: string, except?: string): number {
    return this.#maps.unfinishedOf(partnerID, except);
  }

  /** The partner IDs that have records (accounts, sessions, jobs, deliveries, events…). */
  partnerIDs(): Set<string> {
    return this.#maps.partnerIDs();
  }

  /**
   * Removes every record of the partner (a sandbox's reset or expiry): its accounts, sessions,
   * topics, generations, videos, used token IDs, idempotency keys, outbox and event log, in one
   * transaction of the data file. From then on nothing of the partner's is written: a job still
   * holding one of its records saves nothing, and a new record is refused. Returns the session keys
   * (to end their streams) and the videos' and topics' IDs (to remove their files, media/files.ts).
   *
   * @throws {DataFileError} when the data file refuses the removal (then nothing is removed).
   */
  removePartner(partnerID: string): RemovedPartner {
    if (this.#wall.current) throw new InvalidStateError('removePartner: not within a transaction.');
    const db = this.#wall.db;
    if (db && !this.#wall.closed) {
      try {
        db.removePartner(partnerID);
      } catch (error) {
        throw db.isDatabaseError(error) ? storageError(db, error) : error;
      }
    }
    this.#maps.sandboxes.delete(partnerID);
    return this.#maps.forgetPartner(partnerID);
  }

  // --- the records of a database several processes share: shared.ts ---

  /** Whether sandboxes are records of the database (shared.ts). */
  get sharesSandboxes(): boolean {
    return this.#remote.sharesSandboxes;
  }

  /** Calls `listener` when another process makes or ends a sandbox (shared.ts). Returns the unsubscribe. */
  followSandboxes(listener: SandboxListener): () => void {
    return this.#remote.followSandboxes(listener);
  }

  /** Saves a new sandbox, so that every process serves it (shared.ts). */
  addSandbox(record: SandboxRecord): void {
    this.#remote.addSandbox(record);
  }

  /** Ends a sandbox kept in the database, and every record of it (shared.ts); undefined when it was gone. */
  endSandbox(partnerID: string, how: SandboxEnd): RemovedPartner | undefined {
    return this.#remote.endSandbox(partnerID, how);
  }

  /** Whether forced outcomes are records of the database (shared.ts). */
  get sharesOutcomes(): boolean {
    return this.#remote.sharesOutcomes;
  }

  /** Saves a forced outcome of the test controls, queued after every one committed before it (shared.ts). */
  queueOutcome(record: OutcomeRecord): void {
    this.#remote.queueOutcome(record);
  }

  /** Takes the first queued outcome that `matches`, in the transaction that queues its job (shared.ts). */
  takeOutcome(matches: (record: Readonly<OutcomeRecord>) => boolean): OutcomeRecord | undefined {
    return this.#remote.takeOutcome(matches);
  }

  /** Removes the partner's queued outcomes (none given: every partner's), telling the others (shared.ts). */
  releaseOutcomes(partnerID: string | undefined): number {
    return this.#remote.releaseOutcomes(partnerID);
  }

  /** Calls `listener` with the partner ID of each release another process committed (shared.ts). */
  onRelease(listener: (partnerID: string | undefined) => void): () => void {
    return this.#remote.onRelease(listener);
  }

  /** Whether the partner's records were removed ({@link removePartner}): nothing of theirs is written. */
  removed(partnerID: string): boolean {
    return this.#maps.removedPartners.has(partnerID);
  }

  // --- owned records: another partner's or account's record is reported as missing ---

  /** The account's video, or a `video_not_found` error (owned.ts). */
  ownedVideo(owner: Owner, id: string): Readonly<VideoRecord> {
    return ownedVideo(this.videos, owner, id);
  }

  /** The account's topic, or a `topic_not_found` error (owned.ts). */
  ownedTopic(owner: Owner, id: string): Readonly<TopicRecord> {
    return ownedTopic(this.topics, owner, id);
  }

  /** The account's generation, or a `generation_not_found` error (owned.ts). */
  ownedGeneration(owner: Owner, requestId: string): Readonly<GenerationRecord> {
    return ownedGeneration(this.generations, owner, requestId);
  }

  /** Every record of a collection that belongs to the account, newest first. */
  ownedBy<T extends Owner & { createdAt: string }>(collection: ReadonlyMap<string, T>, owner: Owner): T[] {
    return ownedBy(collection, owner);
  }

  /**
   * Closes the data file (its WAL is folded into it) and gives up its lock. Idempotent. The store
   * stays readable; changes after this are not saved (the next run resumes from the file).
   */
  async close(): Promise<void> {
    if (this.#wall.closed) return;
    this.#wall.close();
    this.#listeners.clear();
    this.#remote.clear();
    try {
      this.#wall.db?.close();
    } finally {
      this.#lock?.release();
    }
  }

  /**
   * Reads what other processes committed since the last read (a shared database; nothing
   * otherwise): before a request is answered, so that it sees what another process acknowledged.
   */
  refresh(): void {
    this.#wall.refresh();
  }
}

/** The key a change's record is stored under. */
function keyOf(change: Change): string {
  return change.kind === 'generation' ? change.record.requestId : change.record.id;
}
