/**
 * Session restore: how a lost session is logged back in. The frame came back from a reload without
 * the account's session (its storage was denied or cleared), or the service forgot it; in JWT mode
 * with `getLoginToken` the `Plugin` asks the partner's server for a fresh login token, once, and
 * logs the same account in with it. The `Plugin` keeps the state (what is lost, the calls it
 * holds meanwhile); this module is the procedure.
 */
import { tokenSchema, type GetLoginToken } from './options.js';
import { parse } from './validate.js';
import type { Account } from './wire/api.js';
import type { HostConnection } from './wire/host.js';

/**
 * Logs `accountID` back in with a token from `getLoginToken`, which must settle within `timeout`
 * ms (`onTimer` is given the timer, for the `Plugin` to clear at cleanup). Throws, saying why, when
 * the token does not come, is not a token, or logs another account in (which is logged out again).
 */
export async function logBackIn(
  connection: Pick<HostConnection, 'call'>,
  accountID: string,
  getLoginToken: GetLoginToken,
  timeout: number,
  onTimer: (timer: ReturnType<typeof setTimeout>) => void,
): Promise<void> {
  const token = parse(
    tokenSchema,
    await new Promise((resolve, reject) => {
      onTimer(setTimeout(() => reject(new Error(`it did not settle within ${timeout} ms`)), timeout));
      // A partner function may throw instead of rejecting: catch both.
      Promise.resolve(accountID).then(getLoginToken).then(resolve, reject);
    }),
    // Read in the Plugin's message: "getLoginToken did not restore it (its result must be …)".
    'its result',
  );
  const account = await connection.call<Account>('loginAccount', { token }, { early: true });
  if (account.id !== accountID) {
    await connection.call('logoutAccount', undefined, { early: true });
    throw new Error(`its token logged in the account ${account.id}`);
  }
}
