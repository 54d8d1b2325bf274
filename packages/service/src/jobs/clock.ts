/**
 * The clock of the jobs' timed steps: the emulator's waits that stand for work it does not do (a
 * topic search's PENDING share, a generation's writing, a stand-in render), each step of which
 * `Jobs#waitTicking` waits. Real time by default; with `--clock manual` (`clock: 'manual'`) a step
 * clock that moves only when a test says so (`service.clock.advance(ms)`, `POST
 * /api/test/clock/advance`), so that a partner's suite needs no sleep and no polling.
 *
 * Only these waits follow it. Real work stays real: a page is fetched, an MP4 rendered, a record's
 * dates written at the machine's speed and time. The step clock keeps one time per partner, so that
 * tests in parallel sandboxes never move each other's jobs: `advance` moves one partner's time (or
 * every partner's, each by the same amount), releases in order every wait it reaches, and resolves
 * once each job it released has saved its steps and is waiting again (on the clock, at a stall of
 * the test controls) or has ended: a test reads the records right after, without polling.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidParameterError, NotFoundError, VideoPluginError } from 'video-plugin/internal';

/** Longest single `advance` (one day): a larger one is a mistake of the test (seconds for ms). */
export const MAX_ADVANCE_MS = 86_400_000;

/** How the service's time goes: `real` (default) or `manual`, the step clock. */
export const CLOCK_MODES = ['real', 'manual'] as const;
export type ClockMode = (typeof CLOCK_MODES)[number];

/**
 * One job's link to the clock: tells whoever let the job go on (a step clock's `advance`, the
 * release of a stall) when it has run to its next timed wait, stall or end.
 */
export class ClockTurn {
  #waiters: (() => void)[] = [];

  /** Resolves at the job's next wait on the clock, its next stall, or its end. */
  next(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The job waits (on the clock, at a stall) or has ended. */
  paused(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }
}

/** The time the jobs' timed steps follow. */
export interface JobClock {
  /** Whether it is the step clock. */
  readonly manual: boolean;
  /** The partner's time, in ms since 1970. */
  now(partnerID: string): number;
  /**
   * Waits `ms` of the partner's time; `turn` (the job's) is told the job now waits. Rejects with
   * the signal's reason once `signal` aborts.
   */
  sleep(ms: number, partnerID: string, signal: AbortSignal, turn?: ClockTurn): Promise<void>;
  /** Forgets a partner's time (a sandbox removed); the real clock keeps none. */
  forget?(partnerID: string): void;
}

/** The machine's time. */
export const REAL_CLOCK: JobClock = {
  manual: false,
  now: () => Date.now(),
  sleep: (ms, _partnerID, signal, turn) => {
    turn?.paused();
    return sleep(Math.max(0, ms), undefined, { signal });
  },
};

interface Sleeper {
  due: number;
  /** Order of the waits due at the same time: first come, first released. */
  order: number;
  turn: ClockTurn | undefined;
  wake: () => void;
}

/** One partner's time on the step clock. */
interface PartnerTime {
  now: number;
  readonly sleepers: Sleeper[];
  /** The advance under way (advances of one partner run one after the other). */
  busy: Promise<unknown>;
}

/** The step clock: each partner's time moves only by {@link StepClock.advance}. */
export class StepClock implements JobClock {
  readonly manual = true;
  readonly #times = new Map<string, PartnerTime>();
  /** Where a partner's time starts: the start of the service, plus every advance of all partners. */
  #base = Date.now();
  #order = 0;

  now(partnerID: string): number {
    return this.#time(partnerID).now;
  }

