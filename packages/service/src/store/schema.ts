/**
 * The database's schema, as an ordered list of migrations. `PRAGMA user_version` says how many have
 * run; each new one runs once, in its own transaction, at open. A migration is never edited once
 * released: a change to the schema is a new migration at the end of the list.
 *
 * Each kind has its table. The columns the database must check or find by (IDs, owner, the
 * partner's `externalID`, a token ID's expiry) are columns; the rest of a record is its JSON
 * (`record`), read back as it was written — a video's storyboard included.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { DataFileError } from './errors.js';

/** `PRAGMA application_id` of a video-plugin-service database ("VPS1"). */
export const APPLICATION_ID = 0x56505331;

interface Migration {
  /** What it does, for the reader. */
  name: string;
  up: (db: BetterSqlite3.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    name: 'one table per kind',
    up: (db) => {
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.exec(`
        CREATE TABLE accounts (
          id TEXT PRIMARY KEY,
          partner_id TEXT NOT NULL,
          external_id TEXT,
          record TEXT NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX accounts_by_external_id ON accounts (partner_id, external_id)
          WHERE external_id IS NOT NULL;
        CREATE TABLE sessions (
          token_hash TEXT PRIMARY KEY,
          partner_id TEXT NOT NULL,
          account_id TEXT NOT NULL,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE topics (
          id TEXT PRIMARY KEY,
          partner_id TEXT NOT NULL,
          account_id TEXT NOT NULL,
          status TEXT NOT NULL,
          record TEXT NOT NULL
        ) STRICT;
        CREATE TABLE generations (
          request_id TEXT PRIMARY KEY,
          partner_id TEXT NOT NULL,
          account_id TEXT NOT NULL,
          video_id TEXT NOT NULL,
          status TEXT NOT NULL,
          record TEXT NOT NULL
        ) STRICT;
        CREATE TABLE videos (
          id TEXT PRIMARY KEY,
          partner_id TEXT NOT NULL,
          account_id TEXT NOT NULL,
          record TEXT NOT NULL
        ) STRICT;
        CREATE TABLE used_jtis (
          partner_id TEXT NOT NULL,
          jti TEXT NOT NULL,
          expires_at REAL NOT NULL,
          PRIMARY KEY (partner_id, jti)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX used_jtis_by_expiry ON used_jtis (expires_at);
        CREATE TABLE webhook_outbox (
          id TEXT PRIMARY KEY,
          partner_id TEXT NOT NULL,
          url TEXT NOT NULL,
          attempts INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          event TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    name: 'idempotency keys of start requests',
    up: (db) => {
      db.exec(`
        CREATE TABLE idempotency_keys (
          partner_id TEXT NOT NULL,
          account_id TEXT NOT NULL,
          key TEXT NOT NULL,
          fingerprint TEXT NOT NULL,
          result TEXT NOT NULL,
          expires_at REAL NOT NULL,
          PRIMARY KEY (partner_id, account_id, key)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
      `);
    },
  },
  {
    name: 'the event log: every webhook event for 30 days, in order (seq is the cursor)',
    up: (db) => {
      db.exec(`
        CREATE TABLE events (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          partner_id TEXT NOT NULL,
          created_at TEXT NOT NULL,
          event TEXT NOT NULL
        ) STRICT;
        CREATE INDEX events_by_partner ON events (partner_id, seq);
        CREATE INDEX events_by_age ON events (created_at);
      `);
    },
  },
  {
    // The event log's cursors were its plain sequence numbers, which count every partner's events:
    // from now on they are sealed (cursors.ts) with this file's own key. The plain ones given
    // before stay valid up to the last event of the file at this upgrade, never beyond.
    name: 'sealed event log cursors: the key, and the last plain cursor',
    up: (db) => {
      db.exec(`
        CREATE TABLE settings (
          name TEXT PRIMARY KEY,
          value ANY NOT NULL
        ) STRICT, WITHOUT ROWID;
        INSERT INTO settings (name, value) VALUES
          ('event_cursor_key', randomblob(32)),
          ('plain_event_cursors_until', (SELECT coalesce(max(seq), 0) FROM events));
      `);
    },
  },
];

/**
 * Brings the database at `file` to the newest schema. Refuses a database of another program, and
 * one written by a newer service (whose schema this one does not know).
 */
export function migrate(db: BetterSqlite3.Database, file: string): void {
  const applicationID = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (applicationID !== APPLICATION_ID) {
    const { count } = db.prepare('SELECT count(*) AS count FROM sqlite_schema').get() as { count: number };
    if (applicationID !== 0 || count > 0) {
      throw new DataFileError(
        `The data file ${file} is an SQLite database of another program, not a video-plugin-service data file. Move it away or choose another --data file.`,
      );
    }
  }
  if (version > MIGRATIONS.length) {
    throw new DataFileError(
      `The data file ${file} was written by a newer video-plugin-service (schema version ${version}; this one knows up to ${MIGRATIONS.length}). Run that version, or choose another --data file.`,
    );
  }
  for (let next = version; next < MIGRATIONS.length; next++) {
    const migration = MIGRATIONS[next] as Migration;
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${next + 1}`);
    }).immediate();
  }
}
