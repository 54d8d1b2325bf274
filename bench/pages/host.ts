/**
 * The partner page of the benchmark (http://localhost:PORT). bench/run.mjs drives it through
 * `window.bench`: each phase runs in the page and returns raw samples; Node computes the figures.
 */
import { WindowMessenger, connect } from 'penpal';
import { Plugin } from '../../src/index.js';
import { HostConnection } from '../../src/wire/host.js';
import * as z from 'zod/mini';
import { videoSchema } from '../../src/wire/schemas.js';
import { frameHash, hostMessageSchemas, parseMessage, serviceMessageSchemas } from '../../src/wire/protocol.js';
import { countResources } from '../../test/support/resources.js';
import { meta, now } from './common.js';

const serviceOrigin = meta('service');
/** The bench service page answers at `${serviceBase}plugin`, where the Plugin looks for it. */
const serviceBase = `${serviceOrigin}/svc/`;

type Call = () => Promise<unknown>;

/** One way of talking to a frame: a cheap call, a push series, a teardown. */
interface Subject {
  frame: HTMLIFrameElement;
  call: Call;
  /** Starts `count` pushes from the frame; each arrival calls `onPush` with the frame's send time. */
  startPush(count: number, gapMs: number, onPush: (sentAt: number) => void): void;
  close(): void;
}

function addFrame(src: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.title = 'bench frame';
  // Every frame is hidden the way the Plugin's iframe is while closed, so all run alike.
  frame.style.cssText = 'border:0;width:320px;height:200px;display:none';
  document.body.append(frame);
  frame.src = src;
  return frame;
}

/** Resolves with the first window message from `frame` that `accept` accepts. */
function windowMessage<T>(frame: HTMLIFrameElement, accept: (data: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent): void => {
      if (event.source !== frame.contentWindow || event.origin !== serviceOrigin) return;
      const value = accept(event.data);
      if (value === undefined) return;
      window.removeEventListener('message', listener);
      resolve(value);
    };
    window.addEventListener('message', listener);
  });
}

/** Raw `MessageChannel` and raw `window.postMessage` echoes, on one frame. */
async function openRaw(): Promise<{ mc: Subject; win: Subject }> {
  const frame = addFrame(`${serviceOrigin}/bench/raw.html`);
  await windowMessage(frame, (data) => ((data as { raw?: string })?.raw === 'hello' ? true : undefined));
  const channel = new MessageChannel();
  const port = channel.port1;
  const pendingPort = new Map<number, (value: unknown) => void>();
  const pendingWindow = new Map<number, (value: unknown) => void>();
  let onPortPush: (sentAt: number) => void = () => {};
  let nextId = 1;
  const ready = new Promise<void>((resolve) => {
    port.onmessage = (event) => {
      const data = event.data as { id?: number; push?: number; ready?: boolean };
      if (data.ready) resolve();
      else if (data.push !== undefined) onPortPush(data.push);
      else {
        const settle = pendingPort.get(data.id!);
        pendingPort.delete(data.id!);
        settle?.(data);
      }
    };
  });
  frame.contentWindow!.postMessage({ raw: 'connect' }, serviceOrigin, [channel.port2]);
  await ready;
  const onWindow = (event: MessageEvent): void => {
    if (event.source !== frame.contentWindow || event.origin !== serviceOrigin) return;
    const data = event.data as { raw?: string; id?: number } | null;
    if (data?.raw !== 'echo') return;
    const settle = pendingWindow.get(data.id!);
    pendingWindow.delete(data.id!);
    settle?.(data);
  };
  window.addEventListener('message', onWindow);
  const close = (): void => {
    window.removeEventListener('message', onWindow);
    port.close();
    frame.remove();
  };
  return {
    mc: {
      frame,
      // The same message the SDK sends for a call, echoed back as is; replies matched by id.
      call: () =>
        new Promise((resolve) => {
          const id = nextId++;
          pendingPort.set(id, resolve);
          port.postMessage({ t: 'call', id, method: 'ping', params: undefined });
        }),
      startPush(count, gapMs, onPush) {
        onPortPush = onPush;
        port.postMessage({ push: count, gapMs });
      },
      close,
    },
    win: {
      frame,
      call: () =>
        new Promise((resolve) => {
          const id = nextId++;
          pendingWindow.set(id, resolve);
          frame.contentWindow!.postMessage(
            { raw: 'echo', t: 'call', id, method: 'ping', params: undefined },
            serviceOrigin,
          );
        }),
      startPush() {
        throw new Error('not measured');
      },
      close,
    },
  };
}

