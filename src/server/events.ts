/**
 * `listEvents`: pages through the partner's event log on the service (`GET /api/partner/events`),
 * every webhook event of the last 30 days in a stable order, from a cursor. A partner's back end
 * calls it on start-up to catch up on what its webhook endpoint missed while it was down.
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
  SERVICE_DOMAIN,
  WebhookEventSchema,
  type WebhookEvent,
} from './claims.js';
import { secretSchema } from './secrets.js';
import { parseOrThrow, strictObject } from './validate.js';

export { EVENTS_PAGE_LIMIT };

/** Lifetime of the token each request of {@link listEvents} carries, in seconds. */
const TOKEN_SECONDS = 60;

const ListEventsOptionsSchema = strictObject({
  partnerID: z.string().check(z.minLength(1, { error: 'must not be empty: pass the partner ID the service gave you' })),
  secret: secretSchema('your webhook secret (never the partner secret that mints tokens)'),
  serviceURL: z.string().check(
    z.refine((text) => /^https?:$/.test(URL.canParse(text) ? new URL(text).protocol : ''), {
      error: 'must be the http or https URL of the service, e.g. http://127.0.0.1:8001',
    }),
  ),
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
  signal: z.optional(z.custom<AbortSignal>((value) => value instanceof AbortSignal)),
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
export class EventsError extends Error {
  /** Stable machine-readable code. */
  readonly code: string;
  /** The service's HTTP status, when it answered. */
  readonly status: number | undefined;
  /** Extra details from the service. Plain data only. */
  readonly data?: Record<string, unknown>;

  constructor(code: string, message: string, status?: number, data?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.status = status;
    if (data !== undefined) this.data = data;
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
    const page = await fetchPage(url, await sign(partnerID, key), signal);
    yield page;
    if (!page.hasMore || page.events.length === 0) return;
    cursor = page.cursor;
  }
}

function sign(partnerID: string, key: Uint8Array): Promise<string> {
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

async function fetchPage(url: URL, token: string, signal: AbortSignal | undefined): Promise<EventPage> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new EventsError(
      'service_unreachable',
      `listEvents: no answer from ${url.origin} (${(error as Error).message}). Check serviceURL and that the service is running; try again later, from the same cursor.`,
    );
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined)?.error;
    if (typeof error?.code === 'string' && typeof error.message === 'string') {
      throw new EventsError(
        error.code,
        `listEvents: ${error.message}`,
        response.status,
        error.data as Record<string, unknown> | undefined,
      );
    }
    throw new EventsError(
      'service_bad_answer',
      `listEvents: ${url.origin} answered HTTP ${response.status}, not the event log. Check serviceURL.`,
      response.status,
    );
  }
  const page = PageSchema.safeParse(body);
  if (!page.success) {
    throw new EventsError(
      'service_bad_answer',
      `listEvents: the answer of ${url.origin} is not a page of events (${page.error.issues[0]?.path.join('.') || 'body'}). Update video-plugin, or check serviceURL.`,
      response.status,
    );
  }
  return page.data;
}
