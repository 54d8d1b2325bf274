/**
 * The partner API key of the event log (`GET /api/partner/events`): a short-lived HS256 JWT that
 * the partner's back end signs with its **webhook** secret (`listEvents` in `video-plugin/server`
 * does it), kind `events`, issuer the partner ID, audience the service.
 *
 * Why a token and not the secret as a bearer key: the secret never travels, so a request that ends
 * up in a log is useless a few minutes later; and one secret then does one job, "read my events"
 * (receive them, list them), with the webhook secret's roll for free. The partner secret that
 * verifies account tokens is never accepted here, and an events token is never an account token
 * (it has no account claim, and its kind is refused by every account route). The jti is not
 * remembered: reading the log changes nothing, and the lifetime is capped at 5 minutes.
 */
import { compactVerify, errors as joseErrors } from 'jose';
import {
  EVENTS_TOKEN_KIND,
  InvalidTokenError,
  KIND_CLAIM,
  MAX_EVENTS_TOKEN_LIFETIME_SECONDS,
  NotAuthenticatedError,
  SERVICE_DOMAIN,
  type ErrorCode,
} from 'video-plugin/internal';
import type { Partner } from '../config.js';
import { endedSandbox } from '../partners.js';
import { CLOCK_SKEW_SECONDS, MAX_TOKEN_BYTES } from './tokens.js';

const HOW =
  'Read the event log with listEvents from video-plugin/server, with your partner ID and your webhook secret (not the partner secret that mints tokens).';

/** The partner whose webhook secret signed `token`; throws `not_authenticated` or a `token_*` code. */
export async function verifyEventsToken(
  token: string | undefined,
  partners: ReadonlyMap<string, Partner>,
  now = Date.now() / 1000,
): Promise<Partner> {
  if (token === undefined) {
    throw new NotAuthenticatedError(
      `The event log needs Authorization: Bearer <a token of kind "${EVENTS_TOKEN_KIND}">. ${HOW}`,
    );
  }
  const parts = token.split('.');
  if (Buffer.byteLength(token) > MAX_TOKEN_BYTES || parts.length !== 3)
    fail('token_malformed', `The key is not a JWT. ${HOW}`);
  const header = decode(parts[0] as string);
  const payload = decode(parts[1] as string);
  if (header.alg !== 'HS256') {
    fail(
      'token_algorithm_not_allowed',
      `The token is signed with alg ${JSON.stringify(header.alg ?? null)}; only HS256 is accepted. ${HOW}`,
    );
  }
  const partner = typeof payload.iss === 'string' ? partners.get(payload.iss) : undefined;
  if (!partner) {
    const ended = endedSandbox(partners, payload.iss);
    if (ended) throw ended;
    fail(
      'token_unknown_issuer',
      `The token's issuer (iss) ${JSON.stringify(payload.iss)} is not a partner this service knows. Set iss to your partner ID.`,
      { iss: payload.iss },
    );
  }
  if (partner.webhookKeys.length === 0) {
    throw new NotAuthenticatedError(
      `Partner "${partner.id}" has no webhook secret on this service, so its event log cannot be read. Start the service with --webhook-secret (partners[].webhookSecrets).`,
      { partnerID: partner.id },
    );
  }
  let signed = false;
  for (const key of partner.webhookKeys) {
    try {
      await compactVerify(token, key, { algorithms: ['HS256'] });
      signed = true;
      break;
    } catch (error) {
      if (!(error instanceof joseErrors.JWSSignatureVerificationFailed)) {
        fail('token_malformed', `The token could not be read: ${(error as Error).message}.`);
      }
    }
  }
  if (!signed) {
    fail(
      'token_bad_signature',
      `The token's signature matches none of partner "${partner.id}"'s webhook secrets. ${HOW}`,
    );
  }
  if (payload[KIND_CLAIM] !== EVENTS_TOKEN_KIND) {
    fail('token_malformed', `The token's claim ${KIND_CLAIM} must be "${EVENTS_TOKEN_KIND}". ${HOW}`, {
      claim: KIND_CLAIM,
    });
  }
  const { aud, iat, exp } = payload;
  if (!(Array.isArray(aud) ? aud : [aud]).includes(SERVICE_DOMAIN)) {
    fail(
      'token_wrong_audience',
      `The token's audience (aud) is ${JSON.stringify(aud)}; it must be "${SERVICE_DOMAIN}".`,
      { aud },
    );
  }
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isFinite(iat) || !Number.isFinite(exp)) {
    fail('token_missing_claims', 'The token needs iat and exp (numbers of seconds since 1970).', {
      claims: ['iat', 'exp'],
    });
  }
  if (exp <= now - CLOCK_SKEW_SECONDS)
    fail('token_expired', `The token has expired. Sign a new one for each request. ${HOW}`, { exp });
  if (iat > now + CLOCK_SKEW_SECONDS)
    fail('token_issued_in_future', "The token was issued (iat) in the future. Check your server's clock.", { iat });
  if (exp - iat > MAX_EVENTS_TOKEN_LIFETIME_SECONDS) {
    fail(
      'token_lifetime_too_long',
      `The token is valid for ${Math.round(exp - iat)} s (exp − iat); an events token may live at most ${MAX_EVENTS_TOKEN_LIFETIME_SECONDS} s.`,
      { lifetime: exp - iat, max: MAX_EVENTS_TOKEN_LIFETIME_SECONDS },
    );
  }
  return partner;
}

function decode(part: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    fail('token_malformed', `The key is not a JWT. ${HOW}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail('token_malformed', `The key is not a JWT. ${HOW}`);
  return value as Record<string, unknown>;
}

function fail(code: ErrorCode, message: string, data?: Record<string, unknown>): never {
  throw new InvalidTokenError(code, message, data);
}
