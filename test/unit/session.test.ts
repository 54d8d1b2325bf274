// The account session (src/session.ts), against a fake connection and node:test's mock timers: who
// counts as signed in by auth mode, the errors `require` throws, a lost session reported or restored
// once through getLoginToken, and every way a restore fails (a throw, a non-token, another account,
// the time limit), each with its message; and `token()`, which turns a token or a function of one
// into a token for the restore, createAccount and loginAccount, and how it fails; and the Plugin's
// calls through the session: the resend after a restore, session_lost, a token function's second
// ask on token_expired, a start's idempotency key as metadata.
import assert from 'node:assert/strict';
import { afterEach, describe, mock, test } from 'node:test';
import './support/dom.js';
import {
  DestroyedError,
  InvalidParameterError,
  InvalidTokenError,
  NotAuthenticatedError,
  TimeoutError,
  type VideoPluginError,
} from '../../src/errors.js';
import type { GetLoginToken } from '../../src/options.js';
import { Session } from '../../src/session.js';
import type { PluginEventMap } from '../../src/wire/api.js';

type Lost = PluginEventMap['sessionLost'];

/** A session with a fake connection whose `loginAccount` logs in `loginAs` (default: the token's account). */
function setup({
  authMode = 'jwt' as 'jwt' | 'uncontrolled',
  getLoginToken = undefined as GetLoginToken | undefined,
  loginAs = undefined as string | undefined,
  timeout = 5000,
} = {}) {
  const calls: [string, unknown, unknown][] = [];
  const lost: Lost[] = [];
  const logged: unknown[][] = [];
  const connection = {
    call: async <T>(method: string, params?: unknown, options?: unknown): Promise<T> => {
      calls.push([method, params, options]);
      if (method === 'loginAccount') {
        return { id: loginAs ?? (params as { token: string }).token.replace('token-of-', '') } as T;
      }
      return undefined as T;
    },
    // Connected from the start: the sign-in calls wait on this before they ask a token function.
    whenConnected: async (): Promise<void> => {},
  };
  const session = new Session(
    connection,
    authMode,
    getLoginToken,
    timeout,
    (...line) => logged.push(line),
    (payload) => lost.push(payload),
  );
  return { session, calls, lost, logged };
}

/** Lets every pending promise reaction run (setImmediate is not among the mocked timers). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The error `require` throws, or undefined when it passes. */
function requireError(session: Session, method = 'startVideoGeneration'): unknown {
  try {
    session.require(method);
  } catch (error) {
    return error;
  }
  return undefined;
}

afterEach(() => mock.timers.reset());

describe('require', () => {
  test('names the method and what to do, by auth mode, until an account signs in', () => {
    const jwt = setup().session;
    const error = requireError(jwt);
    assert.ok(error instanceof NotAuthenticatedError);
    assert.equal(error.code, 'not_authenticated');
    assert.equal(
      error.message,
      'startVideoGeneration needs a signed-in account: call loginAccount or createAccount first.',
    );
    assert.deepEqual(error.data, { method: 'startVideoGeneration' });
    assert.match(
      String((requireError(setup({ authMode: 'uncontrolled' }).session, 'searchTopic') as Error).message),
      /^searchTopic needs a signed-in account: let the user sign in through openPlugin first\.$/,
    );
    jwt.signedIn('acc-1');
    assert.equal(requireError(jwt), undefined);
    jwt.signedOut();
    assert.ok(requireError(jwt) instanceof NotAuthenticatedError);
  });

  test("JWT mode: the frame's session alone does not authenticate; uncontrolled: it does, and a sign-out ends it", () => {
    const jwt = setup().session;
    assert.equal(jwt.connected({ accountID: 'acc-1' }), undefined);
    assert.ok(requireError(jwt), "the frame's session authenticated a JWT-mode Plugin");

    const ui = setup({ authMode: 'uncontrolled' }).session;
    ui.connected({ accountID: 'acc-1' });
    assert.equal(requireError(ui), undefined);
    ui.changed({ accountID: null });
    assert.ok(requireError(ui) instanceof NotAuthenticatedError);
    ui.changed({ accountID: 'acc-2' });
    assert.equal(requireError(ui), undefined);
    // No accountID in the info: nothing changes.
    ui.changed({});
    ui.connected(undefined);
    assert.equal(requireError(ui), undefined);
  });
});

