import { Plugin } from '../../src/index.js';
import { HostConnection } from '../../src/wire/host.js';
/** Opens every subject once; the round-trip, concurrency and push phases share them. */
declare function setup(): Promise<string[]>;
/**
 * Sequential round trips, one call in flight at a time, in interleaved rounds: each round runs
 * every subject (in a rotating order) for `perRound` timed calls after `warmup` untimed ones.
 * Each call is timed alone (for p95/p99), and each batch of `batch` calls as a whole: the batch
 * mean is finer than the 5 µs timer, so medians and ratios come from batch means.
 */
declare function roundTrips({
  rounds,
  perRound,
  warmup,
  batch,
}?: {
  rounds?: number | undefined;
  perRound?: number | undefined;
  warmup?: number | undefined;
  batch?: number | undefined;
}): Promise<{
  calls: Record<string, number[]>;
  batches: Record<string, number[]>;
  roundMedians: Record<string, number[]>;
}>;
/** `n` calls at once, `rounds` times per subject (interleaved): total time and failures. */
declare function concurrent({ n, rounds }?: { n?: number | undefined; rounds?: number | undefined }): Promise<
  Record<
    string,
    {
      ms: number[];
      failures: number;
      errors: string[];
    }
  >
>;
/**
 * One-way push latency, frame → callback: `rounds` interleaved rounds of `perRound` pushes per
 * subject, each push ~4 ms after the previous one (so each finds both pages idle, as real events do).
 */
declare function pushes({
  rounds,
  perRound,
  gapMs,
}?: {
  rounds?: number | undefined;
  perRound?: number | undefined;
  gapMs?: number | undefined;
}): Promise<
  Record<
    string,
    {
      latencies: number[];
      offset: number;
      offsetRtt: number;
      missing: number;
    }
  >
>;
/** Time from creation to the first answered call, handshake included, `count` times per kind. */
declare function startup({ count }?: { count?: number | undefined }): Promise<Record<string, number[]>>;
/**
 * `cycles` × (new Plugin, a listener, a status subscription, one call, cleanup()). With `count`,
 * every listener, timer and port created meanwhile is counted (test/support/resources.ts) and
 * what is still live at the end is returned; then the DOM is checked for leftovers.
 */
declare function leakCycles({ cycles, count }?: { cycles?: number | undefined; count?: boolean | undefined }): Promise<{
  cycles: number;
  failures: number;
  msPerCycle: number;
  live: {
    listeners: number;
    timers: number;
    ports: number;
  } | null;
  iframesLeft: number;
  overlaysLeft: number;
}>;
/**
 * Against the real local service: startup to the first call, an account creation (the one HTTP
 * round trip here), then openPlugin() → pluginOpened, first and again. One token per instance.
 */
declare function realService({
  serviceURL,
  partnerID,
  tokens,
}: {
  serviceURL: string;
  partnerID: string;
  tokens: string[];
}): Promise<{
  firstCall: number[];
  createAccount: number[];
  coldOpen: number[];
  warmOpen: number[];
  errors: string[];
}>;
/** A busy loop of SDK calls, for the profiler. */
declare function callLoop({
  subject,
  calls,
}?: {
  subject?: string | undefined;
  calls?: number | undefined;
}): Promise<number>;
declare function perCallCosts({ iterations }?: { iterations?: number | undefined }): Record<string, number>;
declare const bench: {
  perCallCosts: typeof perCallCosts;
  crossOriginIsolated: boolean;
  setup: typeof setup;
  roundTrips: typeof roundTrips;
  concurrent: typeof concurrent;
  pushes: typeof pushes;
  startup: typeof startup;
  leakCycles: typeof leakCycles;
  realService: typeof realService;
  callLoop: typeof callLoop;
  /** For the heap probes: objects of these prototypes are counted after a collection. */
  prototypes: {
    Plugin: Plugin;
    HostConnection: HostConnection;
  };
};
declare global {
  interface Window {
    bench: typeof bench;
  }
}
export {};
//# sourceMappingURL=host.d.ts.map
