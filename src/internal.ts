/**
 * `video-plugin/internal`: the contract between the SDK and the local service
 * (`packages/service`, the `video-plugin-service` package) — what both sides must agree on, kept
 * in one place: the wire protocol and its typed API, the error classes and codes (and how they
 * cross the wire), the option schemas the iframe page re-checks, the token and webhook claims (and how a
 * webhook is signed), and the appearance rules. The service imports these through this entry, never through relative
 * paths into `src/`.
 *
 * **Not for partners.** This entry is not part of the public API: it changes with the service,
 * without notice and outside semver. Use `video-plugin`, `video-plugin/element`,
 * `video-plugin/server` and `video-plugin/diagnose`.
 * @internal
 * @packageDocumentation
 */
export * from './errors.js';
export * from './error-table.js';
export * from './wire/api.js';
export type * from './wire/http.js';
export * from './wire/schemas.js';
export * from './wire/metadata.js';
export * from './wire/protocol.js';
export * from './wire/service.js';
export * from './options.js';
export * from './validate.js';
export * from './appearance.js';
export * from './debug.js';
export * from './version.js';
export * from './server/claims.js';
export * from './server/validate.js';
export * from './server/secrets.js';
export {
  signWebhook,
  WEBHOOK_HEADERS,
  WEBHOOK_TOKEN_LIFETIME_SECONDS,
  type SignedWebhook,
  type WebhookEventInput,
} from './server/webhook-sign.js';
