// The tests' PostgreSQL server (support/postgres-server.ts), stopped and removed after the test
// file, with a new database per test and the starter of services on it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { ServiceOptions } from '../../src/config.js';
import type { RunningService } from '../../src/server.js';
import { startTestService } from './helpers.js';
import { launchPostgres, run } from './postgres-server.js';

export { postgresMissing } from './postgres-server.js';

export interface TestPostgres {
  /** `postgres://test@127.0.0.1:PORT/postgres` */
  readonly url: string;
  readonly port: number;
  /** A new empty database on the server; its URL. */
  database(name: string): Promise<string>;
  /**
   * A new database and a media folder of its own, and a starter of services on both (the test
   * service with `defaults`, then the options given to `start`): what the tests of several
   * services on one database begin with.
   */
  place(defaults?: ServiceOptions): Promise<Place>;
  /** Stops the server (fast: connections are cut), as a crash or an outage would. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
}

export interface Place {
  readonly database: string;
  readonly mediaDir: string;
  start(options?: ServiceOptions): Promise<RunningService>;
}

/** Starts a server for this test file; it is stopped and its folder removed after the file. */
export async function startPostgres(): Promise<TestPostgres> {
  const { port, stop, start, remove } = await launchPostgres();
  after(remove);
  const url = `postgres://test@127.0.0.1:${port}/postgres`;
  const database = async (name: string) => {
    await run('psql', [url, '-qc', `CREATE DATABASE "${name}"`]);
    return `postgres://test@127.0.0.1:${port}/${name}`;
  };
  const media = await mkdtemp(join(tmpdir(), 'video-plugin-pg-media-'));
  after(() => rm(media, { recursive: true, force: true, maxRetries: 5 }));
  let places = 0;
  return {
    url,
    port,
    database,
    async place(defaults = {}) {
      const name = `place_${++places}`;
      const placed = { database: await database(name), mediaDir: join(media, name) };
      return { ...placed, start: (options = {}) => startTestService({ ...placed, ...defaults, ...options }) };
    },
    stop,
    start,
  };
}