  sleep(ms: number, partnerID: string, signal: AbortSignal, turn?: ClockTurn): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    if (!(ms > 0)) return Promise.resolve();
    const time = this.#time(partnerID);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        time.sleepers.splice(time.sleepers.indexOf(sleeper), 1);
        reject(signal.reason as Error);
      };
      const sleeper: Sleeper = {
        due: time.now + ms,
        order: this.#order++,
        turn,
        wake: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      time.sleepers.push(sleeper);
      turn?.paused();
    });
  }

  /** Jobs waiting on the partner's time (or on any partner's). */
  waiting(partnerID?: string): number {
    if (partnerID !== undefined) return this.#times.get(partnerID)?.sleepers.length ?? 0;
    return [...this.#times.values()].reduce((sum, time) => sum + time.sleepers.length, 0);
  }

  /**
   * Moves the partner's time (without one: every partner's) `ms` forward, releasing the waits it
   * reaches in order of their end; resolves once every job it released has saved its steps and
   * waits again, stalls or has ended. `released` counts the waits released (each is one timed step
   * of a job, at most 250 ms of its time: the progress ticks).
   */
  async advance(ms: number, partnerID?: string): Promise<{ released: number }> {
    // Jobs started just before (their first wait comes a few microtasks after their start) are
    // waiting by the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    if (partnerID !== undefined) return { released: await this.#queue(this.#time(partnerID), ms) };
    this.#base += ms;
    const counts = await Promise.all([...this.#times.values()].map((time) => this.#queue(time, ms)));
    return { released: counts.reduce((sum, count) => sum + count, 0) };
  }

  /** Forgets a partner's time (a sandbox removed); its waiting jobs, if any, are stopped by their signal. */
  forget(partnerID: string): void {
    this.#times.delete(partnerID);
  }

  #queue(time: PartnerTime, ms: number): Promise<number> {
    const run = time.busy.then(() => this.#advance(time, ms));
    time.busy = run.catch(() => {});
    return run;
  }

  async #advance(time: PartnerTime, ms: number): Promise<number> {
    const target = time.now + ms;
    let released = 0;
    for (;;) {
      let next: Sleeper | undefined;
      for (const sleeper of time.sleepers) {
        if (sleeper.due > target) continue;
        if (!next || sleeper.due < next.due || (sleeper.due === next.due && sleeper.order < next.order)) next = sleeper;
      }
      if (!next) break;
      time.sleepers.splice(time.sleepers.indexOf(next), 1);
      time.now = Math.max(time.now, next.due);
      released++;
      // Listened to before the wake, so that the job's next wait cannot be missed. A wait of no
      // job (none today) gets one turn of the event loop.
      const paused = next.turn ? next.turn.next() : new Promise((resolve) => setImmediate(resolve));
      next.wake();
      await paused;
    }
    time.now = target;
    return released;
  }

  #time(partnerID: string): PartnerTime {
    let time = this.#times.get(partnerID);
    if (!time) {
      time = { now: this.#base, sleepers: [], busy: Promise.resolve() };
      this.#times.set(partnerID, time);
    }
    return time;
  }
}

/**
 * The step clock, which a test channel needs.
 *
 * @throws {VideoPluginError} `test_controls_off` (403) when the clock is real.
 */
export function requireStepClock(clock: StepClock | undefined): StepClock {
  if (clock) return clock;
  throw new VideoPluginError(
    'test_controls_off',
    "The service's clock is real: only a step clock can be advanced. Start the service with --clock manual (startService({ clock: 'manual' })), for tests only.",
    { flag: '--clock manual', option: 'clock' },
  );
}

/**
 * `advance` as the test channels ask it (`service.clock.advance`, POST /api/test/clock/advance):
 * `ms` a whole number from 0 to {@link MAX_ADVANCE_MS}, the partner a known one.
 *
 * @throws {VideoPluginError} `test_controls_off` (403) unless the clock is manual;
 *   `invalid_parameter` naming `ms`; `partner_not_found`.
 */
export function advanceStepClock(
  clock: StepClock | undefined,
  ms: unknown,
  partnerID: string | undefined,
  partners: ReadonlyMap<string, unknown>,
  context = 'clock.advance',
): Promise<{ released: number }> {
  const stepClock = requireStepClock(clock);
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_ADVANCE_MS) {
    throw new InvalidParameterError(
      `${context}: "ms" must be a whole number of milliseconds from 0 to ${MAX_ADVANCE_MS} (got ${JSON.stringify(ms) ?? typeof ms}).`,
      { field: 'ms' },
    );
  }
  if (partnerID !== undefined && !partners.has(partnerID)) {
    throw new NotFoundError('partner_not_found', `The service knows no partner "${partnerID}".`, { partnerID });
  }
  return stepClock.advance(ms, partnerID);
}