interface PenpalRemote {
  [name: string]: (...args: never[]) => Promise<unknown>;
  ping(): Promise<null>;
  startPush(count: number, gapMs: number): Promise<boolean>;
}

/** Penpal 7 from npm, parent side. */
async function openPenpal(): Promise<Subject> {
  const frame = addFrame(`${serviceOrigin}/bench/penpal.html`);
  let onPush: (sentAt: number) => void = () => {};
  const connection = connect<PenpalRemote>({
    messenger: new WindowMessenger({ remoteWindow: frame.contentWindow!, allowedOrigins: [serviceOrigin] }),
    methods: { onPush: (sentAt: number) => onPush(sentAt) },
  });
  const remote = await connection.promise;
  return {
    frame,
    call: () => remote.ping(),
    startPush(count, gapMs, callback) {
      onPush = callback;
      void remote.startPush(count, gapMs);
    },
    close() {
      connection.destroy();
      frame.remove();
    },
  };
}

/** The SDK's wire alone: `HostConnection.call('ping')`. */
async function openConnection(): Promise<Subject> {
  const channel = crypto.randomUUID();
  const frame = addFrame(`${serviceBase}plugin${frameHash(channel)}`);
  const connection = new HostConnection({
    iframe: frame,
    serviceOrigin,
    channel,
    sdkVersion: 'bench',
    config: () => ({}),
  });
  await connection.whenConnected();
  return {
    frame,
    call: () => connection.call('ping'),
    startPush() {
      throw new Error('not measured');
    },
    close() {
      connection.destroy();
      frame.remove();
    },
  };
}

/** The public class: `Plugin#getVideos()` (logged out: `[]`, answered without HTTP). */
async function openPluginSubject(): Promise<Subject & { plugin: Plugin }> {
  // No call here: the first one is queued until connected, so timing it times the whole startup.
  const plugin = new Plugin('bench', { serviceURL: serviceBase });
  let onPush: (sentAt: number) => void = () => {};
  plugin.on('videoSaved', (video) => onPush(Number(video.name.slice('bench '.length))));
  return {
    plugin,
    frame: plugin.iframe,
    call: () => plugin.getVideos(),
    startPush(count, gapMs, callback) {
      onPush = callback;
      plugin.iframe.contentWindow!.postMessage({ bench: 'push', count, gapMs }, serviceOrigin);
    },
    close() {
      void plugin.cleanup();
    },
  };
}

let subjects: Record<string, Subject> | undefined;

/** Opens every subject once; the round-trip, concurrency and push phases share them. */
async function setup(): Promise<string[]> {
  const raw = await openRaw();
  subjects = {
    'raw MessageChannel': raw.mc,
    'raw window.postMessage': raw.win,
    'Penpal 7': await openPenpal(),
    'SDK HostConnection.call': await openConnection(),
    'SDK Plugin#getVideos': await openPluginSubject(),
  };
  // Every subject answers once before any phase starts.
  await Promise.all(Object.values(subjects).map((subject) => subject.call()));
  return Object.keys(subjects);
}

function rotated<T>(items: T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/**
 * Sequential round trips, one call in flight at a time, in interleaved rounds: each round runs
 * every subject (in a rotating order) for `perRound` timed calls after `warmup` untimed ones.
 * Each call is timed alone (for p95/p99), and each batch of `batch` calls as a whole: the batch
 * mean is finer than the 5 µs timer, so medians and ratios come from batch means.
 */
async function roundTrips({ rounds = 30, perRound = 100, warmup = 10, batch = 10 } = {}) {
  const all = Object.entries(subjects!);
  const calls: Record<string, number[]> = {};
  const batches: Record<string, number[]> = {};
  const roundMedians: Record<string, number[]> = {};
  for (const [name] of all) {
    calls[name] = [];
    batches[name] = [];
    roundMedians[name] = [];
  }
  for (let round = 0; round < rounds; round++) {
    for (const [name, subject] of rotated(all, round)) {
      for (let i = 0; i < warmup; i++) await subject.call();
      const means: number[] = [];
      for (let b = 0; b < perRound / batch; b++) {
        const batchStarted = performance.now();
        for (let i = 0; i < batch; i++) {
          const started = performance.now();
          await subject.call();
          calls[name]!.push(performance.now() - started);
        }
        means.push((performance.now() - batchStarted) / batch);
      }
      batches[name]!.push(...means);
      means.sort((x, y) => x - y);
      roundMedians[name]!.push(means[means.length >> 1]!);
    }
  }
  return { calls, batches, roundMedians };
}

/** `n` calls at once, `rounds` times per subject (interleaved): total time and failures. */
async function concurrent({ n = 1000, rounds = 5 } = {}) {
  const all = Object.entries(subjects!);
  const results: Record<string, { ms: number[]; failures: number; errors: string[] }> = {};
  for (const [name] of all) results[name] = { ms: [], failures: 0, errors: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, subject] of rotated(all, round)) {
      const started = performance.now();
      const settled = await Promise.allSettled(Array.from({ length: n }, () => subject.call()));
      const result = results[name]!;
      result.ms.push(performance.now() - started);
      for (const outcome of settled) {
        if (outcome.status === 'fulfilled') continue;
        result.failures++;
        if (result.errors.length < 3) result.errors.push(String(outcome.reason));
      }
    }
  }
  return results;
}

