/**
 * Verification of account tokens (docs/service.md, "Tokens"). Each way a token can be wrong has its own
 * error code, so a partner sees exactly what to fix.
 *
 * The secret belongs to the partner named by `iss`, so the header and payload are first decoded
 * without trust, only to find the partner; jose then checks the signature (HS256 only), and the
 * claims are checked here — by hand rather than with jwtVerify, to give each failure its own code.
 * Float timestamps and a `type` header key (the reference spells it both ways) are accepted.
 */
import { compactVerify, errors as joseErrors } from 'jose';
import type * as z from 'zod/mini';
import {
  InvalidTokenError,
  type ErrorCode,
  ACCOUNT_CLAIM,
  KIND_CLAIM,
  TOKEN_KINDS,
  type TokenKind,
  MAX_TOKEN_LIFETIME_SECONDS,
  SERVICE_DOMAIN,
  issueToError,
} from 'video-plugin/internal';
import type { Partner } from '../config.js';
import type { Store } from '../store/store.js';
import { endedSandbox } from '../partners.js';

/** Longest accepted token, in bytes: a token with every account field filled is well under 2 KB. */
export const MAX_TOKEN_BYTES = 8192;
/** Allowed difference between the partner's clock and ours, in seconds. */
export const CLOCK_SKEW_SECONDS = 30;

const REQUIRED_CLAIMS = ['jti', 'iss', 'aud', 'iat', 'exp', ACCOUNT_CLAIM] as const;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The claim schema for each kind of token an operation takes. */
export type ClaimSchemas = Partial<Record<TokenKind, z.ZodMiniType>>;

/**
 * A verified token: the partner who signed it, its kind and the contents of its account claim;
 * `warning` when it was accepted with one for the partner (no {@link KIND_CLAIM}: see
 * {@link kindlessWarning}), for the answer's {@link WARNING_HEADER}.
 */
export type VerifiedToken<S extends ClaimSchemas> = {
  [K in keyof S & TokenKind]: {
    partner: Partner;
    kind: K;
    claim: z.infer<NonNullable<S[K]>>;
    warning: string | undefined;
  };
}[keyof S & TokenKind];

/**
 * The release from which a token without {@link KIND_CLAIM} is refused. Until then it is read as
 * the route's own kind, and its partner is warned (see {@link warnKindless}).
 */
export const KINDLESS_REFUSED_FROM = '0.3.0';

/**
 * The header of an answer that carries a warning for the partner's back end (a token without
 * {@link KIND_CLAIM}): the SDK and HTTP clients ignore a header they do not know, so it tells
 * without breaking anything.
 */
export const WARNING_HEADER = 'video-plugin-warning';

/** What verification needs from the service. */
export interface TokenContext {
  partners: ReadonlyMap<string, Partner>;
  store: Store;
  /** Current time in ms; replaceable in tests. */
  now?: () => number;
}

/** What the operation verifying a token expects of it. */
export interface TokenExpectation<S extends ClaimSchemas> {
  /** The operation, as the partner calls it (`createAccount`, `loginAccount`), for messages. */
  operation: string;
  /** The kinds of token it takes, each with the schema of its account claim. */
  kinds: S;
  /**
   * The kind of a token without {@link KIND_CLAIM} (made by hand, as the reference describes):
   * the operation's own kind. Such a token is accepted with a warning until
   * {@link KINDLESS_REFUSED_FROM}.
   */
  defaultKind: keyof S & TokenKind;
  /**
   * The partner the plugin was created for, when the caller knows it; a token from another partner
   * is then refused as `token_unknown_issuer`.
   */
  partnerID?: string | undefined;
  /** Refuses the claim further (before the `jti` is used up). */
  check?: (verified: VerifiedToken<S>) => void;
}

/** The helper that mints each kind, for messages. */
const HELPERS: Record<TokenKind, string> = {
  create: 'createAccountToken',
  login: 'loginAccountToken',
  loginOrCreate: 'loginOrCreateAccountToken',
};

/**
 * Verifies a token and consumes its `jti`. The token's kind ({@link KIND_CLAIM}, or
 * `defaultKind` without it) must be one the operation takes, and its account claim must match that
 * kind's schema. Throws an {@link InvalidTokenError} whose `code` names the failure.
 */
