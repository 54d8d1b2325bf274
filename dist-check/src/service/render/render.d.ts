import type { Storyboard } from './storyboard.js';
/** A render that did not produce its file. */
export declare class RenderError extends Error {
  readonly code: 'render_failed' | 'render_aborted';
  constructor(code: 'render_failed' | 'render_aborted', message: string);
}
export interface RenderedFiles {
  video: string;
  thumbnail: string;
  captions: string;
}
/** Runs ffmpeg with `args`; rejects with its last lines of output when it fails. */
export declare function ffmpeg(args: string[], signal?: AbortSignal): Promise<void>;
/** Breaks `text` into lines of at most `width` characters. */
export declare function wrapLines(text: string, width: number, maxLines: number): string[];
/** WebVTT captions: one cue per scene, its narration. */
export declare function captions(board: Storyboard): string;
/**
 * Renders `board` into `dir` as `<name>.mp4`, `<name>.jpg` (thumbnail) and `<name>.vtt`. Resolves
 * with their paths once all three are in place.
 */
export declare function renderVideo(
  board: Storyboard,
  dir: string,
  name: string,
  signal?: AbortSignal,
): Promise<RenderedFiles>;
/** Runs renders at most `limit` at a time, in the order they were asked for. */
export declare class RenderQueue {
  #private;
  constructor(limit?: number);
  get active(): number;
  get waiting(): number;
  run<T>(job: () => Promise<T>): Promise<T>;
}
//# sourceMappingURL=render.d.ts.map
