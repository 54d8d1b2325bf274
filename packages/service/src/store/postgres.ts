/**
 * The store's database on PostgreSQL (`--database postgres://…`), the same driver as the SQLite data
 * file (driver.ts): every call is synchronous and a write is committed when it returns, so the
 * store's wall and every caller stay as they are. The connection lives in a worker thread
 * (postgres-worker.ts); each call posts its statements there and waits, on a shared signal, for the
 * answer — the same wait a synchronous SQLite write makes for its disk (postgres-connection.ts).
 *
 * The tables are in their own schema, `video_plugin` (the database may hold others, pg-boss's
 * `pgboss` among them). Migrations (postgres-schema.ts) run at start under an advisory lock, so two
 * processes starting together migrate once; a schema newer than this code is refused.
 *
 * Several processes share one database. Each keeps the records in memory (the store's Maps), so
 * each write transaction first takes one advisory lock, shared by every process, and reads the
 * changes the others committed since its last (`changes`, a table with a position per row, the
 * record's JSON in it): the store checks and writes on the current state, and positions commit in
 * their order. Every write adds its rows to `changes` in its own transaction and notifies
 * `video_plugin_changes`; the other processes read them then (LISTEN), and before each request.
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
import { DataFileError } from './errors.js';
import type { EventRecord } from './events.js';
import { PARTNER_TABLES, type Driver, type Kind, type RemoteChange } from './driver.js';
import { Connection, PostgresError, type Statement } from './postgres-connection.js';
import { MIGRATIONS, type Migration } from './postgres-schema.js';

export { PostgresError } from './postgres-connection.js';
export { SCHEMA_VERSION } from './postgres-schema.js';

/** The first key of the service's advisory locks ("VPS1"); the second says which lock. */
export const LOCK_SPACE = 0x56505331;
const MIGRATION_LOCK = 1;
/** Taken by each write transaction (exported for the tests that hold it to line two up). */
export const WRITE_LOCK = 2;

/** The channel a commit notifies: the other processes read `changes` when told. */
const CHANNEL = 'video_plugin_changes';

/** How long a change is kept for a process to read it: one away for longer reads everything again. */
const CHANGES_KEPT = '1 hour';

/** The database refused a database URL it cannot reach at start: the command exits with status 2. */
export class DatabaseUnreachableError extends DataFileError {
  override readonly name = 'DatabaseUnreachableError';
}

/**
 * A database URL as it may be printed: without its password (and without any query, which may
 * carry one). Throws on a URL that is not `postgres://` or `postgresql://`.
 */
export function databaseLabel(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new TypeError(`not a postgres:// URL`);
  }
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
  return `postgres://${user}${parsed.host}${parsed.pathname}`;
}

