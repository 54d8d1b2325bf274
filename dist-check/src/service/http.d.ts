/**
 * Small HTTP helpers of the service: reading a bounded JSON body, sending JSON and errors, and the
 * HTTP status each error code maps to. Every error body is `{ error: { code, message, data? } }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VideoPluginError, type ErrorCode } from '../errors.js';
/** Largest accepted request body. */
export declare const MAX_BODY_BYTES: number;
/** An error with an explicit HTTP status, for the few cases the code alone does not decide. */
export declare class HttpError extends VideoPluginError {
  readonly status: number;
  constructor(status: number, code: ErrorCode, message: string, data?: Record<string, unknown>);
}
/** The HTTP status of an error: token errors are 401, unknown errors 500. */
export declare function statusOf(error: unknown): number;
/** Sends a JSON body (or an empty 204 when `body` is undefined). */
export declare function sendJson(res: ServerResponse, status: number, body?: unknown): void;
/** Sends `{ error }` with the error's status; unexpected errors are logged and become 500. */
export declare function sendError(res: ServerResponse, error: unknown): void;
/**
 * Reads a JSON request body of at most {@link MAX_BODY_BYTES}. An empty body reads as undefined.
 * A body must be sent as `application/json`: besides being honest, that keeps cross-site forms
 * (which cannot send that type without a CORS preflight) from posting to the API.
 */
export declare function readJson(req: IncomingMessage): Promise<unknown>;
//# sourceMappingURL=http.d.ts.map
