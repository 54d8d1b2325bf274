/**
 * `verifyWebhook`: reads a webhook the service POSTed to the partner's server — a compact HS256 JWT
 * signed with the partner's webhook secret (never the secret that mints tokens) — and returns its event, or says exactly what is wrong with it.
 *
 * The claims are checked here by hand rather than with `jwtVerify`, to give each failure its own
 * code; jose checks the signature (HS256 only). Web Crypto only: runs where `video-plugin/server` runs.
 */
import { compactVerify, decodeProtectedHeader, errors as joseErrors } from 'jose';
import * as z from 'zod/mini';
import { EVENT_CLAIM, SERVICE_DOMAIN, WebhookEventSchema, type WebhookEvent } from './claims.js';
import { parseOrThrow, strictObject } from './validate.js';
import { secretListSchema, secretSchema } from './secrets.js';
import { VideoPluginError } from '../errors.js';

/** Allowed difference between the service's clock and the receiver's, in seconds. */
export const WEBHOOK_CLOCK_TOLERANCE_SECONDS = 30;
/** Longest webhook body read, in characters: an event is well under 4 KB. */
export const MAX_WEBHOOK_LENGTH = 65_536;

/** Why a webhook was refused. */
export const WEBHOOK_ERROR_CODES = [
  /** Not a JWT (or not one the service makes): wrong body, cut short, not JSON, claims missing. */
  'webhook_malformed',
  /** Signed with another algorithm than HS256 (or none): never from the service. */
  'webhook_algorithm_not_allowed',
  /** The signature does not match the secret: forged, tampered with, or the wrong secret. */
  'webhook_signature_invalid',
  /** Past its `exp`, or older than `maxAgeSeconds`. */
  'webhook_expired',
  /** Issued in the future (beyond the clock tolerance): a clock is wrong. */
  'webhook_not_yet_valid',
  /** `iss` is not the service's domain. */
  'webhook_wrong_issuer',
  /** `aud` is not this partner's ID. */
  'webhook_wrong_audience',
  /** The event claim is missing or not an event this version knows. */
  'webhook_bad_event',
] as const;

/** A code of {@link WebhookVerificationError}. */
export type WebhookErrorCode = (typeof WEBHOOK_ERROR_CODES)[number];

/**
 * A webhook failed verification: do not act on it. Answer 400 (or 401), so that a genuine event
 * sent with a wrong configuration shows up in the service's delivery records; `code` says why.
 */
export class WebhookVerificationError extends VideoPluginError {
  /** Stable machine-readable code, e.g. `webhook_signature_invalid`. */
  declare readonly code: WebhookErrorCode;

  constructor(code: WebhookErrorCode, message: string, data?: Record<string, unknown>) {
    super(code, message, data);
  }
}
WebhookVerificationError.prototype.name = 'WebhookVerificationError';

const verifyShape = {
  partnerID: z.string().check(z.minLength(1, { error: 'must not be empty: pass the partner ID the service gave you' })),
  maxAgeSeconds: z.optional(z.number().check(z.positive({ error: 'must be a positive number of seconds' }))),
};
const WEBHOOK_SECRET = 'your webhook secret (never the partner secret that mints tokens)';
const VerifyOptionsSchema = strictObject({ ...verifyShape, secret: secretSchema(WEBHOOK_SECRET) });
const VerifyOptionsListSchema = strictObject({ ...verifyShape, secret: secretListSchema(WEBHOOK_SECRET) });

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /**
   * Your webhook secret, or the list of them you accept during a roll (any may match; at most
   * 10, each at least 32 bytes). Never the partner secret that mints tokens.
   */
  secret: string | readonly string[];
  /** Your partner ID: the webhook's `aud`. */
  partnerID: string;
  /** Refuse webhooks signed longer ago than this, in seconds (default: only `exp` counts). */
  maxAgeSeconds?: number | undefined;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies a webhook from the service and returns its event.
 *
 * Pass the request body exactly as received (read it as text or bytes, not parsed as JSON). The
 * same event may arrive more than once and out of order: dedupe by `event.id`, and order by
 * `event.createdAt` or read the current state rather than trusting the order of arrival.
 *
 * @param body - the raw body (`content-type: application/jwt`), as a string or bytes.
 * @param options.secret - your webhook secret (the key the service signs your webhooks with), or
 *   the list of secrets you accept during a roll: the new one and the old one.
 * @param options.partnerID - your partner ID: the webhook's `aud`.
 * @param options.maxAgeSeconds - refuse webhooks signed longer ago than this (default: only `exp`,
 *   5 minutes after signing, counts). A clock tolerance of 30 seconds applies.
 * @returns the event: `account.created`, `video.completed` or `video.rendered` (switch on `type`).
 * @throws {WebhookVerificationError} with a `code` from {@link WEBHOOK_ERROR_CODES}.
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad option.
 *
 * @example
 * ```ts
 * const event = await verifyWebhook(await request.text(), { secret, partnerID });
 * if (await alreadyHandled(event.id)) return new Response(null, { status: 200 });
 * ```
 */
