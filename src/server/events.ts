/**
 * The partner back end's calls to the service about its events:
 * - `listEvents` pages through the partner's event log (`GET /api/partner/events`), every webhook
 *   event of the last 30 days in a stable order, from a cursor. A partner's back end calls it on
 *   start-up to catch up on what its webhook endpoint missed while it was down.
 * - `sendTestWebhook` and `resendEvent` (the webhook kit) ask the service to deliver a
 *   test event of a chosen type, or a logged event again, to the partner's webhook URLs.
 *
 * Each request carries a JWT of 60 s signed with the partner's webhook secret (kind `events`), not
 * the secret itself: the secret never travels, a logged request is useless a minute later, and the
 * partner secret that mints login tokens is never needed (nor accepted) to read events.
 */
import { SignJWT } from 'jose';
import * as z from 'zod/mini';
import {
  EVENTS_PAGE_LIMIT,
  EVENTS_TOKEN_KIND,
  KIND_CLAIM,
  MAX_FIELD_LENGTH,
  SERVICE_DOMAIN,
  WEBHOOK_EVENT_TYPES,
  WebhookEventSchema,
  type WebhookEvent,
} from './claims.js';
import { secretSchema } from './secrets.js';
import { parseOrThrow, strictObject } from './validate.js';
import { VideoPluginError, type ErrorCode } from '../errors.js';

export { EVENTS_PAGE_LIMIT };

/** Lifetime of the token each request of {@link listEvents} carries, in seconds. */
const TOKEN_SECONDS = 60;

/** What every call to the service takes: who asks, with which key, where. */
const callShape = {
  partnerID: z.string().check(z.minLength(1, { error: 'must not be empty: pass the partner ID the service gave you' })),
  secret: secretSchema('your webhook secret (never the partner secret that mints tokens)'),
  serviceURL: z.string().check(
    z.refine((text) => /^https?:$/.test(URL.canParse(text) ? new URL(text).protocol : ''), {
      error: 'must be the http or https URL of the service, e.g. http://127.0.0.1:8001',
    }),
  ),
  signal: z.optional(z.custom<AbortSignal>((value) => value instanceof AbortSignal)),
};

const ListEventsOptionsSchema = strictObject({
  ...callShape,
  after: z.optional(
    z.string().check(z.minLength(1, { error: 'must be a cursor from an earlier page, or be left out' })),
  ),
  limit: z.optional(
    z
      .int()
      .check(
        z.gte(1, { error: `must be a whole number from 1 to ${EVENTS_PAGE_LIMIT}` }),
        z.lte(EVENTS_PAGE_LIMIT, { error: `must be a whole number from 1 to ${EVENTS_PAGE_LIMIT}` }),
      ),
  ),
});

/** Options of {@link listEvents}. */
export type ListEventsOptions = z.infer<typeof ListEventsOptionsSchema>;

/** One page of the event log. */
export interface EventPage {
  /** The events, oldest first, each exactly as its webhook carried it (the same `id`). */
  events: WebhookEvent[];
  /**
   * Where the next page starts: store it once the page's events are handled, and pass it as
   * `after` on your next start-up. Opaque; the same position gives the same events.
   */
  cursor: string;
  /** Whether more events follow this page (the iterator then fetches the next one). */
  hasMore: boolean;
}

/**
 * Why the event log could not be read. `code` is the service's own code (`token_bad_signature`:
 * the secret is not a webhook secret of this partner; `token_unknown_issuer`: the partner ID is
 * unknown; `invalid_parameter`: a bad cursor or limit, …), or `service_unreachable` when no answer
 * came, or `service_bad_answer` when the answer was not the event log's.
 */
export class EventsError extends VideoPluginError {
  /** The service's HTTP status, when it answered. */
  readonly status: number | undefined;

  /**
   * `code`: the service's own (a refusal it answered), or `service_unreachable` /
   * `service_bad_answer` (nothing answered, or not with the API's JSON).
   */
  constructor(code: string, message: string, status?: number, data?: Record<string, unknown>) {
    super(code as ErrorCode, message, data);
    this.status = status;
  }
}
EventsError.prototype.name = 'EventsError';

