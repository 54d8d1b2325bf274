/**
 * `video-plugin/server`: mint the signed tokens that `Plugin#createAccount` and
 * `Plugin#loginAccount` take (with the partner secret), and verify the webhooks the service sends
 * and page through its event log (with the webhook secret), on the partner's own server; and sign
 * webhooks exactly as the service does, for the unit tests of a partner's receiver.
 *
 * Runs on Node ≥ 20, Deno, Bun and edge workers: it uses only Web Crypto (through `jose`). Never
 * ship it, or the secret, to a browser.
 *
 * @example
 * ```ts
 * import { loginOrCreateAccountToken } from 'video-plugin/server';
 * // Sign in or sign up: the page's `plugin.loginAccount(token)` logs in to user-42's account,
 * // creating it with these fields on the first visit.
 * const token = await loginOrCreateAccountToken({
 *   partnerID: 'acme', secret: process.env.VIDEO_PLUGIN_SECRET!,
 *   externalID: 'user-42', account: { firstName: 'Ada' },
 * });
 * ```
 * @module
 */
import { SignJWT } from 'jose';
import * as z from 'zod/mini';
import { InvalidParameterError } from '../errors.js';
import {
  ACCOUNT_CLAIM,
  AccountClaimsSchema,
  KIND_CLAIM,
  LoginByAccountIDSchema,
  LoginByExternalIDSchema,
  MAX_TOKEN_LIFETIME_SECONDS,
  SERVICE_DOMAIN,
  accountInfoShape,
  type TokenKind,
} from './claims.js';
import { parseOrThrow, strictObject } from './validate.js';
import { secretSchema } from './secrets.js';

export { ACCOUNT_CLAIM, KIND_CLAIM, MAX_TOKEN_LIFETIME_SECONDS, SERVICE_DOMAIN };
// The errors the helpers throw, for `instanceof` without importing the browser entry (the same
// classes as `video-plugin`'s). `verifyWebhook` throws `WebhookVerificationError`, below.
export { InvalidParameterError, VideoPluginError } from '../errors.js';
export type { ErrorCode, SerializedError } from '../errors.js';
export { TOKEN_KINDS } from './claims.js';
export type { AccountClaims, LoginClaims, LoginOrCreateClaims, TokenKind } from './claims.js';
export { EVENT_CLAIM, WEBHOOK_EVENT_TYPES } from './claims.js';
export type { WebhookEvent, WebhookEventType } from './claims.js';
export { MIN_SECRET_BYTES, MAX_WEBHOOK_SECRETS } from './secrets.js';
export {
  listEvents,
  sendTestWebhook,
  resendEvent,
  EventsError,
  EVENTS_PAGE_LIMIT,
  type EventPage,
  type ListEventsOptions,
  type SendTestWebhookOptions,
  type ResendEventOptions,
  type WebhookKitAnswer,
} from './events.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  WEBHOOK_ERROR_CODES,
  WEBHOOK_CLOCK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  type WebhookErrorCode,
} from './webhook.js';
export {
  signWebhookForTest,
  WEBHOOK_TOKEN_LIFETIME_SECONDS,
  type SignedWebhook,
  type SignWebhookForTestOptions,
  type WebhookEventInput,
} from './webhook-sign.js';

/** Token lifetime in seconds when `expiresIn` is not given (the reference recommends about 1 minute). */
export const DEFAULT_EXPIRES_IN = 60;

const signingShape = {
  partnerID: z.string().check(z.minLength(1, { error: 'must not be empty: pass the partner ID the service gave you' })),
  secret: secretSchema('the partner secret the service gave you'),
  expiresIn: z.optional(
    z.number().check(
      z.positive({ error: 'must be a positive number of seconds' }),
      z.lte(MAX_TOKEN_LIFETIME_SECONDS, {
        error: `must be at most ${MAX_TOKEN_LIFETIME_SECONDS} seconds (the service refuses longer-lived tokens)`,
      }),
    ),
  ),
};

const CreateOptionsSchema = strictObject({ ...signingShape, account: z.optional(AccountClaimsSchema) });
const LoginOptionsSchema = strictObject({
  ...signingShape,
  accountID: z.optional(LoginByAccountIDSchema.shape.accountID),
  externalID: z.optional(LoginByExternalIDSchema.shape.externalID),
});

const LoginOrCreateOptionsSchema = strictObject({
  ...signingShape,
  externalID: LoginByExternalIDSchema.shape.externalID,
  account: z.optional(strictObject(accountInfoShape)),
});

/** What every token needs: who signs it and for how long it is valid. */
export type TokenSigningOptions = Pick<z.infer<typeof CreateOptionsSchema>, keyof typeof signingShape>;