describe('a lost session, reported', () => {
  test('JWT mode without getLoginToken: sessionLost with the cause, and account calls reject with it', () => {
    const { session, lost, logged } = setup();
    session.signedIn('acc-1');
    assert.equal(session.connected({ accountID: null, lost: 'The frame came back without its storage' }), undefined);
    assert.equal(lost.length, 1);
    const { accountID, error } = lost[0]!;
    assert.equal(accountID, 'acc-1');
    assert.ok(error instanceof NotAuthenticatedError);
    assert.equal(error.code, 'session_lost');
    assert.equal(
      error.message,
      'The service iframe lost the session of account acc-1 The frame came back without its storage. Pass the getLoginToken option, or call loginAccount again.',
    );
    assert.deepEqual(error.data, { accountID: 'acc-1' });
    assert.equal(session.lost, error);
    assert.equal(requireError(session), error);
    assert.deepEqual(logged.at(-1), ['session lost', 'acc-1']);
    // A new login clears it.
    session.signedIn('acc-1');
    assert.equal(session.lost, undefined);
    assert.equal(requireError(session), undefined);
  });

  test('uncontrolled: sessionLost tells the user to sign in again, and nothing is kept as lost', () => {
    const { session, lost } = setup({ authMode: 'uncontrolled' });
    session.connected({ accountID: 'acc-1' });
    session.connected({ accountID: null, lost: 'The service restarted' });
    assert.equal(lost.length, 1);
    assert.match(lost[0]!.error.message, /acc-1 The service restarted\. The user signs in again in the frame\.$/);
    assert.equal(session.lost, undefined);
    assert.equal((requireError(session) as NotAuthenticatedError).code, 'not_authenticated');
  });

  test('the frame reconnecting with the same account, or with none before, loses nothing', () => {
    const { session, lost } = setup({ authMode: 'uncontrolled' });
    assert.equal(session.connected({ accountID: null }), undefined);
    session.connected({ accountID: 'acc-1' });
    assert.equal(session.connected({ accountID: 'acc-1' }), undefined);
    assert.equal(lost.length, 0);
  });

  test("changed(): the page's `lost` loses the account it had, and only when it had one", () => {
    const { session, lost } = setup();
    session.changed({ accountID: null, lost: 'The service forgot the session' });
    assert.equal(lost.length, 0, 'a session was lost that nobody had');
    session.signedIn('acc-1');
    session.changed({ accountID: 'acc-1' });
    assert.equal(lost.length, 0);
    session.changed({ accountID: null, lost: 'The service forgot the session' });
    assert.equal(lost.length, 1);
    assert.match(lost[0]!.error.message, /account acc-1 The service forgot the session\. Pass the getLoginToken/);
  });
});