const PageSchema = z.object({
  events: z.array(WebhookEventSchema),
  cursor: z.string(),
  hasMore: z.boolean(),
});

/**
 * Reads the partner's event log from `after` (or from its oldest event) to its newest, one page
 * at a time. Every webhook event of the last 30 days is there, in a stable order, with the same
 * `id` as its webhook: dedupe by `id` what both roads brought.
 *
 * @param options.partnerID - your partner ID.
 * @param options.secret - your webhook secret (the newest, during a roll); never the partner secret.
 * @param options.serviceURL - the service's URL, e.g. `http://127.0.0.1:8001`.
 * @param options.after - the `cursor` of the last page you handled; left out, the log's start.
 * @param options.limit - events per page, 1 to 100 (default 100).
 * @param options.signal - aborts the request in flight.
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad option, on the first `next()`.
 * @throws {EventsError} when the service refuses the request or cannot be reached.
 *
 * @example
 * ```ts
 * for await (const page of listEvents({ partnerID, secret: webhookSecret, serviceURL, after: await loadCursor() })) {
 *   for (const event of page.events) await handleOnce(event); // the webhook handler's own code
 *   await saveCursor(page.cursor);
 * }
 * ```
 */
export async function* listEvents(options: ListEventsOptions): AsyncGenerator<EventPage, void, undefined> {
  const { partnerID, secret, serviceURL, after, limit, signal } = parseOrThrow(
    ListEventsOptionsSchema,
    options,
    'listEvents',
  );
  const key = new TextEncoder().encode(secret);
  let cursor = after;
  for (;;) {
    const url = new URL('/api/partner/events', serviceURL);
    if (cursor !== undefined) url.searchParams.set('after', cursor);
    if (limit !== undefined) url.searchParams.set('limit', String(limit));
    const page = await call(
      url,
      'GET',
      await sign(partnerID, key),
      signal,
      'listEvents',
      PageSchema,
      'a page of events',
    );
    yield page;
    if (!page.hasMore || page.events.length === 0) return;
    cursor = page.cursor;
  }
}

const KitAnswerSchema = z.object({ event: WebhookEventSchema, urls: z.array(z.string()) });

/** What {@link sendTestWebhook} and {@link resendEvent} answer once the deliveries are queued. */
export interface WebhookKitAnswer {
  /** The event as it is signed and delivered (`test: true`, or `redelivery: true`). */
  event: WebhookEvent;
  /** Your webhook URLs it is delivered to (each through the service's outbox, retried as any event). */
  urls: string[];
}

const SendTestWebhookOptionsSchema = strictObject({
  ...callShape,
  type: z.enum(WEBHOOK_EVENT_TYPES, {
    error: `must be one of ${WEBHOOK_EVENT_TYPES.map((type) => `"${type}"`).join(', ')}`,
  }),
});
/** Options of {@link sendTestWebhook}. */
export type SendTestWebhookOptions = z.infer<typeof SendTestWebhookOptionsSchema>;

const ResendEventOptionsSchema = strictObject({
  ...callShape,
  eventID: z
    .string()
    .check(
      z.minLength(1, { error: 'must be the id of an event of your event log (listEvents), e.g. "evt_…"' }),
      z.maxLength(MAX_FIELD_LENGTH),
    ),
});
/** Options of {@link resendEvent}. */
export type ResendEventOptions = z.infer<typeof ResendEventOptionsSchema>;

/**
 * Asks the service to deliver a made-up event of `type` to your webhook URLs, signed and retried
 * as any event, marked `test: true` (about `acct_test` and `vid_test`, which do not exist; not
 * kept in the event log). Resolves once the deliveries are queued, not delivered.
 *
 * @param options.partnerID - your partner ID.
 * @param options.secret - your webhook secret; never the partner secret.
 * @param options.serviceURL - the service's URL, e.g. `http://127.0.0.1:8001`.
 * @param options.type - `account.created`, `video.completed` or `video.rendered`.
 * @param options.signal - aborts the request.
 * @returns the event sent and the URLs it goes to.
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad option.
 * @throws {EventsError} the service's refusal (`invalid_state`: you have no webhook URL;
 *   `token_*`: not your webhook secret), `service_unreachable` or `service_bad_answer`.
 *
 * @example
 * ```ts
 * const { event } = await sendTestWebhook({ partnerID, secret: webhookSecret, serviceURL, type: 'video.rendered' });
 * ```
 */
