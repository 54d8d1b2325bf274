/**
 * The test controls (`--test-controls`, `testControls: true`; off by default): forced outcomes, so
 * that a partner's tests can reach what the emulator otherwise only reaches by breaking the machine
 * (a site that cannot be reached, a full disk). A test queues an outcome for its partner's (and
 * optionally one account's) next job of a kind: to end FAILED with any documented failure code of
 * that job, to stall at one of its stages, or to take a given time. The queue is in memory, per
 * partner; the job that takes an outcome is the first of that kind started after it was queued.
 *
 * On a database several processes share, the queue is the database's instead (the store's
 * outcome records): the job that takes an outcome is the first of its kind that any process
 * queues after it, in the transaction that queues it, and the outcome travels with the job to
 * whichever process runs it (jobs.ts). A release on any process clears that queue and, through
 * the store's change feed, lets go of the stalled jobs of every process.
 *
 * The channel is the partner's back end (POST /api/test/outcomes, authenticated like its event log)
 * or the RunningService (`service.testControls`), never the SDK's public types: nothing a page or
 * its users send can force anything, and a service started without the flag refuses every request
 * with `test_controls_off` (403).
 */
import * as z from 'zod/mini';
import {
  InvalidParameterError,
  JOB_FAILURE_CODES,
  NotFoundError,
  parseOrThrow,
  strictObject,
  VideoPluginError,
  type ProgressStage,
} from 'video-plugin/internal';
import type { Partner } from '../config.js';
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { Owner } from '../store/records.js';
import type { ClockTurn } from './clock.js';

/** The kinds of job a test can force, as the requests name them. */
export const TEST_JOBS = ['topicSearch', 'generation', 'render'] as const;
export type TestJob = (typeof TEST_JOBS)[number];

/**
 * The documented failure codes of each kind of job (the contract's one list, docs/service.md,
 * "Statuses"), each one forcible: a topic search's come from reading its source, a generation's
 * from its test hook and its preview render, a render's from the renderer and the disk.
 */
export const FAILURE_CODES = JOB_FAILURE_CODES satisfies Record<TestJob, readonly string[]>;
export type FailureCode = (typeof FAILURE_CODES)[TestJob][number];

/** What each failure means (its message, after the note that it was forced). */
const FAILURE_MESSAGES: Record<FailureCode, string> = {
  source_unreachable: "the source's host could not be reached.",
  source_timeout: 'the source did not answer within the time limit.',
  source_http_error: 'the source answered an HTTP error status.',
  source_not_html: 'the source is not an HTML page.',
  generation_failed: 'the generation failed.',
  render_failed: 'the render failed.',
  storage_full:
    "the render could not be written: the service's disk is full. Nothing of it is kept or served; render again once space is freed.",
  media_store_unavailable:
    "the render could not be stored: the service's media store could not be reached, after several tries. Nothing of it is kept or served; render again once the store is back.",
};

/**
 * The stages at which each kind of job can be stalled: those the job enters itself (a real render's
 * inner stages, `voicing` to `rendering`, belong to the renderer; with real media a render stalls
 * `queued` or `finishing`).
 */
export function stallStages(job: TestJob, media: 'real' | 'placeholder'): readonly ProgressStage[] {
  switch (job) {
    case 'topicSearch':
      return ['queued', 'reading_page', 'collecting_images', 'finishing'];
    case 'generation':
      return ['queued', 'writing_storyboard', 'finishing'];
    case 'render':
      return media === 'real' ? ['queued', 'finishing'] : ['queued', 'rendering', 'finishing'];
  }
}

/** Longest time a forced `takeMs` may give a job (as `jobMs`: 10 minutes). */
export const MAX_TAKE_MS = 600_000;

/** An outcome to force: one of a failure code, a stage to stall at, or a duration. */
export type ForcedOutcome = { fail: FailureCode } | { stall: ProgressStage } | { takeMs: number };

/** A request for a forced outcome (the body of POST /api/test/outcomes). */
export interface ForceRequest {
  job: TestJob;
  /** The account (its external ID, or its ID) whose next job takes it; none: any of the partner's. */
  account?: string | undefined;
  outcome: ForcedOutcome;
}

const ForceSchema = strictObject({
  job: z.enum(TEST_JOBS),
  account: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  outcome: strictObject({
    fail: z.optional(z.string()),
    stall: z.optional(z.string()),
    takeMs: z.optional(z.int().check(z.gte(0), z.lte(MAX_TAKE_MS))),
  }),
});

