/**
 * The numbered change log: every change of a topic, generation or video that the store publishes,
 * numbered, shaped once as the API shows it, and kept for replay — the last
 * {@link REPLAY_LIMIT} changes of this run of the service. Whether a reader's replay is whole
 * depends on its own account's changes only (`#dropped`). Its doors: the status stream
 * (`GET /api/events`, stream.ts), the change feed (`GET /api/changes?after=<id>`, routes/events.ts)
 * and the plugin page's socket (`/api/live`, live.ts).
 *
 * Its positions count every account's changes, so a position is given out sealed for the account
 * it is given to (`<boot>-<sealed>`, cursors.ts): the change's own account for the change's ID,
 * the caller's for the feed's cursor. A cursor tells its reader nothing of the other accounts, and
 * the feed refuses one sealed for another account (400 `invalid_parameter`, field `after`). The
 * stream's `ready` position is given before any account is known: it is sealed for anyone.
 */
import { randomBytes } from 'node:crypto';
import { InvalidParameterError } from 'video-plugin/internal';
import { CursorSeal } from '../cursors.js';
import { generationView, topicView, videoView } from '../store/shapes.js';
import type { Change, Owner, Store } from '../store/store.js';

/** How many recent changes are kept for clients that resume from a position. */
export const REPLAY_LIMIT = 1000;

/** One change of the log. */
export interface LoggedChange {
  seq: number;
  /** Its position, as an event ID and cursor, sealed for the account of the change. */
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
  /** This run's positions are only ever read by this run: its key is never kept. */
  readonly #seal = new CursorSeal(randomBytes(32));
  #seq = 0;
  readonly #recent: LoggedChange[] = [];
  /**
   * For each account whose changes the window has dropped, the position of the latest one: a
   * reader's replay is whole when none of its own changes after its position was dropped, whatever
   * the other accounts did meanwhile (one entry per such account, as many as the store's).
   */
  readonly #dropped = new Map<string, number>();
  readonly #listeners = new Set<(logged: LoggedChange) => void>();

  /** Follows `store`'s changes; `baseURL` is the service's origin, for the videos' media URLs. */
  constructor(
    store: Store,
    readonly baseURL: () => string,
  ) {
    store.subscribe((change) => this.#append(change));
  }

  /** The position after the latest change, for `owner` (without one: for anyone). */
  cursor(owner?: Owner): string {
    return this.#cursorOf(this.#seq, owner);
  }

  /** Calls `listener` with every change from now on; returns the unsubscribe. */
  subscribe(listener: (logged: LoggedChange) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * The changes after the position `after`, or undefined when `owner`'s are not all known (another
   * run, or one of its changes since was dropped). Of every account: the caller keeps those it may see.
   */
  since(after: string | undefined, owner: Owner): LoggedChange[] | undefined {
    const seq = this.#position(after, undefined);
    return typeof seq === 'number' ? this.#after(seq, owner) : undefined;
  }

  /**
   * The owner's changes after `after`, in order, and the cursor to ask from next. Without `after`,
   * only the cursor (no changes). `changes` is null when `after` is not a position of this run, when
   * one of the owner's changes after it left the last {@link REPLAY_LIMIT}, or when it is another
   * account's: the caller must re-read
   * what it follows (the socket; the feed refuses another account's first, {@link refuseForeign}).
   */
  changes(owner: Owner, after: string | undefined): ChangeFeed {
    const cursor = this.cursor(owner);
    if (after === undefined) return { cursor, changes: [] };
    const seq = this.#position(after, owner);
    const missed = typeof seq === 'number' ? this.#after(seq, owner) : undefined;
    if (!missed) return { cursor, changes: null };
    const changes = missed
      .filter((logged) => owns(owner, logged.change))
      .map((logged) => ({ kind: logged.change.kind, record: logged.view }));
    return { cursor, changes };
  }

  /** Whether `after` is a cursor of this run sealed for another account than `owner` (or made up). */
  isForeign(owner: Owner, after: string | undefined): boolean {
    return this.#position(after, owner) === 'foreign';
  }

  /**
   * Refuses a cursor this run sealed for another account than `owner` (or one made up).
   *
   * @throws {InvalidParameterError} naming `after`.
   */
  refuseForeign(owner: Owner, after: string | undefined, route: string): void {
    if (!this.isForeign(owner, after)) return;
    throw new InvalidParameterError(
      `${route}: "after" is not a cursor of this account's changes (each cursor is given to one account, and refused from any other). Give the cursor of your own last answer, or leave it out to start from now.`,
      { field: 'after' },
    );
  }

  /**
   * The position a cursor names: undefined when it is not one of this run's (a previous run's,
   * whose key is gone, or no cursor at all), `foreign` when it was sealed for another account than
   * `owner` (without an owner, any account's is read).
   */
  #position(after: string | undefined, owner: Owner | undefined): number | 'foreign' | undefined {
    const match = /^([0-9a-f]{8})-(.*)$/s.exec(after ?? '');
    if (!match || match[1] !== this.#boot) return undefined;
    const opened = this.#seal.open(match[2] as string, owner ? [readerOf(owner), ANYONE] : 'any');
    if ('seq' in opened) return opened.seq;
    return opened.problem === 'foreign' ? 'foreign' : undefined;
  }

  /**
   * The logged changes after position `seq`, or undefined when the log no longer has all of
   * `owner`'s: decided by the owner's own changes only, so that the answer tells nothing of how
   * much the other accounts did (a window of the service's last changes would).
   */
  #after(seq: number, owner: Owner): LoggedChange[] | undefined {
    if (seq > this.#seq || (this.#dropped.get(readerOf(owner)) ?? -1) > seq) return undefined;
    return this.#recent.filter((logged) => logged.seq > seq);
  }

  #cursorOf(seq: number, owner: Owner | undefined): string {
    return `${this.#boot}-${this.#seal.seal(owner ? readerOf(owner) : ANYONE, seq)}`;
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
    const { partnerID, accountID } = change.record;
    const id = this.#cursorOf(seq, { partnerID, accountID });
    const logged: LoggedChange = { seq, id, change, view, data: JSON.stringify(view) };
    this.#recent.push(logged);
    if (this.#recent.length > REPLAY_LIMIT) {
      const dropped = this.#recent.shift()!;
      this.#dropped.set(readerOf(dropped.change.record), dropped.seq);
    }
    for (const listener of this.#listeners) listener(logged);
  }
}

/** Whom a position is sealed for: one account of one partner. */
const readerOf = ({ partnerID, accountID }: Owner): string => `changes\n${partnerID}\n${accountID}`;
/** The reader of a position given before any account was known (the stream's `ready`). */
const ANYONE = 'changes\n';

/** Whether the change is of one of the owner's records. */
export function owns(owner: Owner, { record }: Change): boolean {
  return record.partnerID === owner.partnerID && record.accountID === owner.accountID;
}