export async function verifyToken<S extends ClaimSchemas>(
  token: string,
  expected: TokenExpectation<S>,
  context: TokenContext,
): Promise<VerifiedToken<S>> {
  const expectedPartnerID = expected.partnerID;
  const bytes = Buffer.byteLength(token);
  if (bytes > MAX_TOKEN_BYTES) {
    fail(
      'token_too_large',
      `The token is ${bytes} bytes; at most ${MAX_TOKEN_BYTES} are accepted. Keep the account claim small.`,
    );
  }
  const parts = token.split('.');
  if (
    parts.length !== 3 ||
    !BASE64URL.test(parts[0] ?? '') ||
    !BASE64URL.test(parts[1] ?? '') ||
    !/^[A-Za-z0-9_-]*$/.test(parts[2] ?? '')
  ) {
    fail(
      'token_malformed',
      'The token is not a JWT: expected three base64url parts separated by periods (header.payload.signature).',
    );
  }
  const header = decodePart(parts[0] as string, 'header');
  const payload = decodePart(parts[1] as string, 'payload');

  if (header.alg !== 'HS256') {
    fail(
      'token_algorithm_not_allowed',
      `The token is signed with alg ${JSON.stringify(header.alg ?? null)}; only HS256 is accepted. Sign it with HS256 and your partner secret.`,
      { alg: header.alg ?? null },
    );
  }
  const type = header.typ ?? header.type;
  if (type !== undefined && (typeof type !== 'string' || !/^(application\/)?jwt$/i.test(type))) {
    fail('token_malformed', `The token header's type is ${JSON.stringify(type)}; it must be "JWT" (or be left out).`);
  }
  if (!('iss' in payload)) missingClaims(payload);
  const partner = typeof payload.iss === 'string' ? context.partners.get(payload.iss) : undefined;
  if (!partner) {
    const ended = endedSandbox(context.partners, payload.iss);
    if (ended) throw ended;
    fail(
      'token_unknown_issuer',
      `The token's issuer (iss) ${JSON.stringify(payload.iss)} is not a partner this service knows. Set iss to your partner ID.`,
      { iss: payload.iss },
    );
  }
  if (expectedPartnerID !== undefined && expectedPartnerID !== partner.id) {
    fail(
      'token_unknown_issuer',
      `The token was issued by partner "${partner.id}", but this plugin was created for partner "${expectedPartnerID}". Mint the token with the same partner ID as the Plugin.`,
      { iss: partner.id, partnerID: expectedPartnerID },
    );
  }

  try {
    await compactVerify(token, partner.key, { algorithms: ['HS256'] });
  } catch (error) {
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      fail(
        'token_bad_signature',
        `The token's signature does not match partner "${partner.id}"'s secret. Sign it with the secret the service gave you, on your server.`,
      );
    }
    fail('token_malformed', `The token could not be read: ${(error as Error).message}.`);
  }

  missingClaims(payload);
  const { jti, aud, iat, exp, nbf } = payload;
  if (typeof jti !== 'string' || jti === '' || jti.length > 256)
    malformedClaim('jti', 'a non-empty string of at most 256 characters');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) malformedClaim('iat', 'a number of seconds since 1970');
  if (typeof exp !== 'number' || !Number.isFinite(exp)) malformedClaim('exp', 'a number of seconds since 1970');
  if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf)))
    malformedClaim('nbf', 'a number of seconds since 1970, or left out');
  if (exp < iat) fail('token_malformed', 'The token expires (exp) before it was issued (iat).');
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(SERVICE_DOMAIN)) {
    fail(
      'token_wrong_audience',
      `The token's audience (aud) is ${JSON.stringify(aud)}; it must be "${SERVICE_DOMAIN}".`,
      { aud },
    );
  }
  const now = (context.now ?? Date.now)() / 1000;
  if (exp <= now - CLOCK_SKEW_SECONDS) {
    fail(
      'token_expired',
      `The token expired at ${iso(exp)} (service time ${iso(now)}). Mint a new token just before each call.`,
      { exp },
    );
  }
  if (iat > now + CLOCK_SKEW_SECONDS) {
    fail(
      'token_issued_in_future',
      `The token was issued (iat) at ${iso(iat)}, in the future (service time ${iso(now)}). Check your server's clock.`,
      { iat },
    );
  }
  if (nbf !== undefined && nbf > now + CLOCK_SKEW_SECONDS) {
    fail(
      'token_not_yet_valid',
      `The token is not valid before (nbf) ${iso(nbf)} (service time ${iso(now)}). Leave nbf out, or set it to the time you mint the token.`,
      { nbf },
    );
  }
  // A partner's token that lives for days is a leaked token waiting to happen; the cap also bounds
  // how long each jti must be remembered.
  if (exp - iat > MAX_TOKEN_LIFETIME_SECONDS) {
    fail(
      'token_lifetime_too_long',
      `The token is valid for ${Math.round(exp - iat)} s (exp − iat); at most ${MAX_TOKEN_LIFETIME_SECONDS} s are accepted. Mint a short-lived token (about 60 s) just before each call.`,
      { lifetime: exp - iat, max: MAX_TOKEN_LIFETIME_SECONDS },
    );
  }

  const kind = kindOf(payload[KIND_CLAIM], expected);
  const claimSchema = expected.kinds[kind] as z.ZodMiniType;
  const claimValue = payload[ACCOUNT_CLAIM];
  if (claimValue === null || typeof claimValue !== 'object' || Array.isArray(claimValue)) {
    malformedClaim(ACCOUNT_CLAIM, 'an object');
  }
  const parsed = claimSchema.safeParse(claimValue);
  if (!parsed.success) {
    const reason = issueToError(parsed.error.issues[0], claimValue, `The token's claim ${ACCOUNT_CLAIM}`);
    fail('token_malformed', reason.message, reason.data);
  }
  const kindless = payload[KIND_CLAIM] === undefined;
  const warning = kindless ? kindlessWarning(partner.id, expected) : undefined;
  const verified = { partner, kind, claim: parsed.data, warning } as VerifiedToken<S>;
  expected.check?.(verified);

  // Consumed last, and with no await since the lookup, so that of two concurrent uses exactly one wins.
  consumeJti(context.store, partner.id, jti, exp, now);
  if (warning !== undefined) warnOnce(context.store, partner.id, warning);
  return verified;
}

