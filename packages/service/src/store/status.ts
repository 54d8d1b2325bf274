/**
 * The status order of topics, generations and renders, and the one check of it: PENDING →
 * PROCESSING → COMPLETE, and PENDING|PROCESSING → FAILED (COMPLETE and FAILED are final). Only the
 * store moves a status (store.ts `advance`, `advanceRenders`); anything else is a bug in the caller,
 * reported as `invalid_state`.
 */
import { InvalidStateError } from 'video-plugin/internal';
import type { Status, StatusError } from './records.js';

/** The statuses each status may move to. */
export const NEXT: Readonly<Record<Status, readonly Status[]>> = {
  PENDING: ['PROCESSING', 'FAILED'],
  PROCESSING: ['COMPLETE', 'FAILED'],
  COMPLETE: [],
  FAILED: [],
};

/** Whether a record in `status` is over (COMPLETE or FAILED). */
export const isFinal = (status: Status): boolean => NEXT[status].length === 0;

/**
 * A copy of `record` moved to `status` (with `error`, for FAILED).
 *
 * @throws {InvalidStateError} `invalid_state` when the order does not allow the move.
 */
export function moved<R extends { status: Status; error?: StatusError }>(
  record: Readonly<R>,
  status: Status,
  error?: StatusError,
): R {
  if (!NEXT[record.status].includes(status)) {
    throw new InvalidStateError(`Cannot move from ${record.status} to ${status}.`, {
      status: record.status,
    });
  }
  return { ...(record as R), status, ...(error ? { error } : {}) };
}
