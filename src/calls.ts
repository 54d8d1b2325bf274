/**
 * The `Plugin`'s calls to the service and when one is sent again. `call` holds an account call
 * that the service refused during a restore of a lost session (session.ts) and sends it again once
 * the session is restored; it rejects with the `session_lost` error once the session is lost.
 * `signIn` asks a token function again, once, when the service answers that its token has expired.
 * `start` sends the idempotency key as the call's metadata, and only a call with a key may be sent
 * again after a reload interrupted it. The `Plugin` checks its own state and the arguments first.
 */
import type { VideoPluginError } from './errors.js';
import { startOptionsSchema, type StartOptions } from './options.js';
import type { Session } from './session.js';
import { parse } from './validate.js';
import type { MethodName, Methods } from './wire/api.js';
import type { CallOptions, HostConnection } from './wire/host.js';

export class Calls {
  readonly #connection: HostConnection<Methods>;
  readonly #session: Session;
  /** The `Plugin`'s check of its own state before an account method (it throws). */
  readonly #check: (method: string) => void;

  constructor(connection: HostConnection<Methods>, session: Session, check: (method: string) => void) {
    this.#connection = connection;
    this.#session = session;
    this.#check = check;
  }

  /**
   * Calls the service. A call for the account (every method but ping, close and the
   * create/login/logout ones) that a frame without the lost session answered, for nobody, rejects
   * with the `session_lost` error instead.
   */
  async call<M extends MethodName>(
    method: M,
    params: Methods[M]['params'],
    options?: CallOptions,
  ): Promise<Methods[M]['answer']> {
    const session = this.#session;
    const call = () => this.#connection.call(method, params, options);
    let answer = call();
    let restoring: Promise<void> | undefined;
    if (/^(ping|close)$|Account$/.test(method)) return answer;
    // The service refused the session (it restarted without its data): the page said so before
    // this answer, so a restore is running. The call did nothing; send it again once restored.
    await answer.catch((e: VideoPluginError) => {
      if (e.code === 'not_authenticated') restoring = session.restoring;
    });
    if (restoring) {
      await restoring;
      if (!session.lost) await (answer = call()).catch(() => {});
    }
    if (session.lost) throw session.lost;
    return answer;
  }

  /**
   * `createAccount` and `loginAccount`: the call with the token `token` gives (session.ts), after
   * the `Plugin`'s check of its state. A function's token may expire between its fetch and its use
   * (a slow frame, a cached token): the function is asked again, once; a second expired token
   * rejects as the service said.
   */
  async signIn<M extends 'createAccount' | 'loginAccount'>(method: M, token: unknown): Promise<Methods[M]['answer']> {
    const call = async () => {
      // Also before the second try: after cleanup() the function is not called again.
      this.#check(method);
      // A function is asked once the frame can take the call (connected, no restore running), so
      // that its token is as fresh as it can be; the wait fails as the call would.
      if (typeof token == 'function') await this.#connection.whenConnected();
      // The argument's name: `createAccountToken`, `loginAccountToken`.
      return this.call(method, { token: await this.#session.token(token, `${method}Token`) });
    };
    return call().catch((error: VideoPluginError) => {
      if (typeof token == 'function' && error.code == 'token_expired') return call();
      throw error;
    });
  }

  /**
   * The start methods: the idempotency key travels as the call's metadata. A call with a key is
   * safe to send again after a reload interrupted it: the service answers a repeated key with the
   * request it already started.
   */
  start<M extends 'startTopicSearch' | 'startVideoGeneration'>(
    method: M,
    params: Methods[M]['params'],
    options: StartOptions | undefined,
  ): Promise<Methods[M]['answer']> {
    const { signal, idempotencyKey } = parse(startOptionsSchema, options ?? {}, 'options');
    this.#session.require(method);
    return this.call(method, params, { meta: { idempotencyKey }, signal, resend: !!idempotencyKey });
  }
}
