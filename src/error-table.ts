/**
 * One row per error code (as Fastify's `lib/errors.js` keeps its codes): the class a program
 * receives it as, and the HTTP status the service answers it with (none: the code never crosses
 * HTTP — the SDK, the frame or the server helpers make it). The service's statuses are
 * read from here (`packages/service/src/http/reply.ts`), and test/node/errors.test.ts proves that
 * the SDK's compact rules (`deserializeError` in errors.ts, which ships in every page and so keeps
 * only its families' exceptions) rebuild each code as the class its row names, and that the
 * docs' table of classes lists each code. Not imported by the SDK's bundles.
 */
import type { ErrorCode } from './errors.js';

/** The classes of the error family (errors.ts, and the server helpers' two). */
export type ErrorClassName =
  | 'VideoPluginError'
  | 'InvalidParameterError'
  | 'NotAuthenticatedError'
  | 'AccountMethodsDisabledError'
  | 'InvalidStateError'
  | 'NotFoundError'
  | 'AccountAlreadyExistsError'
  | 'InvalidTokenError'
  | 'TimeoutError'
  | 'ConnectionError'
  | 'OriginNotAllowedError'
  | 'FrameBlockedError'
  | 'DestroyedError'
  | 'ServiceError'
  | 'WebhookVerificationError'
  | 'EventsError';

/** A code's row: who receives it as which class, and its HTTP status if the service sends it. */
export interface ErrorRow {
  readonly class: ErrorClassName;
  readonly status?: number;
  /**
   * Made where it is thrown and never rebuilt from a message (`session_lost` by the Plugin, the
   * server helpers' codes): `deserializeError` need not know it.
   */
  readonly local?: true;
  /**
   * Never reaches a page's code: a partner's back end or the operator's tools receive it (or, for
   * `service_unavailable`, the page receives it as `internal_error`). docs/plugin-api.md's table
   * of classes lists every other code.
   */
  readonly page?: false;
}

const token = { class: 'InvalidTokenError', status: 401 } as const;
const webhook = { class: 'WebhookVerificationError', local: true, page: false } as const;

export const ERROR_TABLE = {
  invalid_parameter: { class: 'InvalidParameterError', status: 400 },
  idempotency_key_reused: { class: 'InvalidParameterError', status: 422 },
  not_authenticated: { class: 'NotAuthenticatedError', status: 401 },
  session_lost: { class: 'NotAuthenticatedError', local: true },
  sandbox_expired: { class: 'NotAuthenticatedError', status: 401 },
  account_methods_disabled: { class: 'AccountMethodsDisabledError', status: 403 },
  invalid_state: { class: 'InvalidStateError', status: 409 },
  account_not_found: { class: 'NotFoundError', status: 404 },
  video_not_found: { class: 'NotFoundError', status: 404 },
  topic_not_found: { class: 'NotFoundError', status: 404 },
  generation_not_found: { class: 'NotFoundError', status: 404 },
  partner_not_found: { class: 'NotFoundError', status: 404 },
  not_found: { class: 'NotFoundError', status: 404 },
  account_already_exists: { class: 'AccountAlreadyExistsError', status: 409 },
  token_malformed: token,
  token_bad_signature: token,
  token_algorithm_not_allowed: token,
  token_unknown_issuer: token,
  token_wrong_audience: token,
  token_expired: token,
  token_issued_in_future: token,
  token_not_yet_valid: token,
  token_lifetime_too_long: token,
  token_missing_claims: token,
  token_replayed: token,
  token_too_large: token,
  timeout: { class: 'TimeoutError' },
  connection_failed: { class: 'ConnectionError' },
  origin_not_allowed: { class: 'OriginNotAllowedError', status: 403 },
  frame_blocked: { class: 'FrameBlockedError' },
  destroyed: { class: 'DestroyedError' },
  bad_request: { class: 'ServiceError', status: 400 },
  payload_too_large: { class: 'ServiceError', status: 413 },
  rate_limited: { class: 'ServiceError', status: 429 },
  internal_error: { class: 'ServiceError', status: 500 },
  // It reaches a page through the iframe as `internal_error` with the same data (retryable).
  service_unavailable: { class: 'ServiceError', status: 503, page: false },
  test_controls_off: { class: 'ServiceError', status: 403, page: false },
  sandbox_job_limit_reached: { class: 'ServiceError', status: 429 },
  // The operator's sandbox routes: their callers are the operator's tools, never a page.
  sandboxes_disabled: { class: 'ServiceError', status: 403, page: false },
  sandbox_limit_reached: { class: 'ServiceError', status: 429, page: false },
  sandbox_not_found: { class: 'NotFoundError', status: 404, page: false },
  // video-plugin/server: a webhook refused by verifyWebhook, and listEvents' own two.
  webhook_malformed: webhook,
  webhook_algorithm_not_allowed: webhook,
  webhook_signature_invalid: webhook,
  webhook_expired: webhook,
  webhook_not_yet_valid: webhook,
  webhook_wrong_issuer: webhook,
  webhook_wrong_audience: webhook,
  webhook_bad_event: webhook,
  service_unreachable: { class: 'EventsError', local: true, page: false },
  service_bad_answer: { class: 'EventsError', local: true, page: false },
} as const satisfies Record<ErrorCode, ErrorRow>;
