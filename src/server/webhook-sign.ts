/**
 * How a webhook is made, in one place: the service signs every delivery with {@link signWebhook},
 * and `signWebhookForTest` (its public face, for partners' unit tests) calls the same function, so a
 * test webhook is byte for byte what a delivery of that event, signed at that second, carries.
 * `verifyWebhook` (webhook.ts) reads what this writes.
 *
 * The format: a compact HS256 JWT, `iss` the service's domain, `aud` the partner ID, `jti` the
 * event's ID, `iat` the second of signing and `exp` {@link WEBHOOK_TOKEN_LIFETIME_SECONDS} later,
 * the event under {@link EVENT_CLAIM}; POSTed with {@link WEBHOOK_HEADERS}.
 * Web Crypto only: runs where `video-plugin/server` runs.
 */
import { SignJWT } from 'jose';
import * as z from 'zod/mini';
import {
  EVENT_CLAIM,
  MAX_FIELD_LENGTH,
  SERVICE_DOMAIN,
  WEBHOOK_EVENT_TYPES,
  WebhookEventSchema,
  type WebhookEvent,
} from './claims.js';
import { secretSchema } from './secrets.js';
import { parseOrThrow, strictObject } from './validate.js';

/** Lifetime of a webhook token (`exp` − `iat`), in seconds. Each try of a delivery is signed anew. */
export const WEBHOOK_TOKEN_LIFETIME_SECONDS = 300;

/** The headers of every webhook POST (the body is the token). */
export const WEBHOOK_HEADERS = {
  'content-type': 'application/jwt',
  'user-agent': 'video-plugin-service webhooks',
} as const;

/** A webhook as a delivery carries it: the raw body and the request's headers. */
export interface SignedWebhook {
  /** The request body: the compact JWT (pass it to `verifyWebhook` as your receiver gets it). */
  body: string;
  /** The request headers: `content-type: application/jwt` and the service's `user-agent`. */
  headers: Record<keyof typeof WEBHOOK_HEADERS, string>;
}

/**
 * Signs `event` for `partnerID` with `key` (the partner's webhook secret, as bytes), as issued at
 * `issuedAt` (seconds since 1970). The service calls it for every try of every delivery.
 */
export async function signWebhook(
  event: WebhookEvent,
  key: Uint8Array,
  partnerID: string,
  issuedAt: number = Math.floor(Date.now() / 1000),
): Promise<SignedWebhook> {
  const body = await new SignJWT({ [EVENT_CLAIM]: event })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(SERVICE_DOMAIN)
    .setAudience(partnerID)
    .setJti(event.id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + WEBHOOK_TOKEN_LIFETIME_SECONDS)
    .sign(key);
  return { body, headers: { ...WEBHOOK_HEADERS } };
}

/** An event to sign for a test: a {@link WebhookEvent} whose `id` and `createdAt` may be left out. */
export type WebhookEventInput = WebhookEvent extends infer Event
  ? Event extends WebhookEvent
    ? Omit<Event, 'id' | 'createdAt'> & Partial<Pick<Event, 'id' | 'createdAt'>>
    : never
  : never;

/** Options of {@link signWebhookForTest}. */
export interface SignWebhookForTestOptions {
  /** Your partner ID: the webhook's `aud`, which `verifyWebhook` checks against its own `partnerID`. */
  partnerID: string;
  /** The event's ID (and the token's `jti`). Default: `event.id`, or a new `evt_…`. */
  id?: string | undefined;
  /**
   * When the webhook was signed (`iat`; `exp` is 300 s later), as a `Date` or milliseconds since
   * 1970 (`Date.now()`'s unit). Default: now. Set it in the past or future to test your clock
   * tolerance and `maxAgeSeconds`. Also the event's `createdAt` when the event has none.
   */
  issuedAt?: Date | number | undefined;
}