/**
 * This frame's clock minus ours, from the probe with the shortest round trip (NTP-style) on a
 * port of its own, so that one-way latencies between two processes can be computed.
 */
async function clockOffset(frame: HTMLIFrameElement, probes = 200): Promise<{ offset: number; rtt: number }> {
  const channel = new MessageChannel();
  frame.contentWindow!.postMessage({ bench: 'clock' }, serviceOrigin, [channel.port2]);
  let best = { offset: 0, rtt: Infinity };
  for (let id = 0; id < probes; id++) {
    const sent = now();
    const frameTime = await new Promise<number>((resolve) => {
      channel.port1.onmessage = (event) => {
        const reply = event.data as { id: number; t: number };
        if (reply.id === id) resolve(reply.t);
      };
      channel.port1.postMessage({ id });
    });
    const received = now();
    if (received - sent < best.rtt) best = { offset: frameTime - (sent + received) / 2, rtt: received - sent };
  }
  channel.port1.close();
  return best;
}

/**
 * One-way push latency, frame → callback: `rounds` interleaved rounds of `perRound` pushes per
 * subject, each push ~4 ms after the previous one (so each finds both pages idle, as real events do).
 */
async function pushes({ rounds = 10, perRound = 20, gapMs = 2 } = {}) {
  const labels: Record<string, string> = {
    'raw MessageChannel': 'raw MessageChannel',
    'Penpal 7': 'Penpal 7',
    'SDK Plugin#getVideos': 'SDK Plugin#on',
  };
  const names = Object.keys(labels);
  const results: Record<string, { latencies: number[]; offset: number; offsetRtt: number; missing: number }> = {};
  for (const name of names) {
    const { offset, rtt } = await clockOffset(subjects![name]!.frame);
    results[labels[name]!] = { latencies: [], offset, offsetRtt: rtt, missing: 0 };
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of rotated(names, round)) {
      const result = results[labels[name]!]!;
      let received = 0;
      await new Promise<void>((resolve) => {
        const limit = setTimeout(resolve, perRound * (gapMs + 10) + 5000);
        subjects![name]!.startPush(perRound, gapMs, (sentAt) => {
          result.latencies.push(now() - (sentAt - result.offset));
          if (++received === perRound) {
            clearTimeout(limit);
            resolve();
          }
        });
      });
      result.missing += perRound - received;
    }
  }
  return results;
}

/** Time from creation to the first answered call, handshake included, `count` times per kind. */
async function startup({ count = 20 } = {}) {
  const kinds: [string, () => Promise<Subject>][] = [
    ['raw MessageChannel', async () => (await openRaw()).mc],
    ['Penpal 7', openPenpal],
    ['SDK HostConnection', openConnection],
    ['SDK new Plugin → getVideos()', openPluginSubject],
  ];
  const results: Record<string, number[]> = Object.fromEntries(kinds.map(([name]) => [name, []]));
  for (let i = 0; i < count; i++) {
    for (const [name, open] of rotated(kinds, i)) {
      const started = performance.now();
      const subject = await open();
      await subject.call();
      results[name]!.push(performance.now() - started);
      subject.close();
    }
  }
  return results;
}

/**
 * `cycles` × (new Plugin, a listener, a status subscription, one call, cleanup()). With `count`,
 * every listener, timer and port created meanwhile is counted (test/support/resources.ts) and
 * what is still live at the end is returned; then the DOM is checked for leftovers.
 */
