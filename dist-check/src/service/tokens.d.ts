import type * as z from 'zod/mini';
import type { Partner } from './config.js';
import type { Store } from './store.js';
/** Longest accepted token, in bytes: a token with every account field filled is well under 2 KB. */
export declare const MAX_TOKEN_BYTES = 8192;
/** Allowed difference between the partner's clock and ours, in seconds. */
export declare const CLOCK_SKEW_SECONDS = 30;
/** A verified token: the partner who signed it and the contents of its account claim. */
export interface VerifiedToken<Claim> {
  partner: Partner;
  claim: Claim;
}
/** What verification needs from the service. */
export interface TokenContext {
  partners: ReadonlyMap<string, Partner>;
  store: Store;
  /** Current time in ms; replaceable in tests. */
  now?: () => number;
}
/**
 * Verifies a token and consumes its `jti`. `claimSchema` validates the account claim for the
 * operation (creation or login); `claimCheck` may refuse it further. Throws an
 * {@link InvalidTokenError} whose `code` names the failure.
 *
 * @param expectedPartnerID - the partner the plugin was created for, when the caller knows it; a
 *   token from another partner is then refused as `token_unknown_issuer`.
 */
export declare function verifyToken<S extends z.ZodMiniType>(
  token: string,
  claimSchema: S,
  context: TokenContext,
  expectedPartnerID?: string,
  claimCheck?: (claim: z.infer<S>) => void,
): Promise<VerifiedToken<z.infer<S>>>;
//# sourceMappingURL=tokens.d.ts.map
