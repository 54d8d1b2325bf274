/**
 * The PostgreSQL database's schema (postgres.ts): its migrations, in order, each a list of
 * statements. postgres.ts runs those the database has not run yet, at start, under an advisory
 * lock; the schema version is how many have run.
 */
import { randomBytes } from 'node:crypto';
import type { Statement } from './postgres-connection.js';

export interface Migration {
  /** What it does, for the reader. */
  name: string;
  up: () => Statement[];
}

/** In order: a database at schema version n has run the first n. */
export const MIGRATIONS: readonly Migration[] = [
  {
    name: 'one table per kind, the event log and its cursor key (the SQLite schema 1 to 4 in one)',
    up: () => [
      {
        sql: `
        CREATE TABLE video_plugin.accounts (
          id text PRIMARY KEY,
          partner_id text NOT NULL,
          external_id text,
          record text NOT NULL,
          ord bigserial
        );
        CREATE UNIQUE INDEX accounts_by_external_id ON video_plugin.accounts (partner_id, external_id)
          WHERE external_id IS NOT NULL;
        CREATE TABLE video_plugin.sessions (
          token_hash text PRIMARY KEY,
          partner_id text NOT NULL,
          account_id text NOT NULL,
          created_at text NOT NULL,
          ord bigserial
        );
        CREATE TABLE video_plugin.topics (
          id text PRIMARY KEY,
          partner_id text NOT NULL,
          account_id text NOT NULL,
          status text NOT NULL,
          record text NOT NULL,
          ord bigserial
        );
        CREATE TABLE video_plugin.generations (
          request_id text PRIMARY KEY,
          partner_id text NOT NULL,
          account_id text NOT NULL,
          video_id text NOT NULL,
          status text NOT NULL,
          record text NOT NULL,
          ord bigserial
        );
        CREATE TABLE video_plugin.videos (
          id text PRIMARY KEY,
          partner_id text NOT NULL,
          account_id text NOT NULL,
          record text NOT NULL,
          ord bigserial
        );
        CREATE TABLE video_plugin.used_jtis (
          partner_id text NOT NULL,
          jti text NOT NULL,
          expires_at double precision NOT NULL,
          PRIMARY KEY (partner_id, jti)
        );
        CREATE INDEX used_jtis_by_expiry ON video_plugin.used_jtis (expires_at);
        CREATE TABLE video_plugin.webhook_outbox (
          id text PRIMARY KEY,
          partner_id text NOT NULL,
          url text NOT NULL,
          attempts integer NOT NULL,
          created_at text NOT NULL,
          event text NOT NULL,
          ord bigserial
        );
        CREATE TABLE video_plugin.idempotency_keys (
          partner_id text NOT NULL,
          account_id text NOT NULL,
          key text NOT NULL,
          fingerprint text NOT NULL,
          result text NOT NULL,
          expires_at double precision NOT NULL,
          PRIMARY KEY (partner_id, account_id, key)
        );
        CREATE INDEX idempotency_keys_by_expiry ON video_plugin.idempotency_keys (expires_at);
        CREATE TABLE video_plugin.events (
          seq bigint PRIMARY KEY,
          id text NOT NULL UNIQUE,
          partner_id text NOT NULL,
          created_at text NOT NULL,
          event text NOT NULL
        );
        CREATE INDEX events_by_partner ON video_plugin.events (partner_id, seq);
        CREATE INDEX events_by_age ON video_plugin.events (created_at);
        CREATE TABLE video_plugin.settings (
          name text PRIMARY KEY,
          value text NOT NULL
        );`,
      },
      // A new database never gave plain cursors: sealed ones only (cursors.ts).
      {
        sql: `INSERT INTO video_plugin.settings (name, value) VALUES ('event_cursor_key', $1), ('plain_event_cursors_until', '0')`,
        values: [randomBytes(32).toString('base64')],
      },
    ],
  },
  {
    name: 'the changes of every process, in commit order (what the others read)',
    up: () => [
      {
        sql: `
        CREATE TABLE video_plugin.changes (
          position bigserial PRIMARY KEY,
          kind text NOT NULL,
          key text NOT NULL,
          record text,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX changes_by_age ON video_plugin.changes (created_at);`,
      },
    ],
  },
  {
    name: 'the sandboxes, with their secrets: every process serves each of them',
    up: () => [
      {
        sql: `
        CREATE TABLE video_plugin.sandboxes (
          partner_id text PRIMARY KEY,
          expires_at double precision NOT NULL,
          record text NOT NULL
        );`,
      },
    ],
  },
  {
    name: 'how far the changes were removed: a process that had not read up to there reads every record again',
    up: () => [
      {
        sql: `
        CREATE TABLE video_plugin.changes_removed (position bigint NOT NULL);
        INSERT INTO video_plugin.changes_removed (position) VALUES (0);`,
      },
    ],
  },
  {
    name: "the test controls' forced outcomes waiting for their job: queued on any process, taken by the job any of them queues",
    up: () => [
      {
        sql: `
        CREATE TABLE video_plugin.test_outcomes (
          id text PRIMARY KEY,
          partner_id text NOT NULL,
          record text NOT NULL,
          ord bigserial
        );`,
      },
    ],
  },
];

/** The schema version this code writes (the number of migrations). */
export const SCHEMA_VERSION = MIGRATIONS.length;
