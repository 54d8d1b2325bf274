/**
 * Small HTTP helpers of the service: reading a bounded JSON body, sending JSON and errors, and the
 * HTTP status of each error (its code's row in the contract's ERROR_TABLE). Every error body is `{ error: { code, message, data? } }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_TABLE, serializeError, VideoPluginError, type ErrorCode, type ErrorRow } from 'video-plugin/internal';

/** Largest accepted request body. */
export const MAX_BODY_BYTES = 64 * 1024;

/** An error with an explicit HTTP status, for the few cases the code alone does not decide. */
export class HttpError extends VideoPluginError {
  constructor(
    readonly status: number,
    code: ErrorCode,
    message: string,
    data?: Record<string, unknown>,
  ) {
    super(code, message, data);
  }
}

/** The HTTP status of an error: its code's row (ERROR_TABLE, the contract's); unknown errors 500. */
export function statusOf(error: unknown): number {
  if (error instanceof HttpError) return error.status;
  if (!(error instanceof VideoPluginError)) return 500;
  const row: ErrorRow | undefined = ERROR_TABLE[error.code];
  return row?.status ?? 500;
}

/** Headers every API answer carries: never cached, never sniffed. */
const API_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** Sends a JSON body (or an empty 204 when `body` is undefined). */
export function sendJson(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status, { 'cache-control': 'no-store' }).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...API_HEADERS, 'content-length': Buffer.byteLength(text) }).end(text);
}

/** Sends `{ error }` with the error's status; unexpected errors are logged and become 500. */
export function sendError(res: ServerResponse, error: unknown): void {
  const status = statusOf(error);
  if (status >= 500) console.error('video-plugin-service: request failed:', error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // After a refused oversized body the rest of it may still be arriving: do not reuse the socket.
  if (status === 413) res.setHeader('connection', 'close');
  // An error that says when to come back tells HTTP clients too, in whole seconds (RFC 9110 §10.2.3):
  // a refused budget (http/limits.ts: `retryAfterMs`), a data file that refused a change
  // (`retryAfterSeconds`).
  if (error instanceof VideoPluginError) {
    const { retryAfterMs, retryAfterSeconds } = error.data ?? {};
    const seconds = typeof retryAfterMs === 'number' ? Math.max(1, Math.ceil(retryAfterMs / 1000)) : retryAfterSeconds;
    if (typeof seconds === 'number') res.setHeader('retry-after', String(seconds));
  }
  // An unexpected error's own message (a path, a driver's text) stays in the log: the answer says
  // only that the service failed.
  const body =
    error instanceof VideoPluginError
      ? serializeError(error)
      : { code: 'internal_error', message: 'The service failed unexpectedly; the details are in its log.' };
  sendJson(res, status, { error: body });
}

/**
 * Reads a JSON request body of at most {@link MAX_BODY_BYTES}. An empty body reads as undefined.
 * A body must be sent as `application/json`: besides being honest, that keeps cross-site forms
 * (which cannot send that type without a CORS preflight) from posting to the API.
 */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError(
      415,
      'bad_request',
      `Send the request body as JSON with Content-Type: application/json (got "${type}").`,
    );
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new VideoPluginError('bad_request', `The request body is not valid JSON: ${(error as Error).message}.`);
  }
}

function tooLarge(): VideoPluginError {
  return new VideoPluginError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KB.`, {
    limit: MAX_BODY_BYTES,
  });
}
