/**
 * Background jobs: topic searches (topic-search.ts), video generations (generation.ts) and final
 * renders (render-job.ts; their queue, and where their files are kept, in renders.ts). Each moves
 * its record through PENDING → PROCESSING → COMPLETE (or FAILED) over about `jobMs`, saving every
 * step through the store's transitions (the store checks the order, writes and publishes), with the
 * job's progress (stage, fraction, time left; see progress.ts) on the record. This file starts,
 * resumes and stops them.
 *
 * Jobs wait with abortable timers, on the service's clock (real, or the step clock of clock.ts);
 * `close()` aborts them all and leaves their records where they were. `resume()` re-runs whatever a
 * previous run left unfinished, so nothing stays PROCESSING. A job started while a test's forced
 * outcome waits for it (test-controls.ts) takes that outcome as it starts (with a shared queue, as
 * it is queued, and the outcome goes with it to the process that runs it). Each partner's jobs also
 * have a signal of their own: `stopPartner()` (a sandbox's reset) aborts them alone, and waits
 * until none of them can write a file any more.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClockTurn, REAL_CLOCK, type JobClock } from './clock.js';
import { forcedBy, type ForcedOutcome, type TestControls, type TestJob } from './test-controls.js';
import { sourcePolicy, type EgressPolicy } from '../egress.js';
import { imageURLsOf } from '../media/images.js';
import type { EntryLock } from '../media/segments.js';
import { RENDER_FORMAT, renderName } from '../media/files.js';
import type { MediaStore } from '../media/store.js';
import { editedSources, editedTimes, type Storyboard } from '../media/storyboard.js';
import { PROGRESS_INTERVAL_MS, startProgress } from './progress.js';
import {
  newId,
  nowISO,
  type Owner,
  type Store,
  type TopicRecord,
  type GenerationRecord,
  type VideoRecord,
} from '../store/store.js';
import { isStorageError, STORAGE_RETRY_AFTER_SECONDS } from '../store/errors.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import { DEFAULT_SEARCH_SLOTS } from '../limit-values.js';
import { Renders } from './renders.js';
import { Slots } from './slots.js';
import { WaitingJobs } from './waiting.js';
import { generate, type GenerationParams } from './generation.js';
import { describe, renderFailure, renderKind, type JobContext, type RenderDescription } from './job.js';
import { searchTopic } from './topic-search.js';
import { renderFinal } from './render-job.js';
import type { JobQueue, JobRef } from './queue.js';
import { isFinal } from '../store/status.js';

/** Runs the service's background jobs. */
export class Jobs {
  readonly #store: Store;
  readonly #jobMs: number;
  readonly #fetchTimeoutMs: number;
  readonly #media: 'real' | 'placeholder';
  readonly #mediaDir: string;
  /** The render queue, and where renders' files are kept (renders.ts). */
  readonly #renders: Renders;
  readonly #webhooks: Pick<Webhooks, 'videoCompleted' | 'videoRendered'> | undefined;
  readonly #closing = new AbortController();
  readonly #egress: EgressPolicy;
  /** Topic searches fetching (their page or an image) at once, per account and in all. */
  readonly #searches: Slots;
  /** Each account's searches and renders waiting for their slot (waiting.ts). */
  readonly #waiting = new WaitingJobs();
  /** What every job works with (job.ts); each job's own timing and forced outcome are added to it. */
  readonly #shared: Pick<JobContext, 'store' | 'fetchTimeoutMs' | 'mediaDir' | 'egress' | 'searches'>;
  /** The time the timed steps follow. */
  readonly #clock: JobClock;
  /** The outcomes forced by tests (none without `--test-controls`). */
  readonly #controls: TestControls | undefined;
  /** The queue of services sharing a database (queue.ts): jobs are queued there, and run where claimed. */
  readonly #queue: JobQueue | undefined;
  readonly #admit: ((partnerID: string, starting: string) => void) | undefined;
  #running = 0;
  /** The running jobs (each settles: errors are caught in #run). */
  readonly #jobs = new Set<Promise<void>>();
  /** Each partner's jobs: their own abort signal, and those running. */
  readonly #byPartner = new Map<
    string,
    { controller: AbortController; signal: AbortSignal; running: Set<Promise<void>> }
  >();

