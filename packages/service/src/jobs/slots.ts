/**
 * Slots: how many tasks of one kind run at once, and whose waiting task goes next. The topic
 * searches' fetches (their page and images) and the renders each have one, so that however many are
 * started, only so many use the CPU and the network at once. A task waits for its slot; none is
 * refused here (the budgets of http/limits.ts and the waiting cap of jobs/waiting.ts bound how many
 * can wait).
 *
 * Fair, not first come first served: a review measured one IP with six accounts queuing 180
 * searches of a site that never answers, and another user's search then waited 14.4 s instead of
 * 0.2 s, longer with every search queued before it. A free slot now goes to the partner with the
 * fewest tasks running (a sandbox is a partner like any other), and within it to the account with
 * the fewest running; among equals, to the one served longest ago (round robin). Each account's own
 * tasks run in the order they came. So an account with nothing running is served by the next slot
 * that frees, however many tasks others queued: its wait is at most one slot's time.
 */
import type { Owner } from '../store/records.js';

/** One account's line: its waiting tasks (first come first) and what it runs. */
interface AccountLine {
  readonly waiting: (() => void)[];
  running: number;
  /** When it was last served (a turn number; 0: never). */
  servedAt: number;
}

/** One partner's accounts, in the order they came. */
interface PartnerLine {
  readonly accounts: Map<string, AccountLine>;
  running: number;
  servedAt: number;
}

/**
 * Slots for work that must not all run at once: at most `perAccount` per account and `total` in
 * all. A task waits its turn, served fairly across partners and their accounts; none is refused.
 *
 * A task must take its slot exactly once: a task that waits for a second slot of the same `Slots`
 * while holding one deadlocks them as soon as every slot is held that way.
 */
export class Slots {
  readonly #perAccount: number;
  readonly #total: number;
  /** Partners with a task running or waiting, in the order they came. */
  readonly #partners = new Map<string, PartnerLine>();
  #running = 0;
  #waiting = 0;
  /** The number of the last turn given (orders "served longest ago"). */
  #turns = 0;

  constructor(limits: { perAccount: number; total: number }) {
    this.#perAccount = limits.perAccount;
    this.#total = limits.total;
  }

  /**
   * Runs `task` once a slot is free and it is `owner`'s turn, and frees the slot when it settles.
   * A task still waiting when `signal` aborts (its partner's sandbox reset, the service closing)
   * leaves the line at once and rejects with the signal's reason.
   */
  async run<T>(owner: Owner, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    const [partner, account] = this.#lines(owner);
    await new Promise<void>((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const at = account.waiting.indexOf(start);
        if (at < 0) return;
        account.waiting.splice(at, 1);
        this.#waiting--;
        this.#forget(owner, partner, account);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', leave, { once: true });
      account.waiting.push(start);
      this.#waiting++;
      this.#serve();
    });
    try {
      return await task();
    } finally {
      account.running--;
      partner.running--;
      this.#running--;
      this.#forget(owner, partner, account);
      this.#serve();
    }
  }

  /** Tasks running, and waiting for a slot. */
  get counts(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting };
  }

  /** Whether a task of `owner` given now would wait for its slot. */
  wouldWait(owner: Owner): boolean {
    const account = this.#partners.get(owner.partnerID)?.accounts.get(owner.accountID);
    return (
      this.#running >= this.#total ||
      (account !== undefined && (account.waiting.length > 0 || account.running >= this.#perAccount))
    );
  }

  #lines(owner: Owner): [PartnerLine, AccountLine] {
    let partner = this.#partners.get(owner.partnerID);
    if (!partner) {
      partner = { accounts: new Map(), running: 0, servedAt: 0 };
      this.#partners.set(owner.partnerID, partner);
    }
    let account = partner.accounts.get(owner.accountID);
    if (!account) {
      account = { waiting: [], running: 0, servedAt: 0 };
      partner.accounts.set(owner.accountID, account);
    }
    return [partner, account];
  }

  /** Drops the lines of an account (and partner) with nothing left, so memory follows activity. */
  #forget(owner: Owner, partner: PartnerLine, account: AccountLine): void {
    if (account.running > 0 || account.waiting.length > 0) return;
    partner.accounts.delete(owner.accountID);
    if (partner.accounts.size === 0) this.#partners.delete(owner.partnerID);
  }

  /** Gives free slots to waiting tasks, each to the fairest line (see the file's comment). */
  #serve(): void {
    while (this.#running < this.#total) {
      let partner: PartnerLine | undefined;
      let account: AccountLine | undefined;
      for (const candidate of this.#partners.values()) {
        if (partner && !before(candidate, partner)) continue;
        const ready = this.#readyAccount(candidate);
        if (!ready) continue;
        partner = candidate;
        account = ready;
      }
      if (!partner || !account) return;
      const start = account.waiting.shift()!;
      this.#waiting--;
      this.#turns++;
      account.running++;
      partner.running++;
      this.#running++;
      account.servedAt = partner.servedAt = this.#turns;
      start();
    }
  }

  /** The partner's account to serve next: waiting, with room, first by {@link before}. */
  #readyAccount(partner: PartnerLine): AccountLine | undefined {
    let chosen: AccountLine | undefined;
    for (const account of partner.accounts.values()) {
      if (account.waiting.length === 0 || account.running >= this.#perAccount) continue;
      if (!chosen || before(account, chosen)) chosen = account;
    }
    return chosen;
  }
}

/** Whether `a` goes before `b`: fewer running, then served longer ago (ties: the one that came first). */
function before(a: { running: number; servedAt: number }, b: { running: number; servedAt: number }): boolean {
  return a.running < b.running || (a.running === b.running && a.servedAt < b.servedAt);
}
