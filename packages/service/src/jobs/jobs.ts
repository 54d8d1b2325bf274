/**
 * Background jobs: topic searches, video generations and renders. Each moves its record through
 * PENDING → PROCESSING → COMPLETE (or FAILED) over about `jobMs`, recording every step in the store
 * so that the status streams push it, with the job's progress (stage, fraction, time left; see
 * progress.ts) on the record.
 *
 * Jobs wait with abortable timers; `close()` aborts them all and leaves their records where they
 * were. `resume()` re-runs whatever a previous run left unfinished, so nothing stays PROCESSING.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { egressPolicy, type EgressPolicy } from '../egress.js';
import { downloadImage, imageURLsOf } from '../media/images.js';
import pLimit, { type LimitFunction } from 'p-limit';
import { availableParallelism } from 'node:os';
import { RenderError, renderQueue, renderVideo, type RenderedFiles } from '../media/render.js';
import { CACHE_BYTES, SceneCache } from '../media/segments.js';
import { measureQuality } from '../media/quality.js';
import { RENDER_FORMAT, renderName, topicDir, videosDir } from '../media/files.js';
import { buildStoryboard, editedSources, type Storyboard } from '../media/storyboard.js';
import { PROGRESS_INTERVAL_MS, ProgressTracker, startProgress, type JobKind, type Progress } from './progress.js';
import { fetchSourcePage, SourceError } from '../media/source.js';
import {
  newId,
  nowISO,
  type Owner,
  type Store,
  type TopicRecord,
  type GenerationRecord,
  type RenderRecord,
  type VideoRecord,
} from '../store/store.js';
import { isStorageError, STORAGE_RETRY_AFTER_SECONDS } from '../store/errors.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import type { AspectRatio, Duration, RenderQuality } from 'video-plugin/internal';
import { DEFAULT_SEARCH_SLOTS, Slots } from './slots.js';

/** Parameters of a generation, already validated. */
export interface GenerationParams {
  topicId: string;
  aspectRatio: AspectRatio;
  duration: Duration;
  language: string;
  videoInstructions?: string;
}

/**
 * A generation whose `videoInstructions` contain this marker fails (code `generation_failed`) at
 * the end of PROCESSING: the emulator's way to let partners test their FAILED handling.
 */
export const FAIL_GENERATION_MARKER = '[fail]';

/** Share of `jobMs` a topic search spends PENDING before its fetch starts. */
const TOPIC_PENDING_SHARE = 0.1;
/** Share of `jobMs` a generation spends PENDING. */
const GENERATION_PENDING_SHARE = 0.2;

/** Runs the service's background jobs. */
export class Jobs {
  readonly #store: Store;
  readonly #jobMs: number;
  readonly #fetchTimeoutMs: number;
  readonly #media: 'real' | 'placeholder';
  readonly #mediaDir: string;
  readonly #renders: LimitFunction;
  /** The scenes' encodes of every render, at most the cores at once (render.ts). */
  readonly #encodes: LimitFunction;
  /** The scene cache (segments.ts), in `<media>/cache/scenes`; real media only. */
  readonly #cache: SceneCache | undefined;
  readonly #stallMs: number | undefined;
  readonly #webhooks: Pick<Webhooks, 'videoCompleted' | 'videoRendered'> | undefined;
  readonly #closing = new AbortController();
  readonly #egress: EgressPolicy;
  /** Topic searches fetching (their page or an image) at once, per account and in all. */
  readonly #searches: Slots;
  #running = 0;
  /** The running jobs (each settles: errors are caught in #run). */
  readonly #jobs = new Set<Promise<void>>();

