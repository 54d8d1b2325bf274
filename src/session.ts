/**
 * The account session of one `Plugin`, apart from its public methods: who is signed in, whether
 * an account was authenticated in this session (what the start methods need), and what happens
 * when the frame loses the session. The frame came back from a reload without it (its storage was
 * denied or cleared), or the service forgot it (a restart without its data): in JWT mode with
 * `getLoginToken` the session asks the partner's server for a fresh login token, once, and logs
 * the same account back in, while the `Plugin` holds the calls that wait; otherwise it reports
 * `sessionLost`, and account calls reject with that error until a new login. `token()` is where a
 * token function (`getLoginToken`, or one given to `createAccount`/`loginAccount`) is called.
 *
 * The `Plugin`'s calls go through the session (`call`, `signIn`, `start`), because what happens to
 * a call depends on it: one refused during a restore is sent again once restored, one answered
 * for nobody after a loss rejects with `session_lost`, a token function is asked again once on
 * `token_expired`, and a start needs an authenticated account. The `Plugin` checks its own state
 * and the arguments first.
 */
import type { Logger } from './debug.js';
import { DestroyedError, NotAuthenticatedError, TimeoutError, type VideoPluginError } from './errors.js';
import { startOptionsSchema, tokenSchema, type GetLoginToken, type StartOptions } from './options.js';
import { parse } from './validate.js';
import type { MethodName, Methods, PluginEventMap, SessionInfo } from './wire/api.js';
import type { CallOptions, HostConnection } from './wire/host.js';

export class Session {
  /** JWT mode: the session was lost and not restored; account calls reject with this. */
  lost: NotAuthenticatedError | undefined;
  /** The one attempt to log a lost session back in, while it runs (it holds the queued calls). */
  restoring: Promise<void> | undefined;
  readonly #authMode: 'jwt' | 'uncontrolled';
  readonly #getLoginToken: GetLoginToken | undefined;
  readonly #timeout: number;
  readonly #connection: Pick<HostConnection<Methods>, 'call' | 'whenConnected'>;
  readonly #log: Logger;
  readonly #onLost: (payload: PluginEventMap['sessionLost']) => void;
  /** Whether an account was authenticated in this session (create/login, or the UI's sign-in). */
  #authenticated = false;
  #accountID: string | null = null;
  /** Ends each token function's wait (its time limit) with an error, or with none once it settled. */
  readonly #waits = new Set<(error?: Error) => void>();

  /**
   * `getLoginToken` (JWT mode: the partner's function that mints a login token) may take
   * `timeout` ms; `onLost` reports a session that was lost and not restored (`sessionLost`).
   */
  constructor(
    connection: Pick<HostConnection<Methods>, 'call' | 'whenConnected'>,
    authMode: 'jwt' | 'uncontrolled',
    getLoginToken: GetLoginToken | undefined,
    timeout: number,
    log: Logger,
    onLost: (payload: PluginEventMap['sessionLost']) => void,
  ) {
    this.#connection = connection;
    this.#authMode = authMode;
    this.#getLoginToken = getLoginToken;
    this.#timeout = timeout;
    this.#log = log;
    this.#onLost = onLost;
  }

  /** `createAccount` or `loginAccount` (or a restore) logged `accountID` in. */
  signedIn(accountID: string): void {
    this.#authenticated = true;
    this.#accountID = accountID;
    this.lost = undefined;
    this.#log('logged in', accountID);
  }

  /** `logoutAccount`: nobody is signed in, and nothing is lost any more. */
  signedOut(): void {
    this.#authenticated = false;
    this.#accountID = null;
    this.lost = undefined;
  }