const SQL = {
  putAccount: `INSERT INTO accounts (id, partner_id, external_id, record) VALUES ($1, $2, $3, $4)
    ON CONFLICT (id) DO UPDATE SET partner_id = excluded.partner_id, external_id = excluded.external_id, record = excluded.record`,
  putSession: `INSERT INTO sessions (token_hash, partner_id, account_id, created_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (token_hash) DO UPDATE SET partner_id = excluded.partner_id, account_id = excluded.account_id, created_at = excluded.created_at`,
  deleteSession: `DELETE FROM sessions WHERE token_hash = $1`,
  putTopic: `INSERT INTO topics (id, partner_id, account_id, status, record) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (id) DO UPDATE SET status = excluded.status, record = excluded.record`,
  putGeneration: `INSERT INTO generations (request_id, partner_id, account_id, video_id, status, record) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (request_id) DO UPDATE SET status = excluded.status, record = excluded.record`,
  putVideo: `INSERT INTO videos (id, partner_id, account_id, record) VALUES ($1, $2, $3, $4)
    ON CONFLICT (id) DO UPDATE SET record = excluded.record`,
  putJti: `INSERT INTO used_jtis (partner_id, jti, expires_at) VALUES ($1, $2, $3)`,
  pruneJtis: `DELETE FROM used_jtis WHERE expires_at < $1`,
  putDelivery: `INSERT INTO webhook_outbox (id, partner_id, url, attempts, created_at, event) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (id) DO UPDATE SET attempts = excluded.attempts`,
  deleteDelivery: `DELETE FROM webhook_outbox WHERE id = $1`,
  putIdempotencyKey: `INSERT INTO idempotency_keys (partner_id, account_id, key, fingerprint, result, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
  pruneIdempotencyKeys: `DELETE FROM idempotency_keys WHERE expires_at <= $1`,
  putEvent: `INSERT INTO events (seq, id, partner_id, created_at, event) VALUES ($1, $2, $3, $4, $5)`,
  pruneEvents: `DELETE FROM events WHERE created_at < $1`,
  putSandbox: `INSERT INTO sandboxes (partner_id, expires_at, record) VALUES ($1, $2, $3)`,
  deleteSandbox: `DELETE FROM sandboxes WHERE partner_id = $1`,
  putOutcome: `INSERT INTO test_outcomes (id, partner_id, record) VALUES ($1, $2, $3)`,
  deleteOutcome: `DELETE FROM test_outcomes WHERE id = $1`,
  deleteOutcomes: `DELETE FROM test_outcomes WHERE partner_id = $1 OR $1 = ''`,
} as const;

/** How one row of each kind is read back by its key (to undo a change that was not saved): SQL, and the key's parts. */
const GET: Record<Kind, string> = {
  account: `SELECT record FROM accounts WHERE id = $1`,
  session: `SELECT json_build_object('partnerID', partner_id, 'accountID', account_id, 'createdAt', created_at)::text AS record FROM sessions WHERE token_hash = $1`,
  topic: `SELECT record FROM topics WHERE id = $1`,
  generation: `SELECT record FROM generations WHERE request_id = $1`,
  video: `SELECT record FROM videos WHERE id = $1`,
  jti: `SELECT expires_at AS record FROM used_jtis WHERE partner_id = $1 AND jti = $2`,
  delivery: `SELECT json_build_object('id', id, 'partnerID', partner_id, 'url', url, 'attempts', attempts, 'createdAt', created_at, 'event', event::json)::text AS record FROM webhook_outbox WHERE id = $1`,
  idempotency: `SELECT json_build_object('partnerID', partner_id, 'accountID', account_id, 'key', key, 'fingerprint', fingerprint, 'result', result::json, 'expiresAt', expires_at)::text AS record FROM idempotency_keys WHERE partner_id = $1 AND account_id = $2 AND key = $3`,
  event: `SELECT event AS record FROM events WHERE seq = $1`,
};

/**
 * The changes committed after a position, in order; and, as a row without a kind, how far the
 * changes were removed when that is past the position (rows this process never read are gone).
 */
const CHANGES_SINCE = `SELECT position, kind, key, record FROM changes WHERE position > $1
  UNION ALL SELECT position, NULL, NULL, NULL FROM changes_removed WHERE position > $1
  ORDER BY position`;
/** The last position: what a process that has read every record goes on from. */
const LAST_POSITION = `SELECT greatest((SELECT coalesce(max(position), 0) FROM changes), (SELECT position FROM changes_removed)) AS last`;

/** The parts of a composite key (`partnerID \n jti`, `partnerID \n accountID \n key`). */
const keyParts = (kind: Kind, key: string): unknown[] =>
  kind === 'jti' || kind === 'idempotency' ? key.split('\n') : kind === 'event' ? [Number(key)] : [key];

/** The service's records in a PostgreSQL database. */
export class PostgresDatabase implements Driver {
  readonly label: string;
  readonly medium = 'database';
  readonly #connection: Connection;
  /** The statements of the transaction being run, sent together when it ends. */
  #batch: Statement[] | undefined;
  #closed = false;
  /** The position in `changes` up to which this process has read (its own commits included). */
  #position = 0;
  /** Changes this process had not read were removed: it must read every record again ({@link behind}). */
  #missed = false;
  /** Told the changes other processes committed, in order (the store applies them to its Maps). */
  #follower: ((changes: RemoteChange[]) => void) | undefined;
  /** The connection that LISTENs (the pg client, on this thread: it only wakes {@link refresh}). */
  #listener: import('pg').Client | undefined;
  #listenRetry: ReturnType<typeof setTimeout> | undefined;
  #commits = 0;

  private constructor(label: string, connection: Connection) {
    this.label = label;
    this.#connection = connection;
  }

  /**
   * Connects to the database at `url`, brings its schema up to date (under an advisory lock: one
   * process migrates, the others wait and find it done) and listens for the others' changes.
   *
   * @throws {DatabaseUnreachableError} when the server cannot be reached (its host named, never the password).
   * @throws {DataFileError} when its schema is newer than this code.
   */
  static async open(url: string): Promise<PostgresDatabase> {
    const label = databaseLabel(url);
    const connection = await Connection.start(url);
    const db = new PostgresDatabase(label, connection);
    try {
      try {
        connection.run([{ sql: 'SELECT 1' }]);
      } catch (error) {
        const host = new URL(url).host;
        const reason = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
        throw new DatabaseUnreachableError(
          `Cannot reach the database at ${label} (${reason}). Start PostgreSQL on ${host}, or check --database (VIDEO_PLUGIN_DATABASE_URL).`,
          { cause: error },
        );
      }
      db.#migrate();
      // From here on, what the others commit is read from this position.
      db.#position = Number(connection.run([{ sql: LAST_POSITION }])[0]?.[0]?.last);
      await db.#listen(url);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  #migrate(): void {
    const run = (statements: Statement[]) => this.#connection.run(statements);
    run([{ sql: 'SELECT pg_advisory_lock($1, $2)', values: [LOCK_SPACE, MIGRATION_LOCK] }]);
    try {
      run([
        { sql: 'CREATE SCHEMA IF NOT EXISTS video_plugin' },
        { sql: 'CREATE TABLE IF NOT EXISTS video_plugin.schema_version (version integer NOT NULL)' },
        {
          sql: 'INSERT INTO video_plugin.schema_version (version) SELECT 0 WHERE NOT EXISTS (SELECT FROM video_plugin.schema_version)',
        },
      ]);
      const [rows] = run([{ sql: 'SELECT version FROM video_plugin.schema_version' }]);
      const version = Number(rows?.[0]?.version ?? 0);
      if (version > MIGRATIONS.length) {
        throw new DataFileError(
          `The database ${this.label} was written by a newer video-plugin-service (schema version ${version}; this one knows up to ${MIGRATIONS.length}). Run that version, or give this one another database.`,
        );
      }
      for (let next = version; next < MIGRATIONS.length; next++) {
        run([
          ...(MIGRATIONS[next] as Migration).up(),
          { sql: 'UPDATE video_plugin.schema_version SET version = $1', values: [next + 1] },
        ]);
      }
    } finally {
      run([{ sql: 'SELECT pg_advisory_unlock($1, $2)', values: [LOCK_SPACE, MIGRATION_LOCK] }]);
    }
  }

  isDatabaseError(error: unknown): boolean {
    return error instanceof PostgresError;
  }

  /** Runs one statement now, or as part of the transaction being run; its rows (none in a transaction). */
  #run(sql: string, ...values: unknown[]): Record<string, unknown>[] {
    if (this.#closed) throw new PostgresError('the database connection is closed', 'VP_CLOSED', true);
    if (this.#batch) {
      this.#batch.push({ sql, values });
      return [];
    }
    return this.#connection.run([{ sql, values }])[0] ?? [];
  }

  /**
   * One write transaction: takes the write lock (every process's writes, one after another), reads
   * the changes committed since this process's last and hands them to the store, runs `fn` (whose
   * writes are collected), then sends them with their rows of `changes` and commits.
   */
  transaction<T>(fn: () => T): T {
    if (this.#batch) return fn();
    if (this.#closed) throw new PostgresError('the database connection is closed', 'VP_CLOSED', true);
    const [, changes] = this.#connection.request({
      open: [
        { sql: 'SELECT pg_advisory_xact_lock($1, $2)', values: [LOCK_SPACE, WRITE_LOCK] },
        { sql: CHANGES_SINCE, values: [this.#position] },
      ],
    });
    this.#take(changes ?? []);
    if (this.#missed) {
      // The records in memory may lack what was removed: nothing is decided on them until they are read again.
      this.#connection.request({ rollback: true });
      throw new PostgresError(
        'changes of the other processes were removed before this process read them',
        'VP_BEHIND',
        false,
      );
    }
    this.#batch = [];
    let batch: Statement[];
    let result: T;
    try {
      result = fn();
      batch = this.#batch;
    } catch (error) {
      this.#batch = undefined;
      try {
        this.#connection.request({ rollback: true });
      } catch {
        // The connection is gone: the server rolled the transaction back.
      }
      throw error;
    }
    this.#batch = undefined;
    if (batch.length === 0) {
      this.#connection.request({ rollback: true });
      return result;
    }
    if (++this.#commits % 100 === 0) {
      batch.push({
        sql: `WITH gone AS (DELETE FROM changes WHERE created_at < now() - interval '${CHANGES_KEPT}' RETURNING position)
          UPDATE changes_removed SET position = greatest(position, (SELECT coalesce(max(position), 0) FROM gone))`,
      });
    }
    batch.push({ sql: 'SELECT pg_notify($1, $2)', values: [CHANNEL, String(process.pid)] });
    const results = this.#connection.request({ commit: batch });
    for (const rows of results) {
      const position = rows[0]?.position;
      if (position !== undefined) this.#position = Math.max(this.#position, Number(position));
    }
    return result;
  }

  /** Calls `apply` with the changes other processes commit, in their order. */
  follow(apply: (changes: RemoteChange[]) => void): void {
    this.#follower = apply;
  }

  /**
   * Reads the changes other processes committed since the last read, now (between two writes:
   * never inside a transaction, which reads them itself under its lock).
   */
  refresh(): void {
    if (this.#batch || this.#closed) return;
    this.#take(this.#run(CHANGES_SINCE, this.#position));
  }

  /**
   * True when changes the others committed were removed before this process read them (it read
   * none for longer than they are kept, {@link CHANGES_KEPT}): the store reads every record again.
   */
  get behind(): boolean {
    return this.#missed;
  }

  #take(rows: Record<string, unknown>[]): void {
    if (this.#missed) return;
    if (rows.some((row) => row.kind === null)) {
      this.#missed = true;
      return;
    }
    if (rows.length === 0) return;
    const changes = rows.map((row) => ({
      kind: row.kind as RemoteChange['kind'],
      key: row.key as string,
      record: row.record === null ? undefined : JSON.parse(row.record as string),
    }));
    this.#position = Number(rows.at(-1)?.position);
    this.#follower?.(changes);
  }

  /** LISTENs for the others' commits on a connection of its own, and connects it again when lost. */
  async #listen(url: string): Promise<void> {
    const { default: pg } = await import('pg');
    const listener = new pg.Client({ connectionString: url, application_name: 'video-plugin-service listener' });
    const retry = () => {
      if (this.#closed || this.#listener !== listener) return;
      this.#listener = undefined;
      void listener.end().catch(() => undefined);
      this.#listenRetry = setTimeout(() => void this.#listen(url).catch(retry), 1000);
      this.#listenRetry.unref();
    };
    listener.on('error', retry);
    listener.on('end', retry);
    listener.on('notification', () => {
      // Coalesced: many commits told at once are read in one go.
      if (this.#refreshing) return;
      this.#refreshing = true;
      setImmediate(() => {
        this.#refreshing = false;
        try {
          this.refresh();
        } catch {
          // Unreachable for now: the next commit's lock, or the next notification, reads them.
        }
      });
    });
    this.#listener = listener;
    try {
      await listener.connect();
      await listener.query(`LISTEN ${CHANNEL}`);
      // Whatever was committed while not listening.
      this.refresh();
    } catch (error) {
      retry();
      if (!this.#position) throw error;
    }
  }

  #refreshing = false;

  load(nowSeconds: number): Snapshot {
    // The records read next hold every change up to here at least; the changes after it are read next.
    const [last] = this.#run(LAST_POSITION);
    this.#position = Math.max(this.#position, Number(last?.last ?? 0));
    this.#missed = false;
    const records = <T>(table: string): T[] =>
      this.#run(`SELECT record FROM ${table} ORDER BY ord`).map((row) => JSON.parse(row.record as string) as T);
    const sessions = this.#run('SELECT token_hash, partner_id, account_id, created_at FROM sessions ORDER BY ord');
    const jtis = this.#run('SELECT partner_id, jti, expires_at FROM used_jtis WHERE expires_at >= $1', nowSeconds);
    const outbox = this.#run(
      'SELECT id, partner_id, url, attempts, created_at, event FROM webhook_outbox ORDER BY created_at, ord',
    );
    const keys = this.#run(
      'SELECT partner_id, account_id, key, fingerprint, result, expires_at FROM idempotency_keys WHERE expires_at > $1',
      nowSeconds,
    );
    // The column is the expiry that holds (an operator may end one sooner by setting it).
    const sandboxes = this.#run('SELECT expires_at, record FROM sandboxes ORDER BY partner_id').map(
      (row): SandboxRecord => ({
        ...(JSON.parse(row.record as string) as SandboxRecord),
        expiresAt: Number(row.expires_at),
      }),
    );
    return {
      sandboxes,
      outcomes: records<OutcomeRecord>('test_outcomes'),
      idempotencyKeys: keys.map((row) => ({
        partnerID: row.partner_id as string,
        accountID: row.account_id as string,
        key: row.key as string,
        fingerprint: row.fingerprint as string,
        result: JSON.parse(row.result as string) as Record<string, unknown>,
        expiresAt: row.expires_at as number,
      })),
      accounts: records<AccountRecord>('accounts'),
      sessions: sessions.map((row) => [
        row.token_hash as string,
        {
          partnerID: row.partner_id as string,
          accountID: row.account_id as string,
          createdAt: row.created_at as string,
        },
      ]),
      topics: records<TopicRecord>('topics'),
      generations: records<GenerationRecord>('generations'),
      videos: records<VideoRecord>('videos'),
      usedJtis: jtis.map((row) => ({
        partnerID: row.partner_id as string,
        jti: row.jti as string,
        until: row.expires_at as number,
      })),
      outbox: outbox.map((row) => ({
        id: row.id as string,
        partnerID: row.partner_id as string,
        url: row.url as string,
        attempts: row.attempts as number,
        createdAt: row.created_at as string,
        event: JSON.parse(row.event as string) as DeliveryRecord['event'],
      })),
    };
  }

  get(kind: Kind, key: string): unknown {
    const value = this.#run(GET[kind], ...keyParts(kind, key))[0]?.record;
    return typeof value === 'string' ? JSON.parse(value) : value;
  }

  /**
   * Runs a write in a transaction (its own, or the one being run) with its row of `changes`: what
   * the other processes read (`record` undefined for a removal).
   */
  #write(kind: RemoteChange['kind'], key: string, record: unknown, statements: [string, ...unknown[]][]): void {
    this.transaction(() => {
      for (const [sql, ...values] of statements) this.#run(sql, ...values);
      this.#run(
        'INSERT INTO changes (kind, key, record) VALUES ($1, $2, $3) RETURNING position',
        kind,
        key,
        record === undefined ? null : JSON.stringify(record),
      );
    });
  }

  putAccount(account: AccountRecord): void {
    const { id, partnerID, externalID } = account;
    this.#write('account', id, account, [[SQL.putAccount, id, partnerID, externalID ?? null, JSON.stringify(account)]]);
  }

  putSession(key: string, session: SessionRecord): void {
    const { partnerID, accountID, createdAt } = session;
    this.#write('session', key, session, [[SQL.putSession, key, partnerID, accountID, createdAt]]);
  }

  deleteSession(key: string): void {
    this.#write('session', key, undefined, [[SQL.deleteSession, key]]);
  }

  putTopic(topic: TopicRecord): void {
    const { id, partnerID, accountID, status } = topic;
    this.#write('topic', id, topic, [[SQL.putTopic, id, partnerID, accountID, status, JSON.stringify(topic)]]);
  }

  putGeneration(generation: GenerationRecord): void {
    const { requestId, partnerID, accountID, videoId, status } = generation;
    this.#write('generation', requestId, generation, [
      [SQL.putGeneration, requestId, partnerID, accountID, videoId, status, JSON.stringify(generation)],
    ]);
  }

  putVideo(video: VideoRecord): void {
    const { id, partnerID, accountID } = video;
    this.#write('video', id, video, [[SQL.putVideo, id, partnerID, accountID, JSON.stringify(video)]]);
  }

  useJti(partnerID: string, jti: string, until: number, nowSeconds: number): void {
    this.#write('jti', `${partnerID}\n${jti}`, until, [
      [SQL.pruneJtis, nowSeconds],
      [SQL.putJti, partnerID, jti, until],
    ]);
  }

  putDelivery(delivery: DeliveryRecord): void {
    const { id, partnerID, url, attempts, createdAt, event } = delivery;
    this.#write('delivery', id, delivery, [
      [SQL.putDelivery, id, partnerID, url, attempts, createdAt, JSON.stringify(event)],
    ]);
  }

  deleteDelivery(id: string): void {
    this.#write('delivery', id, undefined, [[SQL.deleteDelivery, id]]);
  }

  putIdempotencyKey(record: IdempotencyRecord): void {
    const { partnerID, accountID, key, fingerprint, result, expiresAt } = record;
    this.#write('idempotency', `${partnerID}\n${accountID}\n${key}`, record, [
      [SQL.putIdempotencyKey, partnerID, accountID, key, fingerprint, JSON.stringify(result), expiresAt],
    ]);
  }

  pruneIdempotencyKeys(nowSeconds: number): void {
    this.#run(SQL.pruneIdempotencyKeys, nowSeconds);
  }

  putQueued(insert: { sql: string; values: unknown[] }): void {
    this.transaction(() => this.#run(insert.sql, ...insert.values));
  }

  putEvent(record: EventRecord, createdBefore: string): void {
    const { seq, partnerID, event } = record;
    this.#write('event', String(seq), record, [
      [SQL.pruneEvents, createdBefore],
      [SQL.putEvent, seq, event.id, partnerID, event.createdAt, JSON.stringify(event)],
    ]);
  }

  loadEvents(createdSince: string): EventRecord[] {
    return this.#run('SELECT seq, partner_id, event FROM events WHERE created_at >= $1 ORDER BY seq', createdSince).map(
      (row) => ({
        seq: Number(row.seq),
        partnerID: row.partner_id as string,
        event: JSON.parse(row.event as string) as EventRecord['event'],
      }),
    );
  }

  eventCursorSettings(): { key: Buffer; plainUntil: number } {
    const rows = this.#run('SELECT name, value FROM settings');
    const value = (name: string) => rows.find((row) => row.name === name)?.value as string | undefined;
    const key = Buffer.from(value('event_cursor_key') ?? '', 'base64');
    const plainUntil = Number(value('plain_event_cursors_until'));
    if (key.length !== 32 || !Number.isSafeInteger(plainUntil)) {
      throw new Error('its event cursor settings are missing or damaged');
    }
    return { key, plainUntil };
  }

  putSandbox(record: SandboxRecord): void {
    this.#write('sandbox', record.partnerID, record, [
      [SQL.putSandbox, record.partnerID, record.expiresAt, JSON.stringify(record)],
    ]);
  }

  removePartner(partnerID: string, ended?: SandboxEnd): void {
    this.#write('partner', partnerID, ended ? { ended } : undefined, [
      ...PARTNER_TABLES.map((table): [string, ...unknown[]] => [
        `DELETE FROM ${table} WHERE partner_id = $1`,
        partnerID,
      ]),
      [SQL.deleteSandbox, partnerID],
      [SQL.deleteOutcomes, partnerID],
    ]);
  }

  putOutcome(record: OutcomeRecord): void {
    this.#write('outcome', record.id, record, [[SQL.putOutcome, record.id, record.partnerID, JSON.stringify(record)]]);
  }

  deleteOutcome(id: string): void {
    this.#write('outcome', id, undefined, [[SQL.deleteOutcome, id]]);
  }

  releaseOutcomes(partnerID: string | undefined): void {
    this.#write('release', partnerID ?? '', undefined, [[SQL.deleteOutcomes, partnerID ?? '']]);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#listenRetry);
    void this.#listener?.end().catch(() => undefined);
    this.#listener = undefined;
    this.#connection.close();
  }
}
