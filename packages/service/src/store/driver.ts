/**
 * What the store asks of its database, whichever engine holds it: SQLite in a data file
 * (database.ts, the default) or PostgreSQL (postgres.ts, `--database postgres://…`). Each call is
 * synchronous and a write is committed when it returns (outside a transaction) or when its
 * {@link Driver.transaction} returns: the store's wall — change, save, then tell — reads the same on
 * both. Nothing outside the store sees a driver.
 */
import type {
  AccountRecord,
  DeliveryRecord,
  GenerationRecord,
  IdempotencyRecord,
  OutcomeRecord,
  SandboxEnd,
  SandboxRecord,
  SessionRecord,
  Snapshot,
  TopicRecord,
  VideoRecord,
} from './records.js';
import type { EventRecord } from './events.js';

/** The kinds of rows, each in its table. */
export type Kind =
  'account' | 'session' | 'topic' | 'generation' | 'video' | 'jti' | 'delivery' | 'idempotency' | 'event';

/** The store's database. */
export interface Driver {
  /** Where the data is, for messages and the log: a file's path, or a database URL without its password. */
  readonly label: string;
  /** What an operator must look at when a write fails: the disk of a data file, or the database server. */
  readonly medium: 'disk' | 'database';
  /** Whether `error` came from the database itself (as opposed to our code inside a transaction). */
  isDatabaseError(error: unknown): boolean;
  /** Everything stored, token IDs and idempotency keys expired at `nowSeconds` excepted. */
  load(nowSeconds: number): Snapshot;
  /** Runs `fn` in one transaction: all its writes are committed together, or none. Nests. */
  transaction<T>(fn: () => T): T;
  /** The stored JSON of one row (a record, or a token ID's expiry), or undefined. */
  get(kind: Kind, key: string): unknown;
  putAccount(account: AccountRecord): void;
  putSession(key: string, session: SessionRecord): void;
  deleteSession(key: string): void;
  putTopic(topic: TopicRecord): void;
  putGeneration(generation: GenerationRecord): void;
  putVideo(video: VideoRecord): void;
  /** Remembers a used token ID until `until`, forgetting those expired before `nowSeconds`. */
  useJti(partnerID: string, jti: string, until: number, nowSeconds: number): void;
  putDelivery(delivery: DeliveryRecord): void;
  deleteDelivery(id: string): void;
  /** Saves a new idempotency key (the caller has checked it is not stored). */
  putIdempotencyKey(record: IdempotencyRecord): void;
  /** Forgets the idempotency keys whose time is over at `nowSeconds`. */
  pruneIdempotencyKeys(nowSeconds: number): void;
  /** Appends an event to the log, forgetting those made before `createdBefore` (ISO 8601). */
  putEvent(record: EventRecord, createdBefore: string): void;
  /** The event log, oldest first, from `createdSince` (ISO 8601). */
  loadEvents(createdSince: string): EventRecord[];
  /** The event log's cursor key, and the last sequence number a plain cursor may name. */
  eventCursorSettings(): { key: Buffer; plainUntil: number };
  /**
   * Removes every row of the partner (a sandbox's reset), in every table, in one transaction;
   * `ended` says how its sandbox ended, for the other processes of a shared database.
   */
  removePartner(partnerID: string, ended?: SandboxEnd): void;
  /** Ends the use of the database. Idempotent. */
  close(): void;
  /**
   * A database several processes share (PostgreSQL): `apply` is told what the others committed, in
   * order — at the start of each write transaction, under its lock, and when {@link refresh} reads.
   */
  follow?(apply: (changes: RemoteChange[]) => void): void;
  /** Reads what the other processes committed since the last read (not within a transaction). */
  refresh?(): void;
  /**
   * True when changes the others committed were removed before this process read them: the store
   * then reads every record again ({@link load}).
   */
  readonly behind?: boolean;
  /**
   * Saves a new sandbox, on a database several processes share (PostgreSQL): each of them serves
   * it. Elsewhere sandboxes live in the process's memory only.
   */
  putSandbox?(record: SandboxRecord): void;
  /** Runs a statement of the shared job queue's (pg-boss's insert) in the current transaction. */
  putQueued?(insert: { sql: string; values: unknown[] }): void;
  /** Saves a forced outcome of the test controls, on a database several processes share. */
  putOutcome?(record: OutcomeRecord): void;
  /** Removes a forced outcome its job took (in the transaction that queues the job). */
  deleteOutcome?(id: string): void;
  /**
   * Removes the partner's forced outcomes (none given: every partner's) and tells the other
   * processes to let go of the partner's stalled jobs (a `release` change).
   */
  releaseOutcomes?(partnerID: string | undefined): void;
}

/**
 * A row another process wrote (`record` undefined: removed), a sandbox it made (`sandbox`, the
 * record), a partner whose rows it removed (`partner`; the record `{ ended }` for a sandbox), a
 * forced outcome queued or taken (`outcome`), or a release of the test controls (`release`, keyed
 * by its partner ID, empty for every partner).
 */
export interface RemoteChange {
  kind: Kind | 'partner' | 'sandbox' | 'outcome' | 'release';
  key: string;
  record: unknown;
}

/** Every table with rows of a partner (each has a `partner_id` column), in both engines. */
export const PARTNER_TABLES = [
  'accounts',
  'sessions',
  'topics',
  'generations',
  'videos',
  'used_jtis',
  'webhook_outbox',
  'idempotency_keys',
  'events',
] as const;
