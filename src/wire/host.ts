/**
 * The host side of the wire: runs in the partner's page, owns the window listener, the port, the
 * timers and every pending call of one iframe. See protocol.ts for the exchange.
 *
 * Over 500 lines, and one concern: one connection's life (handshake, calls, subscriptions,
 * reconnects, and why a frame stays silent). Every timer and listener it owns is released by
 * `destroy()` in this file; split, the owner of each would no longer be one place (docs/protocol.md).
 */
import type { Logger } from '../debug.js';
import { valid } from '../schema.js';
import {
  ConnectionError,
  DestroyedError,
  FrameBlockedError,
  InvalidParameterError,
  TimeoutError,
  VideoPluginError,
  deserializeError,
  type SerializedError,
} from '../errors.js';
import {
  HANDSHAKE_KEY,
  PROTOCOL_VERSION,
  helloSchema,
  parseMessage,
  serviceMessageSchemas,
  type ConnectMessage,
  type HostMessage,
} from './protocol.js';
import type { CallMeta, MethodMap } from './api.js';

/** Default limit for the handshake, in milliseconds. */
export const DEFAULT_CONNECT_TIMEOUT = 15_000;
/** Default limit for one call, in milliseconds. */
export const DEFAULT_CALL_TIMEOUT = 15_000;
/** How long a loaded frame may take to say hello before the service is asked why it did not. */
export const HELLO_GRACE_MS = 200;
/**
 * How long a frame may take to load before the service is asked why it did not: long for a service
 * across the network, because a page whose CSP refuses the question (connect-src) gets a violation
 * report for it; short for one on this machine (a developer's local service), whose page loads in
 * milliseconds, so that "nothing listens" is named within a second in every engine (Firefox and
 * WebKit fire no load for a frame whose server does not answer).
 */
const UNLOADED_MS = 3000;
export const LOCAL_UNLOADED_MS = 600;
const LOCAL_HOST = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/;

export type ConnectionState = 'connecting' | 'connected' | 'refused' | 'destroyed';

export interface HostConnectionOptions {
  /** The iframe that runs the service page. Its `contentWindow` is the only accepted source. */
  iframe: HTMLIFrameElement;
  /** The exact origin of the service page, e.g. `http://127.0.0.1:8001`. */
  serviceOrigin: string;
  /** The random per-instance id written in the iframe URL hash. */
  channel: string;
  /** The SDK version, sent in the handshake. */
  sdkVersion: string;
  /** The configuration sent with every handshake (so it is replayed on reconnect). */
  config: () => unknown;
  connectTimeout?: number;
  callTimeout?: number;
  /** A pushed event from the service. */
  onEvent?: (name: string, payload: unknown) => void;
  /**
   * Runs on every successful handshake, the first and each reconnect, before anything queued goes
   * out. A promise it returns holds the queued calls and the subscriptions until it settles (the
   * `Plugin` restores a lost session meanwhile, with `early` calls).
   */
  onConnected?: (info: Record<string, unknown> | undefined) => unknown;
  /** Runs when the connection is lost (reload, navigation); calls are queued meanwhile. */
  onDisconnected?: () => void;
  /**
   * Loads the service page again. Called by the first call after the connect limit passed, so
   * that retrying after a `ConnectionError` (service down, frame navigated away) can succeed.
   */
  reload?: () => void;
  /**
   * The service's `GET api/diagnose` URL for this partner (the `Plugin`'s): with it, a frame that
   * stays silent is explained within a second instead of at the connect limit (see `#explain`).
   */
  explain?: URL;
  log?: Logger;
}

/** How one call is made: its metadata, which travels to the service, and the host's own options. */
export interface CallOptions {
  /** Sent beside the params, for the service (the idempotency key). */
  meta?: CallMeta | undefined;
  /** Milliseconds before the call rejects with a `TimeoutError`. */
  timeout?: number;
  /**
   * Whether the call may be sent again after a reload interrupted it (true for reads). Otherwise an
   * interrupted call rejects with a retryable `ConnectionError`.
   */
  resend?: boolean;
  /** Sent at once while `onConnected` holds the queue (the calls that restore the session). */
  early?: boolean;
  /** Stops waiting: the call rejects with the signal's reason (its answer, if any, is dropped). */
  signal?: AbortSignal | undefined;
}

/** A call's params and options: the params may be left out where the method takes none. */
type CallArgs<P> = undefined extends P ? [params?: P, options?: CallOptions] : [params: P, options?: CallOptions];