export async function verifyWebhook(body: string | Uint8Array, options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const list = Array.isArray((options as { secret?: unknown } | undefined)?.secret);
  const { secret, partnerID, maxAgeSeconds } = list
    ? parseOrThrow(VerifyOptionsListSchema, options, 'verifyWebhook')
    : parseOrThrow(VerifyOptionsSchema, options, 'verifyWebhook');
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const token = readBody(body);

  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    malformed('its header is not base64url JSON');
  }
  if (header.alg !== 'HS256') {
    fail(
      'webhook_algorithm_not_allowed',
      `The webhook is signed with alg ${JSON.stringify(header.alg ?? null)}; the service signs only with HS256. It did not come from the service: ignore it.`,
      { alg: header.alg ?? null },
    );
  }

  // Any of the accepted secrets may have signed it (during a roll, the old one or the new one).
  let payloadBytes: Uint8Array | undefined;
  for (const key of secrets) {
    try {
      ({ payload: payloadBytes } = await compactVerify(token, new TextEncoder().encode(key), {
        algorithms: ['HS256'],
      }));
      break;
    } catch (error) {
      if (!(error instanceof joseErrors.JWSSignatureVerificationFailed)) malformed((error as Error).message);
    }
  }
  if (payloadBytes === undefined) {
    fail(
      'webhook_signature_invalid',
      `The webhook's signature ${secrets.length === 1 ? 'does not match the webhook secret' : `matches none of the ${secrets.length} webhook secrets`} given. Pass the webhook secret of partner "${partnerID}" (not the partner secret that mints tokens; during a roll, pass both the old and the new one); if it is right, the webhook was forged or changed on the way: ignore it.`,
    );
  }

  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes)) as Record<string, unknown>;
  } catch {
    malformed('its payload is not JSON');
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    malformed('its payload is not an object');

  if (payload.iss !== SERVICE_DOMAIN) {
    fail(
      'webhook_wrong_issuer',
      `The webhook's issuer (iss) is ${JSON.stringify(payload.iss)}, not the service ("${SERVICE_DOMAIN}"). It is not a webhook from the service: ignore it.`,
      { iss: payload.iss },
    );
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(partnerID)) {
    fail(
      'webhook_wrong_audience',
      `The webhook is addressed to ${JSON.stringify(payload.aud)} (aud), not to partner "${partnerID}". Pass the partnerID the webhook URL was configured for.`,
      { aud: payload.aud },
    );
  }
  const { jti, iat, exp } = payload;
  if (typeof jti !== 'string' || jti === '') malformed('its jti is missing or not a string');
  if (!isNumericDate(iat)) malformed('its iat is missing or not a number');
  if (!isNumericDate(exp)) malformed('its exp is missing or not a number');

  const now = Date.now() / 1000;
  const tolerance = WEBHOOK_CLOCK_TOLERANCE_SECONDS;
  if (now - tolerance >= exp) {
    fail(
      'webhook_expired',
      `The webhook expired ${Math.round(now - exp)} s ago. Check this server's clock; a genuine webhook is delivered at once, so an old one may be replayed: ignore it.`,
      { exp },
    );
  }
  if (iat > now + tolerance) {
    fail(
      'webhook_not_yet_valid',
      `The webhook was issued ${Math.round(iat - now)} s in the future (iat). Check this server's clock (sync it with NTP).`,
      { iat },
    );
  }
  if (maxAgeSeconds !== undefined && now - iat > maxAgeSeconds + tolerance) {
    fail(
      'webhook_expired',
      `The webhook was signed ${Math.round(now - iat)} s ago, more than maxAgeSeconds (${maxAgeSeconds}). Check this server's clock, or raise maxAgeSeconds.`,
      { iat, maxAgeSeconds },
    );
  }

  const event = WebhookEventSchema.safeParse(payload[EVENT_CLAIM]);
  if (!event.success) {
    const issue = event.error.issues[0];
    const claim = payload[EVENT_CLAIM] as { type?: unknown } | undefined;
    fail(
      'webhook_bad_event',
      `The webhook's event claim ${EVENT_CLAIM} is not an event this version of video-plugin knows (${issue ? `${issue.path.join('.') || 'the event'}: ${issue.code}` : 'missing'}; type ${JSON.stringify(claim?.type)}). Update video-plugin; until then answer 2xx to skip it.`,
      { type: claim?.type, field: issue?.path.join('.') },
    );
  }
  if (event.data.id !== jti) {
    fail('webhook_bad_event', `The event's id "${event.data.id}" differs from the webhook's jti "${jti}".`, {
      field: 'id',
    });
  }
  return event.data;
}

function readBody(body: string | Uint8Array): string {
  let text: string;
  if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      malformed('the body is not UTF-8 text');
    }
  } else {
    malformed(`the body is ${body === null ? 'null' : typeof body}, not a string or a Uint8Array`);
  }
  text = text.trim();
  if (text.length > MAX_WEBHOOK_LENGTH) malformed(`the body is longer than ${MAX_WEBHOOK_LENGTH} characters`);
  const parts = text.split('.');
  // An empty signature is let through here so that `alg: none` is refused as such, below.
  if (parts.length !== 3 || !BASE64URL.test(parts[0]!) || !BASE64URL.test(parts[1]!) || !/^[\w-]*$/.test(parts[2]!)) {
    malformed('expected three base64url parts separated by periods (header.payload.signature)');
  }
  return text;
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function malformed(why: string): never {
  fail(
    'webhook_malformed',
    `The body is not a webhook token from the service: ${why}. Pass the raw request body (read as text, not parsed as JSON or form data).`,
  );
}

function fail(code: WebhookErrorCode, message: string, data?: Record<string, unknown>): never {
  throw new WebhookVerificationError(code, message, data);
}