async function leakCycles({ cycles = 200, count = true } = {}) {
  const iframesBefore = document.querySelectorAll('iframe').length;
  const overlaysBefore = document.querySelectorAll('[data-video-plugin]').length;
  const counter = count ? countResources() : undefined;
  const started = performance.now();
  let failures = 0;
  try {
    for (let i = 0; i < cycles; i++) {
      const plugin = new Plugin('bench', { serviceURL: serviceBase });
      const off = plugin.on('videoSaved', () => {});
      plugin.subscribeToVideoGenerationStatusUpdates('generation_bench', () => {});
      try {
        await plugin.getVideos();
      } catch {
        failures++;
      }
      off();
      await plugin.cleanup();
    }
  } finally {
    counter?.restore();
  }
  const ms = performance.now() - started;
  return {
    cycles,
    failures,
    msPerCycle: ms / cycles,
    live: counter?.live() ?? null,
    iframesLeft: document.querySelectorAll('iframe').length - iframesBefore,
    overlaysLeft: document.querySelectorAll('[data-video-plugin]').length - overlaysBefore,
  };
}

/**
 * Against the real local service: startup to the first call, an account creation (the one HTTP
 * round trip here), then openPlugin() → pluginOpened, first and again. One token per instance.
 */
async function realService({
  serviceURL,
  partnerID,
  tokens,
}: {
  serviceURL: string;
  partnerID: string;
  tokens: string[];
}) {
  const firstCall: number[] = [];
  const createAccount: number[] = [];
  const coldOpen: number[] = [];
  const warmOpen: number[] = [];
  const errors: string[] = [];
  for (const token of tokens) {
    const started = performance.now();
    const plugin = new Plugin(partnerID, { serviceURL, connectTimeout: 10_000 });
    try {
      await plugin.getVideos();
      firstCall.push(performance.now() - started);
      const creating = performance.now();
      await plugin.createAccount(token);
      createAccount.push(performance.now() - creating);
      for (const into of [coldOpen, warmOpen]) {
        const opened = new Promise<number>((resolve) => {
          const off = plugin.on('pluginOpened', () => {
            off();
            resolve(performance.now());
          });
        });
        const openStarted = performance.now();
        await plugin.openPlugin({ timeout: 10_000 });
        into.push((await opened) - openStarted);
        await plugin.close();
      }
    } catch (error) {
      if (errors.length < 3) errors.push(String(error));
    } finally {
      await plugin.cleanup();
    }
  }
  return { firstCall, createAccount, coldOpen, warmOpen, errors };
}

/** A busy loop of SDK calls, for the profiler. */
async function callLoop({ subject = 'SDK Plugin#getVideos', calls = 5000 } = {}) {
  const target = subjects![subject]!;
  const started = performance.now();
  for (let i = 0; i < calls; i++) await target.call();
  return (performance.now() - started) / calls;
}

/**
 * What the pieces of one SDK call cost on this page's main thread, in µs, each timed over many
 * iterations: the candidates for the SDK's overhead over a raw MessageChannel.
 */
const noLog: (message: string, ...details: unknown[]) => void = () => {};

function perCallCosts({ iterations = 100_000 } = {}) {
  const videos = z.array(videoSchema);
  let id = 0;
  const pieces: Record<string, () => unknown> = {
    'setTimeout + clearTimeout (the per-call limit)': () => clearTimeout(setTimeout(() => {}, 15_000)),
    'a log call that builds its message while logging is off': () => noLog(`← ok #${++id} getVideos`, id),
    'parseMessage: an ok reply (host side)': () =>
      parseMessage(serviceMessageSchemas, { t: 'ok', id: ++id, value: [] }),
    'parseMessage: a call (service side)': () =>
      parseMessage(hostMessageSchemas, { t: 'call', id: ++id, method: 'getVideos', params: undefined }),
    'z.array(videoSchema) built per call + safeParse([])': () => z.array(videoSchema).safeParse([]),
    'the same schema built once + safeParse([])': () => videos.safeParse([]),
  };
  const out: Record<string, number> = {};
  for (const [name, piece] of Object.entries(pieces)) {
    for (let i = 0; i < iterations / 10; i++) piece();
    const started = performance.now();
    for (let i = 0; i < iterations; i++) piece();
    out[name] = ((performance.now() - started) / iterations) * 1000;
  }
  return out;
}

const bench = {
  perCallCosts,
  crossOriginIsolated: globalThis.crossOriginIsolated,
  setup,
  roundTrips,
  concurrent,
  pushes,
  startup,
  leakCycles,
  realService,
  callLoop,
  /** For the heap probes: objects of these prototypes are counted after a collection. */
  prototypes: { Plugin: Plugin.prototype, HostConnection: HostConnection.prototype },
};
declare global {
  interface Window {
    bench: typeof bench;
  }
}
window.bench = bench;
document.title = 'bench ready';
