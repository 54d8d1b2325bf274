/**
 * Errors thrown or rejected by video-plugin.
 *
 * Every error is a {@link VideoPluginError} with a stable string `code`. Subclasses group the codes
 * into families so that partner code can use `instanceof` or switch on `code`. Errors cross the
 * iframe boundary as plain {@link SerializedError} objects and are rebuilt into the right class.
 */

import type { WebhookErrorCode } from './server/webhook.js';

/** The plain form of an error that crosses the iframe boundary and the HTTP API. */
export interface SerializedError {
  code: string;
  message: string;
  data?: Record<string, unknown>;
}

/**
 * Base class of every error from video-plugin. Two forms (docs/plugin-api.md, "Errors"):
 * `new DestroyedError(message, data?)` takes the class's default code (`CLASSES` below), and
 * `new NotFoundError(code, message, data?)` names a code of the class's family. A string as the
 * second argument means the second form.
 */
export class VideoPluginError extends Error {
  /** Stable machine-readable code, e.g. `invalid_parameter`. */
  declare readonly code: ErrorCode;
  /** Extra details (the offending field, a status, a URL...). Plain data only. */
  declare readonly data?: Record<string, unknown>;

  /** With the class's default code: `new DestroyedError('cleanup() was called.')`. */
  constructor(message: string, data?: Record<string, unknown>);
  /** With a code of the class's family: `new NotFoundError('video_not_found', 'No video "v1".')`. */
  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>);
  constructor(code: string, message?: string | Record<string, unknown>, data?: Record<string, unknown>) {
    const short = typeof message != 'string';
    super(short ? code : message);
    // No code given: the class's default, the `code` of its prototype (`CLASSES` below);
    // `code` and `data` are declared, not class fields, so that no field hides the prototype's.
    this.code = (short ? this.code : code) as ErrorCode;
    if (short) data = message;
    if (data !== undefined) this.data = data;
  }

  /** The plain `{code, message, data?}` form, safe to post or send as JSON. */
  toJSON(): SerializedError {
    const { code, message, data } = this;
    return data === undefined ? { code, message } : { code, message, data };
  }
}

/** An argument or option from the partner's code is wrong. `data.field` names it. */
export class InvalidParameterError extends VideoPluginError {}
/**
 * The method needs a logged-in account (or one authenticated in this session). Code
 * `session_lost`: the service iframe reloaded without the account's session and it was not restored.
 */
export class NotAuthenticatedError extends VideoPluginError {}
/** An account method was called while `authMode` is `uncontrolled`. */
export class AccountMethodsDisabledError extends VideoPluginError {}
/** The call is not allowed in the current state (e.g. a topic search that is still PENDING). */
export class InvalidStateError extends VideoPluginError {}
/** An account, video, topic or generation does not exist or belongs to someone else. */
export class NotFoundError extends VideoPluginError {}
/** An account with that `externalID` already exists for this partner. */
export class AccountAlreadyExistsError extends VideoPluginError {}
/** The service refused a token; `code` says why (`token_expired`, `token_replayed`...). */
export class InvalidTokenError extends VideoPluginError {}
/** A call or the connection exceeded its time limit. */
export class TimeoutError extends VideoPluginError {}
/** The iframe could not be reached, or was reloaded or removed mid-call. Safe to retry. */
export class ConnectionError extends VideoPluginError {}
/** The service refused this page's origin for the partner. `data.origin` names it. */
export class OriginNotAllowedError extends VideoPluginError {}
/** This page's Content-Security-Policy (`frame-src`) blocks the service frame. */
export class FrameBlockedError extends VideoPluginError {}
/** The instance was cleaned up; create a new one. */
export class DestroyedError extends VideoPluginError {}
/** The service could not handle the request. */
export class ServiceError extends VideoPluginError {}