interface PendingCall {
  id: number;
  method: string;
  /** What goes out on every port it is sent on: params and metadata as given. */
  message: HostMessage;
  resend: boolean | undefined;
  /** Whether it went out on the current port. */
  sent?: boolean;
  /** When the call times out, on the `performance.now()` clock. */
  deadline: number;
  timeout: number;
  resolve: (value: unknown) => void;
  reject: (error: VideoPluginError) => void;
}

interface Subscription {
  topic: string;
  key: string;
  callback: (value: unknown) => void;
}

/**
 * One connection from the partner's page to one service iframe, across its reloads. `M` types its
 * calls: the `Plugin`'s is a `HostConnection<Methods>` (api.ts); the default takes any method.
 */
export class HostConnection<M extends MethodMap = MethodMap> {
  #state: ConnectionState = 'connecting';
  #port: MessagePort | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, PendingCall>();
  readonly #subscriptions = new Map<number, Subscription>();
  #connectTimer: ReturnType<typeof setTimeout> | undefined;
  /** One timer for every pending call, armed for the earliest deadline; replies leave it be. */
  #callTimer: ReturnType<typeof setTimeout> | undefined;
  #callTimerAt = Infinity;
  #helloSinceLoad = false;
  /** `onConnected` holds the queue: only `early` calls go out. */
  #held = false;
  /** The connect limit passed with no handshake: the next call reloads the page first. */
  #connectFailed = false;
  /** Why every call fails at once: the service's refusal, or the error `destroy()` was given. */
  #failed: VideoPluginError | undefined;
  #versionSeen: number | undefined;
  #explainTimer: ReturnType<typeof setTimeout> | undefined;
  /** This page's CSP (connect-src) refused the question of `#explain`: no answer says nothing then. */
  #askBlocked = false;
  readonly #options: HostConnectionOptions;
  readonly #connectTimeout: number;
  readonly #callTimeout: number;
  readonly #log: Logger;

