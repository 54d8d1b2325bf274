/**
 * The emulator's media: a video's thumbnail and its "render", drawn as SVG by the service itself so
 * that nothing depends on outside assets. The render is animated (a progress bar over the video's
 * duration) to stand in for the video file.
 */
import type { VideoRecord } from './store.js';
/** The SVG of a video's thumbnail (`kind: 'thumbnail'`) or render (`kind: 'render'`). */
export declare function videoSvg(video: VideoRecord, kind: 'thumbnail' | 'render'): string;
//# sourceMappingURL=media.d.ts.map
