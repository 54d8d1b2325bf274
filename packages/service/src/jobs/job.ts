/**
 * What every background job works with (jobs.ts gives it): the store it saves its steps through,
 * its timing and clock, its abort signal, the render queue and what a test forced on it; and what
 * the jobs share: their progress trackers and how a render that did not finish ends.
 */
import type { EgressPolicy } from '../egress.js';
import { RenderError, type RenderedFiles } from '../media/render.js';
import type { Storyboard } from '../media/storyboard.js';
import { MediaStoreUnavailable } from '../media/store.js';
import type { Owner, RenderRecord, StatusError, Store, VideoRecord } from '../store/store.js';
import { ProgressTracker, type JobKind, type Progress, type ProgressStage } from './progress.js';
import type { Slots } from './slots.js';
import type { Forced } from './test-controls.js';

/** What a job works with. */
export interface JobContext {
  readonly store: Store;
  /** About how long a job takes (the emulator's timed steps); a forced `takeMs` replaces it. */
  readonly jobMs: number;
  /** The time the job's timed steps follow (the step clock's with `--clock manual`; clock.ts). */
  now(): number;
  /** What a test forced on this job (test-controls.ts), if anything. */
  readonly forced: Forced | undefined;
  /**
   * Stalls the job here when a test forced it to stall at `stage` (the record then shows that
   * stage) until the test releases it; at once otherwise.
   */
  hold(stage: ProgressStage): Promise<void>;
  readonly fetchTimeoutMs: number;
  /** The media folder ('' without one). */
  readonly mediaDir: string;
  /** What source pages and images may be fetched from. */
  readonly egress: EgressPolicy;
  /** Topic searches fetching at once, per account and in all, fair across partners and accounts. */
  readonly searches: Slots;
  /** Aborted when the service closes: every wait and render stops. */
  readonly signal: AbortSignal;
  /**
   * Waits `ms`, telling `onShare` the share of it waited every `PROGRESS_INTERVAL_MS`: the
   * emulator's timed steps move the progress as real work would.
   */
  waitTicking(ms: number, onShare: (share: number) => void): Promise<void>;
  /**
   * Renders `board` (a video of `owner`) as `<name>.mp4/.jpg/.vtt` in the videos folder, in its
   * turn in the render queue (fair across partners and accounts: slots.ts).
   */
  renderFiles(owner: Owner, board: Storyboard, name: string, progress?: ProgressTracker): Promise<RenderedFiles>;
  /**
   * Keeps a finished render's files where they are served from: with an S3 media store, stores
   * them there by content and removes the local copies (throws `MediaStoreUnavailable` once its
   * tries are over); without one, nothing to do.
   */
  keepRender(files: RenderedFiles): Promise<void>;
  /**
   * Keeps a topic's downloaded picture where it is served from: with an S3 media store, stores it
   * by content and resolves with its path in the folder of its hash (undefined when the store
   * could not take it: the picture is left out); without one, resolves with `file` as it is.
   */
  keepPicture(file: string): Promise<string | undefined>;
}

/**
 * A tracker of a job's progress (progress.ts), started from the record's own: it keeps the job's
 * progress apart from the record, and `publish` saves each step through the store.
 */
export function track(
  from: Progress | undefined,
  kind: JobKind,
  publish: (progress: Progress) => void,
): ProgressTracker {
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
 * media folder's disk refused its files (from the service's own writes or ffmpeg's),
 * `media_store_unavailable` when the S3 media store could not take them after its tries, else the
 * render's own code (`render_failed`…). Undefined for anything else: a bug, thrown on.
 */
export function renderFailure(error: unknown): StatusError | undefined {
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
  if (error instanceof MediaStoreUnavailable) {
    // The store's address and answer stay in the service's log; the partner learns what happened.
    console.error(`video-plugin-service: a render's files could not be stored: ${error.message}`);
    return {
      code: 'media_store_unavailable',
      message:
        "The render could not be stored: the service's media store could not be reached, after several tries. Nothing of it is kept or served; render again once the store is back.",
    };
  }
  // A render stopped (`render_aborted`) belongs to a job that stops too: thrown on, never a status.
  return error instanceof RenderError && error.code === 'render_failed'
    ? { code: error.code, message: error.message }
    : undefined;
}

/** What a render record keeps of a finished render: its files' hashes and what it did. */
export type RenderDescription = Required<Pick<RenderRecord, 'sha256' | 'stats'>>;

export function describe({ sha256, stats }: RenderedFiles): RenderDescription {
  return { sha256: { ...sha256 }, stats: { ...stats } };
}

/** The plan of a video's render (progress.ts): real media renders in stages, stand-ins only wait. */
export function renderKind(video: Readonly<VideoRecord>): JobKind {
  return video.media === 'mp4' && video.storyboard ? 'renderReal' : 'render';
}