  /** Throws, naming `method`, unless an account was authenticated in this session. */
  require(method: string): void {
    if (this.#authenticated) return;
    throw (
      this.lost ??
      new NotAuthenticatedError(
        `${method} needs a signed-in account: ${
          this.#authMode === 'jwt' ? 'call loginAccount or createAccount' : 'let the user sign in through openPlugin'
        } first.`,
        { method },
      )
    );
  }

  /**
   * The frame connected (again) and said whose session it has. After a reload without the
   * account's session, the restore; a reload during the restore waits for the same attempt: one
   * per lost session. The connection holds the queued calls until the promise settles.
   */
  connected(info: unknown): Promise<void> | undefined {
    const had = this.#accountID;
    this.#update(info);
    return this.restoring ?? (had && had !== this.#accountID ? this.#lose(had, (info as SessionInfo).lost) : undefined);
  }

  /**
   * The frame's session changed (a sign-in or sign-out in the UI). When the service no longer
   * knows the frame's session (a restart without its data), the page says so in `lost` (the cause,
   * in words), and it is lost as on a reload without storage.
   */
  changed(info: unknown): void {
    const had = this.#accountID;
    this.#update(info);
    const { lost } = info as SessionInfo;
    if (lost && had) void this.#lose(had, lost);
  }

  /**
   * `cleanup()`: no wait for a token outlives the `Plugin`. Each rejects with a `DestroyedError`
   * (the restore's is not reported: nobody listens any more).
   */
  stop(): void {
    for (const end of this.#waits) end(new DestroyedError('cleanup() ended this call: create a new Plugin.'));
  }

  /**
   * The token `token` gives: itself, when it is one, or what the function (called with
   * `accountID`) resolves to within the time limit. The one place a token function is called (the
   * restore, `createAccount` and `loginAccount`), so each fails the same way: an
   * `InvalidParameterError` naming `field` (or its result) for anything but a token, a
   * `TimeoutError` naming it at the limit, or what the function threw, as it threw it.
   */
  async token(token: unknown, field: string, accountID?: string): Promise<string> {
    if (typeof token != 'function') return parse(tokenSchema, token, field);
    const timeout = this.#timeout;
    let end!: (error?: Error) => void;
    try {
      return parse(
        tokenSchema,
        await new Promise((resolve, reject) => {
          const timer = setTimeout(
            () =>
              reject(
                new TimeoutError(
                  `${field} gave no token within ${timeout} ms: make it answer sooner, or pass a larger callTimeout.`,
                ),
              ),
            timeout,
          );
          this.#waits.add(
            (end = (error) => {
              clearTimeout(timer);
              reject(error);
            }),
          );
          // A partner function may throw instead of rejecting: catch both.
          Promise.resolve(accountID as string)
            .then(token as GetLoginToken)
            .then(resolve, reject);
        }),
        `${field}'s result`,
      );
    } finally {
      // Settled: the timer goes (a rejection after the settlement changes nothing).
      this.#waits.delete(end);
      end();
    }
  }

  /**
   * Calls the service. A call for the account (every method but ping, close and the
   * create/login/logout ones) that the service refused while a restore ran (it restarted without
   * its data: the page said so before this answer) did nothing: it is sent again once the session
   * is restored. A call answered for nobody after the session was lost rejects with the
   * `session_lost` error instead.
   */
  async call<M extends MethodName>(
    method: M,
    params: Methods[M]['params'],
    options?: CallOptions,
  ): Promise<Methods[M]['answer']> {
    const call = () => this.#connection.call(method, params, options);
    let answer = call();
    let restoring: Promise<void> | undefined;
    if (/^(ping|close)$|Account$/.test(method)) return answer;
    await answer.catch((e: VideoPluginError) => {
      if (e.code === 'not_authenticated') restoring = this.restoring;
    });
    if (restoring) {
      await restoring;
      if (!this.lost) await (answer = call()).catch(() => {});
    }
    if (this.lost) throw this.lost;
    return answer;
  }

  /**
   * `createAccount` and `loginAccount`: the call with the token `token` gives ({@link token}),
   * after `check` (the `Plugin`'s check of its own state, which throws). A function's token may
   * expire between its fetch and its use (a slow frame, a cached token): the function is asked
   * again, once; a second expired token rejects as the service said.
   */
  async signIn<M extends 'createAccount' | 'loginAccount'>(
    method: M,
    token: unknown,
    check: () => void,
  ): Promise<Methods[M]['answer']> {
    const call = async () => {
      // Also before the second try: after cleanup() the function is not called again.
      check();
      // A function is asked once the frame can take the call (connected, no restore running), so
      // that its token is as fresh as it can be; the wait fails as the call would.
      if (typeof token == 'function') await this.#connection.whenConnected();
      // The argument's name: `createAccountToken`, `loginAccountToken`.
      return this.call(method, { token: await this.token(token, `${method}Token`) });
    };
    return call().catch((error: VideoPluginError) => {
      if (typeof token == 'function' && error.code == 'token_expired') return call();
      throw error;
    });
  }

  /**
   * The start methods, which need an account authenticated in this session ({@link require}): the
   * idempotency key travels as the call's metadata. A call with a key is safe to send again after
   * a reload interrupted it: the service answers a repeated key with the request it already started.
   */
  start<M extends 'startTopicSearch' | 'startVideoGeneration'>(
    method: M,
    params: Methods[M]['params'],
    options: StartOptions | undefined,
  ): Promise<Methods[M]['answer']> {
    const { signal, idempotencyKey } = parse(startOptionsSchema, options ?? {}, 'options');
    this.require(method);
    return this.call(method, params, { meta: { idempotencyKey }, signal, resend: !!idempotencyKey });
  }

  #update(info: unknown): void {
    const accountID = (info as SessionInfo | undefined)?.accountID;
    if (accountID === undefined) return;
    this.#accountID = accountID;
    if (accountID === null) this.#authenticated = false;
    else if (this.#authMode === 'uncontrolled') this.#authenticated = true;
  }

  /**
   * `accountID`'s session is gone, for `cause` (in the page's words). JWT mode with
   * `getLoginToken`: log the account back in, once. Otherwise: report it.
   */
  #lose(accountID: string, cause?: string): Promise<void> | undefined {
    this.#authenticated = false;
    this.#accountID = null;
    const authMode = this.#authMode;
    const getLoginToken = this.#getLoginToken;
    if (getLoginToken && authMode === 'jwt') {
      return (this.restoring = this.#restore(accountID, getLoginToken, cause));
    }
    this.#report(
      accountID,
      `${cause}. ${
        authMode === 'jwt'
          ? 'Pass the getLoginToken option, or call loginAccount again.'
          : 'The user signs in again in the frame.'
      }`,
    );
  }

  async #restore(accountID: string, getLoginToken: GetLoginToken, cause?: string): Promise<void> {
    try {
      await this.#logBackIn(accountID, getLoginToken);
      this.signedIn(accountID);
    } catch (error) {
      if (!(error instanceof DestroyedError)) {
        this.#report(
          accountID,
          `${cause}; getLoginToken did not restore it (${(error as Error)?.message ?? error}). Call loginAccount again.`,
        );
      }
    } finally {
      // Always after the assignment in #lose: this function awaits before it gets here.
      this.restoring = undefined;
    }
  }

  /**
   * Logs `accountID` back in with a token from `getLoginToken` ({@link token}). Throws, saying why,
   * when the token does not come, is not a token, or logs another account in (which is logged out
   * again).
   */
  async #logBackIn(accountID: string, getLoginToken: GetLoginToken): Promise<void> {
    const connection = this.#connection;
    const token = await this.token(getLoginToken, 'getLoginToken', accountID);
    const account = await connection.call('loginAccount', { token }, { early: true });
    if (account.id !== accountID) {
      await connection.call('logoutAccount', undefined, { early: true });
      throw new Error(`its token logged in the account ${account.id}`);
    }
  }

  #report(accountID: string, why: string): void {
    const error = new NotAuthenticatedError(
      'session_lost',
      `The service iframe lost the session of account ${accountID} ${why}`,
      { accountID },
    );
    this.#log('session lost', accountID);
    if (this.#authMode === 'jwt') this.lost = error;
    this.#onLost({ accountID, error });
  }
}
