/**
 * Finding the store's database at its opening (store.ts, {@link Store.open}): with a data file,
 * its lock (one process per file), the import of a 0.1 JSON data file and the SQLite database; with
 * a URL, the PostgreSQL database (postgres.ts, loaded only then). Nothing is read into the Maps here.
 */
import { Database } from './database.js';
import type { Driver } from './driver.js';
import { notOurs } from './errors.js';
import { importLegacyFile, sniff } from './legacy.js';
import { lockDataFile, type Lock } from './lock.js';
import { nowSeconds } from './wall.js';

/** An opened database, its lock (a data file) and what to call it when it cannot be read. */
export interface Opened {
  db: Driver;
  lock?: Lock;
  /** "the data file …" or "the database …", for the error that says it cannot be read. */
  name: string;
}

/**
 * Opens the data file or the database, undefined for neither (the data then lives in memory).
 *
 * @throws {DataFileError} when the file is in use or not a data file of this service, or when the
 * database cannot be reached (DatabaseUnreachableError), is in use, or is newer.
 */
export async function openDatabase(file?: string, database?: string): Promise<Opened | undefined> {
  if (database !== undefined) {
    const { PostgresDatabase } = await import('./postgres.js');
    const db = await PostgresDatabase.open(database);
    return { db, name: `the database ${db.label}` };
  }
  if (file === undefined) return undefined;
  const lock = lockDataFile(file);
  try {
    if (lock.tookOverFrom !== undefined) {
      console.warn(
        `video-plugin-service: took over the lock of ${file} from process ${lock.tookOverFrom}, which is no longer running.`,
      );
    }
    const kind = sniff(file);
    if (kind === 'other') throw notOurs(file);
    if (kind === 'json') console.log(`video-plugin-service: ${importLegacyFile(file, nowSeconds())}`);
    return { db: Database.open(file), lock, name: `the data file ${file}` };
  } catch (error) {
    lock.release();
    throw error;
  }
}
