// Load in one page: 20 Plugin instances on the fast service and 100 status subscriptions at once,
// spread over them, on real topic searches and generations that end COMPLETE or FAILED. Every
// subscription gets its final status exactly once, and cleanup gives back every listener, timer,
// port and iframe. The JS heap before and after is printed, not asserted (it is coarse and GC-timed).
import { expect } from '@open-wc/testing';
import { Plugin } from '../../src/plugin.js';
import type { ActionStatus } from '../../src/wire/api.js';
import { BUSINESS_URL, testConfig, token } from '../support/plugin.js';
import { countResources } from '../support/resources.js';

const INSTANCES = 20;
const UNREACHABLE = 'http://127.0.0.1:9/';
const ORDER: ActionStatus[] = ['PENDING', 'PROCESSING', 'COMPLETE', 'FAILED'];

/** One subscription and what it heard. */
interface Watch {
  label: string;
  expected: ActionStatus;
  expectedCode?: string;
  payloads: { status: ActionStatus; error?: { code: string; message: string } }[];
  final: Promise<void>;
  unsubscribe: () => void;
}

function watch(
  label: string,
  expected: ActionStatus,
  subscribe: (callback: (payload: Watch['payloads'][number]) => void) => () => void,
  expectedCode?: string,
): Watch {
  const payloads: Watch['payloads'] = [];
  let reached = () => {};
  const final = new Promise<void>((resolve) => (reached = resolve));
  const unsubscribe = subscribe((payload) => {
    payloads.push(payload);
    if (payload.status === 'COMPLETE' || payload.status === 'FAILED') reached();
  });
  return { label, expected, ...(expectedCode ? { expectedCode } : {}), payloads, final, unsubscribe };
}

/**
 * Waits for every watch to reach its final status, at most `ms`; then fails naming those that did
 * not (a bound, so that a stall fails with a reason instead of a test timeout).
 */
async function finals(watches: Watch[], ms: number): Promise<void> {
  const done = new Set<Watch>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all(watches.map((w) => w.final.then(() => done.add(w)))),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
  const stalled = watches
    .filter((w) => !done.has(w))
    .map((w) => `${w.label} (heard ${w.payloads.map((p) => p.status).join(',') || 'nothing'})`);
  expect(stalled, `no final status within ${ms} ms`).to.deep.equal([]);
}

function heap(): string {
  const memory = (performance as { memory?: { usedJSHeapSize: number } }).memory;
  return memory ? `${(memory.usedJSHeapSize / 1048576).toFixed(1)} MB` : 'n/a (no performance.memory)';
}

describe('load', () => {
  it('20 Plugins with 100 concurrent subscriptions: each final status exactly once; cleanup releases everything', async () => {
    const { serviceURL } = await testConfig();
    const iframesBefore = document.querySelectorAll('iframe').length;
    const heapBefore = heap();
    const resources = countResources();
    const plugins: Plugin[] = [];
    try {
      for (let i = 0; i < INSTANCES; i++) plugins.push(new Plugin('test-partner', { serviceURL }));
      const tokens = await Promise.all(plugins.map(() => token('create')));
      await Promise.all(plugins.map((plugin, i) => plugin.createAccount(tokens[i]!)));
      // While connected, the counters see one port per instance.
      expect(resources.live().ports).to.equal(INSTANCES);

      // A topic ready for generations, per instance (its subscription ends before the load starts).
      const searches = await Promise.all(plugins.map((plugin) => plugin.startTopicSearch(BUSINESS_URL)));
      const setup = searches.map(({ topicId }, i) =>
        watch(`#${i} setup topic`, 'COMPLETE', (cb) => plugins[i]!.subscribeToTopicSearchStatusUpdates(topicId, cb)),
      );
      await finals(setup, 12_000);
      for (const w of setup) w.unsubscribe();
      const ready = searches.map(({ topicId }) => topicId);

      // The load: five actions per instance, started together, each followed by one subscription.
      const watches = (
        await Promise.all(
          plugins.map(async (plugin, i) => {
            const generation = (videoInstructions?: string) =>
              plugin.startVideoGeneration({
                topicId: ready[i]!,
                aspectRatio: '16:9',
                duration: 5,
                ...(videoInstructions ? { videoInstructions } : {}),
              });
            const [a, b, bad, ok, failing] = await Promise.all([
              plugin.startTopicSearch(BUSINESS_URL),
              plugin.startTopicSearch(`${BUSINESS_URL}?copy=${i}`),
              plugin.startTopicSearch(UNREACHABLE),
              generation(),
              generation('[fail]'),
            ]);
            const topic = (id: string) => (cb: (payload: Watch['payloads'][number]) => void) =>
              plugin.subscribeToTopicSearchStatusUpdates(id, cb);
            const video = (id: string) => (cb: (payload: Watch['payloads'][number]) => void) =>
              plugin.subscribeToVideoGenerationStatusUpdates(id, cb);
            return [
              watch(`#${i} topic a`, 'COMPLETE', topic(a.topicId)),
              watch(`#${i} topic b`, 'COMPLETE', topic(b.topicId)),
              watch(`#${i} unreachable topic`, 'FAILED', topic(bad.topicId), 'source_unreachable'),
              watch(`#${i} generation`, 'COMPLETE', video(ok.requestId)),
              watch(`#${i} failing generation`, 'FAILED', video(failing.requestId), 'generation_failed'),
            ];
          }),
        )
      ).flat();
      expect(watches).to.have.length(100);
      await finals(watches, 15_000);
      // A round trip on every channel: anything the service posted before it has arrived.
      await Promise.all(plugins.map((plugin) => plugin.getVideos()));

      for (const w of watches) {
        // The same status comes again only with more progress: a run of it counts as one.
        const statuses = w.payloads.map((p) => p.status).filter((s, i, all) => s !== all[i - 1]);
        expect(
          statuses.filter((s) => s === 'COMPLETE' || s === 'FAILED'),
          w.label,
        ).to.deep.equal([w.expected]);
        expect(statuses.at(-1), w.label).to.equal(w.expected);
        // Each status at most once, in order.
        expect(new Set(statuses).size, w.label).to.equal(statuses.length);
        expect(
          statuses.map((s) => ORDER.indexOf(s)),
          w.label,
        ).to.deep.equal(statuses.map((s) => ORDER.indexOf(s)).sort());
        const last = w.payloads.at(-1)!;
        if (w.expectedCode) expect(last.error?.code, w.label).to.equal(w.expectedCode);
        else expect(last.error, w.label).to.equal(undefined);
        w.unsubscribe();
      }
      // Every generation is a saved video of its instance.
      const videos = await Promise.all(plugins.map((plugin) => plugin.getVideos()));
      expect(videos.map((list) => list.length)).to.deep.equal(plugins.map(() => 2));
    } finally {
      await Promise.all(plugins.map((plugin) => plugin.cleanup()));
      resources.restore();
    }
    expect(resources.live()).to.deep.equal({ listeners: 0, timers: 0, ports: 0 });
    expect(document.querySelectorAll('iframe').length).to.equal(iframesBefore);
    expect(document.querySelectorAll('[data-video-plugin]').length).to.equal(0);
    console.log(`[load] JS heap before ${heapBefore}, after cleanup ${heap()}`);
  }).timeout(35000);
});