describe('a lost session, restored with getLoginToken', () => {
  test('logs the same account back in, once, with early calls; connected() meanwhile returns the same attempt', async () => {
    const asked: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { session, calls, lost } = setup({
      getLoginToken: async (accountID) => {
        asked.push(accountID);
        await gate;
        return `token-of-${accountID}`;
      },
    });
    session.signedIn('acc-1');
    const restoring = session.connected({ accountID: null });
    assert.ok(restoring instanceof Promise);
    assert.equal(session.restoring, restoring);
    assert.ok(requireError(session), 'authenticated while the session was lost');
    // A reload during the restore waits for the same attempt.
    assert.equal(session.connected({ accountID: null }), restoring);
    release();
    await restoring;
    assert.deepEqual(asked, ['acc-1']);
    assert.deepEqual(calls, [['loginAccount', { token: 'token-of-acc-1' }, { early: true }]]);
    assert.equal(requireError(session), undefined);
    assert.equal(session.restoring, undefined);
    assert.equal(lost.length, 0);
  });

  test('a token that logs in another account: that one is logged out again, and the loss reported', async () => {
    const { session, calls, lost } = setup({ getLoginToken: () => 'token', loginAs: 'acc-2' });
    session.signedIn('acc-1');
    await session.connected({ accountID: null, lost: 'The frame came back without its storage' });
    assert.deepEqual(
      calls.map(([method, , options]) => [method, options]),
      [
        ['loginAccount', { early: true }],
        ['logoutAccount', { early: true }],
      ],
    );
    assert.equal(
      lost[0]?.error.message,
      'The service iframe lost the session of account acc-1 The frame came back without its storage; getLoginToken did not restore it (its token logged in the account acc-2). Call loginAccount again.',
    );
    assert.equal(session.lost, lost[0]!.error);
    assert.equal(session.restoring, undefined);
  });

  test('a getLoginToken that throws, or rejects, is reported with its message', async () => {
    for (const getLoginToken of [
      () => {
        throw new Error('the partner server is down');
      },
      () => Promise.reject(new Error('the partner server is down')),
    ]) {
      const { session, calls, lost } = setup({ getLoginToken });
      session.signedIn('acc-1');
      await session.connected({ accountID: null, lost: 'Lost' });
      assert.deepEqual(calls, []);
      assert.match(lost[0]!.error.message, /Lost; getLoginToken did not restore it \(the partner server is down\)\./);
    }
  });

  test('a result that is not a token is refused, naming it', async () => {
    const { session, calls, lost } = setup({ getLoginToken: () => 42 as unknown as string });
    session.signedIn('acc-1');
    await session.connected({ accountID: null, lost: 'Lost' });
    assert.deepEqual(calls, []);
    assert.match(
      lost[0]!.error.message,
      /getLoginToken did not restore it \(getLoginToken's result must be a string of 1 to 8192 characters, got 42\.\)/,
    );
  });

  test('a getLoginToken that never settles fails at the time limit', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { session, lost } = setup({ getLoginToken: () => new Promise<string>(() => {}), timeout: 2500 });
    session.signedIn('acc-1');
    const restoring = session.connected({ accountID: null, lost: 'Lost' });
    // Let getLoginToken be called (a microtask), then pass the limit.
    await settle();
    mock.timers.tick(2499);
    await settle();
    assert.equal(lost.length, 0);
    mock.timers.tick(1);
    await restoring;
    assert.match(
      lost[0]!.error.message,
      /getLoginToken did not restore it \(getLoginToken gave no token within 2500 ms: make it answer sooner, or pass a larger callTimeout\.\)/,
    );
  });

  test('stop() ends the time limit and the restore, unreported: no restore outlives the Plugin', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { session, calls, lost } = setup({ getLoginToken: () => new Promise<string>(() => {}), timeout: 2500 });
    session.signedIn('acc-1');
    const restoring = session.connected({ accountID: null, lost: 'Lost' });
    await settle();
    session.stop();
    // The restore ends at once (the waiting calls are the destroyed connection's), with nothing sent.
    await restoring;
    assert.equal(session.restoring, undefined);
    mock.timers.tick(10_000);
    await settle();
    assert.equal(lost.length, 0);
    assert.deepEqual(calls, []);
  });

  test('uncontrolled mode never calls getLoginToken', () => {
    let asked = 0;
    const { session, lost } = setup({ authMode: 'uncontrolled', getLoginToken: () => String(++asked) });
    session.connected({ accountID: 'acc-1' });
    assert.equal(session.connected({ accountID: null, lost: 'Lost' }), undefined);
    assert.equal(asked, 0);
    assert.equal(lost.length, 1);
  });
});