/** Options of {@link createAccountToken}. */
export type CreateAccountTokenOptions = z.infer<typeof CreateOptionsSchema>;

/** Options of {@link loginAccountToken}: exactly one of `accountID` or `externalID`. */
export type LoginAccountTokenOptions = TokenSigningOptions &
  ({ accountID: string; externalID?: never } | { externalID: string; accountID?: never });

/** Options of {@link loginOrCreateAccountToken}. */
export type LoginOrCreateAccountTokenOptions = z.infer<typeof LoginOrCreateOptionsSchema>;

/**
 * Mints a token for `Plugin#createAccount`: a new account on the service, optionally with the
 * user's details and your own ID for them (`externalID`, usable later to log in).
 *
 * @param options.partnerID - your partner ID (the token's `iss`).
 * @param options.secret - your partner secret (HS256 key, at least 32 bytes). Keep it on the server.
 * @param options.account - account fields: firstName, lastName, emailAddress, companyName, phone,
 *   city, state, externalID. Unknown fields are refused.
 * @param options.expiresIn - lifetime in seconds, default 60, at most 3600. Mint the token just before use.
 * @returns the signed token (a compact JWS).
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad field (`data.field`).
 */
export async function createAccountToken(options: CreateAccountTokenOptions): Promise<string> {
  const { account, ...signing } = parseOrThrow(CreateOptionsSchema, options, 'createAccountToken');
  return sign(signing, 'create', { ...account });
}

/**
 * Mints a token for `Plugin#loginAccount`, identifying the account by the service's `accountID`
 * (returned by `createAccount`) or by the `externalID` you gave at creation — exactly one of them.
 *
 * @param options.partnerID - your partner ID (the token's `iss`).
 * @param options.secret - your partner secret (HS256 key, at least 32 bytes). Keep it on the server.
 * @param options.accountID - the service's account ID; or
 * @param options.externalID - your own ID for the user.
 * @param options.expiresIn - lifetime in seconds, default 60, at most 3600. Mint the token just before use.
 * @returns the signed token (a compact JWS).
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad field (`data.field`).
 */
export async function loginAccountToken(options: LoginAccountTokenOptions): Promise<string> {
  const { accountID, externalID, ...signing } = parseOrThrow(LoginOptionsSchema, options, 'loginAccountToken');
  if (accountID === undefined && externalID === undefined) {
    throw new InvalidParameterError(
      'loginAccountToken: give "accountID" (the ID createAccount returned) or "externalID" (your own ID for the user); neither was given.',
      { field: 'accountID' },
    );
  }
  if (accountID !== undefined && externalID !== undefined) {
    throw new InvalidParameterError(
      'loginAccountToken: give only one of "accountID" or "externalID", not both; remove one.',
      { field: 'externalID' },
    );
  }
  return sign(signing, 'login', accountID !== undefined ? { accountID } : { externalID });
}

/**
 * Mints a "sign in or sign up" token for `Plugin#loginAccount`: the service logs in to the account
 * with your `externalID` for the user, and when there is none yet, creates it first with the
 * `account` fields (and sends `account.created`). One token, one call, for a user who may or may
 * not have an account: no `account_not_found` to catch, no failed request in the console.
 *
 * The `account` fields are used only when the account is created; change an existing account's
 * details with `Plugin#updateAccountInfo`.
 *
 * @param options.partnerID - your partner ID (the token's `iss`).
 * @param options.secret - your partner secret (HS256 key, at least 32 bytes). Keep it on the server.
 * @param options.externalID - your own ID for the user (required): the account to log in to, or
 *   to create with this ID.
 * @param options.account - fields to create the account with: firstName, lastName, emailAddress,
 *   companyName, phone, city, state. Unknown fields are refused.
 * @param options.expiresIn - lifetime in seconds, default 60, at most 3600. Mint the token just before use.
 * @returns the signed token (a compact JWS).
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad field (`data.field`).
 */
export async function loginOrCreateAccountToken(options: LoginOrCreateAccountTokenOptions): Promise<string> {
  const { externalID, account, ...signing } = parseOrThrow(
    LoginOrCreateOptionsSchema,
    options,
    'loginOrCreateAccountToken',
  );
  return sign(signing, 'loginOrCreate', { ...account, externalID });
}

async function sign(
  options: TokenSigningOptions,
  kind: TokenKind,
  accountClaim: Record<string, unknown>,
): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({ [ACCOUNT_CLAIM]: accountClaim, [KIND_CLAIM]: kind })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(crypto.randomUUID())
    .setIssuer(options.partnerID)
    .setAudience(SERVICE_DOMAIN)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (options.expiresIn ?? DEFAULT_EXPIRES_IN))
    .sign(new TextEncoder().encode(options.secret));
}
