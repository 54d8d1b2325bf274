/**
 * Sessions: logging in with a login token (or a sign-in-or-sign-up token, which creates the account
 * first when there is none), logging out.
 */
import * as z from 'zod/mini';
import {
  InvalidTokenError,
  NotFoundError,
  ACCOUNT_CLAIM,
  LoginOrCreateClaimsSchema,
  strictObject,
} from 'video-plugin/internal';
import { newId, nowISO, sessionKey, type AccountRecord } from '../../store/store.js';
import { verifyToken, WARNING_HEADER } from '../../auth/tokens.js';
import { accountView } from '../../store/shapes.js';
import {
  bearer,
  body,
  nonEmpty,
  requireAuthMode,
  spend,
  type ApiContext,
  type Handler,
  type Reply,
} from './request.js';

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
  spend(request, 'tokens');
  const verified = await verifyToken(
    token,
    {
      operation: 'loginAccount',
      kinds: { login: LoginClaim, loginOrCreate: LoginOrCreateClaimsSchema },
      defaultKind: 'login',
      partnerID,
      check: ({ partner, kind, claim }) => {
        requireAuthMode(partner, 'jwt');
        if (kind === 'login') checkLoginClaim(claim);
      },
    },
    tokenContext(ctx),
  );
  if (verified.warning !== undefined) request.res.setHeader(WARNING_HEADER, verified.warning);
  const { partner } = verified;
  if (verified.kind === 'loginOrCreate') {
    // No await between the lookup and the creation: two first visits at once make one account.
    const { externalID } = verified.claim;
    const existing = ctx.store.findAccountByExternalID(partner.id, externalID);
    if (existing) return session(ctx, existing, 200);
    const now = nowISO();
    return created(ctx, {
      partnerID: partner.id,
      id: newId('acct'),
      ...verified.claim,
      createdAt: now,
      updatedAt: now,
    });
  }
  const { claim } = verified;
  const account =
    claim.accountID !== undefined
      ? ctx.store.findAccount(partner.id, claim.accountID)
      : ctx.store.findAccountByExternalID(partner.id, claim.externalID as string);
  if (!account) {
    const [field, value] =
      claim.accountID !== undefined ? ['accountID', claim.accountID] : ['externalID', claim.externalID];
    throw new NotFoundError(
      'account_not_found',
      `No account with ${field} "${value}" exists for partner "${partner.id}". Create it first with createAccount, or log in with a loginOrCreateAccountToken, which creates it when there is none.`,
      { [field]: value },
    );
  }
  return session(ctx, account, 200);
};

/** Saves a new account, its first session and its `account.created` webhook together. */
export function created(ctx: ApiContext, account: AccountRecord): Reply {
  return ctx.store.transaction(() => {
    ctx.store.addAccount(account);
    ctx.webhooks.accountCreated(account);
    return session(ctx, account, 201);
  });
}

function checkLoginClaim(claim: z.infer<typeof LoginClaim>): void {
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
}

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
