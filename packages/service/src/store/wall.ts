/**
 * How the store writes (store.ts): the transaction, one row's write and its undoing when it does
 * not hold, and the outage that follows when even the undoing cannot read the database (every write
 * is then refused until all the records are read again).
 *
 * Only the store holds one (privately), and only through it is anything written: the store says
 * what each change is, this file how it is saved so that the Maps (maps.ts) match the database.
 */
import { EVENT_RETENTION_DAYS, NotAuthenticatedError } from 'video-plugin/internal';
import type { Driver, Kind } from './driver.js';
import { storageError } from './errors.js';
import type { StoreMaps } from './maps.js';
import type { Snapshot } from './records.js';

export const nowSeconds = (): number => Date.now() / 1000;

/** The oldest creation time (ISO 8601) the event log keeps now. */
export const eventsSince = (): string => new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();

/** A row a write touched: what to read back from the file when the write does not hold. */
export interface Touch {
  kind: Kind;
  key: string;
}

/** The transaction open now: the rows it touched, what runs after its commit, the outcomes it took. */
export interface Transaction {
  touched: Touch[];
  after: (() => void)[];
  taken?: Set<string>;
}

/** See the top of this file. */
export class Wall {
  readonly db: Driver | undefined;
  readonly #maps: StoreMaps;
  /** Puts a snapshot read after an outage into the Maps, telling whoever must know (shared.ts). */
  readonly #reload: (snapshot: Snapshot, events: Set<number>) => void;
  #transaction: Transaction | undefined;
  #closed = false;
  /**
   * A failed write could not be undone by reading its rows back (the database was unreachable):
   * the Maps may hold what was never saved, until {@link #resync} reads them all again. Until then
   * every write is refused, and a timer tries again every 250 ms (never within a write or a
   * transaction, whose records it would replace under them).
   */
  #stale: ReturnType<typeof setInterval> | undefined;

  constructor(maps: StoreMaps, db: Driver | undefined, reload: (snapshot: Snapshot, events: Set<number>) => void) {
    this.#maps = maps;
    this.db = db;
    this.#reload = reload;
  }

  /** The transaction open now, if any. */
  get current(): Transaction | undefined {
    return this.#transaction;
  }

  /** Whether the store is closed: nothing is written any more. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Whether writes are refused until every record is read again (see {@link #stale}). */
  get stale(): boolean {
    return this.#stale !== undefined;
  }

  /** See {@link Store.transaction}. */
  transaction<T>(fn: () => T): T {
    if (this.#transaction || !this.db) return fn();
    this.#catchUp();
    const transaction: Transaction = { touched: [], after: [] };
    this.#transaction = transaction;
    let result: T;
    try {
      result = this.db.transaction(fn);
    } catch (error) {
      for (const touch of transaction.touched.reverse()) this.#restore(touch);
      throw this.db.isDatabaseError(error) ? storageError(this.db, error) : error;
    } finally {
      this.#transaction = undefined;
    }
    for (const run of transaction.after) run();
    return result;
  }

  /** See {@link Store.afterCommit}. */
  afterCommit(fn: () => void): void {
    if (this.#transaction) this.#transaction.after.push(fn);
    else fn();
  }

  /**
   * Runs a write so that, on a database several processes share, it checks and changes the
   * current state: in a transaction, which first reads what the others committed (under the write
   * lock, postgres.ts). Alone otherwise, as before.
   */
  shared<T>(fn: () => T): T {
    return this.db?.follow ? this.transaction(fn) : fn();
  }

  /**
   * Writes one row with `write`. A failure outside a transaction reads the row back (the Maps then
   * match the file) and throws the storage error; inside one, the transaction does both.
   */
  write(touch: Touch, write: (db: Driver) => void): void {
    const db = this.db;
    if (!db || this.#closed) return;
    // Refused until the timer has read the records again: a write now could build on one never saved.
    if (this.#stale) throw storageError(db, new Error('the database cannot be reached'));
    this.#transaction?.touched.push(touch);
    try {
      write(db);
    } catch (error) {
      if (!this.#transaction) this.#restore(touch);
      throw db.isDatabaseError(error) ? storageError(db, error) : error;
    }
  }

  /** Refuses a new record of a partner whose records were removed (a request that raced its sandbox's end). */
  refuseRemoved(partnerID: string): void {
    if (!this.#maps.removedPartners.has(partnerID)) return;
    throw new NotAuthenticatedError(
      'sandbox_expired',
      `The sandbox "${partnerID}" has ended: its records are removed and nothing more of it is kept. Create a new sandbox.`,
      { partnerID },
    );
  }

  /** See {@link Store.refresh}. */
  refresh(): void {
    if (this.#transaction || this.#closed || this.#stale) return;
    try {
      this.db?.refresh?.();
    } catch {
      // Unreachable now: the reads go on from memory, and the next write says so.
    }
    this.#catchUp();
  }

  /** Nothing is written from now on, and the outage's timer stops. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#stale);
  }

  /** Puts a row's in-memory copy back as the file has it (after a write that did not hold). */
  #restore({ kind, key }: Touch): void {
    let stored: unknown;
    try {
      stored = this.db?.get(kind, key);
    } catch (error) {
      if (!this.#stale) {
        console.error(
          `video-plugin-service: cannot read back ${kind} ${key} after a failed write (${(error as Error).message}); the records are read again once the database answers.`,
        );
        this.#markStale();
      }
      return;
    }
    this.#maps.apply(kind, key, stored);
  }

  /** Refuses writes until {@link #resync} has read every record again, which a timer tries every 250 ms. */
  #markStale(): void {
    this.#stale = setInterval(() => {
      try {
        this.#resync();
      } catch {
        // Still unreachable: the next tick tries again.
      }
    }, 250);
    this.#stale.unref();
  }

  /**
   * A shared database whose changes were removed before this process read them (it read none for
   * longer than they are kept): every record is read again now, before anything builds on them.
   */
  #catchUp(): void {
    if (!this.db?.behind || this.#stale) return;
    console.warn(
      'video-plugin-service: changes of the other processes were removed before this one read them; reading every record again.',
    );
    this.#markStale();
    try {
      this.#resync(true);
    } catch {
      // Unreachable: writes are refused until the timer has read them.
    }
  }

  /**
   * Reads every record from the database again, after an outage left the Maps unsure: records the
   * jobs hold keep their identity (their fields are replaced), those never saved are dropped.
   *
   * @throws the storage error when the database is still unreachable (nothing is changed then).
   */
  #resync(caughtUp = false): void {
    const db = this.db;
    if (!db || !this.#stale) return;
    let snapshot: Snapshot;
    let events: Set<number>;
    try {
      snapshot = db.load(nowSeconds());
      events = new Set(db.loadEvents(eventsSince()).map((record) => record.seq));
    } catch (error) {
      throw db.isDatabaseError(error) ? storageError(db, error) : error;
    }
    clearInterval(this.#stale);
    this.#stale = undefined;
    this.#reload(snapshot, events);
    if (!caughtUp) console.error('video-plugin-service: the database answers again; its records were read again.');
  }
}