/** Every error code the library or the service can produce but a refused webhook's ({@link ErrorCode}). */
export const ERROR_CODES = [
  // Partner input
  'invalid_parameter',
  // Session and mode
  'not_authenticated',
  // Made by the Plugin itself (a NotAuthenticatedError), never sent over the wire.
  'session_lost',
  'account_methods_disabled',
  'invalid_state',
  // Accounts
  'account_not_found',
  'account_already_exists',
  'partner_not_found',
  // Videos and background actions
  'video_not_found',
  'topic_not_found',
  'generation_not_found',
  // A start method's idempotencyKey was used before with other parameters (an InvalidParameterError).
  'idempotency_key_reused',
  // Tokens (judged by the service)
  'token_malformed',
  'token_bad_signature',
  'token_algorithm_not_allowed',
  'token_unknown_issuer',
  'token_wrong_audience',
  'token_expired',
  'token_issued_in_future',
  'token_not_yet_valid',
  'token_lifetime_too_long',
  'token_missing_claims',
  'token_replayed',
  'token_too_large',
  // Wire and frame
  'timeout',
  'connection_failed',
  'origin_not_allowed',
  // Made by the Plugin itself (a FrameBlockedError): the page's CSP blocks the frame.
  'frame_blocked',
  'destroyed',
  // Service
  'bad_request',
  'payload_too_large',
  // Too many calls from one caller (HTTP 429): data.retryAfterMs says when to try again.
  'rate_limited',
  'not_found',
  'internal_error',
  // The service cannot save changes for now (its data file is not writable): HTTP 503 with
  // Retry-After. It reaches a page through the iframe as `internal_error` with the same data.
  'service_unavailable',
  // A test control (forced outcomes, the step clock) asked of a service started without it (403).
  'test_controls_off',
  // Sandboxes (packages/service, docs/service.md "Sandboxes"): a reset or expired sandbox's tokens
  // and sessions (HTTP 401); a sandbox's jobs at once (429). The operator's codes: the sandbox
  // endpoint off (403), too many sandboxes (429), no such sandbox (404).
  'sandbox_expired',
  'sandbox_job_limit_reached',
  'sandboxes_disabled',
  'sandbox_limit_reached',
  'sandbox_not_found',
  // listEvents' own (an EventsError, video-plugin/server): nothing answered, or not with the API's JSON.
  'service_unreachable',
  'service_bad_answer',
] as const;

/**
 * A stable machine-readable error code: one of {@link ERROR_CODES}, or why `verifyWebhook`
 * refused a webhook (`WEBHOOK_ERROR_CODES` of video-plugin/server). Each one's row: error-table.ts.
 */
export type ErrorCode = (typeof ERROR_CODES)[number] | WebhookErrorCode;

/**
 * The class each code is rebuilt as (`deserializeError`): these codes of a family, then each
 * class's default code (below). Not every code, because this ships in the Plugin bundle: `token_*`
 * codes are `InvalidTokenError`, `*not_found` `NotFoundError`.
 */
const CLASS_BY_CODE: Partial<Record<string, typeof VideoPluginError>> = {
  idempotency_key_reused: InvalidParameterError,
  bad_request: ServiceError,
  payload_too_large: ServiceError,
  rate_limited: ServiceError,
  sandbox_expired: NotAuthenticatedError,
  sandbox_job_limit_reached: ServiceError,
};
/**
 * The one table of the classes: each one's name and default code, written once. Minifiers rename
 * classes (so `new.target.name` would read "o"): `name` comes from here. The default code is the
 * `code` of the class's prototype, which the constructor takes when it is given none (a partner's
 * subclass takes its parent's), and the class that code is rebuilt as: `internal_error`, the
 * default of `VideoPluginError` and of `ServiceError`, is rebuilt as `ServiceError`, listed last.
 */
const CLASSES: [typeof VideoPluginError, string, ErrorCode][] = [
  [VideoPluginError, 'VideoPluginError', 'internal_error'],
  [InvalidParameterError, 'InvalidParameterError', 'invalid_parameter'],
  [NotAuthenticatedError, 'NotAuthenticatedError', 'not_authenticated'],
  [AccountMethodsDisabledError, 'AccountMethodsDisabledError', 'account_methods_disabled'],
  [InvalidStateError, 'InvalidStateError', 'invalid_state'],
  [NotFoundError, 'NotFoundError', 'not_found'],
  [AccountAlreadyExistsError, 'AccountAlreadyExistsError', 'account_already_exists'],
  [InvalidTokenError, 'InvalidTokenError', 'token_malformed'],
  [TimeoutError, 'TimeoutError', 'timeout'],
  [ConnectionError, 'ConnectionError', 'connection_failed'],
  [OriginNotAllowedError, 'OriginNotAllowedError', 'origin_not_allowed'],
  [FrameBlockedError, 'FrameBlockedError', 'frame_blocked'],
  [DestroyedError, 'DestroyedError', 'destroyed'],
  [ServiceError, 'ServiceError', 'internal_error'],
];
for (const [Class, name, code] of CLASSES) {
  Object.assign(Class.prototype, { name, code });
  CLASS_BY_CODE[code] = Class;
}

/**
 * Rebuilds an error from its plain form into the class its code belongs to. A code no rule knows
 * becomes a `ServiceError` with its default code, `internal_error`, and the service's message.
 */
export function deserializeError({ code, message, data }: SerializedError): VideoPluginError {
  const Class = Object.hasOwn(CLASS_BY_CODE, code)
    ? CLASS_BY_CODE[code]
    : /^token_/.test(code)
      ? InvalidTokenError
      : /not_found$/.test(code)
        ? NotFoundError
        : undefined;
  return Class ? new Class(code as ErrorCode, message, data) : new ServiceError(message, data);
}

/** The plain form of any thrown value; unknown values become `internal_error`. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof VideoPluginError) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal_error', message: `The service failed unexpectedly: ${message}` };
}
