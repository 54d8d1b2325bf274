/**
 * The jobs each account has waiting for a slot (slots.ts): a topic search from the moment it is
 * accepted until its fetch starts (it is PENDING that long), a render from the moment it is asked
 * for until it has a render slot. The API refuses new work for an account at its cap
 * (`waitingJobs.account`, limit-values.ts) before anything is saved: fair slots bound how long one
 * account's queue delays the others, and the cap bounds the queue itself.
 */
import type { Owner } from '../store/records.js';

/** Counts of waiting jobs by account. */
export class WaitingJobs {
  /** The account's key (see {@link keyOf}) → jobs waiting. Accounts with none are not kept. */
  readonly #counts = new Map<string, number>();

  /**
   * Counts one more waiting job of `owner`; returns what counts it out (when it starts, or ends
   * without starting). Calling that again does nothing.
   */
  enter(owner: Owner): () => void {
    const key = keyOf(owner);
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const count = (this.#counts.get(key) ?? 1) - 1;
      if (count === 0) this.#counts.delete(key);
      else this.#counts.set(key, count);
    };
  }

  /** How many jobs of `owner` wait. */
  of(owner: Owner): number {
    return this.#counts.get(keyOf(owner)) ?? 0;
  }
}

/** One key per account, whatever characters its partner's ID holds. */
function keyOf(owner: Owner): string {
  return JSON.stringify([owner.partnerID, owner.accountID]);
}