  constructor(
    store: Store,
    options: {
      jobMs: number;
      fetchTimeoutMs: number;
      media?: 'real' | 'placeholder';
      mediaDir?: string;
      renderConcurrency?: number;
      /** Told when a video is completed and when its final render is ready. */
      webhooks?: Pick<Webhooks, 'videoCompleted' | 'videoRendered'>;
      /** What source pages and images may be fetched from (default: a service on loopback). */
      egress?: EgressPolicy;
      /** Topic searches fetching at once (default {@link DEFAULT_SEARCH_SLOTS}); the others wait PENDING. */
      searchSlots?: { perAccount: number; total: number };
      /** Size limit of the scene cache in bytes (default {@link CACHE_BYTES}). */
      sceneCacheBytes?: number | undefined;
      /** How long ffmpeg may report no progress before it counts as hung (media/encoder.ts). */
      renderStallMs?: number | undefined;
    },
  ) {
    this.#store = store;
    this.#jobMs = options.jobMs;
    this.#fetchTimeoutMs = options.fetchTimeoutMs;
    this.#media = options.media ?? 'placeholder';
    this.#mediaDir = options.mediaDir ?? '';
    this.#renders = renderQueue(options.renderConcurrency);
    this.#encodes = pLimit(Math.max(1, options.renderConcurrency ?? availableParallelism()));
    // Emptied at every start: a restart never reuses what another version of the code made.
    this.#cache =
      this.#media === 'real' && this.#mediaDir
        ? new SceneCache(join(this.#mediaDir, 'cache', 'scenes'), options.sceneCacheBytes ?? CACHE_BYTES)
        : undefined;
    this.#stallMs = options.renderStallMs;
    this.#webhooks = options.webhooks;
    this.#egress = options.egress ?? egressPolicy('127.0.0.1', false, () => 0);
    this.#searches = new Slots(options.searchSlots ?? DEFAULT_SEARCH_SLOTS);
    // Every running job's wait listens to this one signal (and removes itself when done): many jobs
    // at once are normal, not the listener leak Node warns about past 10.
    setMaxListeners(0, this.#closing.signal);
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
    this.#store.insert({ kind: 'topic', record: topic });
    this.#run(() => this.#searchTopic(topic));
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
    this.#store.insert({ kind: 'video', record: video });
    this.#store.insert({ kind: 'generation', record: generation });
    this.#run(() => this.#generate(generation));
    return { generation, video };
  }

  /** Marks a video completed and starts its render (PROCESSING → COMPLETE over `jobMs`). */
  completeVideo(video: Readonly<VideoRecord>): void {
    this.#store.update(
      { kind: 'video', record: video },
      {
        isCompleted: true,
        renders: [{ format: video.media ?? 'svg', status: 'PROCESSING', progress: startProgress(renderKind(video)) }],
      },
    );
    this.#webhooks?.videoCompleted(video);
    this.#run(() => this.#render(video));
  }

  /**
   * The editor's save (real media): the video's scenes become `scenes`, in that order, spread over
   * its duration, each with the topic image it names (`images[index]`) or none; then the preview
   * is rendered again. The old preview is served until the new one is whole.
   */
  editScenes(
    video: Readonly<VideoRecord>,
    scenes: readonly { heading: string; body?: string | undefined; narration: string; image: number | null }[],
    images: readonly string[],
  ): void {
    const board = video.storyboard;
    if (!board) return;
    const length = board.duration / scenes.length;
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
        start: index * length,
        duration: length,
        sources: editedSources(
          before,
          { ...scene, image: scene.image === null ? undefined : images[scene.image] },
          topic?.sourceURL ?? '',
          urls,
        ),
      })),
    };
    const change = { kind: 'video', record: video } as const;
    this.#store.update(change, { storyboard: edited });
    this.#run(async () => {
      let preview: RenderDescription;
      try {
        preview = describe(await this.#renderFiles(edited, renderName(video.id, 'preview')));
      } catch (error) {
        const failure = renderFailure(error);
        if (!failure || this.#closing.signal.aborted) throw error;
        console.error(
          `video-plugin-service: the preview of ${video.id} could not be rendered again: ${failure.message}`,
        );
        return;
      }
      this.#store.update(change, { preview, hasPreview: true });
    });
  }

  /** Restarts the jobs a previous run left PENDING or PROCESSING (after loading a data file). */
  resume(): void {
    for (const topic of this.#store.topics.values()) {
      if (topic.status === 'PENDING' || topic.status === 'PROCESSING') this.#run(() => this.#searchTopic(topic));
    }
    for (const generation of this.#store.generations.values()) {
      if (generation.status === 'PENDING' || generation.status === 'PROCESSING')
        this.#run(() => this.#generate(generation));
    }
    for (const video of this.#store.videos.values()) {
      if (video.renders.some((render) => render.status === 'PENDING' || render.status === 'PROCESSING')) {
        this.#run(() => this.#render(video));
      }
    }
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
    return { active: this.#renders.activeCount, waiting: this.#renders.pendingCount };
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
   * Starts `job` once the store's current transaction is committed (at once outside of one): a job
   * never works on a record that a failed transaction took back.
   */
  #run(job: () => Promise<void>): void {
    this.#store.afterCommit(() => {
      this.#running++;
      const running = job()
        .catch(async (error: unknown) => {
          if (this.#closing.signal.aborted) return;
          if (isStorageError(error)) {
            // The data file refused the job's step (a full or read-only disk): the store put the
            // record back as the file has it, and the job goes on from there once it can be saved.
            console.error(
              `video-plugin-service: a background job could not save its step (${(error as Error).message}); it goes on from its last saved state in ${STORAGE_RETRY_AFTER_SECONDS} s.`,
            );
            await this.#wait(STORAGE_RETRY_AFTER_SECONDS * 1000).then(
              () => this.#run(job),
              () => {},
            );
            return;
          }
          console.error('video-plugin-service: a background job failed unexpectedly:', error);
        })
        .finally(() => {
          this.#running--;
          this.#jobs.delete(running);
        });
      this.#jobs.add(running);
    });
  }

  /**
   * Renders `board` as `<name>.mp4/.jpg/.vtt` in the videos folder, in its turn in the queue. The
   * one place that takes a render slot: callers never wrap it in the queue again.
   */
  #renderFiles(board: Storyboard, name: string, progress?: ProgressTracker): Promise<RenderedFiles> {
    if (this.#renders.activeCount >= this.#renders.concurrency) progress?.stage('waiting_to_render');
    return this.#renders(() =>
      renderVideo(board, videosDir(this.#mediaDir), name, {
        signal: this.#closing.signal,
        progress,
        cache: this.#cache,
        encodes: this.#encodes,
        stallMs: this.#stallMs,
      }),
    );
  }

  #wait(ms: number): Promise<void> {
    return sleep(Math.max(0, ms), undefined, { signal: this.#closing.signal });
  }

  /**
   * Waits `ms` like {@link #wait}, telling `onShare` the share of it waited every
   * {@link PROGRESS_INTERVAL_MS}: the emulator's timed steps move the progress as real work would.
   */
  async #waitTicking(ms: number, onShare: (share: number) => void): Promise<void> {
    const start = Date.now();
    for (let left = ms; left > 0; left = start + ms - Date.now()) {
      await this.#wait(Math.min(left, PROGRESS_INTERVAL_MS));
      onShare((Date.now() - start) / ms);
    }
  }

  async #searchTopic(topic: Readonly<TopicRecord>): Promise<void> {
    const started = Date.now();
    const change = { kind: 'topic', record: topic } as const;
    const progress = track(topic.progress, 'topic', (current) => this.#store.progressed(change, { progress: current }));
    if (topic.status === 'PENDING') {
      await this.#waitTicking(this.#jobMs * TOPIC_PENDING_SHARE, (share) => progress.within(share));
    }
    // A search stays PENDING until it has a fetch slot (issue 29, finding 5): however many are
    // started, only so many read pages and decode images at once.
    const account = `${topic.partnerID}/${topic.accountID}`;
    let page;
    try {
      page = await this.#searches.run(account, () => {
        this.#closing.signal.throwIfAborted();
        if (topic.status === 'PENDING') {
          progress.stage('reading_page', false);
          this.#store.advance(change, 'PROCESSING', undefined, { progress: progress.current });
        }
        progress.stage('reading_page');
        return fetchSourcePage(topic.sourceURL, {
          timeoutMs: this.#fetchTimeoutMs,
          signal: this.#closing.signal,
          egress: this.#egress,
        });
      });
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      progress.fail();
      this.#store.advance(
        change,
        'FAILED',
        { code: error.code, message: error.message },
        { progress: progress.current },
      );
      return;
    }
    // The topic fills in while PROCESSING, as the real service streams it: text first, then the
    // images one by one over the rest of the job's time.
    progress.stage('collecting_images', false);
    this.#store.update(change, {
      title: page.title ?? new URL(topic.sourceURL).hostname,
      ...(page.description !== undefined ? { description: page.description } : {}),
      ...(page.siteName !== undefined ? { siteName: page.siteName } : {}),
      headings: page.headings,
      sentences: page.sentences,
      images: [],
      files: [],
      progress: progress.current,
    });
    const images: string[] = [];
    const files: string[] = [];
    const steps = page.images.length + 1;
    const stepMs = Math.max(0, started + this.#jobMs - Date.now()) / steps;
    for (const [index, image] of page.images.entries()) {
      await this.#waitTicking(stepMs, (share) => progress.within((index + share) / steps));
      // The service keeps its own copy (videos and the studio never hot-link the source site), in
      // both media modes when it has a media folder; an image that cannot be used is left out of
      // the video and the studio's pictures, not of the topic's `images`.
      if (this.#mediaDir !== '') {
        const kept = await this.#searches.run(account, () =>
          downloadImage(image, topicDir(this.#mediaDir, topic.id), index, {
            timeoutMs: this.#fetchTimeoutMs,
            signal: this.#closing.signal,
            egress: this.#egress,
          }),
        );
        if ('file' in kept) files.push(kept.file);
      }
      images.push(image);
      progress.note((index + 1) / steps);
      this.#store.update(change, { images: [...images], files: [...files], progress: progress.current });
    }
    await this.#waitTicking(stepMs, (share) => progress.within((steps - 1 + share) / steps));
    progress.stage('finishing');
    progress.complete();
    this.#store.advance(change, 'COMPLETE', undefined, { progress: progress.current });
  }

  async #generate(generation: Readonly<GenerationRecord>): Promise<void> {
    const started = Date.now();
    const change = { kind: 'generation', record: generation } as const;
    const video = this.#store.videos.get(generation.videoId);
    const kind = video?.media === 'mp4' ? 'generationReal' : 'generation';
    const progress = track(generation.progress, kind, (current) =>
      this.#store.progressed(change, { progress: current }),
    );
    if (generation.status === 'PENDING') {
      await this.#waitTicking(this.#jobMs * GENERATION_PENDING_SHARE, (share) => progress.within(share));
      progress.stage('writing_storyboard', false);
      this.#store.advance(change, 'PROCESSING', undefined, { progress: progress.current });
    }
    progress.stage('writing_storyboard');
    await this.#waitTicking(started + this.#jobMs - Date.now(), (share) => progress.within(share));
    if (generation.videoInstructions?.includes(FAIL_GENERATION_MARKER)) {
      progress.fail();
      this.#store.advance(
        change,
        'FAILED',
        {
          code: 'generation_failed',
          message: `The generation failed because its videoInstructions contain ${FAIL_GENERATION_MARKER} (the local service's test hook).`,
        },
        { progress: progress.current },
      );
      return;
    }
    // The video gets its thumbnail (and, with real media, its storyboard and preview render) before
    // the generation says COMPLETE, so a page reacting to COMPLETE finds the video ready.
    let rendered: Pick<VideoRecord, 'storyboard' | 'preview' | 'hasPreview'> | undefined;
    if (video?.media === 'mp4') {
      const topic = this.#store.topics.get(generation.topicId);
      const storyboard = buildStoryboard(
        {
          sourceURL: topic?.sourceURL ?? 'http://localhost/',
          ...(topic?.title !== undefined ? { title: topic.title } : {}),
          ...(topic?.description !== undefined ? { description: topic.description } : {}),
          ...(topic?.siteName !== undefined ? { siteName: topic.siteName } : {}),
          headings: topic?.headings ?? [],
          sentences: topic?.sentences ?? [],
          images: topic?.files ?? [],
          imageURLs: imageURLsOf(topic?.files ?? [], topic?.images ?? []),
        },
        generation,
      );
      try {
        const preview = describe(await this.#renderFiles(storyboard, renderName(video.id, 'preview'), progress));
        rendered = { storyboard, preview, hasPreview: true };
      } catch (error) {
        const failure = renderFailure(error);
        if (!failure || this.#closing.signal.aborted) throw error;
        progress.fail();
        this.#store.advance(
          change,
          'FAILED',
          { code: failure.code, message: `The preview render failed: ${failure.message}` },
          { progress: progress.current },
        );
        return;
      }
    }
    progress.stage('finishing');
    if (video) this.#store.update({ kind: 'video', record: video }, { ...rendered, hasThumbnail: true });
    progress.complete();
    this.#store.advance(change, 'COMPLETE', undefined, { progress: progress.current });
  }

  async #render(video: Readonly<VideoRecord>): Promise<void> {
    // The progress is the first render's (a video has one), given to every render at the end.
    const change = { kind: 'video', record: video } as const;
    const progress = track(video.renders[0]?.progress, renderKind(video), (current) =>
      this.#store.progressed(change, {
        renders: video.renders.map((render, index) => (index === 0 ? { ...render, progress: current } : render)),
      }),
    );
    let quality: RenderQuality | undefined;
    let made: RenderDescription | undefined;
    if (video.media === 'mp4' && video.storyboard) {
      const board = video.storyboard;
      try {
        const files = await this.#renderFiles(board, renderName(video.id, 'final'), progress);
        made = describe(files);
        // The quality report: measured on the finished file (quality.ts).
        quality = await measureQuality(files, board, this.#closing.signal).catch((error: unknown) => {
          if (this.#closing.signal.aborted) throw error;
          console.error(`video-plugin-service: the quality of ${video.id} could not be measured:`, error);
          return undefined;
        });
      } catch (error) {
        const failure = renderFailure(error);
        if (!failure || this.#closing.signal.aborted) throw error;
        progress.fail();
        this.#store.advanceRenders(video, 'FAILED', progress.current, { error: failure });
        return;
      }
    } else {
      progress.stage('rendering');
      await this.#waitTicking(this.#jobMs, (share) => progress.within(share));
      progress.stage('finishing');
    }
    progress.complete();
    this.#store.advanceRenders(video, 'COMPLETE', progress.current, {
      renderedAt: nowISO(),
      ...(quality ? { quality } : {}),
      ...made,
    });
    this.#webhooks?.videoRendered(video);
  }
}