/**
 * The partners already told, per running service (its store lives as long as it does): a partner
 * whose back end mints every token by hand would otherwise fill the log with one line per login.
 */
const warnedKindless = new WeakMap<Store, Set<string>>();

/** Puts the warning in the service's log, the first time for this partner only. */
function warnOnce(store: Store, partnerID: string, warning: string): void {
  let warned = warnedKindless.get(store);
  if (!warned) warnedKindless.set(store, (warned = new Set()));
  if (warned.has(partnerID)) return;
  warned.add(partnerID);
  console.warn(`video-plugin-service: ${warning} (Said once per partner.)`);
}

/**
 * What a partner is told about a token without the kind claim: that it was accepted, as which
 * kind, from when it is refused, and which helper of video-plugin/server sets the claim.
 * Plain ASCII, since it is also a header's value.
 */
export function kindlessWarning<S extends ClaimSchemas>(partnerID: string, expected: TokenExpectation<S>): string {
  const kinds = Object.keys(expected.kinds) as TokenKind[];
  return `partner "${partnerID}" sent ${expected.operation} a token without the claim ${KIND_CLAIM}; it was read as a "${expected.defaultKind}" token. From video-plugin ${KINDLESS_REFUSED_FROM} such a token is refused (token_malformed). Mint it with ${kinds.map((kind) => HELPERS[kind]).join(' or ')} of video-plugin/server, which sets the claim, or set it by hand to ${kinds.map((kind) => `"${kind}"`).join(' or ')}.`;
}

/** The token's kind, refused unless the operation takes it: a create token never logs in, and so on. */
function kindOf<S extends ClaimSchemas>(value: unknown, expected: TokenExpectation<S>): keyof S & TokenKind {
  if (value === undefined) return expected.defaultKind;
  const accepted = (Object.keys(expected.kinds) as TokenKind[]).map((kind) => `"${kind}" (${HELPERS[kind]})`);
  if (typeof value !== 'string' || !(TOKEN_KINDS as readonly string[]).includes(value)) {
    fail(
      'token_malformed',
      `The token's claim ${KIND_CLAIM} is ${JSON.stringify(value)}; it must be one of ${TOKEN_KINDS.map((k) => `"${k}"`).join(', ')}, or be left out.`,
      { claim: KIND_CLAIM },
    );
  }
  const kind = value as TokenKind;
  if (!(kind in expected.kinds)) {
    fail(
      'token_malformed',
      `This is a "${kind}" token (minted by ${HELPERS[kind]}); ${expected.operation} takes ${accepted.join(' or ')}. Mint the token with ${(Object.keys(expected.kinds) as TokenKind[]).map((k) => HELPERS[k]).join(' or ')}.`,
      { claim: KIND_CLAIM, kind },
    );
  }
  return kind as keyof S & TokenKind;
}

function consumeJti(store: Store, partnerID: string, jti: string, exp: number, now: number): void {
  // Remembered for as long as the token could still pass the expiry check.
  if (!store.useJti(partnerID, jti, exp + CLOCK_SKEW_SECONDS, now)) {
    fail(
      'token_replayed',
      `The token's jti "${jti}" was already used. Mint a new token (with a new jti) for every call.`,
      { jti },
    );
  }
}

function decodePart(part: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    fail('token_malformed', `The token's ${name} is not base64url-encoded JSON.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail('token_malformed', `The token's ${name} is not a JSON object.`);
  }
  return value as Record<string, unknown>;
}

function missingClaims(payload: Record<string, unknown>): void {
  const missing = REQUIRED_CLAIMS.filter((claim) => payload[claim] === undefined || payload[claim] === null);
  if (missing.length > 0) {
    fail(
      'token_missing_claims',
      `The token lacks the claim${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. Mint it with video-plugin/server, or add them.`,
      { claims: missing },
    );
  }
}

function malformedClaim(claim: string, expected: string): never {
  fail('token_malformed', `The token's claim ${claim} must be ${expected}.`, { claim });
}

function iso(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `${seconds} s` : date.toISOString();
}

function fail(code: ErrorCode, message: string, data?: Record<string, unknown>): never {
  throw new InvalidTokenError(code, message, data);
}
