import { WebSocketServer } from 'ws';
import { sessionOf } from './api.js';
import { isOriginAllowed } from './origins.js';
/** The path of the socket. */
export const LIVE_PATH = '/api/live';
/** How long a new socket may take to send its session. */
export const AUTH_MS = 5000;
/** Close code for a missing, malformed or ended session (as HTTP 401). */
export const CLOSE_NOT_AUTHENTICATED = 4401;
/** Largest accepted message: the first message holds a session and a cursor only. */
const MAX_PAYLOAD = 4096;
export class Live {
  #server = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  #sockets = new Set();
  constructor(
    config,
    store,
    streams,
    /** The service's own origin (the page is served from it). */
    origin,
  ) {
    this.config = config;
    this.store = store;
    this.streams = streams;
    this.origin = origin;
  }
  /** How many sockets are open (authenticated or not yet). */
  get size() {
    return this.#sockets.size;
  }
  /**
   * Takes over an HTTP upgrade request. Refused with 404 off {@link LIVE_PATH}, and with 403 when
   * the Origin is neither the service's own nor one a partner allows: a page elsewhere cannot read
   * an account's changes through a visitor's browser.
   */
  upgrade(req, socket, head) {
    const path = new URL(req.url ?? '/', 'http://service.invalid').pathname;
    if (path !== LIVE_PATH) return refuse(socket, 404, 'Not Found');
    if (!this.#originAllowed(req.headers.origin, req.headers.host)) return refuse(socket, 403, 'Forbidden');
    this.#server.handleUpgrade(req, socket, head, (ws) => this.#accept(ws));
  }
  /** Closes every socket (shutdown); resolves when they are gone (cut after a second at most). */
  async closeAll() {
    const closed = [...this.#sockets].map((ws) => new Promise((resolve) => ws.once('close', resolve)));
    for (const ws of this.#sockets) ws.close(1001, 'service_closing');
    const cut = setTimeout(() => {
      for (const ws of this.#sockets) ws.terminate();
    }, 1000);
    await Promise.all(closed);
    clearTimeout(cut);
    this.#server.close();
  }
  #originAllowed(origin, host) {
    if (!origin) return false;
    // Same origin as the address the client reached (directly or through a proxy), or as the service.
    if (origin === this.origin() || (host !== undefined && origin === `http://${host}`)) return true;
    for (const partner of this.config.partners.values())
      if (isOriginAllowed(partner.allowedOrigins, origin)) return true;
    return false;
  }
  #accept(ws) {
    this.#sockets.add(ws);
    let alive = true;
    let unfollow = () => {};
    const deadline = setTimeout(() => ws.close(CLOSE_NOT_AUTHENTICATED, 'not_authenticated'), AUTH_MS);
    const heartbeat = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, this.config.heartbeatMs);
    ws.on('pong', () => (alive = true));
    ws.once('message', (data, isBinary) => {
      clearTimeout(deadline);
      const first = isBinary ? undefined : parseFirst(String(data));
      let session;
      try {
        session = sessionOf(this.store, first?.session);
      } catch {
        return ws.close(CLOSE_NOT_AUTHENTICATED, 'not_authenticated');
      }
      const follow = this.streams.follow(
        {
          sessionKey: session.key,
          owner: session.owner,
          send: (text) => ws.send(text),
          stop: () => ws.close(CLOSE_NOT_AUTHENTICATED, 'not_authenticated'),
        },
        first?.after,
      );
      unfollow = follow.unfollow;
      ws.send(JSON.stringify(follow.feed));
    });
    // A socket that errs (bad frame, too large) closes too; 'close' cleans up either way.
    ws.on('error', () => {});
    ws.once('close', () => {
      clearTimeout(deadline);
      clearInterval(heartbeat);
      unfollow();
      this.#sockets.delete(ws);
    });
  }
}
/** The first message, `{ session, after? }`; undefined when it is not one. */
function parseFirst(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { session, after } = value;
  if (typeof session !== 'string' || (after !== undefined && typeof after !== 'string')) return undefined;
  return after === undefined ? { session } : { session, after };
}
/** Answers an upgrade request with an HTTP error and drops the connection. */
function refuse(socket, status, text) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}
//# sourceMappingURL=live.js.map
