/** Accounts: creating one with an account token, passwordless sign-in, reading and updating one's own. */
import { ACCOUNT_FIELD_LIMITS, AccountClaimsSchema, accountInfoShape, strictObject } from 'video-plugin/internal';
import { newId, nowISO, type AccountRecord } from '../../store/store.js';
import { verifyToken, WARNING_HEADER } from '../../auth/tokens.js';
import { accountView } from '../../store/shapes.js';
import { authenticate, body, nonEmpty, partnerOf, requireAuthMode, spend, type Handler } from './request.js';
import { created, session, TokenBody, tokenContext } from './sessions.js';

const SignInBody = strictObject({
  emailAddress: nonEmpty(ACCOUNT_FIELD_LIMITS.emailAddress),
  firstName: accountInfoShape.firstName,
  lastName: accountInfoShape.lastName,
});
const AccountUpdateBody = strictObject(accountInfoShape);

export const createAccount: Handler = async (request) => {
  const { ctx } = request;
  const { token, partnerID } = await body(request, TokenBody);
  spend(request, 'tokens');
  const { partner, claim, warning } = await verifyToken(
    token,
    {
      operation: 'createAccount',
      kinds: { create: AccountClaimsSchema },
      defaultKind: 'create',
      partnerID,
      // Before the token is used up: a refused one can be used once the partner allows the mode.
      check: ({ partner }) => requireAuthMode(partner, 'jwt'),
    },
    tokenContext(ctx),
  );
  if (warning !== undefined) request.res.setHeader(WARNING_HEADER, warning);
  const now = nowISO();
  const account: AccountRecord = { partnerID: partner.id, id: newId('acct'), ...claim, createdAt: now, updatedAt: now };
  return created(ctx, account);
};

export const signIn: Handler = async (request) => {
  const { ctx } = request;
  const partner = partnerOf(request);
  // The partner decides: without `uncontrolled`, nobody creates or enters its accounts this way,
  // and no account.created webhook fires.
  requireAuthMode(partner, 'uncontrolled');
  const { emailAddress, firstName, lastName } = await body(request, SignInBody);
  spend(request, 'signIn', { partnerID: partner.id });
  const wanted = emailAddress.toLowerCase();
  // Passwordless, so it may enter only accounts it made itself, never one made with a token.
  const existing = [...ctx.store.accounts.values()].find(
    (account) =>
      account.partnerID === partner.id && account.signIn === true && account.emailAddress?.toLowerCase() === wanted,
  );
  if (existing) return session(ctx, existing, 200);
  const now = nowISO();
  const account: AccountRecord = {
    partnerID: partner.id,
    id: newId('acct'),
    emailAddress,
    ...(firstName !== undefined ? { firstName } : {}),
    ...(lastName !== undefined ? { lastName } : {}),
    createdAt: now,
    updatedAt: now,
    signIn: true,
  };
  return created(ctx, account);
};

export const getAccount: Handler = (request) => ({
  status: 200,
  body: { account: accountView(authenticate(request).account) },
});

export const updateAccount: Handler = async (request) => {
  const { account } = authenticate(request);
  const update = await body(request, AccountUpdateBody);
  const updated: AccountRecord = { ...account };
  let changed = false;
  for (const [field, value] of Object.entries(update) as [keyof typeof update, string | undefined][]) {
    // Only the fields given change; a field given as undefined (dropped by JSON) is not given.
    if (value !== undefined && updated[field] !== value) {
      updated[field] = value;
      changed = true;
    }
  }
  if (!changed) return { status: 200, body: { account: accountView(account) } };
  updated.updatedAt = nowISO();
  request.ctx.store.saveAccount(updated);
  return { status: 200, body: { account: accountView(updated) } };
};