  constructor(options: HostConnectionOptions) {
    this.#options = options;
    this.#connectTimeout = options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT;
    this.#callTimeout = options.callTimeout ?? DEFAULT_CALL_TIMEOUT;
    this.#log = options.log ?? (() => {});
    // The window's (the SDK runs in a page).
    addEventListener('message', this.#onWindowMessage);
    options.iframe.addEventListener('load', this.#onLoad);
    if (options.explain) document.addEventListener('securitypolicyviolation', this.#onViolation);
    this.#armConnectTimer();
  }

  /** `connecting` until the service answers, `connected`, `refused` (origin), or `destroyed`. */
  get state(): ConnectionState {
    return this.#state;
  }

  /** Resolves once connected; rejects when the connect limit passes, on refusal or on destroy. */
  whenConnected(): Promise<void> {
    // A call without a method: queued, retried and failed like the others, never timed out, and
    // answered by the connection itself where it would be sent (no method of any map: untyped).
    return (this as HostConnection).call('', undefined, { timeout: Infinity }) as Promise<void>;
  }

  /**
   * Calls `method` of `M` with its params (and `options.meta` beside them); resolves to its answer.
   * Queued while connecting; settles on every path.
   */
  call<K extends keyof M & string>(method: K, ...args: CallArgs<M[K]['params']>): Promise<M[K]['answer']>;
  call(method: string, params?: unknown, options: CallOptions = {}): Promise<unknown> {
    const { signal, timeout = this.#callTimeout } = options;
    let onAbort: () => void;
    return new Promise((resolve, reject) => {
      // Thrown here, these reject the call.
      if (this.#failed) throw this.#failed;
      signal?.throwIfAborted();
      const id = this.#nextId++;
      signal?.addEventListener('abort', (onAbort = () => this.#pending.delete(id) && reject(signal.reason)));
      const call: PendingCall = {
        id,
        method,
        message: { t: 'call', id, method, params, meta: options.meta },
        resend: options.resend,
        resolve,
        reject,
        deadline: performance.now() + timeout,
        timeout,
      };
      this.#pending.set(id, call);
      this.#armCallTimer(call.deadline);
      if (this.#state === 'connected' && (!this.#held || options.early)) this.#send(call);
      else if (this.#state !== 'connected') {
        this.#retryConnect();
        this.#armConnectTimer();
      }
    }).finally(() => signal?.removeEventListener('abort', onAbort));
  }

  /**
   * Subscribes to pushed values of `topic`/`key`. The subscription is sent again after every
   * reconnect. Returns the function that ends it (safe to call twice).
   */
  subscribe(topic: string, key: string, callback: (value: unknown) => void): () => void {
    // After destroy() nothing is sent: no handshake can flush it, and it is never connected.
    const sid = this.#nextId++;
    this.#subscriptions.set(sid, { topic, key, callback });
    if (this.#state === 'connected' && !this.#held) this.#post({ t: 'sub', sid, topic, key });
    return () => {
      if (this.#subscriptions.delete(sid) && this.#state === 'connected') {
        this.#post({ t: 'unsub', sid });
      }
    };
  }

  /**
   * Tells the connection that the host itself is reloading the frame (e.g. a move without
   * `moveBefore`): the current port is dropped at once, so no call goes to the old page.
   */
  expectReload(reason: string): void {
    if (this.#state === 'destroyed') return;
    // The frame is loading again already: a retry need not reload it.
    this.#connectFailed = false;
    if (!this.#port) return;
    this.#disconnect(reason);
    this.#armConnectTimer();
  }

  /**
   * Rejects every pending call with `error` and releases every listener, timer and port. The default
   * error is the one the Plugin's cleanup() gives its calls.
   */
  destroy(error: VideoPluginError = new DestroyedError('cleanup() ended this call: create a new Plugin.')): void {
    if (this.#state === 'destroyed') return;
    removeEventListener('message', this.#onWindowMessage);
    this.#options.iframe.removeEventListener('load', this.#onLoad);
    document.removeEventListener('securitypolicyviolation', this.#onViolation);
    clearTimeout(this.#callTimer);
    this.#subscriptions.clear();
    this.#fail('destroyed', error);
  }

  readonly #onWindowMessage = (event: MessageEvent): void => {
    // Cheapest checks first: only our own iframe's current window, from the service origin.
    if (!event.source || event.source !== this.#options.iframe.contentWindow) return;
    const data: unknown = event.data;
    const hello =
      event.origin === this.#options.serviceOrigin && (data as Record<string, unknown>)?.[HANDSHAKE_KEY] === 'hello'
        ? valid(helloSchema, data)
        : undefined;
    if (hello?.channel !== this.#options.channel || hello.v !== PROTOCOL_VERSION) {
      if (hello && hello.v !== PROTOCOL_VERSION) this.#versionSeen = hello.v;
      this.#log('dropped', event.origin, data);
      return;
    }
    this.#helloSinceLoad = true;
    // The frame speaks the protocol: its handshake says why it refuses, or the connect limit decides.
    // Chromium fires the frame's load before this hello arrives, and an answer slower than the grace
    // (a busy service checking the origin) must not make the SDK ask over HTTP.
    clearTimeout(this.#explainTimer);
    this.#handshake(event.source as Window);
  };

  readonly #onLoad = (): void => {
    // A load with no hello before it means the frame went somewhere that does not speak the
    // protocol (or is slow): give it the connect limit, then fail what waits.
    if (!this.#helloSinceLoad) {
      this.#armConnectTimer();
      clearTimeout(this.#explainTimer);
      // Unless the hello comes a little late, ask the service why.
      this.#explainTimer = setTimeout(this.#explain, HELLO_GRACE_MS);
    }
    this.#helloSinceLoad = false;
  };

  /**
   * Why the frame stays silent, found within a second: the browser's violation event when this
   * page's CSP blocks the frame, or, once it loaded without a hello, the service's own answer over
   * HTTP (`explain`, the endpoint `diagnose()` asks): the partner unknown, or this page's origin
   * refused (the browser stopped the frame at the service's `frame-ancestors`), in the words the
   * handshake would refuse with; or nothing listening at all. Anything else (a slow frame, a service
   * that answers fine) leaves the connect limit to decide.
   */
  readonly #explain = async (): Promise<void> => {
    const url = this.#options.explain;
    if (!url || this.#state !== 'connecting') return;
    let answer: { error?: SerializedError; refusal?: SerializedError } | undefined;
    try {
      answer = await (await fetch(url, { credentials: 'omit', cache: 'no-store' })).json();
    } catch (cause) {
      // A readable answer of anything else (no JSON) says nothing, nor does a question that this
      // page's CSP refused (its violation event comes as a task); no answer at all: nothing listens.
      await new Promise((resolve) => setTimeout(resolve));
      if (cause instanceof TypeError && !this.#askBlocked) {
        this.#failConnect(
          new ConnectionError(`Nothing answers at ${url.origin}: is the service running there?`, {
            serviceURL: url.origin,
            retryable: true,
          }),
        );
      }
      return;
    }
    const error = answer?.error ?? answer?.refusal;
    if (error) this.#failConnect(deserializeError(error));
  };

  readonly #onViolation = ({ effectiveDirective: directive, blockedURI }: SecurityPolicyViolationEvent): void => {
    const service = this.#options.serviceOrigin;
    // By directive: a cross-origin blockedURI may be cut to its origin.
    if (!blockedURI.startsWith(service)) return;
    if (directive === 'connect-src') this.#askBlocked = true;
    else if (/^(frame|child)-src$/.test(directive)) {
      this.#failConnect(
        new FrameBlockedError(`This page's CSP blocks the frame: add ${service} to its frame-src.`, {
          directive,
        }),
      );
    }
  };

  /**
   * Ends a connection attempt at once with `error`. A retryable one (the connect limit, a service
   * that is down) fails what waits, and the next call loads the page again; any other (a
   * configuration fault) fails every call from now on, as the service's refusal does. Nothing
   * happens once connected.
   */
  #failConnect(error: VideoPluginError): void {
    if (this.#state !== 'connecting') return;
    if (!error.data?.retryable) return this.#fail('refused', error);
    this.#clearConnectTimer();
    this.#connectFailed = true;
    this.#log(error.message);
    this.#rejectAll((call) => !call.sent, error);
  }

  #handshake(target: Window): void {
    if (this.#port) this.#disconnect('the service page reloaded');
    const channel = new MessageChannel();
    this.#port = channel.port1;
    this.#port.onmessage = this.#onPortMessage;
    const connect: ConnectMessage = {
      [HANDSHAKE_KEY]: 'connect',
      v: PROTOCOL_VERSION,
      channel: this.#options.channel,
      sdk: this.#options.sdkVersion,
      config: this.#options.config(),
    };
    this.#log('→', connect);
    target.postMessage(connect, this.#options.serviceOrigin, [channel.port2]);
  }

  readonly #onPortMessage = (event: MessageEvent): void => {
    this.#log('←', event.data);
    const message = parseMessage(serviceMessageSchemas, event.data);
    switch (message?.t) {
      case 'ok':
      case 'err': {
        const call = this.#pending.get(message.id);
        if (!call?.sent) return;
        this.#pending.delete(message.id);
        if (message.t === 'ok') call.resolve(message.value);
        else call.reject(deserializeError(message.error));
        return;
      }
      case 'evt':
        this.#options.onEvent?.(message.name, message.payload);
        return;
      case 'upd':
        this.#subscriptions.get(message.sid)?.callback(message.value);
        return;
      case 'ready':
        this.#onReady(message.info);
        return;
      case 'refused':
        this.#fail('refused', deserializeError(message.error));
        return;
      case 'bye':
        this.#disconnect('the service page is unloading');
        this.#armConnectTimer();
        return;
    }
  };

  #onReady(info: Record<string, unknown> | undefined): void {
    this.#state = 'connected';
    this.#failed = undefined;
    this.#connectFailed = false;
    this.#clearConnectTimer();
    const port = this.#port;
    const flush = (): void => {
      // A newer handshake (or destroy) took over while the queue was held: it flushes on its own.
      if (this.#port !== port) return;
      this.#held = false;
      for (const [sid, { topic, key }] of this.#subscriptions) this.#post({ t: 'sub', sid, topic, key });
      for (const call of this.#pending.values()) if (!call.sent) this.#send(call);
    };
    this.#held = true;
    const hold = this.#options.onConnected?.(info);
    if (hold instanceof Promise) void hold.then(flush, flush);
    else flush();
  }

  /** Refused or destroyed: every call fails with `error`, now and from now on. */
  #fail(state: 'refused' | 'destroyed', error: VideoPluginError): void {
    this.#state = state;
    this.#failed = error;
    this.#clearConnectTimer();
    this.#closePort();
    this.#rejectAll(() => true, error);
  }

  /** The service page went away: close the port, settle what cannot be re-sent, queue the rest. */
  #disconnect(reason: string): void {
    this.#log(`disconnected: ${reason}`);
    this.#closePort();
    if (this.#state === 'connected') this.#state = 'connecting';
    this.#rejectAll(
      (call) => call.sent && !call.resend,
      new ConnectionError(
        `The call was interrupted (${reason}); it may have taken effect: check before calling again.`,
        { retryable: true },
      ),
    );
    for (const call of this.#pending.values()) call.sent = false;
    this.#options.onDisconnected?.();
  }

  #send(call: PendingCall): void {
    if (!call.method) {
      this.#pending.delete(call.id);
      return call.resolve(undefined);
    }
    try {
      this.#post(call.message);
      call.sent = true;
    } catch (cause) {
      this.#pending.delete(call.id);
      call.reject(
        new InvalidParameterError(`The arguments of ${call.method} cannot be sent: pass plain data only. ${cause}`, {
          field: call.method,
        }),
      );
    }
  }

  #post(message: unknown): void {
    this.#log('→', message);
    this.#port?.postMessage(message);
  }

  #closePort(): void {
    this.#held = false;
    if (!this.#port) return;
    this.#port.onmessage = null;
    this.#port.close();
    this.#port = undefined;
  }

  #rejectAll(which: (call: PendingCall) => unknown, error: VideoPluginError): void {
    // Deleting the entry being visited is safe in a Map, and reject() runs nothing synchronously.
    for (const call of this.#pending.values()) {
      if (!which(call)) continue;
      this.#pending.delete(call.id);
      call.reject(error);
    }
  }

  #armCallTimer(deadline: number): void {
    // `#callTimerAt` is Infinity while no timer runs: a call that never times out arms none.
    if (this.#callTimerAt <= deadline) return;
    clearTimeout(this.#callTimer);
    this.#callTimerAt = deadline;
    // A deadline already passed gives a negative delay, which setTimeout takes as 0.
    this.#callTimer = setTimeout(this.#onCallTimer, deadline - performance.now());
  }

  /** Rejects the calls whose deadline passed and re-arms for the next one, if any is pending. */
  readonly #onCallTimer = (): void => {
    // #callTimer keeps the fired timer's id: clearing it later is harmless.
    this.#callTimerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const call of this.#pending.values()) {
      if (call.deadline > now) next = Math.min(next, call.deadline);
      else {
        this.#pending.delete(call.id);
        call.reject(this.#timeoutError(call));
      }
    }
    // Arms nothing when no call is left (Infinity), as after destroy().
    this.#armCallTimer(next);
  };

  #armConnectTimer(): void {
    // Timer ids are above 0.
    if (this.#connectTimer || this.#state === 'connected' || this.#failed) return;
    this.#connectTimer = setTimeout(() => this.#failConnect(this.#connectError()), this.#connectTimeout);
    // A frame that neither loads nor says hello is explained too (Firefox and WebKit fire no load for
    // a frame whose server does not answer); a load explains it sooner (#onLoad).
    clearTimeout(this.#explainTimer);
    this.#explainTimer = setTimeout(
      this.#explain,
      LOCAL_HOST.test(this.#options.serviceOrigin) ? LOCAL_UNLOADED_MS : UNLOADED_MS,
    );
  }

  /** After a failed connect, loads the service page again rather than wait on a dead one. */
  #retryConnect(): void {
    if (!this.#connectFailed) return;
    this.#connectFailed = false;
    this.#log('reload');
    this.#options.reload?.();
  }

  #clearConnectTimer(): void {
    clearTimeout(this.#connectTimer);
    clearTimeout(this.#explainTimer);
    this.#connectTimer = undefined;
  }

  #connectError(): ConnectionError {
    const { iframe, serviceOrigin } = this.#options;
    const origin = location.origin;
    const why = !iframe.isConnected
      ? 'The iframe was removed from the document: call mount(element), or cleanup().'
      : this.#versionSeen === undefined
        ? `Check the service URL, that the partner allows the origin ${origin}, and that this page's CSP allows frame-src ${serviceOrigin}.`
        : `The service speaks protocol ${this.#versionSeen}, this SDK ${PROTOCOL_VERSION}: update video-plugin.`;
    return new ConnectionError(`No answer from ${iframe.src} within ${this.#connectTimeout} ms. ${why}`, {
      serviceURL: iframe.src,
      pageOrigin: origin,
      retryable: true,
    });
  }

  #timeoutError({ method, timeout }: PendingCall): TimeoutError {
    const where = this.#held
      ? ' (it waited for getLoginToken)'
      : this.#state === 'connected'
        ? ''
        : ' (the service iframe was not connected)';
    return new TimeoutError(
      `${method} got no answer within ${timeout} ms${where}. Try again, or pass a larger timeout.`,
      { method, timeout },
    );
  }
}
