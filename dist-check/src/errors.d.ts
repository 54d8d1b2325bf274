/**
 * Errors thrown or rejected by video-plugin.
 *
 * Every error is a {@link VideoPluginError} with a stable string `code`. Subclasses group the codes
 * into families so that partner code can use `instanceof` or switch on `code`. Errors cross the
 * iframe boundary as plain {@link SerializedError} objects and are rebuilt into the right class.
 */
/** The plain form of an error that crosses the iframe boundary and the HTTP API. */
export interface SerializedError {
  code: string;
  message: string;
  data?: Record<string, unknown>;
}
/** Base class of every error from video-plugin. */
export declare class VideoPluginError extends Error {
  /** Stable machine-readable code, e.g. `invalid_parameter`. */
  readonly code: ErrorCode;
  /** Extra details (the offending field, a status, a URL...). Plain data only. */
  readonly data?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>);
  /** The plain `{code, message, data?}` form, safe to post or send as JSON. */
  toJSON(): SerializedError;
}
/** An argument or option from the partner's code is wrong. `data.field` names it. */
export declare class InvalidParameterError extends VideoPluginError {}
/**
 * The method needs a logged-in account (or one authenticated in this session). Code
 * `session_lost`: the service iframe reloaded without the account's session and it was not restored.
 */
export declare class NotAuthenticatedError extends VideoPluginError {}
/** An account method was called while `authMode` is `uncontrolled`. */
export declare class AccountMethodsDisabledError extends VideoPluginError {}
/** The call is not allowed in the current state (e.g. a topic search that is still PENDING). */
export declare class InvalidStateError extends VideoPluginError {}
/** An account, video, topic or generation does not exist or belongs to someone else. */
export declare class NotFoundError extends VideoPluginError {}
/** An account with that `externalID` already exists for this partner. */
export declare class AccountAlreadyExistsError extends VideoPluginError {}
/** The service refused a token; `code` says why (`token_expired`, `token_replayed`...). */
export declare class InvalidTokenError extends VideoPluginError {}
/** A call or the connection exceeded its time limit. */
export declare class TimeoutError extends VideoPluginError {}
/** The iframe could not be reached, or was reloaded or removed mid-call. Safe to retry. */
export declare class ConnectionError extends VideoPluginError {}
/** The service refused this page's origin for the partner. */
export declare class OriginNotAllowedError extends VideoPluginError {}
/** The instance was cleaned up; create a new one. */
export declare class DestroyedError extends VideoPluginError {}
/** The service could not handle the request. */
export declare class ServiceError extends VideoPluginError {}
/** Every error code the library or the service can produce. */
export declare const ERROR_CODES: readonly [
  'invalid_parameter',
  'not_authenticated',
  'session_lost',
  'account_methods_disabled',
  'invalid_state',
  'account_not_found',
  'account_already_exists',
  'partner_not_found',
  'video_not_found',
  'topic_not_found',
  'generation_not_found',
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
  'timeout',
  'connection_failed',
  'origin_not_allowed',
  'destroyed',
  'bad_request',
  'payload_too_large',
  'not_found',
  'internal_error',
];
/** A stable machine-readable error code. */
export type ErrorCode = (typeof ERROR_CODES)[number];
/**
 * Rebuilds an error from its plain form into the class its code belongs to. A code no rule knows
 * becomes `internal_error` (a `ServiceError`) with the service's message.
 */
export declare function deserializeError({ code, message, data }: SerializedError): VideoPluginError;
/** The plain form of any thrown value; unknown values become `internal_error`. */
export declare function serializeError(error: unknown): SerializedError;
//# sourceMappingURL=errors.d.ts.map
