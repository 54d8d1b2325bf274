/**
 * The status stream (`GET /api/events`): server-sent events that push every change of the
 * account's topics, generations and videos as it happens — no polling. A stream may be narrowed to
 * some IDs; it then starts with their current state. A comment line every `heartbeatMs` keeps
 * proxies and idle timeouts from closing it.
 */
import type { ServerResponse } from 'node:http';
import type { Change, Owner, Store } from './store.js';
import { generationView, topicView, videoView } from './views.js';

/** Which records a stream follows; empty sets follow all of the account's records. */
export interface StreamFilter {
  topics: ReadonlySet<string>;
  generations: ReadonlySet<string>;
  videos: ReadonlySet<string>;
}

/** The open streams, so that logout and shutdown can end them. */
export class Streams {
  readonly #open = new Map<ServerResponse, { sessionKey: string; stop: () => void }>();
  #nextEventId = 1;

  constructor(
    readonly store: Store,
    readonly options: { heartbeatMs: number; baseURL: () => string },
  ) {}

  /**
   * Turns `res` into an event stream for the session's account. Sends the current state of every
   * named record, then `ready`, then each change once, in order.
   */
  open(res: ServerResponse, owner: Owner, sessionKey: string, filter: StreamFilter, initial: Change[]): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    const filtered = filter.topics.size + filter.generations.size + filter.videos.size > 0;
    const wanted = (change: Change): boolean => {
      const { record } = change;
      if (record.partnerID !== owner.partnerID || record.accountID !== owner.accountID) return false;
      if (!filtered) return true;
      if (change.kind === 'topic') return filter.topics.has(change.record.id);
      if (change.kind === 'generation') return filter.generations.has(change.record.requestId);
      return filter.videos.has(change.record.id);
    };
    const send = (change: Change): void => {
      res.write(`id: ${this.#nextEventId++}\nevent: ${change.kind}\ndata: ${JSON.stringify(this.#view(change))}\n\n`);
    };

    res.write('retry: 2000\n\n');
    for (const change of initial) send(change);
    res.write(`event: ready\ndata: {}\n\n`);
    const unsubscribe = this.store.subscribe((change) => {
      if (wanted(change)) send(change);
    });
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), this.options.heartbeatMs);
    // Everything stops in one step, before the response ends: a write after end() would be an error.
    const stop = (): void => {
      if (!this.#open.delete(res)) return;
      unsubscribe();
      clearInterval(heartbeat);
      res.end();
    };
    this.#open.set(res, { sessionKey, stop });
    res.once('close', stop);
  }

  /** How many streams are open. */
  get size(): number {
    return this.#open.size;
  }

  /** Ends the streams of one session (on logout). */
  endSession(sessionKey: string): void {
    for (const stream of [...this.#open.values()]) if (stream.sessionKey === sessionKey) stream.stop();
  }

  /** Ends every stream (on shutdown). */
  endAll(): void {
    for (const stream of [...this.#open.values()]) stream.stop();
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
