import {
  ConnectionError,
  DestroyedError,
  InvalidParameterError,
  TimeoutError,
  VideoPluginError,
  deserializeError,
} from '../errors.js';
import { HANDSHAKE_KEY, PROTOCOL_VERSION, helloSchema, parseMessage, serviceMessageSchemas } from './protocol.js';
/** Default limit for the handshake, in milliseconds. */
export const DEFAULT_CONNECT_TIMEOUT = 15_000;
/** Default limit for one call, in milliseconds. */
export const DEFAULT_CALL_TIMEOUT = 15_000;
/** One connection from the partner's page to one service iframe, across its reloads. */
export class HostConnection {
  #state = 'connecting';
  #port;
  #nextId = 1;
  #pending = new Map();
  #subscriptions = new Map();
  #connectTimer;
  /** One timer for every pending call, armed for the earliest deadline; replies leave it be. */
  #callTimer;
  #callTimerAt = Infinity;
  #helloSinceLoad = false;
  /** `onConnected` holds the queue: only `early` calls go out. */
  #held = false;
  /** The connect limit passed with no handshake: the next call reloads the page first. */
  #connectFailed = false;
  /** Why every call fails at once: the service's refusal, or the error `destroy()` was given. */
  #failed;
  #versionSeen;
  #waiters = [];
  #options;
  #connectTimeout;
  #callTimeout;
  #log;
  constructor(options) {
    this.#options = options;
    this.#connectTimeout = options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT;
    this.#callTimeout = options.callTimeout ?? DEFAULT_CALL_TIMEOUT;
    this.#log = options.log ?? (() => {});
    window.addEventListener('message', this.#onWindowMessage);
    options.iframe.addEventListener('load', this.#onLoad);
    this.#armConnectTimer();
  }
  /** `connecting` until the service answers, `connected`, `refused` (origin), or `destroyed`. */
  get state() {
    return this.#state;
  }
  /** Resolves once connected; rejects when the connect limit passes, on refusal or on destroy. */
  whenConnected() {
    if (this.#state === 'connected' && !this.#held) return Promise.resolve();
    const failure = this.#failed;
    if (failure) return Promise.reject(failure);
    this.#retryConnect();
    this.#armConnectTimer();
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }
  /** Calls `method` on the service; queued while connecting; settles on every path. */
  call(method, params, options = {}) {
    const failure = this.#failed;
    if (failure) return Promise.reject(failure);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const timeout = options.timeout ?? this.#callTimeout;
    let onAbort = () => 0;
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      onAbort = () => this.#pending.delete(id) && reject(signal.reason);
      signal?.addEventListener('abort', onAbort);
      const call = {
        id,
        method,
        params,
        resend: options.resend ?? false,
        sent: false,
        resolve: resolve,
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
  subscribe(topic, key, callback) {
    if (this.#state === 'destroyed') return () => {};
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
  expectReload(reason) {
    if (this.#state === 'destroyed') return;
    // The frame is loading again already: a retry need not reload it.
    this.#connectFailed = false;
    if (!this.#port) return;
    this.#disconnect(reason);
    this.#armConnectTimer();
  }
  /** Rejects every pending call with `error` and releases every listener, timer and port. */
  destroy(error = new DestroyedError('destroyed', 'The connection was closed.')) {
    if (this.#state === 'destroyed') return;
    this.#state = 'destroyed';
    this.#failed = error;
    window.removeEventListener('message', this.#onWindowMessage);
    this.#options.iframe.removeEventListener('load', this.#onLoad);
    this.#clearConnectTimer();
    clearTimeout(this.#callTimer);
    this.#callTimer = undefined;
    this.#closePort();
    this.#subscriptions.clear();
    this.#rejectAll(() => true, error);
    this.#settleWaiters(error);
  }
  #onWindowMessage = (event) => {
    // Cheapest checks first: only our own iframe's current window, from the service origin.
    if (event.source === null || event.source !== this.#options.iframe.contentWindow) return;
    const data = event.data;
    const hello =
      event.origin === this.#options.serviceOrigin &&
      typeof data === 'object' &&
      data !== null &&
      data[HANDSHAKE_KEY] === 'hello'
        ? helloSchema.safeParse(data).data
        : undefined;
    if (hello?.channel !== this.#options.channel || hello.v !== PROTOCOL_VERSION) {
      if (hello && hello.v !== PROTOCOL_VERSION) this.#versionSeen = hello.v;
      this.#log('dropped', event.origin, data);
      return;
    }
    this.#helloSinceLoad = true;
    this.#handshake(event.source);
  };
  #onLoad = () => {
    // A load with no hello before it means the frame went somewhere that does not speak the
    // protocol (or is slow): give it the connect limit, then fail what waits.
    if (!this.#helloSinceLoad) this.#armConnectTimer();
    this.#helloSinceLoad = false;
  };
  #handshake(target) {
    if (this.#port) this.#disconnect('the service page reloaded');
    const channel = new MessageChannel();
    this.#port = channel.port1;
    this.#port.onmessage = this.#onPortMessage;
    const connect = {
      [HANDSHAKE_KEY]: 'connect',
      v: PROTOCOL_VERSION,
      channel: this.#options.channel,
      sdk: this.#options.sdkVersion,
      config: this.#options.config(),
    };
    this.#log('→', connect);
    target.postMessage(connect, this.#options.serviceOrigin, [channel.port2]);
  }
  #onPortMessage = (event) => {
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
        this.#onRefused(deserializeError(message.error));
        return;
      case 'bye':
        this.#disconnect('the service page is unloading');
        this.#armConnectTimer();
        return;
    }
  };
  #onReady(info) {
    this.#state = 'connected';
    this.#failed = undefined;
    this.#connectFailed = false;
    this.#clearConnectTimer();
    const port = this.#port;
    const flush = () => {
      // A newer handshake (or destroy) took over while the queue was held: it flushes on its own.
      if (this.#port !== port) return;
      this.#held = false;
      for (const [sid, { topic, key }] of this.#subscriptions) this.#post({ t: 'sub', sid, topic, key });
      for (const call of this.#pending.values()) if (!call.sent) this.#send(call);
      this.#settleWaiters();
    };
    this.#held = true;
    const hold = this.#options.onConnected?.(info);
    if (hold instanceof Promise) void hold.then(flush, flush);
    else flush();
  }
  #onRefused(error) {
    this.#state = 'refused';
    this.#failed = error;
    this.#clearConnectTimer();
    this.#closePort();
    this.#rejectAll(() => true, error);
    this.#settleWaiters(error);
  }
  /** The service page went away: close the port, settle what cannot be re-sent, queue the rest. */
  #disconnect(reason) {
    this.#log(`disconnected: ${reason}`);
    this.#closePort();
    if (this.#state === 'connected') this.#state = 'connecting';
    const error = new ConnectionError(
      'connection_failed',
      `The call was interrupted because ${reason}. It may have taken effect: check before calling again.`,
      { retryable: true },
    );
    this.#rejectAll((call) => call.sent && !call.resend, error);
    for (const call of this.#pending.values()) call.sent = false;
    this.#options.onDisconnected?.();
  }
  #send(call) {
    try {
      this.#post({ t: 'call', id: call.id, method: call.method, params: call.params });
      call.sent = true;
    } catch (cause) {
      this.#pending.delete(call.id);
      call.reject(
        new InvalidParameterError(
          'invalid_parameter',
          `The arguments of ${call.method} cannot be sent: pass plain data only. ${String(cause)}`,
          { field: call.method },
        ),
      );
    }
  }
  #post(message) {
    this.#log('→', message);
    this.#port?.postMessage(message);
  }
  #closePort() {
    this.#held = false;
    if (!this.#port) return;
    this.#port.onmessage = null;
    this.#port.close();
    this.#port = undefined;
  }
  #rejectAll(which, error) {
    for (const call of [...this.#pending.values()]) {
      if (!which(call)) continue;
      this.#pending.delete(call.id);
      call.reject(error);
    }
  }
  #armCallTimer(deadline) {
    if (this.#callTimer !== undefined && this.#callTimerAt <= deadline) return;
    clearTimeout(this.#callTimer);
    this.#callTimerAt = deadline;
    this.#callTimer = setTimeout(this.#onCallTimer, Math.max(0, deadline - performance.now()));
  }
  /** Rejects the calls whose deadline passed and re-arms for the next one, if any is pending. */
  #onCallTimer = () => {
    this.#callTimer = undefined;
    this.#callTimerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const call of [...this.#pending.values()]) {
      if (call.deadline > now) next = Math.min(next, call.deadline);
      else {
        this.#pending.delete(call.id);
        call.reject(this.#timeoutError(call.method, call.timeout));
      }
    }
    if (next !== Infinity && this.#state !== 'destroyed') this.#armCallTimer(next);
  };
  #armConnectTimer() {
    if (this.#connectTimer !== undefined || this.#state === 'connected' || this.#failed) return;
    this.#connectTimer = setTimeout(() => {
      this.#connectTimer = undefined;
      this.#connectFailed = true;
      const error = this.#connectError();
      this.#log(error.message);
      this.#rejectAll((call) => !call.sent, error);
      this.#settleWaiters(error);
    }, this.#connectTimeout);
  }
  /** After a failed connect, loads the service page again rather than wait on a dead one. */
  #retryConnect() {
    if (!this.#connectFailed) return;
    this.#connectFailed = false;
    this.#log('reload');
    this.#options.reload?.();
  }
  #clearConnectTimer() {
    clearTimeout(this.#connectTimer);
    this.#connectTimer = undefined;
  }
  #settleWaiters(error) {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }
  #connectError() {
    const { iframe, serviceOrigin } = this.#options;
    const origin = location.origin;
    const why = !iframe.isConnected
      ? 'The iframe was removed from the document: put it back with mount(element), or call cleanup().'
      : this.#versionSeen === undefined
        ? `Check the service URL, that the partner allows the origin ${origin}, and that this page's CSP allows frame-src ${serviceOrigin}.`
        : `The service speaks protocol ${this.#versionSeen}, this SDK ${PROTOCOL_VERSION}: update video-plugin.`;
    return new ConnectionError(
      'connection_failed',
      `No answer from ${iframe.src} within ${this.#connectTimeout} ms. ${why}`,
      { serviceURL: iframe.src, pageOrigin: origin, retryable: true },
    );
  }
  #timeoutError(method, timeout) {
    const where = this.#held
      ? ' (it waited for getLoginToken)'
      : this.#state === 'connected'
        ? ''
        : ' (the service iframe was not connected)';
    return new TimeoutError(
      'timeout',
      `${method} got no answer within ${timeout} ms${where}. Try again, or pass a larger timeout.`,
      { method, timeout },
    );
  }
}
//# sourceMappingURL=host.js.map
