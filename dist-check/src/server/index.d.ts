import * as z from 'zod/mini';
import { ACCOUNT_CLAIM, MAX_TOKEN_LIFETIME_SECONDS, SERVICE_DOMAIN } from './claims.js';
export { ACCOUNT_CLAIM, MAX_TOKEN_LIFETIME_SECONDS, SERVICE_DOMAIN };
export type { AccountClaims, LoginClaims } from './claims.js';
/** Token lifetime in seconds when `expiresIn` is not given (the reference recommends about 1 minute). */
export declare const DEFAULT_EXPIRES_IN = 60;
declare const signingShape: {
  partnerID: z.ZodMiniString<string>;
  secret: z.ZodMiniString<string>;
  expiresIn: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
};
declare const CreateOptionsSchema: z.ZodMiniObject<
  {
    account: z.ZodMiniOptional<
      z.ZodMiniObject<
        {
          externalID: z.ZodMiniOptional<z.ZodMiniString<string>>;
          firstName: z.ZodMiniOptional<z.ZodMiniString<string>>;
          lastName: z.ZodMiniOptional<z.ZodMiniString<string>>;
          emailAddress: z.ZodMiniOptional<z.ZodMiniString<string>>;
          companyName: z.ZodMiniOptional<z.ZodMiniString<string>>;
          phone: z.ZodMiniOptional<z.ZodMiniString<string>>;
          city: z.ZodMiniOptional<z.ZodMiniString<string>>;
          state: z.ZodMiniOptional<z.ZodMiniString<string>>;
        },
        z.core.$strict
      >
    >;
    partnerID: z.ZodMiniString<string>;
    secret: z.ZodMiniString<string>;
    expiresIn: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
  },
  z.core.$strict
>;
/** What every token needs: who signs it and for how long it is valid. */
export type TokenSigningOptions = Pick<z.infer<typeof CreateOptionsSchema>, keyof typeof signingShape>;
/** Options of {@link createAccountToken}. */
export type CreateAccountTokenOptions = z.infer<typeof CreateOptionsSchema>;
/** Options of {@link loginAccountToken}: exactly one of `accountID` or `externalID`. */
export type LoginAccountTokenOptions = TokenSigningOptions &
  (
    | {
        accountID: string;
        externalID?: never;
      }
    | {
        externalID: string;
        accountID?: never;
      }
  );
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
export declare function createAccountToken(options: CreateAccountTokenOptions): Promise<string>;
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
export declare function loginAccountToken(options: LoginAccountTokenOptions): Promise<string>;
//# sourceMappingURL=index.d.ts.map
