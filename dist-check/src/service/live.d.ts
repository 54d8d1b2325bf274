/**
 * The plugin page's status socket (`/api/live`): a WebSocket over which the service pushes the
 * account's changes as they happen. A page with many Plugin instances holds one per iframe; unlike
 * a held HTTP/1.1 stream, a WebSocket does not take one of the browser's 6 connections per host,
 * and unlike polling it costs nothing while nothing changes.
 *
 * Protocol (JSON text messages):
 * 1. The page sends `{ session, after? }` within {@link AUTH_MS}; the session is checked exactly like
 *    `Authorization: Bearer` (else close 4401 `not_authenticated`).
 * 2. The service answers `{ cursor, changes }`, as `GET /api/changes?after=` would: the changes
 *    since `after`, or `null` when it cannot replay them (re-read what you follow).
 * 3. Then `{ cursor, change: { kind, record } }` for each of the account's changes, in order.
 * A ping every `heartbeatMs` finds dead peers: one that has not answered the previous ping is cut.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServiceConfig } from './config.js';
import type { Store } from './store.js';
import type { Streams } from './stream.js';
/** The path of the socket. */
export declare const LIVE_PATH = '/api/live';
/** How long a new socket may take to send its session. */
export declare const AUTH_MS = 5000;
/** Close code for a missing, malformed or ended session (as HTTP 401). */
export declare const CLOSE_NOT_AUTHENTICATED = 4401;
export declare class Live {
  #private;
  readonly config: ServiceConfig;
  readonly store: Store;
  readonly streams: Streams;
  /** The service's own origin (the page is served from it). */
  readonly origin: () => string;
  constructor(
    config: ServiceConfig,
    store: Store,
    streams: Streams,
    /** The service's own origin (the page is served from it). */
    origin: () => string,
  );
  /** How many sockets are open (authenticated or not yet). */
  get size(): number;
  /**
   * Takes over an HTTP upgrade request. Refused with 404 off {@link LIVE_PATH}, and with 403 when
   * the Origin is neither the service's own nor one a partner allows: a page elsewhere cannot read
   * an account's changes through a visitor's browser.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (shutdown); resolves when they are gone (cut after a second at most). */
  closeAll(): Promise<void>;
}
//# sourceMappingURL=live.d.ts.map
