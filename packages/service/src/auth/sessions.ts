/**
 * Sessions: which account a session token belongs to. The JSON routes (`Authorization: Bearer`)
 * and the page's socket (its first message) both ask here.
 */
import { NotAuthenticatedError } from 'video-plugin/internal';
import { sessionKey, type AccountRecord, type Owner, type Store } from '../store/store.js';

/**
 * The account of a session token, for the API and the page's socket alike.
 *
 * @throws {NotAuthenticatedError} `not_authenticated` when there is no token or its session has ended.
 */
export function sessionOf(
  store: Store,
  token: string | undefined,
): { owner: Owner; account: AccountRecord; key: string } {
  const key = token === undefined ? undefined : sessionKey(token);
  const session = key === undefined ? undefined : store.sessions.get(key);
  const account = session && store.findAccount(session.partnerID, session.accountID);
  if (!key || !session || !account) {
    throw new NotAuthenticatedError(
      'not_authenticated',
      token
        ? 'The session has ended or is unknown: log in again (createAccount or loginAccount).'
        : 'No session: log in first (createAccount or loginAccount) and send Authorization: Bearer <session>.',
    );
  }
  return { owner: { partnerID: session.partnerID, accountID: session.accountID }, account, key };
}
