/**
 * Sessions: which account a session token belongs to. The JSON routes (`Authorization: Bearer`)
 * and the page's socket (its first message) both ask here; the open sockets and status streams
 * ask {@link sessionEndsAt} when to end.
 *
 * A session ends at whichever limit comes first (OWASP's session timeouts): `sessionMaxAgeMs` from
 * its login (absolute), or `sessionIdleMs` after its last call (idle). The last call's time is kept
 * in memory, beside the store: a restart of the service counts as a call (the idle clock starts
 * again), which a local stand-in can afford; the absolute limit still holds across restarts.
 */
import { NotAuthenticatedError } from 'video-plugin/internal';
import type { Partner } from '../config.js';
import { Partners } from '../partners.js';
import { sessionKey, type AccountRecord, type Owner, type Store } from '../store/store.js';

/** The session limits (config.ts). */
export interface SessionLimits {
  readonly sessionMaxAgeMs: number;
  readonly sessionIdleMs: number;
  /** The partners: a session of a sandbox that ended is refused as `sandbox_expired` (partners.ts). */
  readonly partners?: ReadonlyMap<string, Partner>;
}

/** When this process started: a session's idle time counts from here at the latest. */
const started = Date.now();

/** When each session of a store was last used (ms since the epoch), by its key. */
const lastUsed = new WeakMap<Store, Map<string, number>>();

/**
 * The account of a session token, for the API and the page's socket alike. A call within the
 * limits counts as the session's last use.
 *
 * @param now - the clock, for tests that move past a limit without waiting for it.
 * @throws {NotAuthenticatedError} `not_authenticated` when there is no token or its session has ended.
 */
export function sessionOf(
  store: Store,
  token: string | undefined,
  limits: SessionLimits,
  now = Date.now(),
): { owner: Owner; account: AccountRecord; key: string } {
  const key = token === undefined ? undefined : sessionKey(token);
  let session = key === undefined ? undefined : store.sessions.get(key);
  let used = lastUsed.get(store);
  if (!used) lastUsed.set(store, (used = new Map()));
  let ended = '';
  if (key !== undefined && session) {
    const ends = endsOf(session.createdAt, used.get(key), limits);
    if (now >= ends.maxAge) ended = 'its age limit';
    else if (now >= ends.idle) ended = 'its idle limit';
    if (ended) {
      store.deleteSession(key);
      session = undefined;
    }
  }
  const account = session && store.findAccount(session.partnerID, session.accountID);
  if (!key || !session || !account) {
    if (key !== undefined) used.delete(key);
    // A session of a sandbox that ended (reset or expired) says so.
    const sandboxEnded =
      key !== undefined && limits.partners instanceof Partners ? limits.partners.endedSessionError(key) : undefined;
    if (sandboxEnded) throw sandboxEnded;
    // Forget the logged-out sessions now and then, so the map stays as small as the store's.
    if (used.size > 2 * store.sessions.size + 1000) {
      for (const known of used.keys()) if (!store.sessions.has(known)) used.delete(known);
    }
    throw new NotAuthenticatedError(
      !token
        ? 'No session: log in first (createAccount or loginAccount) and send Authorization: Bearer <session>.'
        : ended
          ? `The session has ended (${ended}): log in again (createAccount or loginAccount).`
          : 'The session has ended (a log-out, or its age or idle limit) or is unknown: log in again (createAccount or loginAccount).',
      ended ? { reason: ended === 'its age limit' ? 'max_age' : 'idle' } : undefined,
    );
  }
  used.set(key, now);
  return { owner: { partnerID: session.partnerID, accountID: session.accountID }, account, key };
}

/**
 * When the session stored under `key` ends by its limits, if nothing uses it before (ms since the
 * epoch): the open sockets and status streams of a session end at that moment, without waiting for
 * a request to find it ended (http/stream.ts). Asking is not a use. Undefined when the store has
 * no such session (logged out, or ended already).
 */
export function sessionEndsAt(store: Store, key: string, limits: SessionLimits): number | undefined {
  const session = store.sessions.get(key);
  if (!session) return undefined;
  const { maxAge, idle } = endsOf(session.createdAt, lastUsed.get(store)?.get(key), limits);
  return Math.min(maxAge, idle);
}

/** When a session made at `createdAt` and last used at `last` reaches each limit. */
function endsOf(createdAt: string, last: number | undefined, limits: SessionLimits): { maxAge: number; idle: number } {
  const created = Date.parse(createdAt);
  // Never used since this process started: its login, or the start, whichever is later.
  return {
    maxAge: created + limits.sessionMaxAgeMs,
    idle: (last ?? Math.max(created, started)) + limits.sessionIdleMs,
  };
}
