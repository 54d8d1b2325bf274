/**
 * One process per data file. A service holds `FILE.lock` (its pid, created atomically) while it
 * runs; a second service on the same file is refused, naming the process. A lock whose process is
 * gone (killed, crashed) is stale: the next service takes it over. The database itself is opened in
 * SQLite's exclusive locking mode, a second guard the operating system releases when the process
 * dies (see database.ts).
 */
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { DataFileError } from './errors.js';

/** A held lock. */
export interface Lock {
  /** The lock file. */
  readonly path: string;
  /** The process of a stale lock that was taken over, if any. */
  readonly tookOverFrom: number | undefined;
  /** Gives the lock up (idempotent). */
  release(): void;
}

/** Takes the lock of data file `file`, or throws a {@link DataFileError} naming its holder. */
export function lockDataFile(file: string): Lock {
  const path = `${file}.lock`;
  const mine = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() });
  // Written whole under a name of its own, then linked: a lock file is never seen half-written.
  const temp = `${path}.${process.pid}.tmp`;
  let tookOverFrom: number | undefined;
  try {
    // O_EXCL: a file (or a planted symbolic link) already under the temporary name is removed, not
    // written through.
    rmSync(temp, { force: true });
    writeFileSync(temp, `${mine}\n`, { mode: 0o600, flag: 'wx' });
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
      }
      const holder = lockHolder(path);
      if (holder !== undefined && isRunning(holder)) throw inUse(file, holder);
      // Stale: its process is gone. Removed and tried again (a racing starter is stopped by SQLite's lock).
      tookOverFrom = holder;
      unlinkSync(path);
    }
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(`Cannot lock the data file ${file} (${(error as Error).message}).`, { cause: error });
  } finally {
    rmSync(temp, { force: true });
  }
  let held = true;
  return {
    path,
    tookOverFrom,
    release() {
      if (!held) return;
      held = false;
      // Only our own lock is removed (a stale one may have been taken over by someone else since).
      if (lockHolder(path) === process.pid) unlinkSync(path);
    },
  };
}

/** The refusal of a data file that another process holds. */
export function inUse(file: string, pid: number | undefined): DataFileError {
  const who = pid === undefined ? 'another process' : `another process (pid ${pid})`;
  return new DataFileError(
    `The data file ${file} is in use by ${who}: one service per data file. Stop that service, or choose another --data file.`,
  );
}

/** The pid a lock file names, or undefined when it is missing or unreadable. */
export function lockHolder(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (EPERM: it does, but is someone else's). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
