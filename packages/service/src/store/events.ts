/**
 * The event log's memory: every webhook event of the last 30 days, per partner, in the order the
 * service made them. Each event gets the next sequence number of the service (never reused, with a
 * data file across restarts too): a page's cursor is the sequence number of its last event, sealed
 * for its partner ({@link EventCursors}), so the same cursor always gives the same following
 * events, whatever was pruned before it, and tells nothing of the other partners' events.
 *
 * Only the store writes here (store.ts), with the row in the `events` table committed first.
 */
import type { WebhookEvent } from 'video-plugin/internal';
import type { CursorSeal, Opened } from '../cursors.js';

/** A plain cursor, as the log gave them before they were sealed: a sequence number. */
const PLAIN_CURSOR = /^(0|[1-9]\d{0,14})$/;

/**
 * The event log's cursors, as its partners see them: sealed for one partner (cursors.ts), so that
 * they count nothing of the other partners'. The plain cursors the log gave before are still read,
 * for the partner who holds one, up to `plainUntil` (the last event at the upgrade, schema.ts): a
 * larger one means "after every event of then" and is read as `plainUntil`. `0`, the log's start,
 * is always read.
 */
export class EventCursors {
  constructor(
    readonly seal: CursorSeal,
    readonly plainUntil: number,
  ) {}

  /** The cursor of the position `seq` for `partnerID`. */
  cursor(partnerID: string, seq: number): string {
    return this.seal.seal(reader(partnerID), seq);
  }

  /** The position a cursor from `partnerID` names; `foreign` when it is not that partner's. */
  read(partnerID: string, text: string): Opened {
    if (PLAIN_CURSOR.test(text)) return { seq: Math.min(Number(text), this.plainUntil) };
    return this.seal.open(text, [reader(partnerID)]);
  }
}

const reader = (partnerID: string): string => `event log\n${partnerID}`;

/** One event of the log. */
export interface EventRecord {
  /** Its place in the service's order: the log's cursor. */
  seq: number;
  partnerID: string;
  event: WebhookEvent;
}

/** One page of a partner's log. */
export interface EventLogPage {
  events: WebhookEvent[];
  /** The sequence number of the page's last event; `after` when the page is empty. */
  cursor: number;
  hasMore: boolean;
}

/** The partners' events in memory, oldest first. */
export class EventLog {
  readonly #byPartner = new Map<string, EventRecord[]>();
  #last = 0;

  /** The sequence number the next event gets. */
  nextSeq(): number {
    return this.#last + 1;
  }

  /** Adds an event (a new one, or one read from the data file at open). */
  add(record: EventRecord): void {
    this.#last = Math.max(this.#last, record.seq);
    let list = this.#byPartner.get(record.partnerID);
    if (!list) this.#byPartner.set(record.partnerID, (list = []));
    list.push(record);
  }

  /** Whether the log holds the event with this sequence number. */
  has(seq: number): boolean {
    for (const list of this.#byPartner.values()) if (list.some((record) => record.seq === seq)) return true;
    return false;
  }

  /** Takes out an event whose write did not hold. */
  remove(seq: number): void {
    for (const list of this.#byPartner.values()) {
      const at = list.findIndex((record) => record.seq === seq);
      if (at >= 0) list.splice(at, 1);
    }
  }

  /** Keeps only the events whose sequence number `keep` accepts (the database's, after an outage). */
  retain(keep: (seq: number) => boolean): void {
    for (const [partnerID, list] of this.#byPartner)
      this.#byPartner.set(
        partnerID,
        list.filter((record) => keep(record.seq)),
      );
  }

  /** Forgets every event of the partner (a sandbox's reset); how many. */
  removePartner(partnerID: string): number {
    const count = this.#byPartner.get(partnerID)?.length ?? 0;
    this.#byPartner.delete(partnerID);
    return count;
  }

  /** The partners with events in the log. */
  partnerIDs(): string[] {
    return [...this.#byPartner.keys()];
  }

  /** Forgets the events made before `createdBefore` (ISO 8601); how many. */
  prune(createdBefore: string): number {
    let pruned = 0;
    for (const list of this.#byPartner.values()) {
      let count = 0;
      while (count < list.length && (list[count] as EventRecord).event.createdAt < createdBefore) count++;
      list.splice(0, count);
      pruned += count;
    }
    return pruned;
  }

  /** The partner's event with this ID, if the log holds it (the newest events are looked at first). */
  find(partnerID: string, id: string): WebhookEvent | undefined {
    const list = this.#byPartner.get(partnerID) ?? [];
    for (let index = list.length - 1; index >= 0; index--) {
      const { event } = list[index] as EventRecord;
      if (event.id === id) return event;
    }
    return undefined;
  }

  /** Up to `limit` of the partner's events after the sequence number `after`, oldest first. */
  page(partnerID: string, after: number, limit: number): EventLogPage {
    const list = this.#byPartner.get(partnerID) ?? [];
    // The first event after the cursor, by binary search: the sequence numbers only grow.
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((list[middle] as EventRecord).seq <= after) low = middle + 1;
      else high = middle;
    }
    const records = list.slice(low, low + limit);
    return {
      events: records.map((record) => record.event),
      cursor: records.at(-1)?.seq ?? after,
      hasMore: low + limit < list.length,
    };
  }

  /** How many events are kept (for the tests). */
  get size(): number {
    let size = 0;
    for (const list of this.#byPartner.values()) size += list.length;
    return size;
  }
}
