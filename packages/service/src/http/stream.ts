/**
 * The status stream (`GET /api/events`): server-sent events that push every change of the
 * account's topics, generations and videos as it happens — no polling. A stream may be narrowed to
 * some IDs; it then starts with their current state. A comment line every `heartbeatMs` keeps
 * proxies and idle timeouts from closing it.
 *
 * The streams and the plugin page's sockets (`/api/live`, see live.ts) are doors onto the numbered
 * change log (changes.ts): every change's event ID is its position there. A stream reopened with
 * `Last-Event-ID` (after a network drop) gets the changes it missed, in order, instead of the
 * current states — as long as the log still keeps them. A socket gets each change pushed: a
 * WebSocket is not one of the browser's 6 HTTP/1.1 connections per host, so one per iframe never
 * starves the API calls. This file keeps the clients of both doors (to end them, and to cut those
 * that stop reading).
 *
 * A client that stops reading (a frozen tab, a stalled proxy) is cut once more than
 * {@link MAX_UNSENT_BYTES} wait for it: else the service would keep every change for it, without bound.
 *
 * A session's streams and sockets end when the session does: on logout, and by a timer at the
 * moment it reaches its age or idle limit (auth/sessions.ts), so that a client that only listens
 * never goes on receiving an account's records on a session the API already refuses.
 */
import type { ServerResponse } from 'node:http';
import { sessionEndsAt, type SessionLimits } from '../auth/sessions.js';
import type { Change, Owner, Store } from '../store/store.js';
import { ChangeLog, owns, type ChangeFeed, type LoggedChange } from './changes.js';

/** Which records a stream follows; empty sets follow all of the account's records. */
export interface StreamFilter {
  topics: ReadonlySet<string>;
  generations: ReadonlySet<string>;
  videos: ReadonlySet<string>;
}

/**
 * Bytes written to a status stream or socket that the network has not taken yet (the response's
 * `writableLength`, the socket's `bufferedAmount`) beyond which its client is cut. A client that
 * reads never comes near: a change is a few kB at most, and the kernel's socket buffers come first.
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/** Options of {@link Streams}. */
export interface StreamsOptions {
  /** Interval of the stream's keep-alive comment. */
  heartbeatMs: number;
  /** The service's origin, for the videos' media URLs. */
  baseURL: () => string;
  /** See {@link MAX_UNSENT_BYTES} (the default). */
  maxUnsentBytes?: number;
  /** The session limits (config.ts): each session's streams and sockets end when it reaches one. */
  sessions: SessionLimits;
}

/**
 * The longest a timer may wait (setTimeout's limit, about 24.8 days; a longer wait fires at once):
 * a session that ends later is looked at again then.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface OpenStream {
  sessionKey: string;
  wanted: (change: Change) => boolean;
  /** Writes an event; cuts the stream instead when its client is too far behind. */
  send: (text: string) => void;
  stop: () => void;
}

/** A socket following an owner's changes (see live.ts). */
export interface Follower {
  sessionKey: string;
  owner: Owner;
  /** Sends one `{ cursor, change }` message, already serialized. */
  send: (text: string) => void;
  /** Ends the socket (its session ended). */
  stop: () => void;
}

/** The open streams, so that logout and shutdown can end them. */
export class Streams {
  readonly #open = new Map<ServerResponse, OpenStream>();
  readonly #followers = new Set<Follower>();
  /** Per session with open streams or sockets: how many, and the timer that ends them with it. */
  readonly #sessions = new Map<string, { clients: number; timer: ReturnType<typeof setTimeout> | undefined }>();
  readonly #store: Store;
  /** The numbered change log the streams and sockets are doors onto. */
  readonly log: ChangeLog;

  /** Streams and sockets cut because their client stopped reading, since the service started. */
  #cut = 0;

