/** Sessions: logging in with a login token, logging out. */
import * as z from 'zod/mini';
import { InvalidTokenError, NotFoundError, ACCOUNT_CLAIM, strictObject } from 'video-plugin/internal';
import { sessionKey, type AccountRecord } from '../../store/store.js';
import { verifyToken } from '../../auth/tokens.js';
import { accountView } from '../../store/shapes.js';
import { bearer, body, nonEmpty, type ApiContext, type Handler, type Reply } from './request.js';

// No length cap on the token here: verifyToken refuses long ones with its own code (token_too_large).
export const TokenBody = strictObject({ token: z.string().check(z.minLength(1)), partnerID: z.optional(nonEmpty()) });
const LoginClaim = strictObject({ accountID: z.optional(nonEmpty()), externalID: z.optional(nonEmpty()) });

export const tokenContext = (ctx: ApiContext) => ({ partners: ctx.config.partners, store: ctx.store });

export function session(ctx: ApiContext, account: AccountRecord, status: number): Reply {
  const token = ctx.store.createSession({ partnerID: account.partnerID, accountID: account.id });
  return { status, body: { account: accountView(account), session: token } };
}

export const login: Handler = async (request) => {
  const { ctx } = request;
  const { token, partnerID } = await body(request, TokenBody);
  const { partner, claim } = await verifyToken(token, LoginClaim, tokenContext(ctx), partnerID, (claim) => {
    if (claim.accountID === undefined && claim.externalID === undefined) {
      throw new InvalidTokenError(
        'token_missing_claims',
        `The login token's claim ${ACCOUNT_CLAIM} needs accountID or externalID.`,
        { claims: [`${ACCOUNT_CLAIM}.accountID`] },
      );
    }
    if (claim.accountID !== undefined && claim.externalID !== undefined) {
      throw new InvalidTokenError(
        'token_malformed',
        `The login token's claim ${ACCOUNT_CLAIM} must carry only one of accountID or externalID, not both.`,
        { field: 'externalID' },
      );
    }
  });
  const account =
    claim.accountID !== undefined
      ? ctx.store.findAccount(partner.id, claim.accountID)
      : ctx.store.findAccountByExternalID(partner.id, claim.externalID as string);
  if (!account) {
    const [field, value] =
      claim.accountID !== undefined ? ['accountID', claim.accountID] : ['externalID', claim.externalID];
    throw new NotFoundError(
      'account_not_found',
      `No account with ${field} "${value}" exists for partner "${partner.id}". Create it first with createAccount.`,
      { [field]: value },
    );
  }
  return session(ctx, account, 200);
};

export const logout: Handler = ({ req, ctx }) => {
  // Idempotent: a page cleaning up may not know whether its session still exists.
  const token = bearer(req);
  if (token !== undefined) {
    const key = sessionKey(token);
    ctx.store.deleteSession(key);
    ctx.streams.endSession(key);
  }
  return { status: 204 };
};
