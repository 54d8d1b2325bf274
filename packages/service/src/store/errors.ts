/** The store's two failures: a data file it cannot open, and a change it could not save. */
import { ServiceError } from 'video-plugin/internal';

/** A data file the service cannot use (in use, of another program, unreadable); refused at start. */
export class DataFileError extends Error {
  override readonly name: string = 'DataFileError';
}

/**
 * How long a partner should wait before retrying a change the data file refused (the
 * `Retry-After` of the 503), and how long a background job waits before it goes on from its last
 * saved state, in seconds.
 */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * A change that could not be written to the data file (disk full, a read-only or failing disk…).
 * Thrown inside the request that made it, it answers 503 `service_unavailable` with a
 * `Retry-After` and this message: nothing was kept, and reads go on. The file's path stays in the
 * service's log (the `cause`), not in the answer to the page.
 */
export function storageError(where: { label: string; medium: 'disk' | 'database' }, cause: unknown): ServiceError {
  const reason = (cause as Error).message;
  const attention =
    where.medium === 'disk'
      ? "the service's disk needs attention (full, read-only or failing)"
      : "the service's database needs attention (down, unreachable or refusing writes)";
  const error = new ServiceError(
    'service_unavailable',
    `The service could not save the change (${reason}), so nothing was changed. Try again in ${STORAGE_RETRY_AFTER_SECONDS} s; if this persists, ${attention}.`,
    { retryable: true, retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS },
  );
  error.cause = new Error(`writing ${where.label}: ${reason}`, { cause });
  return error;
}

/** Whether `error` is a change the data file refused ({@link storageError}). */
export const isStorageError = (error: unknown): boolean =>
  error instanceof ServiceError && error.code === 'service_unavailable';

/** The refusal of a file that is neither this service's database nor a 0.1 JSON data file. */
export function notOurs(file: string): DataFileError {
  return new DataFileError(
    `The data file ${file} is not a video-plugin-service data file (neither its SQLite database nor a JSON data file of version 0.1); it was left untouched. Move it away or choose another --data file.`,
  );
}
