/** The store's two failures: a data file it cannot open, and a change it could not save. */
import { ServiceError } from 'video-plugin/internal';

/** A data file the service cannot use (in use, of another program, unreadable); refused at start. */
export class DataFileError extends Error {
  override readonly name = 'DataFileError';
}

/**
 * A change that could not be written to the data file (disk full, I/O error…). Thrown inside the
 * request that made it, it answers 500 `internal_error` with this message: nothing was kept. The
 * file's path stays in the service's log (the `cause`), not in the answer to the page.
 */
export function storageError(file: string, cause: unknown): ServiceError {
  const reason = (cause as Error).message;
  const error = new ServiceError(
    'internal_error',
    `The service could not save the change (${reason}), so nothing was changed. Try again; if this persists, the service's disk needs attention.`,
    { retryable: true },
  );
  error.cause = new Error(`writing ${file}: ${reason}`, { cause });
  return error;
}

/** The refusal of a file that is neither this service's database nor a 0.1 JSON data file. */
export function notOurs(file: string): DataFileError {
  return new DataFileError(
    `The data file ${file} is not a video-plugin-service data file (neither its SQLite database nor a JSON data file of version 0.1); it was left untouched. Move it away or choose another --data file.`,
  );
}
