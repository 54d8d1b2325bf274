/**
 * What a data file is before it is opened: an SQLite database (this service's), a JSON data file of
 * video-plugin-service 0.1 (imported into a new database, the JSON kept beside as a backup), or
 * something else (refused, left untouched).
 */
import {
  closeSync,
  constants,
  copyFileSync,
  fsyncSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Database } from './database.js';
import { DataFileError, notOurs } from './errors.js';
import type { AccountRecord, GenerationRecord, Snapshot, TopicRecord, VideoRecord } from './records.js';

/** What lies at a data file's path. */
export type FileKind = 'missing' | 'sqlite' | 'json' | 'other';

const SQLITE_HEADER = 'SQLite format 3\0';

/** Reads the start of `file` to tell what it is. An empty file is a new database (as SQLite sees it). */
export function sniff(file: string): FileKind {
  let fd: number;
  try {
    if (statSync(file).isDirectory()) {
      throw new DataFileError(`The data file ${file} is a folder. Give --data the path of a file.`);
    }
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(`Cannot read the data file ${file} (${(error as Error).message}).`, { cause: error });
  }
  try {
    const head = Buffer.alloc(512);
    const length = readSync(fd, head, 0, head.length, 0);
    if (length === 0) return 'sqlite';
    if (head.subarray(0, SQLITE_HEADER.length).toString('latin1') === SQLITE_HEADER) return 'sqlite';
    return head.subarray(0, length).toString('utf8').trimStart().startsWith('{') ? 'json' : 'other';
  } finally {
    closeSync(fd);
  }
}

/**
 * Imports the 0.1 JSON data file at `file`: a new database is written beside it, the JSON is copied
 * to a backup, then the database is renamed over `file` — a crash at any point leaves either the
 * JSON file or the whole database, never half of one. Returns what happened, for the log.
 *
 * @throws {DataFileError} when the JSON is not a readable 0.1 data file (the file is left untouched).
 */
export function importLegacyFile(file: string, nowSeconds: number): string {
  const snapshot = readLegacyFile(file, nowSeconds);
  const temp = `${file}.importing-${process.pid}`;
  const removeTemp = () => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${temp}${suffix}`, { force: true });
  };
  // An import killed before its end left its temporary database: under the lock, it is stale.
  const prefix = `${basename(file)}.importing-`;
  for (const name of readdirSync(dirname(file))) {
    if (name.startsWith(prefix)) rmSync(join(dirname(file), name), { force: true });
  }
  let backup: string;
  try {
    const db = Database.open(temp);
    try {
      db.import(snapshot);
    } finally {
      db.close();
    }
    backup = backUpLegacyFile(file);
    renameSync(temp, file);
    syncPath(file, true);
  } catch (error) {
    removeTemp();
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(
      `Cannot import the 0.1 data file ${file} (${(error as Error).message}); it was left as it was.`,
      {
        cause: error,
      },
    );
  }
  const counts = [
    `${snapshot.accounts.length} accounts`,
    `${snapshot.sessions.length} sessions`,
    `${snapshot.topics.length} topics`,
    `${snapshot.generations.length} generations`,
    `${snapshot.videos.length} videos`,
    `${snapshot.usedJtis.length} unexpired token IDs`,
  ];
  return `imported the JSON data file ${file} (video-plugin-service 0.1) into an SQLite database at the same path: ${counts.join(', ')}. The JSON file is kept as ${backup}.`;
}

/**
 * Reads a 0.1 JSON data file (`{ format: 'video-plugin-service', version: 1, … }`) into a snapshot.
 * Expired token IDs are left out. Throws a {@link DataFileError} saying what is wrong otherwise.
 */
export function readLegacyFile(file: string, nowSeconds: number): Snapshot {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new DataFileError(
      `The data file ${file} looks like a JSON data file of video-plugin-service 0.1 but cannot be read (${(error as Error).message}); it was left untouched. Repair it from a backup, or move it away to start with no data.`,
      { cause: error },
    );
  }
  if (data === null || typeof data !== 'object' || data.format !== 'video-plugin-service') throw notOurs(file);
  if (data.version !== 1) {
    throw new DataFileError(
      `The data file ${file} is a JSON data file of version ${JSON.stringify(data.version)}, which this service cannot import (it imports version 1, from video-plugin-service 0.1); it was left untouched.`,
    );
  }
  const list = <T>(field: string, valid: (item: T) => boolean): T[] => {
    const value = data[field];
    if (!Array.isArray(value) || !value.every((item) => valid(item as T))) {
      throw new DataFileError(
        `The data file ${file} is a 0.1 data file whose "${field}" is unreadable (not a list of records); it was left untouched. Repair it from a backup, or move it away to start with no data.`,
      );
    }
    return value as T[];
  };
  const hasID = (key: string) => (item: unknown) =>
    item !== null && typeof item === 'object' && typeof (item as Record<string, unknown>)[key] === 'string';
  const pair = (item: unknown) => Array.isArray(item) && item.length === 2 && typeof item[0] === 'string';
  return {
    accounts: list<AccountRecord>('accounts', hasID('id')),
    sessions: list<Snapshot['sessions'][number]>('sessions', (item) => pair(item) && hasID('accountID')(item[1])),
    topics: list<TopicRecord>('topics', hasID('id')),
    generations: list<GenerationRecord>('generations', hasID('requestId')),
    videos: list<VideoRecord>('videos', hasID('id')),
    usedJtis: list<[string, number]>('usedJtis', (item) => pair(item) && typeof item[1] === 'number')
      .filter(([, until]) => until >= nowSeconds)
      .map(([key, until]) => {
        const cut = key.indexOf('\n');
        return { partnerID: key.slice(0, cut), jti: key.slice(cut + 1), until };
      }),
    outbox: [],
  };
}

/**
 * Copies the 0.1 file to a backup beside it before it is replaced: `FILE.json-0.1.bak`, or
 * `FILE.json-0.1.2.bak`… when that name holds something else. Returns the backup's path.
 */
export function backUpLegacyFile(file: string): string {
  const original = readFileSync(file);
  for (let n = 1; ; n++) {
    const backup = `${file}.json-0.1${n === 1 ? '' : `.${n}`}.bak`;
    try {
      copyFileSync(file, backup, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Left by an import that stopped before its end: the same bytes are the same backup.
      if (!readFileSync(backup).equals(original)) continue;
    }
    syncPath(backup);
    return backup;
  }
}

/** Flushes a file (or a folder's entries) to the disk. */
export function syncPath(path: string, folder = false): void {
  const fd = openSync(folder ? dirname(path) : path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
