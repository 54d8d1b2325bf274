import type { ServerResponse } from 'node:http';
import type { Change, Owner, Store } from './store.js';
/** Which records a stream follows; empty sets follow all of the account's records. */
export interface StreamFilter {
  topics: ReadonlySet<string>;
  generations: ReadonlySet<string>;
  videos: ReadonlySet<string>;
}
/** How many recent changes are kept for streams that reopen with `Last-Event-ID`. */
export declare const REPLAY_LIMIT = 1000;
/** A socket following an owner's changes (see live.ts). */
export interface Follower {
  sessionKey: string;
  owner: Owner;
  /** Sends one `{ cursor, change }` message, already serialized. */
  send: (text: string) => void;
  /** Ends the socket (logout, shutdown). */
  stop: () => void;
}
/** An answer of the change feed: `changes` is null when the cursor is unknown (re-read everything). */
export interface ChangeFeed {
  cursor: string;
  changes:
    | {
        kind: Change['kind'];
        record: unknown;
      }[]
    | null;
}
/** The open streams, so that logout and shutdown can end them. */
export declare class Streams {
  #private;
  readonly store: Store;
  readonly options: {
    heartbeatMs: number;
    baseURL: () => string;
  };
  constructor(
    store: Store,
    options: {
      heartbeatMs: number;
      baseURL: () => string;
    },
  );
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
  ): void;
  /**
   * The owner's changes after `after`, in order, and the cursor to ask from next. Without `after`,
   * only the cursor (no changes). `changes` is null when `after` is not a position of this run
   * among the last {@link REPLAY_LIMIT} changes: the caller must re-read what it follows.
   */
  changes(owner: Owner, after: string | undefined): ChangeFeed;
  /**
   * Starts sending the owner's changes to `follower` and answers like {@link changes}. Both happen
   * in one step, so that no change falls between the replay and the first pushed change.
   */
  follow(
    follower: Follower,
    after: string | undefined,
  ): {
    feed: ChangeFeed;
    unfollow: () => void;
  };
  /** How many streams are open. */
  get size(): number;
  /** Ends the streams and sockets of one session (on logout). */
  endSession(sessionKey: string): void;
  /** Ends every stream (on shutdown). */
  endAll(): void;
}
//# sourceMappingURL=stream.d.ts.map
