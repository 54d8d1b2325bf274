/**
 * The token contract shared by the server helpers (which mint tokens) and the local service (which
 * verifies them): the service domain, the account claim's name, and the schemas of its contents.
 * No Node-only APIs here: this module runs on partners' servers and edge workers.
 */
import * as z from 'zod/mini';
import { strictObject } from './validate.js';
/** The service's domain: the `aud` of every token and the host part of {@link ACCOUNT_CLAIM}. */
export const SERVICE_DOMAIN = 'video-plugin.example';
/** Name of the token claim that carries the account fields (creation) or the login ID. */
export const ACCOUNT_CLAIM = `https://${SERVICE_DOMAIN}/sdk/account`;
/**
 * Longest token lifetime (`exp` − `iat`) the service accepts, in seconds. The reference recommends
 * about a minute and leaves the maximum open; an hour bounds how long a leaked token works and how
 * long the service must remember its `jti`.
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 3600;
/** Longest accepted account field or ID: generous for names and addresses, small enough to store. */
export const MAX_FIELD_LENGTH = 256;
const text = () => z.string().check(z.maxLength(MAX_FIELD_LENGTH));
const id = () => z.string().check(z.minLength(1), z.maxLength(MAX_FIELD_LENGTH));
/** The account fields a partner may set at creation and change later (all optional). */
export const accountInfoShape = {
  firstName: z.optional(text()),
  lastName: z.optional(text()),
  emailAddress: z.optional(text()),
  companyName: z.optional(text()),
  phone: z.optional(text()),
  city: z.optional(text()),
  state: z.optional(text()),
};
/** Contents of the account claim in an account-creation token. */
export const AccountClaimsSchema = strictObject({
  ...accountInfoShape,
  externalID: z.optional(id()),
});
/** Contents of the account claim in a login token logging in by the service's account ID. */
export const LoginByAccountIDSchema = strictObject({ accountID: id() });
/** Contents of the account claim in a login token logging in by the partner's own user ID. */
export const LoginByExternalIDSchema = strictObject({ externalID: id() });
/** Contents of the account claim in a login token: exactly one of `accountID` or `externalID`. */
export const LoginClaimsSchema = z.union([LoginByAccountIDSchema, LoginByExternalIDSchema]);
//# sourceMappingURL=claims.js.map