/**
 * A tracker of a job's progress (progress.ts), started from the record's own: it keeps the job's
 * progress apart from the record, and `publish` saves each step through the store.
 */
function track(from: Progress | undefined, kind: JobKind, publish: (progress: Progress) => void): ProgressTracker {
  const tracker: ProgressTracker = new ProgressTracker(from ? { progress: from } : {}, kind, () =>
    publish(tracker.current),
  );
  return tracker;
}

/** The errors of a file that could not be written for want of space (a disk or quota full, a file-size limit). */
const STORAGE_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
/** The same, as ffmpeg reports them in its last lines. */
const STORAGE_FULL_TEXT = /No space left on device|Disk quota exceeded|File too large/i;

/**
 * What a render that did not finish ends with (its record's `error`): `storage_full` when the
 * media folder's disk refused its files (from the service's own writes or ffmpeg's), else the
 * render's own code (`render_failed`…). Undefined for anything else: a bug, thrown on.
 */
export function renderFailure(error: unknown): { code: string; message: string } | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (
    (typeof code === 'string' && STORAGE_FULL.has(code)) ||
    (error instanceof RenderError && STORAGE_FULL_TEXT.test(error.message))
  ) {
    return {
      code: 'storage_full',
      message:
        "The render could not be written: the service's disk is full. Nothing of it is kept or served; render again once space is freed.",
    };
  }
  return error instanceof RenderError ? { code: error.code, message: error.message } : undefined;
}

/** What a render record keeps of a finished render: its files' hashes and what it did. */
type RenderDescription = Required<Pick<RenderRecord, 'sha256' | 'stats'>>;

function describe({ sha256, stats }: RenderedFiles): RenderDescription {
  return { sha256: { ...sha256 }, stats: { ...stats } };
}

/** The plan of a video's render (progress.ts): real media renders in stages, stand-ins only wait. */
function renderKind(video: VideoRecord): JobKind {
  return video.media === 'mp4' && video.storyboard ? 'renderReal' : 'render';
}
