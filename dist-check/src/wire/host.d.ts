/**
 * The host side of the wire: runs in the partner's page, owns the window listener, the port, the
 * timers and every pending call of one iframe. See protocol.ts for the exchange.
 */
import type { Logger } from '../debug.js';
import { VideoPluginError } from '../errors.js';
/** Default limit for the handshake, in milliseconds. */
export declare const DEFAULT_CONNECT_TIMEOUT = 15000;
/** Default limit for one call, in milliseconds. */
export declare const DEFAULT_CALL_TIMEOUT = 15000;
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
  log?: Logger;
}
export interface CallOptions {
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
/** One connection from the partner's page to one service iframe, across its reloads. */
export declare class HostConnection {
  #private;
  constructor(options: HostConnectionOptions);
  /** `connecting` until the service answers, `connected`, `refused` (origin), or `destroyed`. */
  get state(): ConnectionState;
  /** Resolves once connected; rejects when the connect limit passes, on refusal or on destroy. */
  whenConnected(): Promise<void>;
  /** Calls `method` on the service; queued while connecting; settles on every path. */
  call<T = unknown>(method: string, params?: unknown, options?: CallOptions): Promise<T>;
  /**
   * Subscribes to pushed values of `topic`/`key`. The subscription is sent again after every
   * reconnect. Returns the function that ends it (safe to call twice).
   */
  subscribe(topic: string, key: string, callback: (value: unknown) => void): () => void;
  /**
   * Tells the connection that the host itself is reloading the frame (e.g. a move without
   * `moveBefore`): the current port is dropped at once, so no call goes to the old page.
   */
  expectReload(reason: string): void;
  /** Rejects every pending call with `error` and releases every listener, timer and port. */
  destroy(error?: VideoPluginError): void;
}
//# sourceMappingURL=host.d.ts.map
