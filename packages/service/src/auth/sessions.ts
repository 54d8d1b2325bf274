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
  maxAgeMs: number,
): { owner: Owner; account: AccountRecord; key: string } {
  const key = token === undefined ? undefined : sessionKey(token);
  let session = key === undefined ? undefined : store.sessions.get(key);
  // A session lives at most maxAgeMs from its login (OWASP's absolute timeout); an old one ends here.
  if (key !== undefined && session && Date.now() - Date.parse(session.createdAt) >= maxAgeMs) {
    store.deleteSession(key);
    session = undefined;
  }
  const account = session && store.findAccount(session.partnerID, session.accountID);
  if (!key || !session || !account) {
    throw new NotAuthenticatedError(
      'not_authenticated',
      token
        ? 'The session has ended (a log-out, or its age limit) or is unknown: log in again (createAccount or loginAccount).'
        : 'No session: log in first (createAccount or loginAccount) and send Authorization: Bearer <session>.',
    );
  }
  return { owner: { partnerID: session.partnerID, accountID: session.accountID }, account, key };
}