  constructor(
    store: Store,
    readonly options: StreamsOptions,
  ) {
    this.#store = store;
    this.log = new ChangeLog(store, options.baseURL);
    this.log.subscribe((logged) => this.#publish(logged));
    // A log-out on another process sharing the database ends this one's streams and sockets too.
    store.onSessionEnded((key) => this.endSession(key));
  }

  /** The limit of unsent bytes per client (see {@link MAX_UNSENT_BYTES}). */
  get maxUnsentBytes(): number {
    return this.options.maxUnsentBytes ?? MAX_UNSENT_BYTES;
  }

  /**
   * Turns `res` into an event stream for the session's account. Sends the changes since
   * `lastEventId` (a previous stream's position) when the log still has them, else the `initial`
   * states (the named records', or every record of the account on a resume the log cannot serve:
   * routes/events.ts), then `ready`, then each change once, in order.
   */
  open(
    res: ServerResponse,
    owner: Owner,
    sessionKey: string,
    filter: StreamFilter,
    initial: Change[],
    lastEventId?: string,
  ): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    const filtered = filter.topics.size + filter.generations.size + filter.videos.size > 0;
    const wanted = (change: Change): boolean => {
      if (!owns(owner, change)) return false;
      if (!filtered) return true;
      if (change.kind === 'topic') return filter.topics.has(change.record.id);
      if (change.kind === 'generation') return filter.generations.has(change.record.requestId);
      return filter.videos.has(change.record.id);
    };
    res.write('retry: 2000\n\n');
    const missed = this.log.since(lastEventId, owner);
    if (missed) {
      for (const logged of missed) if (wanted(logged.change)) res.write(eventText(logged));
    } else {
      for (const change of initial)
        res.write(`event: ${change.kind}\ndata: ${JSON.stringify(this.log.view(change))}\n\n`);
    }
    // `ready` carries the position, so that a stream that drops before any change can still resume.
    res.write(`id: ${this.log.cursor()}\nevent: ready\ndata: {}\n\n`);
    // Checked on the writes after the opening (whose replay is written at once), as changes come.
    const send = (text: string): void => {
      res.write(text);
      if (res.writableLength > this.maxUnsentBytes) {
        this.clientCut('status stream');
        stop(true);
      }
    };
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), this.options.heartbeatMs);
    // Everything stops in one step, before the response ends: a write after end() would be an error.
    // A cut stream is dropped with what it holds: end() would keep that until its client read it.
    const release = this.#hold(sessionKey);
    const stop = (cut = false): void => {
      if (!this.#open.delete(res)) return;
      release();
      clearInterval(heartbeat);
      if (cut) res.destroy();
      else res.end();
    };
    this.#open.set(res, { sessionKey, wanted, send, stop: () => stop() });
    res.once('close', () => stop());
  }

  /**
   * Starts sending the owner's changes to `follower` and answers like {@link ChangeLog.changes}. Both happen
   * in one step, so that no change falls between the replay and the first pushed change.
   */
  follow(follower: Follower, after: string | undefined): { feed: ChangeFeed; unfollow: () => void } {
    const feed = this.log.changes(follower.owner, after);
    this.#followers.add(follower);
    const release = this.#hold(follower.sessionKey);
    return {
      feed,
      unfollow: () => {
        if (this.#followers.delete(follower)) release();
      },
    };
  }

  /** How many streams are open. */
  get size(): number {
    return this.#open.size;
  }

  /** How many sockets follow the changes (see {@link follow}). */
  get followers(): number {
    return this.#followers.size;
  }

  /** How many streams and sockets were cut because their client stopped reading. */
  get cut(): number {
    return this.#cut;
  }

  /** Counts and reports a client cut for being {@link maxUnsentBytes} behind (live.ts calls it too). */
  clientCut(what: 'status stream' | 'status socket'): void {
    this.#cut++;
    console.warn(
      `video-plugin-service: cut a ${what} whose client stopped reading (over ${this.maxUnsentBytes} bytes unsent).`,
    );
  }

  /** Ends the streams and sockets of one session (logout, a limit reached, a sandbox ended). */
  endSession(sessionKey: string): void {
    if (!this.#sessions.has(sessionKey)) return;
    for (const stream of [...this.#open.values()]) if (stream.sessionKey === sessionKey) stream.stop();
    for (const follower of [...this.#followers]) if (follower.sessionKey === sessionKey) follower.stop();
  }

  /**
   * Counts a stream or socket of the session, and makes sure a timer ends them all when the
   * session ends. Returns the release, for when that client goes (the last one stops the timer).
   */
  #hold(sessionKey: string): () => void {
    let held = this.#sessions.get(sessionKey);
    if (!held) {
      this.#sessions.set(sessionKey, (held = { clients: 0, timer: undefined }));
      // Looked at once the caller has finished opening (never from within open() or follow()).
      this.#watch(sessionKey, 0);
    }
    held.clients++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.#sessions.get(sessionKey);
      if (!current || --current.clients > 0) return;
      clearTimeout(current.timer);
      this.#sessions.delete(sessionKey);
    };
  }

  /**
   * In `ms`, ends the session's streams and sockets if it has ended by then (logged out, deleted,
   * or past a limit), else looks again when it would end: each use moves its idle limit on.
   */
  #watch(sessionKey: string, ms: number): void {
    const held = this.#sessions.get(sessionKey);
    if (!held) return;
    held.timer = setTimeout(() => {
      if (this.#sessions.get(sessionKey) !== held) return;
      held.timer = undefined;
      const ends = sessionEndsAt(this.#store, sessionKey, this.options.sessions);
      const left = ends === undefined ? 0 : ends - Date.now();
      if (left <= 0) this.endSession(sessionKey);
      else this.#watch(sessionKey, Math.min(left, MAX_TIMER_MS));
    }, ms);
    // The timer alone never keeps the process alive: the streams and sockets it watches do.
    held.timer.unref();
  }

  /** Ends every stream (on shutdown). */
  endAll(): void {
    for (const stream of [...this.#open.values()]) stream.stop();
  }

  /** Sends a change of the log to every stream and socket that follows it (each form made once). */
  #publish(logged: LoggedChange): void {
    const { change } = logged;
    let text: string | undefined;
    for (const stream of this.#open.values()) if (stream.wanted(change)) stream.send((text ??= eventText(logged)));
    let message: string | undefined;
    for (const follower of this.#followers) {
      if (!owns(follower.owner, change)) continue;
      message ??= `{"cursor":${JSON.stringify(logged.id)},"change":{"kind":"${change.kind}","record":${logged.data}}}`;
      follower.send(message);
    }
  }
}

/** A change of the log as a server-sent event. */
function eventText({ id, change, data }: LoggedChange): string {
  return `id: ${id}\nevent: ${change.kind}\ndata: ${data}\n\n`;
}
