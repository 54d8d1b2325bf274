/**
 * The plugin page's status socket (`/api/live`): a WebSocket over which the service pushes the
 * account's changes as they happen. A page with many Plugin instances holds one per iframe; unlike
 * a held HTTP/1.1 stream, a WebSocket does not take one of the browser's 6 connections per host,
 * and unlike polling it costs nothing while nothing changes.
 *
 * Protocol (JSON text messages):
 * 1. The page sends `{ session, after? }` within {@link AUTH_MS} (else close 4408 `auth_timeout`); the
 *    session is checked exactly like `Authorization: Bearer` (else close 4401 `not_authenticated`).
 * 2. The service answers `{ cursor, changes }`, as `GET /api/changes?after=` would: the changes
 *    since `after`, or `null` when it cannot replay them (re-read what you follow).
 * 3. Then `{ cursor, change: { kind, record } }` for each of the account's changes, in order,
 *    until the session ends: logged out, or at its age or idle limit (a timer in stream.ts, no
 *    message needed), the socket is closed with 4401 `not_authenticated`.
 * One IP address may hold at most {@link MAX_PENDING_SOCKETS_PER_IP} sockets that have not sent their
 * first message yet; beyond that the upgrade is refused with HTTP 429.
 * A ping every `heartbeatMs` finds dead peers: one that has not answered the previous ping is cut (unless
 * the beat itself came late: the process stalled, and the pong may be waiting to be read).
 * A peer that stops reading is cut sooner if more than {@link Streams.maxUnsentBytes} wait for it
 * (1 MiB, `MAX_UNSENT_BYTES` in stream.ts, unless the streams are given another limit): it is
 * closed with {@link CLOSE_TOO_SLOW} and, unless it takes its close frame within
 * {@link CLOSE_GRACE_MS}, dropped; it no longer follows the changes from the moment it is cut.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { sessionOf } from '../auth/sessions.js';
import type { ServiceConfig } from '../config.js';
import { isOriginAllowed } from '../origins.js';
import { MAX_PENDING_SOCKETS_PER_IP, PENDING_SOCKETS_LIMIT } from '../limit-values.js';
import { sessionKey, type Store } from '../store/store.js';
import type { Streams } from './stream.js';
import { clientIp } from './limits.js';

/** The path of the socket. */
export const LIVE_PATH = '/api/live';
/** How long a new socket may take to send its session. */
export const AUTH_MS = 5000;
/** Close code for a missing, malformed or ended session (as HTTP 401). */
export const CLOSE_NOT_AUTHENTICATED = 4401;
/**
 * Close code for a socket whose first message did not come within {@link AUTH_MS} (as HTTP 408):
 * not a refused session (the page may be slow, or this process stalled), so the page reconnects.
 */
export const CLOSE_AUTH_TIMEOUT = 4408;
/**
 * Close code for a peer that stopped reading ("try again later"): the page reconnects with its
 * cursor and is sent what it missed, as after any drop.
 */
export const CLOSE_TOO_SLOW = 1013;
/** How long a closed socket may take to say goodbye before it is dropped. */
export const CLOSE_GRACE_MS = 1000;
/** Largest accepted message: the first message holds a session and a cursor only. */
const MAX_PAYLOAD = 4096;

export class Live {
  readonly #server = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  readonly #sockets = new Set<WebSocket>();
  /** Sockets that have not sent their first message yet, by client IP (http/limits.ts). */
  readonly #pending = new Map<string, number>();

  constructor(
    readonly config: ServiceConfig,
    readonly store: Store,
    readonly streams: Streams,
    /** The service's own origin (the page is served from it). */
    readonly origin: () => string,
  ) {}

  /** How many sockets are open (authenticated or not yet). */
  get size(): number {
    return this.#sockets.size;
  }

