/**
 * `video-plugin/server`: mint the signed tokens that `Plugin#createAccount` and
 * `Plugin#loginAccount` take, on the partner's own server.
 *
 * Runs on Node ≥ 20, Deno, Bun and edge workers: it uses only Web Crypto (through `jose`). Never
 * ship it, or the secret, to a browser.
 *
 * @example
 * ```ts
 * import { createAccountToken, loginAccountToken } from 'video-plugin/server';
 * const token = await createAccountToken({
 *   partnerID: 'acme', secret: process.env.VIDEO_PLUGIN_SECRET!,
 *   account: { externalID: 'user-42', firstName: 'Ada' },
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
  LoginByAccountIDSchema,
  LoginByExternalIDSchema,
  MAX_TOKEN_LIFETIME_SECONDS,
  SERVICE_DOMAIN,
} from './claims.js';
import { parseOrThrow, strictObject } from './validate.js';
export { ACCOUNT_CLAIM, MAX_TOKEN_LIFETIME_SECONDS, SERVICE_DOMAIN };
/** Token lifetime in seconds when `expiresIn` is not given (the reference recommends about 1 minute). */
export const DEFAULT_EXPIRES_IN = 60;
const signingShape = {
  partnerID: z.string().check(z.minLength(1, { error: 'must not be empty: pass the partner ID the service gave you' })),
  secret: z
    .string()
    .check(z.minLength(1, { error: 'must not be empty: pass the partner secret the service gave you' })),
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
/**
 * Mints a token for `Plugin#createAccount`: a new account on the service, optionally with the
 * user's details and your own ID for them (`externalID`, usable later to log in).
 *
 * @param options.partnerID - your partner ID (the token's `iss`).
 * @param options.secret - your partner secret (HS256 key). Keep it on the server.
 * @param options.account - account fields: firstName, lastName, emailAddress, companyName, phone,
 *   city, state, externalID. Unknown fields are refused.
 * @param options.expiresIn - lifetime in seconds, default 60, at most 3600. Mint the token just before use.
 * @returns the signed token (a compact JWS).
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad field (`data.field`).
 */
export async function createAccountToken(options) {
  const { account, ...signing } = parseOrThrow(CreateOptionsSchema, options, 'createAccountToken');
  return sign(signing, { ...account });
}
/**
 * Mints a token for `Plugin#loginAccount`, identifying the account by the service's `accountID`
 * (returned by `createAccount`) or by the `externalID` you gave at creation — exactly one of them.
 *
 * @param options.partnerID - your partner ID (the token's `iss`).
 * @param options.secret - your partner secret (HS256 key). Keep it on the server.
 * @param options.accountID - the service's account ID; or
 * @param options.externalID - your own ID for the user.
 * @param options.expiresIn - lifetime in seconds, default 60, at most 3600. Mint the token just before use.
 * @returns the signed token (a compact JWS).
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad field (`data.field`).
 */
export async function loginAccountToken(options) {
  const { accountID, externalID, ...signing } = parseOrThrow(LoginOptionsSchema, options, 'loginAccountToken');
  if (accountID === undefined && externalID === undefined) {
    throw new InvalidParameterError(
      'invalid_parameter',
      'loginAccountToken: give "accountID" (the ID createAccount returned) or "externalID" (your own ID for the user); neither was given.',
      { field: 'accountID' },
    );
  }
  if (accountID !== undefined && externalID !== undefined) {
    throw new InvalidParameterError(
      'invalid_parameter',
      'loginAccountToken: give only one of "accountID" or "externalID", not both; remove one.',
      { field: 'externalID' },
    );
  }
  return sign(signing, accountID !== undefined ? { accountID } : { externalID });
}
async function sign(options, accountClaim) {
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({ [ACCOUNT_CLAIM]: accountClaim })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(crypto.randomUUID())
    .setIssuer(options.partnerID)
    .setAudience(SERVICE_DOMAIN)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (options.expiresIn ?? DEFAULT_EXPIRES_IN))
    .sign(new TextEncoder().encode(options.secret));
}
//# sourceMappingURL=index.js.map
