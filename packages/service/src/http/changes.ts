/**
 * The numbered change log: every change of a topic, generation or video that the store publishes,
 * numbered (`<boot>-<n>`), shaped once as the API shows it, and kept for replay — the last
 * {@link REPLAY_LIMIT} changes of this run of the service. Its doors: the status stream
 * (`GET /api/events`, stream.ts), the change feed (`GET /api/changes?after=<id>`, routes/events.ts)
 * and the plugin page's socket (`/api/live`, live.ts).
 */
import { randomBytes } from 'node:crypto';
import { generationView, topicView, videoView } from '../store/shapes.js';
import type { Change, Owner, Store } from '../store/store.js';

/** How many recent changes are kept for clients that resume from a position. */
export const REPLAY_LIMIT = 1000;

/** One change of the log. */
export interface LoggedChange {
  seq: number;
  /** Its position, as an event ID and cursor (`<boot>-<seq>`). */
  id: string;
  change: Change;
  /** The record as it was at the change (the store's record object moves on). */
  view: unknown;
  /** `view` as JSON, made once for every client. */
  data: string;
}

/** An answer of the change feed: `changes` is null when the cursor is unknown (re-read everything). */
export interface ChangeFeed {
  cursor: string;
  changes: { kind: Change['kind']; record: unknown }[] | null;
}

/** The numbered changes of this run of the service. */
export class ChangeLog {
  /** Tells this run's positions from a previous run's, whose changes cannot be replayed. */
  readonly #boot = randomBytes(4).toString('hex');
  #seq = 0;
  readonly #recent: LoggedChange[] = [];
  readonly #listeners = new Set<(logged: LoggedChange) => void>();

  /** Follows `store`'s changes; `baseURL` is the service's origin, for the videos' media URLs. */
  constructor(
    store: Store,
    readonly baseURL: () => string,
  ) {
    store.subscribe((change) => this.#append(change));
  }

  /** The position after the latest change. */
  cursor(): string {
    return `${this.#boot}-${this.#seq}`;
  }

  /** Calls `listener` with every change from now on; returns the unsubscribe. */
  subscribe(listener: (logged: LoggedChange) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** The changes after the position `after`, or undefined when they are not all known (another run, too old). */
  since(after: string | undefined): LoggedChange[] | undefined {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(after ?? '');
    if (!match || match[1] !== this.#boot) return undefined;
    const seq = Number(match[2]);
    const oldest = this.#recent[0]?.seq ?? this.#seq + 1;
    if (seq > this.#seq || seq < oldest - 1) return undefined;
    return this.#recent.filter((logged) => logged.seq > seq);
  }

  /**
   * The owner's changes after `after`, in order, and the cursor to ask from next. Without `after`,
   * only the cursor (no changes). `changes` is null when `after` is not a position of this run
   * among the last {@link REPLAY_LIMIT} changes: the caller must re-read what it follows.
   */
  changes(owner: Owner, after: string | undefined): ChangeFeed {
    const cursor = this.cursor();
    if (after === undefined) return { cursor, changes: [] };
    const missed = this.since(after);
    if (!missed) return { cursor, changes: null };
    const changes = missed
      .filter((logged) => owns(owner, logged.change))
      .map((logged) => ({ kind: logged.change.kind, record: logged.view }));
    return { cursor, changes };
  }

  /** The record of a change as the API shows it. */
  view(change: Change): unknown {
    switch (change.kind) {
      case 'topic':
        return topicView(change.record);
      case 'generation':
        return generationView(change.record);
      case 'video':
        return videoView(change.record, this.baseURL());
    }
  }

  /** Numbers the change, keeps it for replay and hands it to every listener. */
  #append(change: Change): void {
    const seq = ++this.#seq;
    const view = this.view(change);
    const logged: LoggedChange = { seq, id: this.cursor(), change, view, data: JSON.stringify(view) };
    this.#recent.push(logged);
    if (this.#recent.length > REPLAY_LIMIT) this.#recent.shift();
    for (const listener of this.#listeners) listener(logged);
  }
}

/** Whether the change is of one of the owner's records. */
export function owns(owner: Owner, { record }: Change): boolean {
  return record.partnerID === owner.partnerID && record.accountID === owner.accountID;
}
