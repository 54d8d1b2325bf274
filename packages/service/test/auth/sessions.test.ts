// Sessions end at their idle limit or their absolute limit, whichever comes first (issue 29,
// finding 6), on a driven clock: no test waits for a limit to pass.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sessionOf } from '../../src/auth/sessions.js';
import { DEFAULT_SESSION_IDLE_MS, MAX_SESSION_AGE_MS, resolveConfig } from '../../src/config.js';
import { newId, nowISO, sessionKey, Store } from '../../src/store/store.js';

const store = await Store.open();
after(() => store.close());

/** A new account with a session opened now (by the real clock); its token. */
function loggedIn(): string {
  const owner = { partnerID: 'p', accountID: newId('acct') };
  store.addAccount({ partnerID: owner.partnerID, id: owner.accountID, createdAt: nowISO(), updatedAt: nowISO() });
  return store.createSession(owner);
}

const HOUR = 3600_000;
const limits = { sessionMaxAgeMs: 10 * HOUR, sessionIdleMs: HOUR };

test('the defaults: 24 hours idle, 30 days from the login', () => {
  const config = resolveConfig();
  assert.equal(config.sessionIdleMs, DEFAULT_SESSION_IDLE_MS);
  assert.equal(DEFAULT_SESSION_IDLE_MS, 24 * HOUR);
  assert.equal(config.sessionMaxAgeMs, MAX_SESSION_AGE_MS);
});

test('each call within the idle limit keeps the session; an hour without a call ends it', () => {
  const token = loggedIn();
  const start = Date.now();
  // Calls 59 minutes apart, for 5 hours: each one keeps it alive.
  for (let at = start; at < start + 5 * HOUR; at += HOUR - 60_000) sessionOf(store, token, limits, at);
  const last = start + 5 * (HOUR - 60_000);
  sessionOf(store, token, limits, last);
  assert.throws(() => sessionOf(store, token, limits, last + HOUR), {
    code: 'not_authenticated',
    message: /its idle limit/,
    data: { reason: 'idle' },
  });
  // Ended for good: the session is gone from the store, even at an earlier time.
  assert.throws(() => sessionOf(store, token, limits, last), { code: 'not_authenticated' });
});

test('a session in use still ends at its absolute limit', () => {
  const token = loggedIn();
  const start = Date.now();
  for (let at = start; at < start + 10 * HOUR; at += HOUR / 2) sessionOf(store, token, limits, at);
  assert.throws(() => sessionOf(store, token, limits, start + 10 * HOUR), {
    message: /its age limit/,
    data: { reason: 'max_age' },
  });
  assert.equal(store.sessions.has(sessionKey(token)), false, 'the ended session was removed');
});

test('a session never used since its login ends an idle limit after the login', () => {
  const token = loggedIn();
  const start = Date.now();
  assert.throws(() => sessionOf(store, token, limits, start + HOUR + 1000), { data: { reason: 'idle' } });
});

test('sessionIdleMs is checked: a whole number of ms up to 30 days', () => {
  assert.throws(() => resolveConfig({ sessionIdleMs: -1 }), { code: 'invalid_parameter', message: /sessionIdleMs/ });
  assert.throws(() => resolveConfig({ sessionIdleMs: MAX_SESSION_AGE_MS + 1 }), { message: /sessionIdleMs/ });
});
