/**
 * The status stream (`GET /api/events`): server-sent events that push every change of the
 * account's topics, generations and videos as it happens — no polling. A stream may be narrowed to
 * some IDs; it then starts with their current state. A comment line every `heartbeatMs` keeps
 * proxies and idle timeouts from closing it.
 *
 * Every change gets an event ID (`<boot>-<n>`). A stream reopened with `Last-Event-ID` (after a
 * network drop) gets the changes it missed, in order, instead of the current states — as long as
 * they are among the last {@link REPLAY_LIMIT} changes of this run of the service.
 *
 * The same numbered changes make the change feed (`GET /api/changes?after=<id>`) and the plugin
 * page's socket (`/api/live`, see live.ts), which gets each change pushed: a WebSocket is not one of
 * the browser's 6 HTTP/1.1 connections per host, so one per iframe never starves the API calls.
 *
 * A client that stops reading (a frozen tab, a stalled proxy) is cut once more than
 * {@link MAX_UNSENT_BYTES} wait for it: else the service would keep every change for it, without bound.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Change, Owner, Store } from '../store/store.js';
import { generationView, topicView, videoView } from '../store/shapes.js';

/** Which records a stream follows; empty sets follow all of the account's records. */
export interface StreamFilter {
  topics: ReadonlySet<string>;
  generations: ReadonlySet<string>;
  videos: ReadonlySet<string>;
}

/** How many recent changes are kept for streams that reopen with `Last-Event-ID`. */
export const REPLAY_LIMIT = 1000;

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
}

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
  /** Ends the socket (logout, shutdown). */
  stop: () => void;
}

/** One change as sent on the wire, kept for replay. */
interface SentChange {
  seq: number;
  change: Change;
  /** The record as it was at the change (the store's record object moves on). */
  view: unknown;
  text: string;
}

/** An answer of the change feed: `changes` is null when the cursor is unknown (re-read everything). */
export interface ChangeFeed {
  cursor: string;
  changes: { kind: Change['kind']; record: unknown }[] | null;
}

/** The open streams, so that logout and shutdown can end them. */
export class Streams {
  readonly #open = new Map<ServerResponse, OpenStream>();
  /** Tells this run's event IDs from a previous run's, whose changes cannot be replayed. */
  readonly #boot = randomBytes(4).toString('hex');
  #seq = 0;
  readonly #recent: SentChange[] = [];
  readonly #followers = new Set<Follower>();

  /** Streams and sockets cut because their client stopped reading, since the service started. */
  #cut = 0;

  constructor(
    readonly store: Store,
    readonly options: StreamsOptions,
  ) {
    store.subscribe((change) => this.#publish(change));
  }

  /** The limit of unsent bytes per client (see {@link MAX_UNSENT_BYTES}). */
  get maxUnsentBytes(): number {
    return this.options.maxUnsentBytes ?? MAX_UNSENT_BYTES;
  }

  /**
   * Turns `res` into an event stream for the session's account. Sends the current state of every
   * named record (or, given the `lastEventId` of a previous stream, the changes since then), then
   * `ready`, then each change once, in order.
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
    const missed = this.#since(lastEventId);
    if (missed) {
      for (const sent of missed) if (wanted(sent.change)) res.write(sent.text);
    } else {
      for (const change of initial) res.write(`event: ${change.kind}\ndata: ${JSON.stringify(this.#view(change))}\n\n`);
    }
    // `ready` carries the position, so that a stream that drops before any change can still resume.
    res.write(`id: ${this.#cursor()}\nevent: ready\ndata: {}\n\n`);
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
    const stop = (cut = false): void => {
      if (!this.#open.delete(res)) return;
      clearInterval(heartbeat);
      if (cut) res.destroy();
      else res.end();
    };
    this.#open.set(res, { sessionKey, wanted, send, stop: () => stop() });
    res.once('close', () => stop());
  }

  /**
   * The owner's changes after `after`, in order, and the cursor to ask from next. Without `after`,
   * only the cursor (no changes). `changes` is null when `after` is not a position of this run
   * among the last {@link REPLAY_LIMIT} changes: the caller must re-read what it follows.
   */
  changes(owner: Owner, after: string | undefined): ChangeFeed {
    const cursor = this.#cursor();
    if (after === undefined) return { cursor, changes: [] };
    const missed = this.#since(after);
    if (!missed) return { cursor, changes: null };
    const changes = missed
      .filter((sent) => owns(owner, sent.change))
      .map((sent) => ({ kind: sent.change.kind, record: sent.view }));
    return { cursor, changes };
  }

  /**
   * Starts sending the owner's changes to `follower` and answers like {@link changes}. Both happen
   * in one step, so that no change falls between the replay and the first pushed change.
   */
  follow(follower: Follower, after: string | undefined): { feed: ChangeFeed; unfollow: () => void } {
    const feed = this.changes(follower.owner, after);
    this.#followers.add(follower);
    return { feed, unfollow: () => void this.#followers.delete(follower) };
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

  /** Ends the streams and sockets of one session (on logout). */
  endSession(sessionKey: string): void {
    for (const stream of [...this.#open.values()]) if (stream.sessionKey === sessionKey) stream.stop();
    for (const follower of [...this.#followers]) if (follower.sessionKey === sessionKey) follower.stop();
  }

  /** Ends every stream (on shutdown). */
  endAll(): void {
    for (const stream of [...this.#open.values()]) stream.stop();
  }

  /** Numbers the change, keeps it for replay and sends it to every stream that follows it. */
  #publish(change: Change): void {
    const seq = ++this.#seq;
    const view = this.#view(change);
    const text = `id: ${this.#boot}-${seq}\nevent: ${change.kind}\ndata: ${JSON.stringify(view)}\n\n`;
    const message = JSON.stringify({ cursor: this.#cursor(), change: { kind: change.kind, record: view } });
    this.#recent.push({ seq, change, view, text });
    if (this.#recent.length > REPLAY_LIMIT) this.#recent.shift();
    for (const stream of this.#open.values()) if (stream.wanted(change)) stream.send(text);
    for (const follower of this.#followers) if (owns(follower.owner, change)) follower.send(message);
  }

  /** The position after the latest change, as an event ID. */
  #cursor(): string {
    return `${this.#boot}-${this.#seq}`;
  }

  /** The changes after `lastEventId`, or undefined when they are not all known (another run, too old). */
  #since(lastEventId: string | undefined): SentChange[] | undefined {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(lastEventId ?? '');
    if (!match || match[1] !== this.#boot) return undefined;
    const seq = Number(match[2]);
    const oldest = this.#recent[0]?.seq ?? this.#seq + 1;
    if (seq > this.#seq || seq < oldest - 1) return undefined;
    return this.#recent.filter((sent) => sent.seq > seq);
  }

  #view(change: Change): unknown {
    switch (change.kind) {
      case 'topic':
        return topicView(change.record);
      case 'generation':
        return generationView(change.record);
      case 'video':
        return videoView(change.record, this.options.baseURL());
    }
  }
}

/** Whether the change is of one of the owner's records. */
function owns(owner: Owner, { record }: Change): boolean {
  return record.partnerID === owner.partnerID && record.accountID === owner.accountID;
}