  /**
   * Takes over an HTTP upgrade request. Refused with 404 off {@link LIVE_PATH}, with 403 when
   * the Origin is neither the service's own nor one a partner allows (a page elsewhere cannot read
   * an account's changes through a visitor's browser), and with 429 when the client's IP already
   * holds {@link MAX_PENDING_SOCKETS_PER_IP} sockets that have not logged in: else one client could
   * open thousands and hold each for {@link AUTH_MS}.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://service.invalid').pathname;
    if (path !== LIVE_PATH) return refuse(socket, 404, 'Not Found');
    if (!this.#originAllowed(req.headers.origin, req.headers.host)) return refuse(socket, 403, 'Forbidden');
    const ip = clientIp(req);
    if ((this.#pending.get(ip) ?? 0) >= MAX_PENDING_SOCKETS_PER_IP) return tooManyPending(socket);
    this.#server.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, ip));
  }

  /** Closes every socket (shutdown); resolves when they are gone (cut after a second at most). */
  async closeAll(): Promise<void> {
    const closed = [...this.#sockets].map((ws) => new Promise((resolve) => ws.once('close', resolve)));
    for (const ws of this.#sockets) ws.close(1001, 'service_closing');
    const cut = setTimeout(() => {
      for (const ws of this.#sockets) ws.terminate();
    }, CLOSE_GRACE_MS);
    await Promise.all(closed);
    clearTimeout(cut);
    this.#server.close();
  }

  #originAllowed(origin: string | undefined, host: string | undefined): boolean {
    if (!origin) return false;
    // Same origin as the address the client reached (directly or through a proxy), or as the service.
    if (origin === this.origin() || (host !== undefined && origin === `http://${host}`)) return true;
    for (const partner of this.config.partners.values())
      if (isOriginAllowed(partner.allowedOrigins, origin)) return true;
    return false;
  }

  #accept(ws: WebSocket, ip: string): void {
    this.#sockets.add(ws);
    this.#pending.set(ip, (this.#pending.get(ip) ?? 0) + 1);
    let pending = true;
    /** The socket has sent its first message (or gone): it no longer counts as waiting. */
    const settled = (): void => {
      if (!pending) return;
      pending = false;
      const left = (this.#pending.get(ip) ?? 1) - 1;
      if (left > 0) this.#pending.set(ip, left);
      else this.#pending.delete(ip);
    };
    let alive = true;
    let unfollow = (): void => {};
    let drop: ReturnType<typeof setTimeout> | undefined;
    // One limit for the streams and the sockets.
    const limit = this.streams.maxUnsentBytes;
    /** Cuts a peer that has stopped reading: no more changes for it, and gone within the grace. */
    const tooSlow = (): void => {
      if (drop) return;
      unfollow();
      this.streams.clientCut('status socket');
      ws.close(CLOSE_TOO_SLOW, 'too_slow');
      drop = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    };
    const deadline = setTimeout(() => ws.close(CLOSE_AUTH_TIMEOUT, 'auth_timeout'), AUTH_MS);
    // A tick that comes late (this process stalled: a long GC, a busy machine) runs before the
    // read of a pong that may be waiting: it pings again instead of judging, and a dead peer is cut
    // one beat later.
    const { heartbeatMs } = this.config;
    let lastBeat = performance.now();
    const heartbeat = setInterval(() => {
      const late = performance.now() - lastBeat > heartbeatMs * 1.5;
      lastBeat = performance.now();
      if (!alive && !late) return ws.terminate();
      alive = false;
      ws.ping();
    }, heartbeatMs);
    ws.on('pong', () => (alive = true));
    /** Ends the socket for its session (refused, logged out, past a limit): no change is sent after. */
    const refused = (reason: string): void => {
      if (drop) return;
      unfollow();
      ws.close(CLOSE_NOT_AUTHENTICATED, reason);
      drop = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    };
    ws.once('message', (data, isBinary) => {
      clearTimeout(deadline);
      settled();
      const first = isBinary ? undefined : parseFirst(String(data));
      let session;
      // What other services sharing the database committed (a login there a moment ago), as the API reads before each request.
      this.store.refresh();
      try {
        session = sessionOf(this.store, first?.session, this.config);
      } catch (error) {
        // A session refused here ends whatever else it holds open too (as the API's refusal does).
        if (first) this.streams.endSession(sessionKey(first.session));
        // The reason is the error's code: `sandbox_expired` for a sandbox's session once it ended.
        const code = (error as { code?: string }).code;
        return refused(code === 'sandbox_expired' ? code : 'not_authenticated');
      }
      const follow = this.streams.follow(
        {
          sessionKey: session.key,
          owner: session.owner,
          send: (text) => {
            ws.send(text);
            if (ws.bufferedAmount > limit) tooSlow();
          },
          stop: () => refused('not_authenticated'),
        },
        first?.after,
      );
      unfollow = follow.unfollow;
      ws.send(JSON.stringify(follow.feed));
    });
    // A socket that errs (bad frame, too large) closes too; 'close' cleans up either way.
    ws.on('error', () => {});
    ws.once('close', () => {
      settled();
      clearTimeout(deadline);
      clearTimeout(drop);
      clearInterval(heartbeat);
      unfollow();
      this.#sockets.delete(ws);
    });
  }
}

/** The first message, `{ session, after? }`; undefined when it is not one. */
function parseFirst(text: string): { session: string; after?: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { session, after } = value as Record<string, unknown>;
  if (typeof session !== 'string' || (after !== undefined && typeof after !== 'string')) return undefined;
  return after === undefined ? { session } : { session, after };
}

/**
 * Refuses an upgrade for {@link MAX_PENDING_SOCKETS_PER_IP}: 429 `rate_limited`, as a spent budget
 * answers, with `Retry-After` (the longest a waiting socket is held) and a body naming the limit.
 */
function tooManyPending(socket: Duplex): void {
  const body = JSON.stringify({
    error: {
      code: 'rate_limited',
      message:
        `Too many status sockets from this IP address that have not sent their session yet: the limit ` +
        `${PENDING_SOCKETS_LIMIT} allows ${MAX_PENDING_SOCKETS_PER_IP}. Send { session } as soon as the socket opens; ` +
        `retry after ${AUTH_MS / 1000} s.`,
      data: { limit: PENDING_SOCKETS_LIMIT, max: MAX_PENDING_SOCKETS_PER_IP, retryAfterMs: AUTH_MS },
    },
  });
  socket.end(
    `HTTP/1.1 429 Too Many Requests\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `retry-after: ${AUTH_MS / 1000}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Answers an upgrade request with an HTTP error and drops the connection. */
function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}
