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
 */
import { randomBytes } from 'node:crypto';
import { generationView, topicView, videoView } from './views.js';
/** How many recent changes are kept for streams that reopen with `Last-Event-ID`. */
export const REPLAY_LIMIT = 1000;
/** The open streams, so that logout and shutdown can end them. */
export class Streams {
  #open = new Map();
  /** Tells this run's event IDs from a previous run's, whose changes cannot be replayed. */
  #boot = randomBytes(4).toString('hex');
  #seq = 0;
  #recent = [];
  #followers = new Set();
  constructor(store, options) {
    this.store = store;
    this.options = options;
    store.subscribe((change) => this.#publish(change));
  }
  /**
   * Turns `res` into an event stream for the session's account. Sends the current state of every
   * named record (or, given the `lastEventId` of a previous stream, the changes since then), then
   * `ready`, then each change once, in order.
   */
  open(res, owner, sessionKey, filter, initial, lastEventId) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    const filtered = filter.topics.size + filter.generations.size + filter.videos.size > 0;
    const wanted = (change) => {
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
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), this.options.heartbeatMs);
    // Everything stops in one step, before the response ends: a write after end() would be an error.
    const stop = () => {
      if (!this.#open.delete(res)) return;
      clearInterval(heartbeat);
      res.end();
    };
    this.#open.set(res, { sessionKey, wanted, res, stop });
    res.once('close', stop);
  }
  /**
   * The owner's changes after `after`, in order, and the cursor to ask from next. Without `after`,
   * only the cursor (no changes). `changes` is null when `after` is not a position of this run
   * among the last {@link REPLAY_LIMIT} changes: the caller must re-read what it follows.
   */
  changes(owner, after) {
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
  follow(follower, after) {
    const feed = this.changes(follower.owner, after);
    this.#followers.add(follower);
    return { feed, unfollow: () => void this.#followers.delete(follower) };
  }
  /** How many streams are open. */
  get size() {
    return this.#open.size;
  }
  /** Ends the streams and sockets of one session (on logout). */
  endSession(sessionKey) {
    for (const stream of [...this.#open.values()]) if (stream.sessionKey === sessionKey) stream.stop();
    for (const follower of [...this.#followers]) if (follower.sessionKey === sessionKey) follower.stop();
  }
  /** Ends every stream (on shutdown). */
  endAll() {
    for (const stream of [...this.#open.values()]) stream.stop();
  }
  /** Numbers the change, keeps it for replay and sends it to every stream that follows it. */
  #publish(change) {
    const seq = ++this.#seq;
    const view = this.#view(change);
    const text = `id: ${this.#boot}-${seq}\nevent: ${change.kind}\ndata: ${JSON.stringify(view)}\n\n`;
    const message = JSON.stringify({ cursor: this.#cursor(), change: { kind: change.kind, record: view } });
    this.#recent.push({ seq, change, view, text });
    if (this.#recent.length > REPLAY_LIMIT) this.#recent.shift();
    for (const stream of this.#open.values()) if (stream.wanted(change)) stream.res.write(text);
    for (const follower of this.#followers) if (owns(follower.owner, change)) follower.send(message);
  }
  /** The position after the latest change, as an event ID. */
  #cursor() {
    return `${this.#boot}-${this.#seq}`;
  }
  /** The changes after `lastEventId`, or undefined when they are not all known (another run, too old). */
  #since(lastEventId) {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(lastEventId ?? '');
    if (!match || match[1] !== this.#boot) return undefined;
    const seq = Number(match[2]);
    const oldest = this.#recent[0]?.seq ?? this.#seq + 1;
    if (seq > this.#seq || seq < oldest - 1) return undefined;
    return this.#recent.filter((sent) => sent.seq > seq);
  }
  #view(change) {
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
function owns(owner, { record }) {
  return record.partnerID === owner.partnerID && record.accountID === owner.accountID;
}
//# sourceMappingURL=stream.js.map
