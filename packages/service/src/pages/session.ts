/**
 * The session: in this frame's memory, one per channel (one user per Plugin instance).
 *
 * The session token lives in `api.session` and the account in `accountID`, for as long as this
 * document lives. The frame's own storage holds a best-effort copy, per channel, so that a reload
 * (a move without moveBefore, a navigation, a crash) finds the user still signed in where the
 * browser allows it. Where it does not (third-party storage blocked or cleared) the reloaded page
 * reports `accountID: null` in `ready`, and the host restores the session or reports it lost.
 */
import { INTERNAL_EVENTS, NotAuthenticatedError } from 'video-plugin/internal';
import { studio } from './state.js';
import { readStored, writeStored } from './storage.js';

const { api } = studio;
const storageKey = `video-plugin:session:${studio.partnerID}:${studio.channel ?? 'none'}`;

/** The signed-in account, or null. */
export let accountID: string | null = null;

/** Takes the session this channel kept in the frame's storage, if the browser let it keep one. */
export function restoreSession(): void {
  api.session = readStored(storageKey) ?? undefined;
  accountID = api.session ? readStored(`${storageKey}:account`) : null;
  if (!accountID) api.session = undefined;
  // The service refused this frame's session (it restarted without its data, or the session ended:
  // a logout elsewhere, or its idle or age limit, when the service also closes the status socket
  // with 4401): signed out, and the host is told it was lost, not a logout, so that it restores it
  // through getLoginToken or reports sessionLost. The refused call itself rejects after this.
  api.onSessionRefused = (session) => {
    if (session === api.session) {
      setSession(
        undefined,
        null,
        'in the service: it no longer knows it (it restarted without its data, or the session reached its idle or age limit?)',
      );
    }
  };
}

export function setSession(session: string | undefined, account: string | null, lost?: string): void {
  api.session = session;
  accountID = account;
  const kept = session && account;
  writeStored(storageKey, kept ? session : undefined);
  writeStored(`${storageKey}:account`, kept ? account : undefined);
  studio.hub.restart();
  studio.endpoint.emit(INTERNAL_EVENTS.session, lost ? { accountID, lost } : { accountID });
}

export function requireSession(method: string): void {
  if (!api.session) {
    throw new NotAuthenticatedError(`${method} needs a logged-in account: call loginAccount or createAccount first.`, {
      method,
    });
  }
}

export async function endSession(): Promise<void> {
  if (!api.session) return;
  await api.logout().catch(() => {});
  setSession(undefined, null);
}
