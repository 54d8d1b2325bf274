// A PostgreSQL server of its own for a test file or a benchmark: `initdb` into a temporary folder,
// started on a free port with its socket in that folder. Debian's server programs (`apt-get
// install postgresql`, which .ci/run does where they are missing); `initdb` refuses to run as
// root, so as root the server runs as `nobody`, owning its folder. No test runner's hooks here:
// support/postgres.ts registers the tests' clean-up, bench/fleet.mts does its own.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer } from 'node:net';

export const run = promisify(execFile);

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

/** A running server and its folder (its data, socket and log). */
export interface LaunchedPostgres {
  readonly port: number;
  readonly user: string;
  readonly dir: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it (when running) and removes its folder. */
  remove(): Promise<void>;
}

/**
 * Makes a server in a new temporary folder and starts it on a free port (the tests' and
 * bench/fleet.mts's). `fsync: false` for tests (nothing outlives them); a benchmark keeps it on,
 * for figures of a database that keeps what it acknowledged.
 */
export async function launchPostgres({ fsync = false, user = 'test' } = {}): Promise<LaunchedPostgres> {
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
  await as('initdb', ['-D', data, '-U', user, '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=${fsync ? 'on' : 'off'} -c max_connections=200`;
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  };
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  return {
    port,
    user,
    dir,
    stop,
    start,
    async remove() {
      // Stopped even when it was left starting or stopping; the folder is removed once it has.
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
