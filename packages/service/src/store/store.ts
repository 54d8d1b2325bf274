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
 * This file is the wall: the transaction, `#write` and `#restore` (which puts a row back as the
 * file has it) stay private here, and every write goes through them. Beside it: the Maps and what
 * changes them all at once (maps.ts, held privately by the store), the records only a database
 * several processes share keeps and the changes the other processes committed (shared.ts, which
 * writes through the steps of the wall the store hands it), the SQL (database.ts, postgres.ts), the
 * records and their types (records.ts), the status order (status.ts), the IDs (ids.ts), the event
 * log (events.ts). */
import { randomBytes } from 'node:crypto';
import {
  EVENT_RETENTION_DAYS,
  type WebhookEvent,
  InvalidParameterError,
  InvalidStateError,
  NotFoundError,
  AccountAlreadyExistsError,
  NotAuthenticatedError,
} from 'video-plugin/internal';
import { Database } from './database.js';
import type { Driver, Kind } from './driver.js';
import { DataFileError, notOurs, storageError } from './errors.js';
import { EventCursors, type EventLogPage } from './events.js';
import { CursorSeal } from '../cursors.js';
import { nowISO, sessionKey } from './ids.js';
import { importLegacyFile, sniff } from './legacy.js';
import { lockDataFile, type Lock } from './lock.js';
import { StoreMaps, type RemovedPartner } from './maps.js';
import { SharedRecords, type SandboxListener } from './shared.js';
import { isFinal, moved } from './status.js';
import type {
  AccountRecord,
  Change,
  DeliveryRecord,
  GenerationRecord,
  IdempotencyRecord,
  OutcomeRecord,
  Owner,
  Patch,
  RecordRef,
  RenderRecord,
  SandboxEnd,
  SandboxRecord,
  SessionRecord,
  Snapshot,
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

const nowSeconds = (): number => Date.now() / 1000;

/** The oldest creation time (ISO 8601) the event log keeps now. */
const eventsSince = (): string => new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();

/** How long an idempotency key is kept, in seconds: 24 hours. */
export const IDEMPOTENCY_KEY_SECONDS = 24 * 60 * 60;

/** A row a write touched: what to read back from the file when the write does not hold. */
interface Touch {
  kind: Kind;
  key: string;
}

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
  readonly #db: Driver | undefined;
  readonly #lock: Lock | undefined;
  /** The records and listeners of a database several processes share (shared.ts). */
  readonly #remote: SharedRecords;
  #transaction: { touched: Touch[]; after: (() => void)[]; taken?: Set<string> } | undefined;
  #closed = false;
  /**
   * A failed write could not be undone by reading its rows back (the database was unreachable):
   * the Maps may hold what was never saved, until {@link #resync} reads them all again. Until then
   * every write is refused, and a timer tries again every 250 ms (never within a write or a
   * transaction, whose records it would replace under them).
   */
  #stale: ReturnType<typeof setInterval> | undefined;
  #eventCursors = new EventCursors(new CursorSeal(randomBytes(32)), 0);

  private constructor(db?: Driver, lock?: Lock) {
    this.#db = db;
    this.#lock = lock;
    this.#remote = new SharedRecords(this.#maps, db, {
      shared: (fn) => this.#shared(fn),
      afterCommit: (fn) => this.afterCommit(fn),
      transaction: () => this.#transaction,
      stale: () => this.#stale !== undefined,
      refuseRemoved: (partnerID) => this.#refuseRemoved(partnerID),
      changed: (change) => {
        for (const listener of this.#listeners) listener(change);
      },
    });
  }

  /**
   * Opens the store. Without a file the data lives in memory. With one: takes the file's lock (one
   * process per file), imports a 0.1 JSON data file, opens the database and reads it all.
   *
   * @throws {DataFileError} when the file is in use, not a data file of this service, or unreadable.
   */
  static async open(file?: string, database?: string): Promise<Store> {
    if (database !== undefined) return Store.#openPostgres(database);
    if (file === undefined) return new Store();
    const lock = lockDataFile(file);
    try {
      if (lock.tookOverFrom !== undefined) {
        console.warn(
          `video-plugin-service: took over the lock of ${file} from process ${lock.tookOverFrom}, which is no longer running.`,
        );
      }
      const kind = sniff(file);
      if (kind === 'other') throw notOurs(file);
      if (kind === 'json') console.log(`video-plugin-service: ${importLegacyFile(file, nowSeconds())}`);
      const db = Database.open(file);
      const store = new Store(db, lock);
      try {
        store.#read(db);
      } catch (error) {
        db.close();
        throw new DataFileError(`Cannot read the data file ${file} (${(error as Error).message}).`, { cause: error });
      }
      return store;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /**
   * Opens the store on a PostgreSQL database: migrates and claims it (postgres.ts), then reads it all.
   *
   * @throws {DataFileError} when it cannot be reached (DatabaseUnreachableError), is in use, or is newer.
   */
  static async #openPostgres(url: string): Promise<Store> {
    const { PostgresDatabase } = await import('./postgres.js');
    const db = await PostgresDatabase.open(url);
    const store = new Store(db);
    db.follow((changes) => store.#remote.applyRemote(changes));
    try {
      store.#read(db);
    } catch (error) {
      db.close();
      throw new DataFileError(`Cannot read the database ${db.label} (${(error as Error).message}).`, { cause: error });
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
    return this.#db instanceof Database ? this.#db.file : undefined;
  }

  /** Where the data is kept, for the log: the data file, the database URL without its password, or undefined (memory). */
  get location(): string | undefined {
    return this.#db?.label;
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
    if (this.#transaction || !this.#db) return fn();
    this.#catchUp();
    const transaction = { touched: [] as Touch[], after: [] as (() => void)[] };
    this.#transaction = transaction;
    let result: T;
    try {
      result = this.#db.transaction(fn);
    } catch (error) {
      for (const touch of transaction.touched.reverse()) this.#restore(touch);
      throw this.#db.isDatabaseError(error) ? storageError(this.#db, error) : error;
    } finally {
      this.#transaction = undefined;
    }
    for (const run of transaction.after) run();
    return result;
  }

  /** Runs `fn` once the current transaction is committed (at once outside of one); not if it fails. */
  afterCommit(fn: () => void): void {
    if (this.#transaction) this.#transaction.after.push(fn);
    else fn();
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
    this.#shared(() => {
      this.#refuseRemoved(change.record.partnerID);
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
    this.#shared(() => {
      const change = ref as Change;
      if (this.#maps.dropped.has(change.record) || this.#maps.removedPartners.has(change.record.partnerID)) return;
      const key = keyOf(change);
      const map = this.#maps.map(change.kind);
      const record = (map.get(key) ?? change.record) as Change['record'];
      Object.assign(record, patch, stamp ? { updatedAt: nowISO() } : {});
      const saved = { kind: change.kind, record } as Change;
      this.#write({ kind: change.kind, key }, (db) => {
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

  // --- accounts and sessions ---

  /** Adds an account; refuses an externalID the partner already uses. */
  addAccount(account: AccountRecord): void {
    this.#shared(() => {
      this.#refuseRemoved(account.partnerID);
      const key = account.externalID === undefined ? undefined : `${account.partnerID}\n${account.externalID}`;
      if (key !== undefined && this.#maps.accountByExternalID.has(key)) {
        throw new AccountAlreadyExistsError(
          `An account with externalID "${account.externalID}" already exists for partner "${account.partnerID}". Log in with loginAccount instead, or use another externalID.`,
          { externalID: account.externalID },
        );
      }
      this.#write({ kind: 'account', key: account.id }, (db) => db.putAccount(account));
      this.#maps.setAccount(account);
    });
  }

  /** Replaces a stored account (same ID and externalID) by its new version. */
  saveAccount(account: AccountRecord): void {
    this.#shared(() => {
      this.#refuseRemoved(account.partnerID);
      const current = this.#maps.accounts.get(account.id);
      if (!current || current.externalID !== account.externalID || current.partnerID !== account.partnerID) {
        throw new InvalidStateError(`saveAccount: account "${account.id}" is not stored as given.`);
      }
      this.#write({ kind: 'account', key: account.id }, (db) => db.putAccount(account));
      this.#maps.setAccount(account);
    });
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
    return this.#shared(() => {
      this.#refuseRemoved(owner.partnerID);
      const token = randomBytes(32).toString('base64url');
      const key = sessionKey(token);
      const session: SessionRecord = { partnerID: owner.partnerID, accountID: owner.accountID, createdAt: nowISO() };
      this.#write({ kind: 'session', key }, (db) => db.putSession(key, session));
      this.#maps.sessions.set(key, session);
      return token;
    });
  }

  /** Ends the session stored under `key` ({@link sessionKey}); false when there was none. */
  deleteSession(key: string): boolean {
    return this.#shared(() => {
      if (!this.#maps.sessions.has(key)) return false;
      this.#write({ kind: 'session', key }, (db) => db.deleteSession(key));
      return this.#maps.sessions.delete(key);
    });
  }

  /**
   * Records the use of a token ID until `until` (epoch seconds); false when the partner already
   * used it. Token IDs whose time is over are forgotten on the way.
   */
  useJti(partnerID: string, jti: string, until: number, now = nowSeconds()): boolean {
    return this.#shared(() => {
      this.#refuseRemoved(partnerID);
      for (const [used, expiry] of this.#maps.usedJtis) if (expiry < now) this.#maps.usedJtis.delete(used);
      const key = `${partnerID}\n${jti}`;
      if (this.#maps.usedJtis.has(key)) return false;
      this.#write({ kind: 'jti', key }, (db) => db.useJti(partnerID, jti, until, now));
      this.#maps.usedJtis.set(key, until);
      return true;
    });
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
    this.#refuseRemoved(owner.partnerID);
    return this.transaction(() => {
      this.pruneIdempotencyKeys(now);
      const mapKey = `${owner.partnerID}\n${owner.accountID}\n${key}`;
      const stored = this.#maps.idempotencyKeys.get(mapKey);
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
      this.#write({ kind: 'idempotency', key: mapKey }, (db) => db.putIdempotencyKey(record));
      this.#maps.idempotencyKeys.set(mapKey, record);
      return { result, replayed: false };
    });
  }

  /** Forgets the idempotency keys whose 24 hours are over at `now` (epoch seconds); how many. */
  pruneIdempotencyKeys(now = nowSeconds()): number {
    let pruned = 0;
    for (const [mapKey, record] of this.#maps.idempotencyKeys) {
      if (record.expiresAt > now) continue;
      this.#maps.idempotencyKeys.delete(mapKey);
      pruned++;
    }
    // Also those a previous run left in the file (they are not read at open).
    this.#write({ kind: 'idempotency', key: '' }, (db) => db.pruneIdempotencyKeys(now));
    return pruned;
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
    const db = this.#db;
    if (!db?.putQueued) throw new InvalidStateError('queueJob: the store has no shared job queue.');
    this.#shared(() => {
      if (this.#closed) return;
      if (this.#stale) throw storageError(db, new Error('the database cannot be reached'));
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
    this.#shared(() => {
      this.#refuseRemoved(delivery.partnerID);
      this.#write({ kind: 'delivery', key: delivery.id }, (db) => db.putDelivery(delivery));
      this.#maps.outbox.set(delivery.id, delivery);
    });
  }

  /** Removes a delivery that is over (delivered, or given up). */
  removeDelivery(id: string): void {
    this.#shared(() => {
      if (!this.#maps.outbox.has(id)) return;
      this.#write({ kind: 'delivery', key: id }, (db) => db.deleteDelivery(id));
      this.#maps.outbox.delete(id);
    });
  }

  // --- the event log ---

  /**
   * Keeps a webhook event in the partner's log (with the change that made it, in its transaction),
   * forgetting the events older than {@link EVENT_RETENTION_DAYS} days on the way.
   */
  appendEvent(partnerID: string, event: WebhookEvent): void {
    this.#shared(() => {
      this.#refuseRemoved(partnerID);
      const record = { seq: this.#maps.events.nextSeq(), partnerID, event };
      const since = eventsSince();
      this.#write({ kind: 'event', key: String(record.seq) }, (db) => db.putEvent(record, since));
      this.#maps.events.prune(since);
      this.#maps.events.add(record);
    });
  }

  /** Up to `limit` of the partner's events after the cursor `after` (0: from the oldest kept). */
  events(partnerID: string, after: number, limit: number): EventLogPage {
    return this.#maps.events.page(partnerID, after, limit);
  }

  /**
   * The partner's logged event with this ID, unless it is older than {@link EVENT_RETENTION_DAYS}
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
    if (this.#transaction) throw new InvalidStateError('removePartner: not within a transaction.');
    const db = this.#db;
    if (db && !this.#closed) {
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

  /** Whether sandboxes are records of the database, served by every process that shares it. */
  get sharesSandboxes(): boolean {
    return this.#remote.sharesSandboxes;
  }

  /** Calls `listener` when another process makes or ends a sandbox (a shared database). Returns the unsubscribe. */
  followSandboxes(listener: SandboxListener): () => void {
    return this.#remote.followSandboxes(listener);
  }

  /**
   * Saves a new sandbox, so that every process serves it. Within a transaction (which on a shared
   * database first reads the others' commits under their common lock), a count of
   * {@link sandboxes} made before it in the same transaction still holds at its commit.
   *
   * @throws {InvalidStateError} when sandboxes are no records here (a data file, memory).
   */
  addSandbox(record: SandboxRecord): void {
    this.#remote.addSandbox(record);
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
    return this.#remote.endSandbox(partnerID, how);
  }

  /** Whether forced outcomes are records of the database, taken by the jobs of every process that shares it. */
  get sharesOutcomes(): boolean {
    return this.#remote.sharesOutcomes;
  }

  /**
   * Saves a forced outcome of the test controls, queued after every one committed before it (by any process).
   *
   * @throws {InvalidStateError} when outcomes are no records here (a data file, memory).
   */
  queueOutcome(record: OutcomeRecord): void {
    this.#remote.queueOutcome(record);
  }

  /**
   * Takes the first queued outcome that `matches`, in the transaction that queues its job: that
   * transaction has read every process's commits under their common lock, so each outcome is taken
   * once, by the first job queued after it, and is gone only if the job commits.
   */
  takeOutcome(matches: (record: Readonly<OutcomeRecord>) => boolean): OutcomeRecord | undefined {
    return this.#remote.takeOutcome(matches);
  }

  /**
   * Removes the partner's queued outcomes (none given: every partner's), and tells the other
   * processes, whose {@link onRelease} listeners let go of their stalled jobs. How many were queued.
   */
  releaseOutcomes(partnerID: string | undefined): number {
    return this.#remote.releaseOutcomes(partnerID);
  }

  /**
   * Calls `listener` with the partner ID (undefined: every partner) of each release of the test
   * controls that another process committed. Returns the unsubscribe.
   */
  onRelease(listener: (partnerID: string | undefined) => void): () => void {
    return this.#remote.onRelease(listener);
  }

  /** Whether the partner's records were removed ({@link removePartner}): nothing of theirs is written. */
  removed(partnerID: string): boolean {
    return this.#maps.removedPartners.has(partnerID);
  }

  // --- owned records: another partner's or account's record is reported as missing ---

  /** The account's video, or a `video_not_found` error. */
  ownedVideo(owner: Owner, id: string): Readonly<VideoRecord> {
    const video = this.videos.get(id);
    if (video && isOwner(video, owner)) return video;
    throw new NotFoundError('video_not_found', `No video "${id}" on this account.`, { videoId: id });
  }

  /** The account's topic, or a `topic_not_found` error. */
  ownedTopic(owner: Owner, id: string): Readonly<TopicRecord> {
    const topic = this.topics.get(id);
    if (topic && isOwner(topic, owner)) return topic;
    throw new NotFoundError(
      'topic_not_found',
      `No topic "${id}" on this account. Use a topicId returned by startTopicSearch for this account.`,
      { topicId: id },
    );
  }

  /** The account's generation, or a `generation_not_found` error. */
  ownedGeneration(owner: Owner, requestId: string): Readonly<GenerationRecord> {
    const generation = this.generations.get(requestId);
    if (generation && isOwner(generation, owner)) return generation;
    throw new NotFoundError(
      'generation_not_found',
      `No video generation "${requestId}" on this account. Use a requestId returned by startVideoGeneration.`,
      { requestId },
    );
  }

  /** Every record of a collection that belongs to the account, newest first. */
  ownedBy<T extends Owner & { createdAt: string }>(collection: ReadonlyMap<string, T>, owner: Owner): T[] {
    return [...collection.values()]
      .filter((record) => isOwner(record, owner))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  /**
   * Closes the data file (its WAL is folded into it) and gives up its lock. Idempotent. The store
   * stays readable; changes after this are not saved (the next run resumes from the file).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    this.#remote.clear();
    clearInterval(this.#stale);
    try {
      this.#db?.close();
    } finally {
      this.#lock?.release();
    }
  }

  /**
   * Writes one row with `write`. A failure outside a transaction reads the row back (the Maps then
   * match the file) and throws the storage error; inside one, the transaction does both.
   */
  #write(touch: Touch, write: (db: Driver) => void): void {
    const db = this.#db;
    if (!db || this.#closed) return;
    // Refused until the timer has read the records again: a write now could build on one never saved.
    if (this.#stale) throw storageError(db, new Error('the database cannot be reached'));
    this.#transaction?.touched.push(touch);
    try {
      write(db);
    } catch (error) {
      if (!this.#transaction) this.#restore(touch);
      throw db.isDatabaseError(error) ? storageError(db, error) : error;
    }
  }

  /** Puts a row's in-memory copy back as the file has it (after a write that did not hold). */
  #restore({ kind, key }: Touch): void {
    let stored: unknown;
    try {
      stored = this.#db?.get(kind, key);
    } catch (error) {
      if (!this.#stale) {
        console.error(
          `video-plugin-service: cannot read back ${kind} ${key} after a failed write (${(error as Error).message}); the records are read again once the database answers.`,
        );
        this.#markStale();
      }
      return;
    }
    this.#maps.apply(kind, key, stored);
  }

  /** Refuses writes until {@link #resync} has read every record again, which a timer tries every 250 ms. */
  #markStale(): void {
    this.#stale = setInterval(() => {
      try {
        this.#resync();
      } catch {
        // Still unreachable: the next tick tries again.
      }
    }, 250);
    this.#stale.unref();
  }

  /**
   * A shared database whose changes were removed before this process read them (it read none for
   * longer than they are kept): every record is read again now, before anything builds on them.
   */
  #catchUp(): void {
    if (!this.#db?.behind || this.#stale) return;
    console.warn(
      'video-plugin-service: changes of the other processes were removed before this one read them; reading every record again.',
    );
    this.#markStale();
    try {
      this.#resync(true);
    } catch {
      // Unreachable: writes are refused until the timer has read them.
    }
  }

  /**
   * Reads what other processes committed since the last read (a shared database; nothing
   * otherwise): before a request is answered, so that it sees what another process acknowledged.
   */
  refresh(): void {
    if (this.#transaction || this.#closed || this.#stale) return;
    try {
      this.#db?.refresh?.();
    } catch {
      // Unreachable now: the reads go on from memory, and the next write says so.
    }
    this.#catchUp();
  }

  /**
  /**
   * Reads every record from the database again, after an outage left the Maps unsure: records the
   * jobs hold keep their identity (their fields are replaced), those never saved are dropped.
   *
   * @throws the storage error when the database is still unreachable (nothing is changed then).
   */
  #resync(caughtUp = false): void {
    const db = this.#db;
    if (!db || !this.#stale) return;
    let snapshot: Snapshot;
    let events: Set<number>;
    try {
      snapshot = db.load(nowSeconds());
      events = new Set(db.loadEvents(eventsSince()).map((record) => record.seq));
    } catch (error) {
      throw db.isDatabaseError(error) ? storageError(db, error) : error;
    }
    clearInterval(this.#stale);
    this.#stale = undefined;
    this.#remote.reload(snapshot, events);
    if (!caughtUp) console.error('video-plugin-service: the database answers again; its records were read again.');
  }

  /**
   * Runs a write so that, on a database several processes share, it checks and changes the
   * current state: in a transaction, which first reads what the others committed (under the write
   * lock, postgres.ts). Alone otherwise, as before.
   */
  #shared<T>(fn: () => T): T {
    return this.#db?.follow ? this.transaction(fn) : fn();
  }

  /** Refuses a new record of a partner whose records were removed (a request that raced its sandbox's end). */
  #refuseRemoved(partnerID: string): void {
    if (!this.#maps.removedPartners.has(partnerID)) return;
    throw new NotAuthenticatedError(
      'sandbox_expired',
      `The sandbox "${partnerID}" has ended: its records are removed and nothing more of it is kept. Create a new sandbox.`,
      { partnerID },
    );
  }
}

/** The key a change's record is stored under. */
function keyOf(change: Change): string {
  return change.kind === 'generation' ? change.record.requestId : change.record.id;
}

function isOwner(record: Owner, owner: Owner): boolean {
  return record.partnerID === owner.partnerID && record.accountID === owner.accountID;
}
