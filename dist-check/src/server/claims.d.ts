/**
 * The token contract shared by the server helpers (which mint tokens) and the local service (which
 * verifies them): the service domain, the account claim's name, and the schemas of its contents.
 * No Node-only APIs here: this module runs on partners' servers and edge workers.
 */
import * as z from 'zod/mini';
/** The service's domain: the `aud` of every token and the host part of {@link ACCOUNT_CLAIM}. */
export declare const SERVICE_DOMAIN = 'video-plugin.example';
/** Name of the token claim that carries the account fields (creation) or the login ID. */
export declare const ACCOUNT_CLAIM: 'https://video-plugin.example/sdk/account';
/**
 * Longest token lifetime (`exp` − `iat`) the service accepts, in seconds. The reference recommends
 * about a minute and leaves the maximum open; an hour bounds how long a leaked token works and how
 * long the service must remember its `jti`.
 */
export declare const MAX_TOKEN_LIFETIME_SECONDS = 3600;
/** Longest accepted account field or ID: generous for names and addresses, small enough to store. */
export declare const MAX_FIELD_LENGTH = 256;
/** The account fields a partner may set at creation and change later (all optional). */
export declare const accountInfoShape: {
  firstName: z.ZodMiniOptional<z.ZodMiniString<string>>;
  lastName: z.ZodMiniOptional<z.ZodMiniString<string>>;
  emailAddress: z.ZodMiniOptional<z.ZodMiniString<string>>;
  companyName: z.ZodMiniOptional<z.ZodMiniString<string>>;
  phone: z.ZodMiniOptional<z.ZodMiniString<string>>;
  city: z.ZodMiniOptional<z.ZodMiniString<string>>;
  state: z.ZodMiniOptional<z.ZodMiniString<string>>;
};
/** Contents of the account claim in an account-creation token. */
export declare const AccountClaimsSchema: z.ZodMiniObject<
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
>;
/** Contents of the account claim in a login token logging in by the service's account ID. */
export declare const LoginByAccountIDSchema: z.ZodMiniObject<
  {
    accountID: z.ZodMiniString<string>;
  },
  z.core.$strict
>;
/** Contents of the account claim in a login token logging in by the partner's own user ID. */
export declare const LoginByExternalIDSchema: z.ZodMiniObject<
  {
    externalID: z.ZodMiniString<string>;
  },
  z.core.$strict
>;
/** Contents of the account claim in a login token: exactly one of `accountID` or `externalID`. */
export declare const LoginClaimsSchema: z.ZodMiniUnion<
  readonly [
    z.ZodMiniObject<
      {
        accountID: z.ZodMiniString<string>;
      },
      z.core.$strict
    >,
    z.ZodMiniObject<
      {
        externalID: z.ZodMiniString<string>;
      },
      z.core.$strict
    >,
  ]
>;
/** Account fields carried by an account-creation token (all optional). */
export type AccountClaims = z.infer<typeof AccountClaimsSchema>;
/** The login ID carried by a login token: `{ accountID }` or `{ externalID }`. */
export type LoginClaims = z.infer<typeof LoginClaimsSchema>;
//# sourceMappingURL=claims.d.ts.map
