/**
 * The data file: an SQLite database (better-sqlite3, synchronous). Every write is committed, and
 * with `synchronous = FULL` on the disk, when its call returns: a change the API acknowledged
 * survives a killed process. WAL journal; exclusive locking mode, so no other process (or
 * connection) can open the file while this one is open — the operating system drops that lock
 * when the process dies. Nothing outside the store sees SQL.
 */
import { chmodSync, closeSync, lstatSync, openSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import type {
  AccountRecord,
  DeliveryRecord,
  GenerationRecord,
  IdempotencyRecord,
  SessionRecord,
  Snapshot,
  TopicRecord,
  VideoRecord,
} from './records.js';
import { DataFileError, notOurs } from './errors.js';
import type { EventRecord } from './events.js';
import { inUse, lockHolder } from './lock.js';
import { migrate } from './schema.js';

import { PARTNER_TABLES, type Driver, type Kind } from './driver.js';

const SQL = {
  putAccount: `INSERT INTO accounts (id, partner_id, external_id, record) VALUES (?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET partner_id = excluded.partner_id, external_id = excluded.external_id, record = excluded.record`,
  putSession: `INSERT OR REPLACE INTO sessions (token_hash, partner_id, account_id, created_at) VALUES (?, ?, ?, ?)`,
  deleteSession: `DELETE FROM sessions WHERE token_hash = ?`,
  putTopic: `INSERT INTO topics (id, partner_id, account_id, status, record) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET status = excluded.status, record = excluded.record`,
  putGeneration: `INSERT INTO generations (request_id, partner_id, account_id, video_id, status, record) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (request_id) DO UPDATE SET status = excluded.status, record = excluded.record`,
  putVideo: `INSERT INTO videos (id, partner_id, account_id, record) VALUES (?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET record = excluded.record`,
  putJti: `INSERT INTO used_jtis (partner_id, jti, expires_at) VALUES (?, ?, ?)`,
  pruneJtis: `DELETE FROM used_jtis WHERE expires_at < ?`,
  putDelivery: `INSERT INTO webhook_outbox (id, partner_id, url, attempts, created_at, event) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET attempts = excluded.attempts`,
  deleteDelivery: `DELETE FROM webhook_outbox WHERE id = ?`,
  putIdempotencyKey: `INSERT INTO idempotency_keys (partner_id, account_id, key, fingerprint, result, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
  pruneIdempotencyKeys: `DELETE FROM idempotency_keys WHERE expires_at <= ?`,
  putEvent: `INSERT INTO events (seq, id, partner_id, created_at, event) VALUES (?, ?, ?, ?, ?)`,
  pruneEvents: `DELETE FROM events WHERE created_at < ?`,
} as const;

/** How one row of each kind is read back by its key (to undo a change that was not saved). */
const GET: Record<Kind, string> = {
  account: `SELECT record FROM accounts WHERE id = ?`,
  session: `SELECT json_object('partnerID', partner_id, 'accountID', account_id, 'createdAt', created_at) AS record FROM sessions WHERE token_hash = ?`,
  topic: `SELECT record FROM topics WHERE id = ?`,
  generation: `SELECT record FROM generations WHERE request_id = ?`,
  video: `SELECT record FROM videos WHERE id = ?`,
  jti: `SELECT expires_at AS record FROM used_jtis WHERE partner_id || char(10) || jti = ?`,
  delivery: `SELECT json_object('id', id, 'partnerID', partner_id, 'url', url, 'attempts', attempts, 'createdAt', created_at, 'event', json(event)) AS record FROM webhook_outbox WHERE id = ?`,
  idempotency: `SELECT json_object('partnerID', partner_id, 'accountID', account_id, 'key', key, 'fingerprint', fingerprint, 'result', json(result), 'expiresAt', expires_at) AS record FROM idempotency_keys WHERE partner_id || char(10) || account_id || char(10) || key = ?`,
  event: `SELECT event AS record FROM events WHERE seq = ?`,
};

/** The service's database file (the embedded default driver). */
export class Database implements Driver {
  readonly file: string;
  readonly medium = 'disk';
  readonly #db: BetterSqlite3.Database;
  readonly #statements: Record<keyof typeof SQL, BetterSqlite3.Statement>;
  readonly #get: Record<Kind, BetterSqlite3.Statement>;

  private constructor(file: string, db: BetterSqlite3.Database) {
    this.file = file;
    this.#db = db;
    this.#statements = Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<
      keyof typeof SQL,
      BetterSqlite3.Statement
    >;
    this.#get = Object.fromEntries(Object.entries(GET).map(([kind, sql]) => [kind, db.prepare(sql).pluck()])) as Record<
      Kind,
      BetterSqlite3.Statement
    >;
  }

  /**
   * Opens the database at `file` (creating it, readable by its owner only), takes its lock and
   * brings its schema up to date.
   *
   * @throws {DataFileError} when another process has it open, or it is not this service's database.
   */
  static open(file: string): Database {
    try {
      closeSync(openSync(file, 'wx', 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DataFileError(`Cannot create the data file ${file} (${(error as Error).message}).`, { cause: error });
      }
      // An existing file: never through a symbolic link (it could point at any file of this user),
      // and brought to owner-only if it was readable by others.
      const found = lstatSync(file);
      if (found.isSymbolicLink()) {
        throw new DataFileError(`The data file ${file} is a symbolic link: give the path of the file itself.`);
      }
      if (!found.isFile()) throw new DataFileError(`The data file ${file} is not a file.`);
      if ((found.mode & 0o077) !== 0) chmodSync(file, 0o600);
    }
    let db: BetterSqlite3.Database;
    try {
      // timeout 0: a file another process holds is refused at once, not waited for.
      db = new BetterSqlite3(file, { timeout: 0 });
    } catch (error) {
      throw new DataFileError(`Cannot open the data file ${file} (${(error as Error).message}).`, { cause: error });
    }
    try {
      // Set before the first access, so WAL needs no shared memory and the lock is held from now on.
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.exec('BEGIN IMMEDIATE; COMMIT');
      migrate(db, file);
      return new Database(file, db);
    } catch (error) {
      db.close();
      const code = (error as { code?: string }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') throw inUse(file, lockHolder(`${file}.lock`));
      if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw notOurs(file);
      if (error instanceof DataFileError) throw error;
      throw new DataFileError(`Cannot open the data file ${file} (${(error as Error).message}).`, { cause: error });
    }
  }

  get label(): string {
    return this.file;
  }

  /** An error of SQLite itself (as opposed to one thrown by our code inside a transaction). */
  isDatabaseError(error: unknown): boolean {
    return error instanceof BetterSqlite3.SqliteError;
  }

  /** Everything stored, token IDs and idempotency keys expired at `nowSeconds` excepted. */
  load(nowSeconds: number): Snapshot {
    const records = <T>(sql: string): T[] =>
      (this.#db.prepare(sql).pluck().all() as string[]).map((text) => JSON.parse(text) as T);
    const sessions = this.#db
      .prepare('SELECT token_hash AS key, partner_id, account_id, created_at FROM sessions ORDER BY rowid')
      .all() as { key: string; partner_id: string; account_id: string; created_at: string }[];
    const jtis = this.#db
      .prepare('SELECT partner_id, jti, expires_at FROM used_jtis WHERE expires_at >= ?')
      .all(nowSeconds) as { partner_id: string; jti: string; expires_at: number }[];
    const outbox = this.#db
      .prepare('SELECT id, partner_id, url, attempts, created_at, event FROM webhook_outbox ORDER BY created_at, rowid')
      .all() as { id: string; partner_id: string; url: string; attempts: number; created_at: string; event: string }[];
    const keys = this.#db
      .prepare(
        'SELECT partner_id, account_id, key, fingerprint, result, expires_at FROM idempotency_keys WHERE expires_at > ?',
      )
      .all(nowSeconds) as {
      partner_id: string;
      account_id: string;
      key: string;
      fingerprint: string;
      result: string;
      expires_at: number;
    }[];
    return {
      idempotencyKeys: keys.map((row) => ({
        partnerID: row.partner_id,
        accountID: row.account_id,
        key: row.key,
        fingerprint: row.fingerprint,
        result: JSON.parse(row.result) as Record<string, unknown>,
        expiresAt: row.expires_at,
      })),
      accounts: records<AccountRecord>('SELECT record FROM accounts ORDER BY rowid'),
      sessions: sessions.map((row) => [
        row.key,
        { partnerID: row.partner_id, accountID: row.account_id, createdAt: row.created_at },
      ]),
      topics: records<TopicRecord>('SELECT record FROM topics ORDER BY rowid'),
      generations: records<GenerationRecord>('SELECT record FROM generations ORDER BY rowid'),
      videos: records<VideoRecord>('SELECT record FROM videos ORDER BY rowid'),
      usedJtis: jtis.map((row) => ({ partnerID: row.partner_id, jti: row.jti, until: row.expires_at })),
      outbox: outbox.map((row) => ({
        id: row.id,
        partnerID: row.partner_id,
        url: row.url,
        attempts: row.attempts,
        createdAt: row.created_at,
        event: JSON.parse(row.event) as DeliveryRecord['event'],
      })),
    };
  }

  /** Writes a whole snapshot (the import of a 0.1 JSON data file), in one transaction. */
  import(snapshot: Snapshot): void {
    this.transaction(() => {
      for (const account of snapshot.accounts) this.putAccount(account);
      for (const [key, session] of snapshot.sessions) this.putSession(key, session);
      for (const topic of snapshot.topics) this.putTopic(topic);
      for (const generation of snapshot.generations) this.putGeneration(generation);
      for (const video of snapshot.videos) this.putVideo(video);
      for (const { partnerID, jti, until } of snapshot.usedJtis) this.#statements.putJti.run(partnerID, jti, until);
      for (const delivery of snapshot.outbox) this.putDelivery(delivery);
    });
  }

  /** Runs `fn` in one transaction: all its writes are committed together, or none. Nests. */
  transaction<T>(fn: () => T): T {
    return this.#db.inTransaction ? fn() : this.#db.transaction(fn).immediate();
  }

  /** The stored JSON of one row (a record, or a token ID's expiry), or undefined. */
  get(kind: Kind, key: string): unknown {
    const text = this.#get[kind].get(key) as string | number | undefined;
    return typeof text === 'string' ? JSON.parse(text) : text;
  }

  putAccount(account: AccountRecord): void {
    this.#statements.putAccount.run(account.id, account.partnerID, account.externalID ?? null, JSON.stringify(account));
  }

  putSession(key: string, session: SessionRecord): void {
    this.#statements.putSession.run(key, session.partnerID, session.accountID, session.createdAt);
  }

  deleteSession(key: string): void {
    this.#statements.deleteSession.run(key);
  }

  putTopic(topic: TopicRecord): void {
    const { id, partnerID, accountID, status } = topic;
    this.#statements.putTopic.run(id, partnerID, accountID, status, JSON.stringify(topic));
  }

  putGeneration(generation: GenerationRecord): void {
    const { requestId, partnerID, accountID, videoId, status } = generation;
    this.#statements.putGeneration.run(requestId, partnerID, accountID, videoId, status, JSON.stringify(generation));
  }

  putVideo(video: VideoRecord): void {
    this.#statements.putVideo.run(video.id, video.partnerID, video.accountID, JSON.stringify(video));
  }

  /** Remembers a used token ID until `until`, forgetting those expired before `nowSeconds`. */
  useJti(partnerID: string, jti: string, until: number, nowSeconds: number): void {
    this.transaction(() => {
      this.#statements.pruneJtis.run(nowSeconds);
      this.#statements.putJti.run(partnerID, jti, until);
    });
  }

  putDelivery(delivery: DeliveryRecord): void {
    const { id, partnerID, url, attempts, createdAt, event } = delivery;
    this.#statements.putDelivery.run(id, partnerID, url, attempts, createdAt, JSON.stringify(event));
  }

  deleteDelivery(id: string): void {
    this.#statements.deleteDelivery.run(id);
  }

  /** Saves a new idempotency key (the caller has checked it is not stored). */
  putIdempotencyKey(record: IdempotencyRecord): void {
    const { partnerID, accountID, key, fingerprint, result, expiresAt } = record;
    this.#statements.putIdempotencyKey.run(partnerID, accountID, key, fingerprint, JSON.stringify(result), expiresAt);
  }

  /** Forgets the idempotency keys whose time is over at `nowSeconds`. */
  pruneIdempotencyKeys(nowSeconds: number): void {
    this.#statements.pruneIdempotencyKeys.run(nowSeconds);
  }

  /** Appends an event to the log, forgetting those made before `createdBefore` (ISO 8601). */
  putEvent(record: EventRecord, createdBefore: string): void {
    const { seq, partnerID, event } = record;
    this.transaction(() => {
      this.#statements.pruneEvents.run(createdBefore);
      this.#statements.putEvent.run(seq, event.id, partnerID, event.createdAt, JSON.stringify(event));
    });
  }

  /** The event log, oldest first, from `createdSince` (ISO 8601). */
  loadEvents(createdSince: string): EventRecord[] {
    const rows = this.#db
      .prepare('SELECT seq, partner_id, event FROM events WHERE created_at >= ? ORDER BY seq')
      .all(createdSince) as { seq: number; partner_id: string; event: string }[];
    return rows.map((row) => ({
      seq: row.seq,
      partnerID: row.partner_id,
      event: JSON.parse(row.event) as EventRecord['event'],
    }));
  }

  /**
   * The event log's cursor key, and the last sequence number a plain cursor may name (the last
   * event when the file was upgraded to sealed cursors; schema.ts).
   */
  eventCursorSettings(): { key: Buffer; plainUntil: number } {
    const rows = this.#db.prepare('SELECT name, value FROM settings').all() as { name: string; value: unknown }[];
    const value = (name: string) => rows.find((row) => row.name === name)?.value;
    const key = value('event_cursor_key');
    const plainUntil = value('plain_event_cursors_until');
    if (!Buffer.isBuffer(key) || key.length !== 32 || typeof plainUntil !== 'number') {
      throw new Error('its event cursor settings are missing or damaged');
    }
    return { key, plainUntil };
  }

  /** Removes every row of the partner (a sandbox's reset), in every table, in one transaction. */
  removePartner(partnerID: string): void {
    this.transaction(() => {
      for (const table of PARTNER_TABLES) this.#db.prepare(`DELETE FROM ${table} WHERE partner_id = ?`).run(partnerID);
    });
  }

  /** Closes the file: the WAL is checkpointed into it and removed, and the lock released. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