export async function sendTestWebhook(options: SendTestWebhookOptions): Promise<WebhookKitAnswer> {
  const { partnerID, secret, serviceURL, type, signal } = parseOrThrow(
    SendTestWebhookOptionsSchema,
    options,
    'sendTestWebhook',
  );
  const token = await sign(partnerID, new TextEncoder().encode(secret));
  const url = new URL('/api/partner/webhooks/test', serviceURL);
  return call(url, 'POST', token, signal, 'sendTestWebhook', KitAnswerSchema, 'a queued test event', { type });
}

/**
 * Asks the service to deliver a logged event again to your webhook URLs: the same `id`,
 * `createdAt` and `data`, marked `redelivery: true` (let it through your dedupe by `id`: you
 * asked for it). Resolves once the deliveries are queued, not delivered.
 *
 * @param options.partnerID - your partner ID.
 * @param options.secret - your webhook secret; never the partner secret.
 * @param options.serviceURL - the service's URL, e.g. `http://127.0.0.1:8001`.
 * @param options.eventID - the `id` of an event of your event log (the last 30 days).
 * @param options.signal - aborts the request.
 * @returns the event sent again and the URLs it goes to.
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad option.
 * @throws {EventsError} the service's refusal (`not_found`: no such event in your log;
 *   `invalid_state`: you have no webhook URL; `token_*`), `service_unreachable` or `service_bad_answer`.
 */
export async function resendEvent(options: ResendEventOptions): Promise<WebhookKitAnswer> {
  const { partnerID, secret, serviceURL, eventID, signal } = parseOrThrow(
    ResendEventOptionsSchema,
    options,
    'resendEvent',
  );
  const token = await sign(partnerID, new TextEncoder().encode(secret));
  const url = new URL(`/api/partner/events/${encodeURIComponent(eventID)}/resend`, serviceURL);
  return call(url, 'POST', token, signal, 'resendEvent', KitAnswerSchema, 'a queued redelivery');
}

/** An events token of 60 s for `partnerID`, signed with its webhook secret's `key` (also video-plugin/testing's). */
export function sign(partnerID: string, key: Uint8Array): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({ [KIND_CLAIM]: EVENTS_TOKEN_KIND })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(crypto.randomUUID())
    .setIssuer(partnerID)
    .setAudience(SERVICE_DOMAIN)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_SECONDS)
    .sign(key);
}

/**
 * One authenticated call: the answer parsed with `schema` (`what` it should be), or an
 * {@link EventsError}. Also video-plugin/testing's, with the operator key or a session as `token`.
 */
export async function call<S extends z.core.$ZodType>(
  url: URL,
  method: 'GET' | 'POST' | 'DELETE',
  token: string | undefined,
  signal: AbortSignal | undefined,
  context: string,
  schema: S,
  what: string,
  body?: unknown,
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new EventsError(
      'service_unreachable',
      `${context}: no answer from ${url.origin} (${(error as Error).message}). Check serviceURL and that the service is running; try again later${context === 'listEvents' ? ', from the same cursor' : ''}.`,
    );
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    answer = undefined;
  }
  if (!response.ok) {
    const error = (answer as { error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined)?.error;
    if (typeof error?.code === 'string' && typeof error.message === 'string') {
      throw new EventsError(
        error.code,
        `${context}: ${error.message}`,
        response.status,
        error.data as Record<string, unknown> | undefined,
      );
    }
    throw new EventsError(
      'service_bad_answer',
      `${context}: ${url.origin} answered HTTP ${response.status}, not ${what}. Check serviceURL.`,
      response.status,
    );
  }
  const parsed = z.safeParse(schema, answer);
  if (!parsed.success) {
    throw new EventsError(
      'service_bad_answer',
      `${context}: the answer of ${url.origin} is not ${what} (${parsed.error.issues[0]?.path.join('.') || 'body'}). Update video-plugin, or check serviceURL.`,
      response.status,
    );
  }
  return parsed.data;
}
