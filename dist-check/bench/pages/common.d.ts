/**
 * Shared by the bench pages: the page configuration the bench server writes into `<meta>` tags,
 * a clock comparable across processes, and a paced series of pushes.
 */
/** Reads `<meta name="bench-…" content="…">`, written by bench/run.mjs. */
export declare function meta(name: string): string;
/** Milliseconds since the epoch at sub-millisecond resolution, comparable between processes. */
export declare const now: () => number;
/** Calls `push` `count` times, `gapMs` apart (so that no push queues behind the previous one). */
export declare function pushSeries(count: number, gapMs: number, push: () => void): void;
/**
 * Clock probes: the host hands over a port (`{bench: 'clock'}`); each `{id}` on it is answered at
 * once with this frame's time, so that the host can estimate the offset between the two clocks.
 */
export declare function answerClockProbes(hostOrigin: string): void;
/** A Video as the service would push it; its `name` carries the send time. */
export declare function videoAt(sentAt: number): {
  id: string;
  name: string;
  topicId: string;
  aspectRatio: '16:9';
  duration: number;
  language: string;
  createdAt: string;
  updatedAt: string;
  isCompleted: boolean;
  thumbnailURL: string;
  renders: never[];
};
//# sourceMappingURL=common.d.ts.map
