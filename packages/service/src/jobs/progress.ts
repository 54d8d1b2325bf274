/**
 * Progress of the background jobs: the stage a topic search, a generation or a render is in, the
 * share of the whole job done (`fraction`, 0..1) and, once it can be estimated, the time left
 * (`etaMs`). Every status update of the job carries it (`progress` beside `status`).
 *
 * Rules (docs/plugin-api.md, "Progress"; docs/service.md):
 * - `fraction` is over the whole job, not the stage: each stage owns a span of 0..1 ({@link PLANS});
 *   inside a stage the job reports how far it is (images fetched, seconds encoded by ffmpeg, time
 *   waited), mapped into that span.
 * - Forward only: the stage never goes back in {@link PROGRESS_STAGES}' order and the fraction never
 *   decreases — also when a job is resumed after a restart (it starts from what the record says).
 *   Every update sent while the status stays the same has a greater fraction than the one before.
 * - Throttled: an update is published at most every {@link PROGRESS_INTERVAL_MS} and only when the
 *   fraction moved by at least {@link PROGRESS_STEP}; a stage change is always published.
 * - `etaMs`: the time left at the pace so far (time spent ÷ share done since the job started running
 *   in this process, not counting what was credited: scenes a render took from its cache count as
 *   done in `fraction` but took no time), rounded to 100 ms; absent until {@link ETA_AFTER} of the job is done, and on
 *   COMPLETE and FAILED.
 * - COMPLETE: `{ stage: 'finishing', fraction: 1 }`. FAILED keeps the stage and fraction it failed at.
 */
import { PROGRESS_STAGES, type Progress, type ProgressStage } from 'video-plugin/internal';
// What a job reports its progress to: declared by the renderer (media/), the one that reports.
import type { ProgressReporter } from '../media/render.js';

export { PROGRESS_STAGES, type Progress, type ProgressStage } from 'video-plugin/internal';
export type { ProgressReporter };

/** Fewest milliseconds between two updates of one job within a stage (at most 4 a second). */
export const PROGRESS_INTERVAL_MS = 250;
/** Smallest change of `fraction` worth an update within a stage (1 %). */
export const PROGRESS_STEP = 0.01;
/** Share of the job done before `etaMs` is given. */
export const ETA_AFTER = 0.05;

/** The kinds of job, each with its plan. */
export type JobKind = 'topic' | 'generation' | 'generationReal' | 'render' | 'renderReal';

/**
 * Where each stage starts, per kind of job (it ends where the next one starts; the last at 1).
 * Real media: the encode is most of the time, then the voice and the stills.
 */
export const PLANS: Record<JobKind, Partial<Record<ProgressStage, number>>> = {
  topic: { queued: 0, reading_page: 0.1, collecting_images: 0.3, finishing: 0.95 },
  generation: { queued: 0, writing_storyboard: 0.2, finishing: 0.95 },
  generationReal: {
    queued: 0,
    writing_storyboard: 0.05,
    waiting_to_render: 0.3,
    voicing: 0.3,
    composing_scenes: 0.4,
    rendering: 0.5,
    finishing: 0.95,
  },
  render: { queued: 0, rendering: 0, finishing: 0.95 },
  renderReal: { queued: 0, waiting_to_render: 0, voicing: 0, composing_scenes: 0.15, rendering: 0.3, finishing: 0.95 },
};

const order = (stage: ProgressStage): number => PROGRESS_STAGES.indexOf(stage);
const round = (fraction: number): number => Math.round(fraction * 1000) / 1000;

/**
 * Tracks one job's progress in `record.progress` (the job's own copy: jobs/job.ts `track`) and
 * calls `publish` as the rules above allow. `now` is for tests.
 */
export class ProgressTracker implements ProgressReporter {
  readonly #record: { progress?: Progress };
  readonly #plan: Partial<Record<ProgressStage, number>>;
  readonly #publish: () => void;
  readonly #now: () => number;
  readonly #started: number;
  /** The fraction when this run of the job started (a resumed job had done some before). */
  readonly #from: number;
  /** The stage the job is in; the record may show a later one (a resumed job catching up). */
  #stage: ProgressStage;
  #sentAt = -Infinity;
  /** The share of the job credited as done without work in this run (see {@link credit}). */
  #credited = 0;