describe('token(): a token, or a function of one (the restore, createAccount and loginAccount)', () => {
  /** What `token()` rejects with. */
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => assert.fail('token() resolved'),
      (error: unknown) => error as VideoPluginError,
    );

  test('a string is the token; anything else that is not a function is refused, naming the argument', async () => {
    const { session } = setup();
    assert.equal(await session.token('a.b.c', 'loginAccountToken'), 'a.b.c');
    for (const bad of ['', 42, undefined, null, {}, 'x'.repeat(8193)]) {
      const error = await failure(session.token(bad, 'loginAccountToken'));
      assert.ok(error instanceof InvalidParameterError);
      assert.match(error.message, /^loginAccountToken must be a string of 1 to 8192 characters, got /);
      assert.deepEqual(error.data, { field: 'loginAccountToken' });
    }
  });

  test('a function is called once (with the account ID, if any), and what it gives or resolves to is the token', async () => {
    const { session } = setup();
    const asked: unknown[][] = [];
    assert.equal(
      await session.token((...args: unknown[]) => (asked.push(args), 'a.b.c'), 'createAccountToken'),
      'a.b.c',
    );
    assert.equal(
      await session.token(async (...args: unknown[]) => (asked.push(args), 'd.e.f'), 'getLoginToken', 'acc-1'),
      'd.e.f',
    );
    assert.deepEqual(asked, [[undefined], ['acc-1']]);
  });

  test('a function that throws or rejects: its own error, as thrown', async () => {
    const { session } = setup();
    const thrown = new Error('the partner server is down');
    for (const fn of [
      () => {
        throw thrown;
      },
      () => Promise.reject(thrown),
    ]) {
      assert.equal(await failure(session.token(fn, 'loginAccountToken')), thrown);
    }
  });

  test("a function whose result is not a token: an InvalidParameterError naming the argument's result", async () => {
    const { session } = setup();
    for (const result of [undefined, 42, '', { token: 'a.b.c' }]) {
      const error = await failure(session.token(() => result, 'loginAccountToken'));
      assert.ok(error instanceof InvalidParameterError);
      assert.match(error.message, /^loginAccountToken's result must be a string of 1 to 8192 characters, got /);
      assert.deepEqual(error.data, { field: "loginAccountToken's result" });
    }
  });

  test('a function that never settles: a TimeoutError naming it at the time limit, not before', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { session } = setup({ timeout: 2500 });
    let settled = false;
    const result = failure(session.token(() => new Promise<string>(() => {}), 'loginAccountToken')).finally(
      () => (settled = true),
    );
    await settle();
    mock.timers.tick(2499);
    await settle();
    assert.equal(settled, false);
    mock.timers.tick(1);
    const error = await result;
    assert.ok(error instanceof TimeoutError);
    assert.equal(
      error.message,
      'loginAccountToken gave no token within 2500 ms: make it answer sooner, or pass a larger callTimeout.',
    );
  });

  test('a token in time clears its time limit: no timer of the Plugin is left in the page', async () => {
    const { session } = setup({ timeout: 2500 });
    const set = mock.method(globalThis, 'setTimeout');
    const cleared = mock.method(globalThis, 'clearTimeout');
    try {
      assert.equal(await session.token(async () => 'a.b.c', 'loginAccountToken'), 'a.b.c');
      assert.equal(set.mock.calls.length, 1);
      const timer = set.mock.calls[0]!.result;
      assert.ok(cleared.mock.calls.some(({ arguments: [id] }) => id === timer));
    } finally {
      set.mock.restore();
      cleared.mock.restore();
    }
  });

  test('stop() (cleanup) ends every wait for a token at once with a DestroyedError', async () => {
    const { session } = setup();
    const waits = [
      failure(session.token(() => new Promise<string>(() => {}), 'loginAccountToken')),
      failure(session.token(() => new Promise<string>(() => {}), 'createAccountToken')),
    ];
    await settle();
    session.stop();
    for (const error of await Promise.all(waits)) {
      assert.ok(error instanceof DestroyedError);
      assert.equal(error.message, 'cleanup() ended this call: create a new Plugin.');
    }
  });
});

/**
 * A session over a fake connection that answers each method with `answers[method]`, called with the
 * params and the number of the send (an Error it returns rejects the call), and records every send.
 */
function answering(answers: Record<string, (params: unknown, send: number) => unknown>, getLoginToken?: GetLoginToken) {
  const sent: [string, unknown, unknown][] = [];
  const connection = {
    call: async <T>(method: string, params?: unknown, options?: unknown): Promise<T> => {
      sent.push([method, params, options]);
      const answer = answers[method]?.(params, sent.filter(([m]) => m === method).length);
      if (answer instanceof Error) throw answer;
      return answer as T;
    },
    whenConnected: async (): Promise<void> => {},
  };
  const session = new Session(
    connection,
    'jwt',
    getLoginToken,
    5000,
    () => {},
    () => {},
  );
  return { session, sent };
}