const ISSUED_AT = 'must be a valid Date or a number of milliseconds since 1970 (as Date.now() gives)';
const OptionsSchema = strictObject({
  event: z.looseObject({
    type: z.enum(WEBHOOK_EVENT_TYPES, {
      error: `must be one of ${WEBHOOK_EVENT_TYPES.map((type) => `"${type}"`).join(', ')}`,
    }),
  }),
  secret: secretSchema('your webhook secret (never the partner secret that mints tokens)'),
  partnerID: z.string().check(z.minLength(1, { error: 'must not be empty: pass the partner ID the service gave you' })),
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_FIELD_LENGTH))),
  issuedAt: z.optional(z.union([z.date(), z.number()], { error: ISSUED_AT })),
});
const EventSchema = strictObject({ event: WebhookEventSchema });

/**
 * Makes a webhook exactly as the service delivers it, for your receiver's unit tests: the same
 * body (an HS256 JWT signed with your webhook secret) and headers, made by the service's own
 * signing code, so `verifyWebhook(body, { secret, partnerID })` accepts it, and a changed body or
 * another secret is refused as it would be in production.
 *
 * Test events the service sends on request (`test: true`) and redeliveries (`redelivery: true`)
 * are events like any other: set those fields on `event` to test how your receiver treats them.
 *
 * @param event - the event: `type`, `accountID`, `externalID?`, `data` as in `WebhookEvent`, and
 *   optionally `id` and `createdAt` (default: a new `evt_…` ID, and `issuedAt`).
 * @param secret - your webhook secret (at least 32 bytes), the one `verifyWebhook` is given.
 * @param options.partnerID - your partner ID (the webhook's `aud`).
 * @param options.id - the event's ID (the token's `jti`); overrides `event.id`.
 * @param options.issuedAt - when it was signed, a `Date` or ms since 1970 (default: now): move it
 *   to test expiry and clock tolerance.
 * @returns `{ body, headers, event }`: post `body` with `headers` to your receiver (or hand it to
 *   your handler); `event` is the event signed, as `verifyWebhook` returns it.
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad field (`data.field`), e.g.
 *   `event.type`, `event.data.videoID`, `secret`, `issuedAt`.
 *
 * @example
 * ```ts
 * const { body, headers } = await signWebhookForTest(
 *   { type: 'account.created', accountID: 'acct_1', data: { via: 'token', account: {} } },
 *   process.env.VIDEO_WEBHOOK_SECRET!,
 *   { partnerID: 'acme' },
 * );
 * const response = await fetch('http://127.0.0.1:3000/hooks/video', { method: 'POST', headers, body });
 * ```
 */
export async function signWebhookForTest(
  event: WebhookEventInput,
  secret: string,
  options: SignWebhookForTestOptions,
): Promise<SignedWebhook & { event: WebhookEvent }> {
  const given = parseOrThrow(
    OptionsSchema,
    { event, secret, ...(options as object | undefined) },
    'signWebhookForTest',
  ) as z.infer<typeof OptionsSchema> & { event: Partial<WebhookEvent> };
  const issuedAtMs = given.issuedAt === undefined ? Date.now() : +given.issuedAt;
  // The event as given, its keys in their order (the bytes signed follow it), with what it lacks.
  const full = {
    ...event,
    id: given.id ?? given.event.id ?? `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    createdAt: given.event.createdAt ?? new Date(issuedAtMs).toISOString(),
  };
  // Checked whole, so a missing or wrong field of the event is named (`event.data.videoID`).
  parseOrThrow(EventSchema, { event: full }, 'signWebhookForTest');
  // Signed as given (fields a later service may add included), as verifyWebhook will read it.
  const signed = await signWebhook(
    full as WebhookEvent,
    new TextEncoder().encode(given.secret),
    given.partnerID,
    Math.floor(issuedAtMs / 1000),
  );
  return { ...signed, event: z.parse(WebhookEventSchema, full) };
}
