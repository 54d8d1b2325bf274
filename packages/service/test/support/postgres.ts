// A PostgreSQL server of the test's own: `initdb` into a temporary folder, started on a free port
// with its socket in that folder, stopped and removed after the test file. Debian's server
// programs (`apt-get install postgresql`, which .ci/run does where they are missing); `initdb`
// refuses to run as root, so as root the server runs as `nobody`, owning its folder.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { promisify } from 'node:util';
import { createServer } from 'node:net';
import type { ServiceOptions } from '../../src/config.js';
import type { RunningService } from '../../src/server.js';
import { startTestService } from './helpers.js';

const run = promisify(execFile);

/** A port that was free a moment ago (pg_ctl takes a number, not port 0). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** The folder of the server programs: on PATH, or Debian's /usr/lib/postgresql/<version>/bin. */
function serverBin(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const version of versions)
      if (existsSync(join(debian, version, 'bin', 'initdb'))) return join(debian, version, 'bin');
  }
  return undefined;
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  return serverBin() ? undefined : 'PostgreSQL server programs not installed (apt-get install postgresql)';
}

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
  const bin = serverBin();
  if (!bin) throw new Error(postgresMissing());
  const asRoot = process.getuid?.() === 0;
  // The server runs as `nobody`, which must reach its folder: a private TMPDIR (npm test gives each
  // run one, mode 0700) gets the others' search bit only (no listing), so its folder can be entered.
  if (asRoot) {
    const { mode } = await stat(tmpdir());
    if ((mode & 0o001) === 0) await chmod(tmpdir(), (mode & 0o7777) | 0o011);
  }
  const dir = await mkdtemp(join(tmpdir(), 'video-plugin-pg-'));
  if (asRoot) await chown(dir, 65534, 65534);
  const as = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'nobody', '--', join(bin, program), ...args]) : run(join(bin, program), args);
  const data = join(dir, 'data');
  await as('initdb', ['-D', data, '-U', 'test', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  };
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  after(async () => {
    // Stopped even when a test left it starting or stopping; the folder is removed once it has.
    await stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  });
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