describe("the Plugin's calls: call, signIn, start", () => {
  test('an account call the service refused during a restore is sent again once the session is restored', async () => {
    const { session, sent } = answering(
      {
        getVideos: (_, send) => (send === 1 ? new NotAuthenticatedError('Not signed in.') : []),
        loginAccount: () => ({ id: 'acc-1' }),
      },
      () => 'token-of-acc-1',
    );
    session.signedIn('acc-1');
    const restoring = session.connected({ accountID: null });
    assert.ok(restoring instanceof Promise);
    assert.deepEqual(await session.call('getVideos', undefined), []);
    assert.deepEqual(
      sent.map(([method]) => method),
      ['getVideos', 'loginAccount', 'getVideos'],
    );
  });

  test('after a loss that was not restored, account calls reject with session_lost; ping and the account methods do not', async () => {
    const { session, sent } = answering({ getVideos: () => [], ping: () => null, logoutAccount: () => null });
    session.signedIn('acc-1');
    session.connected({ accountID: null, lost: 'The frame came back without its storage' });
    const error = await session.call('getVideos', undefined).catch((e: VideoPluginError) => e);
    assert.ok(error instanceof NotAuthenticatedError);
    assert.equal(error.code, 'session_lost');
    assert.equal(error, session.lost);
    assert.equal(await session.call('ping', undefined), null);
    assert.equal(await session.call('logoutAccount', undefined), null);
    assert.equal(sent.length, 3);
  });

  test('signIn asks a token function again, once, when its token expired; a second expiry rejects as the service said', async () => {
    const expired = () => new InvalidTokenError('token_expired', 'The token has expired.');
    const once = answering({ loginAccount: (_, send) => (send === 1 ? expired() : { id: 'acc-1' }) });
    let asked = 0;
    let checked = 0;
    const account = await once.session.signIn(
      'loginAccount',
      () => `token-${++asked}`,
      () => checked++,
    );
    assert.deepEqual(account, { id: 'acc-1' });
    assert.deepEqual(
      once.sent.map(([, params]) => params),
      [{ token: 'token-1' }, { token: 'token-2' }],
    );
    assert.equal(checked, 2, 'the Plugin checks its state before each try');

    const twice = answering({ loginAccount: () => expired() });
    const error = await twice.session
      .signIn(
        'loginAccount',
        () => 'token',
        () => {},
      )
      .catch((e: VideoPluginError) => e);
    assert.ok(error instanceof InvalidTokenError);
    assert.equal(error.code, 'token_expired');
    assert.equal(twice.sent.length, 2);

    // A token given as a string is not asked again: its expiry rejects at once.
    const string = answering({ loginAccount: () => expired() });
    await assert.rejects(
      string.session.signIn('loginAccount', 'token', () => {}),
      { code: 'token_expired' },
    );
    assert.equal(string.sent.length, 1);
  });

  test('start sends the idempotency key as the call metadata, may be sent again only with one, and needs an account', async () => {
    const { session, sent } = answering({ startTopicSearch: () => ({ topicId: 't1' }) });
    assert.throws(() => session.start('startTopicSearch', { sourceURL: 'https://example.com/' }, undefined), {
      code: 'not_authenticated',
    });
    session.signedIn('acc-1');
    await session.start('startTopicSearch', { sourceURL: 'https://example.com/' }, { idempotencyKey: 'key-1' });
    await session.start('startTopicSearch', { sourceURL: 'https://example.com/' }, undefined);
    assert.deepEqual(
      sent.map(([, params, options]) => [params, options]),
      [
        [{ sourceURL: 'https://example.com/' }, { meta: { idempotencyKey: 'key-1' }, signal: undefined, resend: true }],
        [
          { sourceURL: 'https://example.com/' },
          { meta: { idempotencyKey: undefined }, signal: undefined, resend: false },
        ],
      ],
    );
  });
});