/** What a job forced by a test works with (jobs/job.ts). */
export interface Forced {
  readonly outcome: ForcedOutcome;
  /** The failure it ends in, code and message, when it is forced to fail. */
  readonly failure: { code: FailureCode; message: string } | undefined;
}

interface Queued extends ForceRequest {
  partnerID: string;
}

/** What a job forced with `outcome` works with. */
export function forcedBy(outcome: ForcedOutcome): Forced {
  return {
    outcome,
    failure:
      'fail' in outcome
        ? { code: outcome.fail, message: `Forced by the test controls: ${FAILURE_MESSAGES[outcome.fail]}` }
        : undefined,
  };
}

/** The store's shared queue of forced outcomes (a database several processes share). */
type SharedOutcomes = Pick<Store, 'queueOutcome' | 'takeOutcome' | 'releaseOutcomes' | 'onRelease'>;

/** The forced outcomes waiting for their job, and the jobs stalled by one. */
export class TestControls {
  /** Whether the service was started with the test controls. */
  readonly enabled: boolean;
  readonly #partners: ReadonlyMap<string, Partner>;
  readonly #media: 'real' | 'placeholder';
  readonly #queued: Queued[] = [];
  /** The stalled jobs, per partner: each one's release, and its turn (told when it waits again). */
  readonly #stalled = new Map<string, Set<{ release: () => void; turn: ClockTurn | undefined }>>();
  /** The database's queue instead of {@link #queued}, when several processes share it. */
  readonly #shared: SharedOutcomes | undefined;

