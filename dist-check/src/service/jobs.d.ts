import { type Owner, type Store, type TopicRecord, type GenerationRecord, type VideoRecord } from './store.js';
/** Parameters of a generation, already validated. */
export interface GenerationParams {
  topicId: string;
  aspectRatio: '16:9' | '4:5';
  duration: 5 | 15 | 30;
  language: string;
  videoInstructions?: string;
}
/**
 * A generation whose `videoInstructions` contain this marker fails (code `generation_failed`) at
 * the end of PROCESSING: the emulator's way to let partners test their FAILED handling.
 */
export declare const FAIL_GENERATION_MARKER = '[fail]';
/** Format of the renders: MP4 (`media: real`), or an animated SVG stand-in (`media: placeholder`). */
export declare const RENDER_FORMAT: {
  readonly real: 'mp4';
  readonly placeholder: 'svg';
};
/** Where a video's files are, in the media folder: `<dir>/videos/<id>-preview.mp4`, `-final.mp4`… */
export declare function videoFile(
  mediaDir: string,
  videoId: string,
  kind: 'preview' | 'final',
  ext: 'mp4' | 'jpg' | 'vtt',
): string;
/** Runs the service's background jobs. */
export declare class Jobs {
  #private;
  constructor(
    store: Store,
    options: {
      jobMs: number;
      fetchTimeoutMs: number;
      media?: 'real' | 'placeholder';
      mediaDir?: string;
      renderConcurrency?: number;
    },
  );
  /** Saves a new PENDING topic and starts searching its source URL (already checked: http/https). */
  startTopicSearch(owner: Owner, sourceURL: string): TopicRecord;
  /**
   * Saves a new PENDING generation and its video (named after the topic) and starts generating.
   * The caller has checked that the topic is the account's and COMPLETE.
   */
  startGeneration(
    owner: Owner,
    topic: TopicRecord,
    params: GenerationParams,
  ): {
    generation: GenerationRecord;
    video: VideoRecord;
  };
  /** Marks a video completed and starts its render (PROCESSING → COMPLETE over `jobMs`). */
  completeVideo(video: VideoRecord): void;
  /**
   * The editor's save (real media): the video's scenes become `scenes`, in that order, spread over
   * its duration, each with the topic image it names (`images[index]`) or none; then the preview
   * is rendered again. The old preview is served until the new one is whole.
   */
  editScenes(
    video: VideoRecord,
    scenes: readonly {
      heading: string;
      body?: string | undefined;
      narration: string;
      image: number | null;
    }[],
    images: readonly string[],
  ): void;
  /** Restarts the jobs a previous run left PENDING or PROCESSING (after loading a data file). */
  resume(): void;
  /** Stops every job where it is; their records are resumed by the next run's `resume()`. */
  close(): void;
  /** Renders running and waiting for their turn. */
  get renderQueue(): {
    active: number;
    waiting: number;
  };
  /** How many jobs are running. */
  get running(): number;
}
//# sourceMappingURL=jobs.d.ts.map