  constructor(
    store: Store,
    options: {
      jobMs: number;
      fetchTimeoutMs: number;
      media?: 'real' | 'placeholder';
      mediaDir?: string;
      /** An S3 media store: renders are stored there by content, and the scene cache shared through it. */
      mediaStore?: MediaStore | undefined;
      renderConcurrency?: number;
      /** Told when a video is completed and when its final render is ready. */
      webhooks?: Pick<Webhooks, 'videoCompleted' | 'videoRendered'>;
      /**
       * What source pages and images may be fetched from. The service always gives its own
       * (`allowLoopbackSources`); the default, for jobs made on their own in tests, allows any
       * loopback port, where those tests serve their sites.
       */
      egress?: EgressPolicy;
      /** Topic searches fetching at once (default {@link DEFAULT_SEARCH_SLOTS}); the others wait PENDING. */
      searchSlots?: { perAccount: number; total: number };
      /** Size limit of the scene cache in bytes (default `CACHE_BYTES`, media/segments.ts). */
      sceneCacheBytes?: number | undefined;
      /** Services sharing a database: the lock of a scene being encoded, waited for by the others' renders. */
      sceneLock?: EntryLock | undefined;
      /** How long ffmpeg may report no progress before it counts as hung (media/encoder.ts). */
      renderStallMs?: number | undefined;
      /** The time the timed steps follow (default: the machine's; clock.ts). */
      clock?: JobClock;
      /** The outcomes forced by tests (test-controls.ts). */
      controls?: TestControls;
      /** The shared job queue (a database several services share): jobs are queued, not run at once. */
      queue?: JobQueue;
      /**
       * With a shared queue: refuses (throws) a job of the partner's, given the key of the record
       * being started. Called within the transaction that queues the job, after it has read what the
       * other services committed: a check made before it may have missed the jobs they queued since.
       */
      admit?: ((partnerID: string, starting: string) => void) | undefined;
    },
  ) {
    this.#store = store;
    this.#jobMs = options.jobMs;
    this.#fetchTimeoutMs = options.fetchTimeoutMs;
    this.#media = options.media ?? 'placeholder';
    this.#mediaDir = options.mediaDir ?? '';
    this.#renders = new Renders({
      media: this.#media,
      mediaDir: this.#mediaDir,
      mediaStore: options.mediaStore,
      renderConcurrency: options.renderConcurrency,
      sceneCacheBytes: options.sceneCacheBytes,
      sceneLock: options.sceneLock,
      renderStallMs: options.renderStallMs,
      waiting: this.#waiting,
    });
    this.#webhooks = options.webhooks;
    this.#egress = options.egress ?? sourcePolicy(true, false, () => 0);
    this.#searches = new Slots(options.searchSlots ?? DEFAULT_SEARCH_SLOTS);
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#controls = options.controls;
    this.#queue = options.queue;
    this.#admit = options.admit;
    // Every running job's wait listens to this one signal (and removes itself when done): many jobs
    // at once are normal, not the listener leak Node warns about past 10.
    setMaxListeners(0, this.#closing.signal);
    this.#shared = {
      store,
      fetchTimeoutMs: this.#fetchTimeoutMs,
      mediaDir: this.#mediaDir,
      egress: this.#egress,
      searches: this.#searches,
    };
  }

  /** Saves a new PENDING topic and starts searching its source URL (already checked: http/https). */
  startTopicSearch(owner: Owner, sourceURL: string): TopicRecord {
    const now = nowISO();
    const topic: TopicRecord = {
      ...owner,
      id: newId('topic'),
      requestId: newId('search'),
      sourceURL,
      status: 'PENDING',
      progress: startProgress('topic'),
      images: [],
      createdAt: now,
      updatedAt: now,
    };
    this.#store.transaction(() => {
      this.#store.insert({ kind: 'topic', record: topic });
      this.#start(owner, 'topicSearch', (job, started) => searchTopic(job, topic, started), topic, {
        job: 'topicSearch',
        id: topic.id,
      });
    });
    return topic;
  }

  /**
   * Saves a new PENDING generation and its video (named after the topic) and starts generating.
   * The caller has checked that the topic is the account's and COMPLETE.
   */
  startGeneration(
    owner: Owner,
    topic: TopicRecord,
    params: GenerationParams,
  ): { generation: GenerationRecord; video: VideoRecord } {
    const now = nowISO();
    const generation: GenerationRecord = {
      ...owner,
      ...params,
      requestId: newId('gen'),
      videoId: newId('vid'),
      status: 'PENDING',
      progress: startProgress(this.#media === 'real' ? 'generationReal' : 'generation'),
      createdAt: now,
      updatedAt: now,
    };
    const video: VideoRecord = {
      ...owner,
      id: generation.videoId,
      name: topic.title ?? new URL(topic.sourceURL).hostname,
      topicId: topic.id,
      requestId: generation.requestId,
      ...(params.metadata !== undefined ? { metadata: params.metadata } : {}),
      aspectRatio: params.aspectRatio,
      duration: params.duration,
      language: params.language,
      createdAt: now,
      updatedAt: now,
      isCompleted: false,
      hasThumbnail: false,
      renders: [],
      media: RENDER_FORMAT[this.#media],
    };
    this.#store.transaction(() => {
      this.#store.insert({ kind: 'video', record: video });
      this.#store.insert({ kind: 'generation', record: generation });
      this.#start(owner, 'generation', (job) => generate(job, generation), undefined, {
        job: 'generation',
        id: generation.requestId,
      });
    });
    return { generation, video };
  }

  /** Marks a video completed and starts its render (PROCESSING → COMPLETE over `jobMs`). */
  completeVideo(video: Readonly<VideoRecord>): void {
    this.#store.transaction(() => {
      this.#store.update(
        { kind: 'video', record: video },
        {
          isCompleted: true,
          renders: [{ format: video.media ?? 'svg', status: 'PROCESSING', progress: startProgress(renderKind(video)) }],
        },
      );
      this.#webhooks?.videoCompleted(video);
      this.#start(video, 'render', (job) => renderFinal(job, video, this.#webhooks), undefined, {
        job: 'render',
        id: video.id,
      });
    });
  }

  /**
   * The editor's save (real media): the video's scenes become `scenes`, in that order, over its
   * duration (a scene that says what one said before keeps its length: `editedTimes`), each with the topic image it names (`images[index]`) or none; then, with
   * `preview`, the preview is rendered again (the old one is served until the new one is whole).
   * Without it (scenes saved as the video is completed) the final render is the one made of them.
   */
  editScenes(
    video: Readonly<VideoRecord>,
    scenes: readonly { heading: string; body?: string | undefined; narration: string; image: number | null }[],
    images: readonly string[],
    { preview }: { preview: boolean },
  ): void {
    const board = video.storyboard;
    if (!board) return;
    const times = editedTimes(
      board.scenes,
      scenes.map((scene) => scene.narration),
      board.duration,
    );
    const topic = this.#store.topics.get(video.topicId ?? '');
    const urls = imageURLsOf(images, topic?.images ?? []);
    const before = board.scenes;
    const edited: Storyboard = {
      ...board,
      scenes: scenes.map((scene, index) => ({
        kind: index === 0 ? 'title' : index === scenes.length - 1 ? 'closing' : 'content',
        heading: scene.heading,
        ...(scene.body ? { body: scene.body } : {}),
        ...(scene.image !== null && images[scene.image] ? { image: images[scene.image]! } : {}),
        narration: scene.narration,
        ...times[index]!,
        sources: editedSources(
          before,
          { ...scene, image: scene.image === null ? undefined : images[scene.image] },
          topic?.sourceURL ?? '',
          urls,
        ),
      })),
    };
    this.#store.transaction(() => {
      this.#store.update({ kind: 'video', record: video }, { storyboard: edited });
      if (!preview) return;
      this.#start(video, undefined, (job) => this.#renderPreview(job, video, edited), undefined, {
        job: 'preview',
        id: video.id,
      });
    });
  }

  /** Renders a video's preview again from `board` (its edited storyboard); the old one is served until then. */
  async #renderPreview(job: JobContext, video: Readonly<VideoRecord>, board: Storyboard): Promise<void> {
    let preview: RenderDescription;
    try {
      const files = await job.renderFiles(video, board, renderName(video.id, 'preview'));
      await job.keepRender(files);
      preview = describe(files);
    } catch (error) {
      const failure = renderFailure(error);
      if (!failure || job.signal.aborted) throw error;
      console.error(`video-plugin-service: the preview of ${video.id} could not be rendered again: ${failure.message}`);
      return;
    }
    this.#store.update({ kind: 'video', record: video }, { preview, hasPreview: true });
  }

  /**
   * Runs a job this process claimed from the shared queue (queue.ts), with what its record holds
   * now; resolves when it has settled. A job whose record is gone or over is done at once.
   */
  async runQueued(ref: JobRef): Promise<void> {
    this.#store.refresh();
    const store = this.#store;
    // What a test forced on it was taken when it was queued, and comes with it.
    const start = (
      owner: Owner,
      kind: TestJob,
      job: (context: JobContext, started: () => void) => Promise<void>,
      waitingFor?: Owner,
    ) => this.#start(owner, kind, job, waitingFor, undefined, ref.forced);
    let running: Promise<void> | undefined;
    if (ref.job === 'topicSearch') {
      const topic = store.topics.get(ref.id);
      if (topic && !isFinal(topic.status)) {
        running = start(topic, 'topicSearch', (job, started) => searchTopic(job, topic, started), topic);
      }
    } else if (ref.job === 'generation') {
      const generation = store.generations.get(ref.id);
      if (generation && !isFinal(generation.status)) {
        running = start(generation, 'generation', (job) => generate(job, generation));
      }
    } else {
      const video = store.videos.get(ref.id);
      if (video && ref.job === 'render' && video.renders.some((render) => !isFinal(render.status))) {
        running = start(video, 'render', (job) => renderFinal(job, video, this.#webhooks));
      } else if (video?.storyboard && ref.job === 'preview') {
        const board = video.storyboard;
        running = this.#start(video, undefined, (job) => this.#renderPreview(job, video, board));
      }
    }
    await running;
  }

  /** Restarts the jobs a previous run left PENDING or PROCESSING (after loading a data file). */
  resume(): void {
    for (const topic of this.#store.topics.values()) {
      if (topic.status === 'PENDING' || topic.status === 'PROCESSING')
        this.#start(topic, undefined, (job, started) => searchTopic(job, topic, started), topic);
    }
    for (const generation of this.#store.generations.values()) {
      if (generation.status === 'PENDING' || generation.status === 'PROCESSING')
        this.#start(generation, undefined, (job) => generate(job, generation));
    }
    for (const video of this.#store.videos.values()) {
      if (video.renders.some((render) => render.status === 'PENDING' || render.status === 'PROCESSING')) {
        this.#start(video, undefined, (job) => renderFinal(job, video, this.#webhooks));
      }
    }
  }

  /**
   * Stops the partner's jobs (a sandbox's reset, after its records were removed, so they save
   * nothing more) and resolves once every one has settled: none writes a file after this. What a
   * test forced or a step clock kept for the partner is forgotten.
   */
  async stopPartner(partnerID: string): Promise<void> {
    this.#controls?.forget(partnerID);
    this.#clock.forget?.(partnerID);
    const jobs = this.#byPartner.get(partnerID);
    if (!jobs) return;
    this.#byPartner.delete(partnerID);
    jobs.controller.abort();
    await Promise.all(jobs.running);
  }

  /**
   * How many of the partner's jobs are running or waiting (a sandbox's `jobsPerSandbox`). With a
   * shared queue, its jobs run in any process and wait in the queue: they are counted from the
   * records every process shares (searches, generations and renders not ended), not counting the
   * record whose key is `starting`.
   */
  runningFor(partnerID: string, starting?: string): number {
    if (this.#queue) return this.#store.unfinishedOf(partnerID, starting);
    return this.#byPartner.get(partnerID)?.running.size ?? 0;
  }

  /** Stops every job where it is; their records are resumed by the next run's `resume()`. */
  async close(): Promise<void> {
    this.#closing.abort();
    // An aborted job may still be between two awaits (a picture being decoded): wait for every one
    // to settle, so that none writes a file after the service has removed its temporary media.
    await Promise.all(this.#jobs);
  }

  /** Renders running and waiting for their turn. */
  get renderQueue(): { active: number; waiting: number } {
    const { running, waiting } = this.#renders.counts;
    return { active: running, waiting };
  }

  /**
   * The searches and renders of `owner` waiting for their slot (waiting.ts): what the API's cap
   * `waitingJobs.account` counts.
   */
  waitingJobs(owner: Owner): number {
    return this.#waiting.of(owner);
  }

  /** Topic search fetches running, and waiting for a slot. */
  get searchQueue(): { running: number; waiting: number } {
    return this.#searches.counts;
  }

  /** How many jobs are running. */
  get running(): number {
    return this.#running;
  }

  /**
   * Starts a job of `owner`'s (a new one of `kind`, or one resumed) with its own context, made when
   * it first runs (after its record is committed; not again when a refused step is retried): what
   * a test forced on it is taken then, once. A job of `waitingFor` counts as one of its waiting
   * jobs until it calls `started` (or settles). With a shared queue the outcome is taken as the
   * job is queued, and `carried` is what a job claimed from the queue took.
   */
  #start(
    owner: Owner,
    kind: TestJob | undefined,
    job: (context: JobContext, started: () => void) => Promise<void>,
    waitingFor?: Owner,
    queued?: JobRef,
    carried?: ForcedOutcome,
  ): Promise<void> | undefined {
    // Several services on one database: the job commits with its record (and the outcome it took,
    // taken from the database's queue in the same transaction), and runs where it is claimed.
    if (this.#queue && queued) {
      this.#admit?.(owner.partnerID, queued.id);
      const forced = kind === undefined ? undefined : this.#take(kind, owner);
      this.#store.queueJob(this.#queue.insert(forced ? { ...queued, forced: forced.outcome } : queued));
      return undefined;
    }
    const turn = new ClockTurn();
    let context: JobContext | undefined;
    return this.#run(
      owner.partnerID,
      (started) => job((context ??= this.#contextOf(owner, kind, turn, carried)), started),
      turn,
      waitingFor,
    );
  }

  /** What a test forced on `owner`'s next job of `kind`, taken from the queue of outcomes. */
  #take(kind: TestJob, owner: Owner) {
    return this.#controls?.take(kind, owner, this.#store.accounts.get(owner.accountID)?.externalID);
  }

  /**
   * The context of one job of `owner`'s: its clock, its `jobMs` and what a test forced on it (with
   * a shared queue, what it `carried` from there; nothing is taken when it runs).
   */
  #contextOf(owner: Owner, kind: TestJob | undefined, turn: ClockTurn, carried?: ForcedOutcome): JobContext {
    const { partnerID } = owner;
    const forced = this.#queue
      ? carried && forcedBy(carried)
      : kind === undefined
        ? undefined
        : this.#take(kind, owner);
    const outcome = forced?.outcome;
    const { signal } = this.#jobsOf(partnerID);
    return {
      ...this.#shared,
      signal,
      renderFiles: (of, board, name, progress) => this.#renders.render(of, board, name, signal, progress),
      keepRender: (files) => this.#renders.keep(files, signal),
      keepPicture: (file) => this.#renders.keepPicture(file, signal),
      jobMs: outcome && 'takeMs' in outcome ? outcome.takeMs : this.#jobMs,
      now: () => this.#clock.now(partnerID),
      forced,
      hold: (stage) =>
        outcome && 'stall' in outcome && outcome.stall === stage && this.#controls
          ? this.#controls.stall(partnerID, signal, turn)
          : Promise.resolve(),
      waitTicking: (ms, onShare) => this.#waitTicking(ms, onShare, partnerID, signal, turn),
    };
  }

  /**
   * Starts `job` once the store's current transaction is committed (at once outside of one): a job
   * never works on a record that a failed transaction took back. Its `turn` is told when it ends
   * (a step clock's advance waits for that). A job of `waitingFor` counts as one of its waiting
   * jobs until it calls `started` (or settles).
   */
  #run(
    partnerID: string,
    job: (started: () => void) => Promise<void>,
    turn?: ClockTurn,
    waitingFor?: Owner,
  ): Promise<void> | undefined {
    let settled: Promise<void> | undefined;
    this.#store.afterCommit(() => {
      // A partner whose records were removed (an ended sandbox) starts nothing.
      if (this.#store.removed(partnerID)) return;
      const jobs = this.#jobsOf(partnerID);
      this.#running++;
      const started = waitingFor ? this.#waiting.enter(waitingFor) : () => {};
      const running = job(started)
        .catch(async (error: unknown) => {
          if (jobs.signal.aborted) return;
          if (isStorageError(error)) {
            // The data file refused the job's step (a full or read-only disk): the store put the
            // record back as the file has it, and the job goes on from there once it can be saved.
            console.error(
              `video-plugin-service: a background job could not save its step (${(error as Error).message}); it goes on from its last saved state in ${STORAGE_RETRY_AFTER_SECONDS} s.`,
            );
            await this.#wait(STORAGE_RETRY_AFTER_SECONDS * 1000, jobs.signal).then(
              () => this.#run(partnerID, job, turn, waitingFor),
              () => {},
            );
            return;
          }
          console.error('video-plugin-service: a background job failed unexpectedly:', error);
        })
        .finally(() => {
          started();
          this.#running--;
          this.#jobs.delete(running);
          jobs.running.delete(running);
          turn?.paused();
        });
      this.#jobs.add(running);
      jobs.running.add(running);
      settled = running;
    });
    // Outside of a transaction the job started at once: what it settles with.
    return settled;
  }

  /** The partner's jobs: their signal (aborted by {@link close} and by {@link stopPartner}), and those running. */
  #jobsOf(partnerID: string): { controller: AbortController; signal: AbortSignal; running: Set<Promise<void>> } {
    let jobs = this.#byPartner.get(partnerID);
    if (!jobs) {
      const controller = new AbortController();
      const signal = AbortSignal.any([this.#closing.signal, controller.signal]);
      setMaxListeners(0, signal);
      jobs = { controller, signal, running: new Set() };
      this.#byPartner.set(partnerID, jobs);
    }
    return jobs;
  }

  #wait(ms: number, signal: AbortSignal): Promise<void> {
    return sleep(Math.max(0, ms), undefined, { signal });
  }

  /**
   * Waits `ms` of the partner's time (the service's clock), telling `onShare` the share of it
   * waited every {@link PROGRESS_INTERVAL_MS}: the emulator's timed steps move the progress as real
   * work would. Each step is one wait of the clock (with the step clock, released by an advance).
   */
  async #waitTicking(
    ms: number,
    onShare: (share: number) => void,
    partnerID: string,
    signal: AbortSignal,
    turn: ClockTurn,
  ): Promise<void> {
    const clock = this.#clock;
    const start = clock.now(partnerID);
    for (let left = ms; left > 0; left = start + ms - clock.now(partnerID)) {
      await clock.sleep(Math.min(left, PROGRESS_INTERVAL_MS), partnerID, signal, turn);
      onShare((clock.now(partnerID) - start) / ms);
    }
  }
}
