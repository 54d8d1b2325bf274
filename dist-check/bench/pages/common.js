/**
 * Shared by the bench pages: the page configuration the bench server writes into `<meta>` tags,
 * a clock comparable across processes, and a paced series of pushes.
 */
/** Reads `<meta name="bench-…" content="…">`, written by bench/run.mjs. */
export function meta(name) {
  const content = document.querySelector(`meta[name="bench-${name}"]`)?.content;
  if (!content) throw new Error(`bench page without <meta name="bench-${name}">`);
  return content;
}
/** Milliseconds since the epoch at sub-millisecond resolution, comparable between processes. */
export const now = () => performance.timeOrigin + performance.now();
/** Calls `push` `count` times, `gapMs` apart (so that no push queues behind the previous one). */
export function pushSeries(count, gapMs, push) {
  let left = count;
  const tick = () => {
    push();
    if (--left > 0) setTimeout(tick, gapMs);
  };
  if (left > 0) setTimeout(tick, gapMs);
}
/**
 * Clock probes: the host hands over a port (`{bench: 'clock'}`); each `{id}` on it is answered at
 * once with this frame's time, so that the host can estimate the offset between the two clocks.
 */
export function answerClockProbes(hostOrigin) {
  window.addEventListener('message', (event) => {
    if (event.origin !== hostOrigin || event.source !== window.parent) return;
    const port = event.ports[0];
    if (event.data?.bench !== 'clock' || !port) return;
    port.onmessage = (probe) => port.postMessage({ id: probe.data.id, t: now() });
  });
}
/** A Video as the service would push it; its `name` carries the send time. */
export function videoAt(sentAt) {
  return {
    id: 'video_bench',
    name: `bench ${sentAt}`,
    topicId: 'topic_bench',
    aspectRatio: '16:9',
    duration: 15,
    language: 'en-US',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    isCompleted: false,
    thumbnailURL: 'http://127.0.0.1/thumbnail.svg',
    renders: [],
  };
}
//# sourceMappingURL=common.js.map
