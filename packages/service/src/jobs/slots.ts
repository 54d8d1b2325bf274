/**
 * Slots: how many topic searches fetch (their page and images) at once, per account and in all
 * (issue 29, finding 5). A search waits for a slot PENDING; none is refused (the budgets of
 * http/limits.ts bound how many can wait).
 */

/**
 * Slots for work that must not all run at once: at most `perAccount` per key and `total` in all.
 * A task waits its turn, first come first served; none is refused.
 */
export class Slots {
  readonly #perKey: number;
  readonly #total: number;
  readonly #active = new Map<string, number>();
  #running = 0;
  readonly #waiting: { key: string; start: () => void }[] = [];

  constructor(limits: { perAccount: number; total: number }) {
    this.#perKey = limits.perAccount;
    this.#total = limits.total;
  }

  /** Runs `task` once a slot of `key` is free, and frees it when the task settles. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    await this.#take(key);
    try {
      return await task();
    } finally {
      this.#release(key);
    }
  }

  /** Tasks running, and waiting for a slot. */
  get counts(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  #free(key: string): boolean {
    return this.#running < this.#total && (this.#active.get(key) ?? 0) < this.#perKey;
  }

  #take(key: string): Promise<void> {
    return new Promise((resolve) => {
      const start = () => {
        this.#running++;
        this.#active.set(key, (this.#active.get(key) ?? 0) + 1);
        resolve();
      };
      if (this.#free(key) && !this.#waiting.some((entry) => entry.key === key)) start();
      else this.#waiting.push({ key, start });
    });
  }

  #release(key: string): void {
    this.#running--;
    const left = (this.#active.get(key) ?? 1) - 1;
    if (left === 0) this.#active.delete(key);
    else this.#active.set(key, left);
    // The first waiting task whose account has room goes next.
    for (let index = 0; index < this.#waiting.length && this.#running < this.#total; index++) {
      const entry = this.#waiting[index]!;
      if (!this.#free(entry.key)) continue;
      this.#waiting.splice(index, 1);
      index--;
      entry.start();
    }
  }
}