  constructor(record: { progress?: Progress }, kind: JobKind, publish: () => void, now: () => number = Date.now) {
    this.#record = record;
    this.#plan = PLANS[kind];
    this.#publish = publish;
    this.#now = now;
    this.#started = now();
    this.#stage = firstStage(kind);
    record.progress ??= { stage: this.#stage, fraction: 0 };
    this.#from = record.progress.fraction;
  }

  /** The record's progress. */
  get current(): Progress {
    return this.#record.progress!;
  }

  /**
   * Enters `stage` and publishes it; false when it published nothing (the job is already past it).
   * With `publish` false the caller publishes it, in the same step as the status it moves.
   */
  stage(stage: ProgressStage, publish = true): boolean {
    if (order(stage) <= order(this.#stage)) return false;
    this.#stage = stage;
    if (order(stage) <= order(this.current.stage)) return false;
    const last = this.current.fraction;
    // A stage change is always sent, with a greater fraction than the update before it.
    this.#set(stage, Math.min(0.999, Math.max(this.#plan[stage] ?? last, round(last + 0.001))));
    if (publish) this.#send();
    else this.#sentAt = this.#now();
    return true;
  }

  within(share: number): void {
    const fraction = this.#fraction(share);
    if (fraction - this.current.fraction < PROGRESS_STEP || this.#now() - this.#sentAt < PROGRESS_INTERVAL_MS) return;
    this.#set(this.current.stage, fraction);
    try {
      this.#send();
    } catch (error) {
      // A step within a stage that the data file refused (a full disk) is skipped, not thrown: it
      // may come from a callback (ffmpeg's progress), where a throw would end the process. The
      // job's next stage or status meets the same refusal, and the job is retried (jobs.ts).
      console.error(`video-plugin-service: a progress update was not saved: ${(error as Error).message}`);
    }
  }

  /**
   * Counts `share` of the current stage as done without work (a render's scenes taken from its
   * cache): the fraction moves on, and the time left is estimated from the work actually done.
   */
  credit(share: number): void {
    const before = this.current.fraction;
    const start = this.#fraction(0);
    const after = this.#fraction(Math.max(0, (before - start) / this.#span()) + share);
    if (after <= before) return;
    this.#credited += after - before;
    this.#set(this.current.stage, after);
  }

  /** Like {@link within}, but without publishing: for a caller that publishes the record itself. */
  note(share: number): void {
    const fraction = this.#fraction(share);
    if (fraction > this.current.fraction) this.#set(this.current.stage, fraction);
  }

  /** Where the current stage starts and ends in the whole job. */
  #bounds(): [number, number] {
    const start = this.#plan[this.#stage] ?? 0;
    const later = PROGRESS_STAGES.slice(order(this.#stage) + 1);
    return [start, later.map((stage) => this.#plan[stage]).find((at) => at !== undefined) ?? 1];
  }

  /** The share of the whole job that the current stage spans. */
  #span(): number {
    const [start, end] = this.#bounds();
    return end - start || 1;
  }

  /** The fraction of the whole job at `share` of the current stage. */
  #fraction(share: number): number {
    const [start, end] = this.#bounds();
    // The stage's end belongs to the next stage's start: it is never reached from within.
    return Math.min(round(start + (end - start) * Math.min(1, Math.max(0, share))), round(end - 0.001));
  }

  /** The progress of a COMPLETE job (the caller publishes it with the status). */
  complete(): void {
    this.#record.progress = { stage: 'finishing', fraction: 1 };
  }

  /** A FAILED job keeps its stage and fraction, without an estimate (the caller publishes). */
  fail(): void {
    const { stage, fraction } = this.current;
    this.#record.progress = { stage, fraction };
  }

  #set(stage: ProgressStage, fraction: number): void {
    const done = fraction - this.#from - this.#credited;
    const spent = this.#now() - this.#started;
    const progress: Progress = { stage, fraction };
    if (done >= ETA_AFTER) progress.etaMs = Math.round((spent * (1 - fraction)) / done / 100) * 100;
    this.#record.progress = progress;
  }

  #send(): void {
    this.#sentAt = this.#now();
    this.#publish();
  }
}

/** The stage a job of `kind` starts in. */
export function firstStage(kind: JobKind): ProgressStage {
  return Object.keys(PLANS[kind])[0] as ProgressStage;
}

/** A new job's progress: its first stage, nothing done. */
export function startProgress(kind: JobKind): Progress {
  return { stage: firstStage(kind), fraction: 0 };
}