  constructor(
    enabled: boolean,
    partners: ReadonlyMap<string, Partner>,
    media: 'real' | 'placeholder',
    shared?: SharedOutcomes,
  ) {
    this.enabled = enabled;
    this.#partners = partners;
    this.#media = media;
    this.#shared = shared;
    // A release another process received lets go of the stalled jobs here too (not waited for there).
    shared?.onRelease((partnerID) => void this.#letGo(partnerID));
  }

  /**
   * Queues `request` (checked: `invalid_parameter` naming the field, and the allowed values) for
   * the partner's next job of its kind.
   *
   * @throws {VideoPluginError} `test_controls_off` (403) without the test controls.
   */
  force(partnerID: string, request: unknown, context = 'testControls.force'): ForceRequest {
    this.requireEnabled();
    this.#partner(partnerID);
    const parsed = parseOrThrow(ForceSchema, request, context);
    const outcome = this.#outcome(parsed.job, parsed.outcome, context);
    const queued: ForceRequest = {
      job: parsed.job,
      ...(parsed.account !== undefined ? { account: parsed.account } : {}),
      outcome,
    };
    if (this.#shared) this.#shared.queueOutcome({ id: randomUUID(), partnerID, ...queued });
    else this.#queued.push({ ...queued, partnerID });
    return queued;
  }

  /**
   * Clears the partner's queued outcomes and lets its stalled jobs go on (without a partner: every
   * partner's); resolves once each released job has saved its steps up to its next timed wait (or
   * its end), and says how many of each. With the database's queue, `cleared` counts what it held,
   * and `released` this process's jobs: the other processes let go of theirs when they read the
   * release, and this does not wait for them.
   */
  async release(partnerID?: string): Promise<{ cleared: number; released: number }> {
    this.requireEnabled();
    if (partnerID !== undefined) this.#partner(partnerID);
    let cleared = 0;
    if (this.#shared) cleared = this.#shared.releaseOutcomes(partnerID);
    for (let index = this.#queued.length - 1; index >= 0; index--) {
      if (partnerID !== undefined && this.#queued[index]!.partnerID !== partnerID) continue;
      this.#queued.splice(index, 1);
      cleared++;
    }
    return { cleared, released: await this.#letGo(partnerID) };
  }

  /** Lets the partner's stalled jobs (without a partner: every one) go on; how many, once they have saved their steps. */
  async #letGo(partnerID: string | undefined): Promise<number> {
    let released = 0;
    const going: Promise<void>[] = [];
    for (const [id, stalled] of this.#stalled) {
      if (partnerID !== undefined && id !== partnerID) continue;
      for (const { release, turn } of stalled) {
        if (turn) going.push(turn.next());
        release();
        released++;
      }
      this.#stalled.delete(id);
    }
    await Promise.all(going);
    return released;
  }

  /**
   * The outcome forced on a job of `job` starting now for `owner` (whose account has `externalID`),
   * taken from the queue: the first queued for the account, or for any of the partner's accounts.
   */
  take(job: TestJob, owner: Owner, externalID: string | undefined): Forced | undefined {
    const matches = (queued: Omit<Queued, 'outcome'>) =>
      queued.partnerID === owner.partnerID &&
      queued.job === job &&
      (queued.account === undefined || queued.account === owner.accountID || queued.account === externalID);
    if (this.#shared) {
      // Within the transaction that queues the job (jobs.ts): taken once, with the job's commit.
      const taken = this.#shared.takeOutcome(matches);
      return taken && forcedBy(taken.outcome);
    }
    const index = this.#queued.findIndex(matches);
    if (index === -1) return undefined;
    const [{ outcome }] = this.#queued.splice(index, 1) as [Queued];
    return forcedBy(outcome);
  }

  /**
   * A stalled job's wait: resolves once a test releases the partner's stalled jobs; rejects when
   * `signal` aborts (the service closes). `turn` tells a step clock's advance that the job waits.
   */
  stall(partnerID: string, signal: AbortSignal, turn: ClockTurn | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      let stalled = this.#stalled.get(partnerID);
      if (!stalled) this.#stalled.set(partnerID, (stalled = new Set()));
      const set = stalled;
      const onAbort = () => {
        set.delete(entry);
        reject(signal.reason as Error);
      };
      const entry = {
        release: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        turn,
      };
      signal.addEventListener('abort', onAbort, { once: true });
      set.add(entry);
      turn?.paused();
    });
  }

  /** Drops what is queued for a partner that is gone (a sandbox removed); its jobs end by their signal. */
  forget(partnerID: string): void {
    for (let index = this.#queued.length - 1; index >= 0; index--) {
      if (this.#queued[index]!.partnerID === partnerID) this.#queued.splice(index, 1);
    }
    this.#stalled.delete(partnerID);
  }

  /** @throws {VideoPluginError} `test_controls_off` when the service was started without them. */
  requireEnabled(): void {
    if (this.enabled) return;
    throw new VideoPluginError(
      'test_controls_off',
      'The test controls are off: this service cannot force outcomes. Start it with --test-controls (startService({ testControls: true })), for tests only.',
      { flag: '--test-controls', option: 'testControls' },
    );
  }

  #partner(partnerID: string): void {
    if (this.#partners.has(partnerID)) return;
    throw new NotFoundError('partner_not_found', `The service knows no partner "${partnerID}".`, { partnerID });
  }

  #outcome(job: TestJob, outcome: { fail?: string; stall?: string; takeMs?: number }, context: string): ForcedOutcome {
    const given = Object.keys(outcome).filter((key) => outcome[key as keyof typeof outcome] !== undefined);
    if (given.length !== 1) {
      throw new InvalidParameterError(
        `${context}: "outcome" must have exactly one of fail (a failure code), stall (a stage) or takeMs (a duration)${given.length ? ` (got ${given.join(' and ')})` : ''}.`,
        { field: 'outcome' },
      );
    }
    if (outcome.fail !== undefined) {
      const allowed: readonly string[] = FAILURE_CODES[job];
      if (!allowed.includes(outcome.fail)) {
        throw new InvalidParameterError(
          `${context}: "outcome.fail" must be a failure code of a ${job}: ${allowed.join(', ')} (got ${JSON.stringify(outcome.fail)}).`,
          { field: 'outcome.fail', allowed: [...allowed] },
        );
      }
      return { fail: outcome.fail as FailureCode };
    }
    if (outcome.stall !== undefined) {
      const allowed = stallStages(job, this.#media);
      if (!(allowed as readonly string[]).includes(outcome.stall)) {
        throw new InvalidParameterError(
          `${context}: "outcome.stall" must be a stage a ${job} can stall at${job === 'render' ? ` (${this.#media} media)` : ''}: ${allowed.join(', ')} (got ${JSON.stringify(outcome.stall)}).`,
          { field: 'outcome.stall', allowed: [...allowed] },
        );
      }
      return { stall: outcome.stall as ProgressStage };
    }
    return { takeMs: outcome.takeMs! };
  }
}
