// `npm run bench`: one headless Chromium run, the partner page on http://localhost:PORT and the
// service frames on http://127.0.0.1:PORT (another site, so another process with
// --site-per-process), comparing the SDK with raw MessageChannel, raw window.postMessage and
// Penpal 7 in the same page, in interleaved rounds. Prints a table and writes
// bench/results/latest.json. See BENCHMARKS.md for what each figure means.
//
//   node bench/run.mjs               the full run (under a minute on 2 idle cores)
//   node bench/run.mjs --quick       fewer samples (a smoke run)
//   node bench/run.mjs --only roundTrip,leaks   some phases (JSON names); writes partial.json
//   node bench/run.mjs --tree DIR    pages built from a patched copy of src/ (see BENCHMARKS.md)
//   node bench/run.mjs --out FILE    where to write the JSON (default bench/results/latest.json)
//   node bench/run.mjs --profile     instead: CPU profiles (host page and service frame) of 5000
//                                    Plugin#getVideos calls; `--profile-subject 'raw MessageChannel'`
//                                    profiles another subject
//
// The real-service figures use dist/service/server.js: run `npm run build` first.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM_FLAGS, requireChromium } from '../scripts/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const profile = args.includes('--profile');
/** `--only roundTrip,leaks`: run only these phases (names as in the JSON). */
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
/** `--profile-subject NAME`: profile another subject's loop, for comparison (default: the Plugin). */
const profileSubject = args.includes('--profile-subject')
  ? args[args.indexOf('--profile-subject') + 1]
  : 'SDK Plugin#getVideos';
/**
 * `--tree DIR`: bundle the pages from a copy of this repository (its src/, bench/pages/ and
 * test/support/), e.g. with a proposed change applied, to measure it before it lands.
 */
const tree = args.includes('--tree') ? resolve(args[args.indexOf('--tree') + 1]) : root.replace(/\/$/, '');
const HARD_LIMIT_MS = 5 * 60_000;

/** Sample counts: the full run takes about two minutes on 2 cores, `--quick` under one. */
const plan = {
  rounds: quick ? 6 : 30,
  perRound: quick ? 50 : 100,
  batch: 10,
  warmup: quick ? 5 : 10,
  concurrent: 1000,
  concurrentRounds: quick ? 2 : 5,
  pushRounds: quick ? 3 : 10,
  pushesPerRound: 20,
  startups: quick ? 5 : 20,
  cycles: args.includes('--cycles') ? Number(args[args.indexOf('--cycles') + 1]) : 200,
  real: quick ? 3 : 10,
};

// Dependencies of our dev dependencies, resolved where they live rather than by hoisting luck.
const requireFrom = (pkg) => createRequire(createRequire(import.meta.url).resolve(pkg));
const esbuild = requireFrom('@web/dev-server-esbuild')('esbuild');
const puppeteer = (await import(pathToFileURL(requireFrom('@web/test-runner-chrome').resolve('puppeteer-core')).href))
  .default;

const hardLimit = setTimeout(() => {
  console.error(`bench: stopped after ${HARD_LIMIT_MS / 60_000} minutes`);
  process.exit(2);
}, HARD_LIMIT_MS);
hardLimit.unref();

// ---- The pages, bundled from the TypeScript sources (the SDK as partners' bundlers see it) ----

const pages = ['host', 'service-sdk', 'service-raw', 'service-penpal'];
const built = await esbuild.build({
  entryPoints: Object.fromEntries(pages.map((name) => [name, `${tree}/bench/pages/${name}.ts`])),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  // The profile needs readable names; the timed run uses what a partner ships.
  minify: !profile,
  keepNames: profile,
  write: false,
  outdir: '/bench',
  logLevel: 'warning',
});
const scripts = new Map(built.outputFiles.map((file) => [file.path, file.text]));

// ---- The server: one port, two sites ----

/** Fine timers (5 µs) need cross-origin isolation; the framed pages must opt in too. */
const ISOLATION = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'cross-origin',
};

let port = 0;
const hostOrigin = () => `http://localhost:${port}`;
const serviceOrigin = () => `http://127.0.0.1:${port}`;

const html = (script, metas, title) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${Object.entries(metas)
  .map(([name, content]) => `<meta name="bench-${name}" content="${content}">`)
  .join('\n')}
<script type="module" src="/bench/${script}.js"></script></head><body></body></html>`;

function route(url) {
  const metas = { host: hostOrigin(), service: serviceOrigin() };
  switch (url.pathname) {
    case '/bench/host.html':
      return { type: 'text/html', body: html('host', metas, 'bench'), isolated: true };
    case '/bench/host-plain.html':
      return { type: 'text/html', body: html('host', metas, 'bench (not isolated)'), isolated: false };
    case '/svc/plugin':
      return { type: 'text/html', body: html('service-sdk', metas, 'bench service (SDK)'), isolated: true };
    case '/bench/raw.html':
      return { type: 'text/html', body: html('service-raw', metas, 'bench service (raw)'), isolated: true };
    case '/bench/penpal.html':
      return { type: 'text/html', body: html('service-penpal', metas, 'bench service (Penpal)'), isolated: true };
  }
  const script = scripts.get(url.pathname);
  if (script !== undefined) return { type: 'text/javascript', body: script, isolated: true };
  return undefined;
}

const handler = (req, res) => {
  const found = route(new URL(req.url, 'http://localhost'));
  if (!found) {
    res.writeHead(req.url === '/favicon.ico' ? 204 : 404, { 'cross-origin-resource-policy': 'cross-origin' }).end();
    return;
  }
  res
    .writeHead(200, {
      'content-type': `${found.type}; charset=utf-8`,
      'cache-control': 'no-store',
      ...(found.isolated ? ISOLATION : { 'cross-origin-resource-policy': 'cross-origin' }),
    })
    .end(found.body);
};

// localhost may resolve to ::1 or 127.0.0.1: listen on both, same port.
const servers = [createServer(handler)];
await new Promise((resolve) => servers[0].listen(0, '127.0.0.1', resolve));
port = servers[0].address().port;
const v6 = createServer(handler);
await new Promise((resolve) => {
  v6.once('error', resolve);
  v6.listen(port, '::1', () => {
    servers.push(v6);
    resolve();
  });
});

// ---- The real local service, if built ----

let service;
let serviceNote;
let createAccountToken;
const serverModule = new URL('../dist/service/server.js', import.meta.url);
const tokenModule = new URL('../dist/server/index.js', import.meta.url);
if (existsSync(serverModule) && existsSync(tokenModule)) {
  try {
    const { startService } = await import(serverModule.href);
    ({ createAccountToken } = await import(tokenModule.href));
    service = await startService({ port: 0, host: '127.0.0.1', allowLoopbackSources: true, media: 'placeholder' });
  } catch (error) {
    serviceNote = `the local service did not start: ${error.message}`;
  }
} else {
  serviceNote = 'dist/service/server.js or dist/server/index.js is missing: run `npm run build` first';
}

// ---- The browser ----

const browser = await puppeteer.launch({
  executablePath: requireChromium(),
  headless: true,
  args: [...CHROMIUM_FLAGS, '--js-flags=--expose-gc'],
  protocolTimeout: HARD_LIMIT_MS,
});

const log = (message) => process.stderr.write(`bench: ${message}\n`);
const results = {
  date: new Date().toISOString(),
  command: `node bench/run.mjs${args.length ? ` ${args.join(' ')}` : ''}`,
  tree: relative(root, tree) || '.',
  machine: {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    node: process.version,
    chromium: await browser.version(),
    /** Other work on the machine skews every figure: the 1-minute load average at the start. */
    loadAverage: loadavg()[0],
    flags: [...CHROMIUM_FLAGS, '--js-flags=--expose-gc'],
  },
  plan,
};

/** The timed phases, in order; `--only a,b` runs some of them. */
const PHASES = {
  async roundTrip(page) {
    log(`round trips: ${plan.rounds} rounds × ${plan.perRound} calls per subject`);
    return summarizeTrips(await page.evaluate((options) => window.bench.roundTrips(options), plan));
  },
  async perCallCosts(page) {
    log('per-call costs of the SDK on the host page');
    const costs = await page.evaluate(() => window.bench.perCallCosts());
    return Object.fromEntries(Object.entries(costs).map(([name, us]) => [name, round3(us)]));
  },
  async concurrent(page) {
    log(`${plan.concurrent} concurrent calls × ${plan.concurrentRounds} rounds per subject`);
    const burst = await page.evaluate((options) => window.bench.concurrent(options), {
      n: plan.concurrent,
      rounds: plan.concurrentRounds,
    });
    return Object.fromEntries(
      Object.entries(burst).map(([name, r]) => [
        name,
        {
          calls: plan.concurrent,
          medianMs: round3(median(r.ms)),
          ms: r.ms.map(round3),
          failures: r.failures,
          errors: r.errors,
        },
      ]),
    );
  },
  async push(page) {
    log(`event pushes: ${plan.pushRounds} rounds × ${plan.pushesPerRound} per subject`);
    const pushed = await page.evaluate((options) => window.bench.pushes(options), {
      rounds: plan.pushRounds,
      perRound: plan.pushesPerRound,
      gapMs: 2,
    });
    return Object.fromEntries(
      Object.entries(pushed).map(([name, r]) => [
        name,
        {
          ...stats(r.latencies),
          missing: r.missing,
          clockOffsetMs: round3(r.offset),
          clockProbeRttMs: round3(r.offsetRtt),
        },
      ]),
    );
  },
  async startup(page) {
    log(`startup: ${plan.startups} per kind`);
    const started = await page.evaluate((options) => window.bench.startup(options), { count: plan.startups });
    return Object.fromEntries(Object.entries(started).map(([name, ms]) => [name, stats(ms)]));
  },
  async leaks(page, cdp) {
    log(`leaks: ${plan.cycles} create/cleanup cycles`);
    return leaks(page, cdp);
  },
  async realService() {
    if (!service) return { skipped: serviceNote };
    log('real local service: startup, createAccount, openPlugin → pluginOpened');
    try {
      return await realServicePhase();
    } catch (error) {
      return { skipped: `failed: ${error.message}` };
    }
  },
};

async function timedPhases(page, cdp) {
  for (const [name, run] of Object.entries(PHASES)) {
    if (only && !only.includes(name)) continue;
    results[name] = await run(page, cdp);
  }
}

async function realServicePhase() {
  const plain = await browser.newPage();
  plain.on('pageerror', (error) => log(`page error (plain): ${error.message}`));
  await plain.goto(`${hostOrigin()}/bench/host-plain.html`);
  await plain.waitForFunction(() => document.title === 'bench ready');
  // Tokens come from the partner's server in real life: mint them here, with video-plugin/server.
  const [partner] = service.partners;
  const tokens = [];
  for (let i = 0; i < plan.real; i++) {
    tokens.push(await createAccountToken({ partnerID: partner.id, secret: partner.secret, expiresIn: 600 }));
  }
  const real = await plain.evaluate((options) => window.bench.realService(options), {
    serviceURL: service.url,
    partnerID: partner.id,
    tokens,
  });
  await plain.close();
  return {
    serviceURL: service.url,
    firstCall: stats(real.firstCall),
    createAccount: stats(real.createAccount),
    coldOpen: stats(real.coldOpen),
    warmOpen: stats(real.warmOpen),
    errors: real.errors,
  };
}

// ---- Phases that need the DevTools protocol ----

/**
 * Collects garbage (twice: weak references and finalizers) and reads the page's JS heap. The
 * resource timing buffer is emptied first: the browser adds one entry per iframe load to the
 * parent page's timeline (up to 250, ~140 bytes each), which is not ours to release.
 */
async function heap(page, cdp) {
  await page.evaluate(() => window.performance.clearResourceTimings());
  for (let i = 0; i < 2; i++) await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

/** How many live objects have this prototype (after a collection): `queryObjects`. */
async function liveObjects(cdp, expression) {
  const { result: prototype } = await cdp.send('Runtime.evaluate', { expression });
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: prototype.objectId });
  const { result } = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObject', { objectId: objects.objectId });
  await cdp.send('Runtime.releaseObject', { objectId: prototype.objectId });
  return result.value;
}

async function objectCounts(page, cdp) {
  await heap(page, cdp);
  return {
    Plugin: await liveObjects(cdp, 'window.bench.prototypes.Plugin'),
    HostConnection: await liveObjects(cdp, 'window.bench.prototypes.HostConnection'),
    HTMLIFrameElement: await liveObjects(cdp, 'HTMLIFrameElement.prototype'),
    MessagePort: await liveObjects(cdp, 'MessagePort.prototype'),
  };
}

async function leaks(page, cdp) {
  // Warm up first (JIT, caches, the first frame process) so that growth means retention.
  await page.evaluate(() => window.bench.leakCycles({ cycles: 20, count: false }));
  const before = { heap: await heap(page, cdp), objects: await objectCounts(page, cdp), kinds: await heapKinds(cdp) };
  const run = await page.evaluate((cycles) => window.bench.leakCycles({ cycles, count: true }), plan.cycles);
  const after = { heap: await heap(page, cdp), objects: await objectCounts(page, cdp), kinds: await heapKinds(cdp) };
  const objectsLeft = Object.fromEntries(
    Object.keys(after.objects).map((name) => [name, after.objects[name] - before.objects[name]]),
  );
  const kindGrowth = {};
  for (const [kind, { count, bytes, byType }] of Object.entries(after.kinds)) {
    const was = before.kinds[kind];
    const types = Object.entries(byType)
      .map(([type, n]) => [type, n - (was.byType[type] ?? 0)])
      .filter(([, n]) => n !== 0);
    kindGrowth[kind] = { count: count - was.count, bytes: bytes - was.bytes, byType: Object.fromEntries(types) };
  }
  return {
    ...run,
    msPerCycle: round3(run.msPerCycle),
    heapBefore: before.heap,
    heapAfter: after.heap,
    heapGrowth: after.heap - before.heap,
    heapGrowthPerCycle: Math.round((after.heap - before.heap) / plan.cycles),
    heapGrowthByKind: kindGrowth,
    objectsBefore: before.objects,
    objectsLeft,
  };
}

/**
 * A heap snapshot, summed in two kinds: objects a program can hold (JS objects, closures, strings,
 * arrays, DOM wrappers) and the engine's own (compiled code, shapes, V8 caches), which grows as
 * functions are optimized and is not a leak.
 */
async function heapKinds(cdp) {
  const chunks = [];
  const onChunk = ({ chunk }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const { snapshot, nodes, strings } = JSON.parse(chunks.join(''));
  const fields = snapshot.meta.node_fields;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field));
  const types = snapshot.meta.node_types[typeAt];
  const kinds = { objects: { count: 0, bytes: 0, byType: {} }, engine: { count: 0, bytes: 0, byType: {} } };
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]];
    const name = strings[nodes[i + nameAt]];
    const engine = ['code', 'hidden', 'object shape', 'synthetic'].includes(type) || name.startsWith('system /');
    const kind = kinds[engine ? 'engine' : 'objects'];
    kind.count++;
    kind.bytes += nodes[i + sizeAt];
    kind.byType[type] = (kind.byType[type] ?? 0) + 1;
  }
  return kinds;
}

/**
 * CPU profiles of a loop of `Plugin#getVideos` calls, on the host page and in the service frame
 * (its own process): the functions with the most self time on each side.
 */
async function profileCalls(page, cdp, browser) {
  const framePath =
    {
      'raw MessageChannel': '/bench/raw.html',
      'raw window.postMessage': '/bench/raw.html',
      'Penpal 7': '/bench/penpal.html',
      'SDK HostConnection.call': '/svc/plugin#',
    }[profileSubject] ?? '/svc/plugin?partner=bench';
  const frameTarget = browser.targets().find((target) => target.url().startsWith(`${serviceOrigin()}${framePath}`));
  const sides = [['host', cdp]];
  if (frameTarget) sides.push(['service frame', await frameTarget.createCDPSession()]);
  for (const [, session] of sides) {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 50 });
    await session.send('Profiler.start');
  }
  const msPerCall = await page.evaluate((subject) => window.bench.callLoop({ subject, calls: 5000 }), profileSubject);
  const out = { subject: profileSubject, msPerCall: round3(msPerCall), sides: {} };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  for (const [name, session] of sides) {
    const { profile: cpu } = await session.send('Profiler.stop');
    const file = `bench/results/${name.replace(/\W+/g, '-')}.cpuprofile`;
    writeFileSync(new URL(`../${file}`, import.meta.url), JSON.stringify(cpu));
    out.sides[name] = { file, top: topFunctions(cpu) };
  }
  return out;
}

/** Self time per function, as shares of all samples (idle included, so the busy share shows). */
function topFunctions(cpu, count = 20) {
  const self = new Map();
  const byId = new Map(cpu.nodes.map((node) => [node.id, node]));
  let total = 0;
  cpu.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.split('/').pop();
    const key = `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
    const dt = cpu.timeDeltas[i] ?? 0;
    total += dt;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, share: round3(us / total) }));
}

// ---- Figures ----

function round3(value) {
  return Math.round(value * 1000) / 1000;
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}

function median(values) {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, v) => sum + v, 0) / (sorted.length || 1);
  return {
    n: sorted.length,
    median: round3(quantile(sorted, 0.5)),
    p95: round3(quantile(sorted, 0.95)),
    p99: round3(quantile(sorted, 0.99)),
    mean: round3(mean),
  };
}

/**
 * Per subject: per-call median/p95/p99 (5 µs steps), the median of batch means (finer), and its
 * ratio to the raw MessageChannel: over the whole run, and paired round by round (then the median).
 */
function summarizeTrips({ calls, batches, roundMedians }) {
  const base = 'raw MessageChannel';
  const baseBatch = median(batches[base]);
  const out = {};
  for (const [name, values] of Object.entries(calls)) {
    const batchMedian = median(batches[name]);
    const pairedTo = (other) => round3(median(roundMedians[name].map((m, i) => m / roundMedians[other][i])));
    out[name] = {
      ...stats(values),
      batchMedian: round3(batchMedian),
      ratio: round3(batchMedian / baseBatch),
      ratioPairedRounds: pairedTo(base),
      toPenpalPairedRounds: pairedTo('Penpal 7'),
    };
  }
  return out;
}

/** The figures as tables, and the goals (BENCHMARKS.md) met or missed. Also returns the markdown. */
function printTable(r) {
  const ms = (v) => (Number.isFinite(v) ? v.toFixed(3) : '—');
  const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '—');
  /** Numbers right-aligned; with `left`, every column left-aligned (for sentences). */
  const table = (title, header, rows, { left = false } = {}) => {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
    const line = (cells) =>
      cells
        .map((c, i) => (i && !left ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
        .join('  ')
        .trimEnd();
    console.log(`\n${title}\n${line(header)}`);
    for (const row of rows) console.log(line(row));
  };
  console.log(
    `bench: ${r.machine.chromium}, ${r.machine.cpus} × ${r.machine.cpu}, Node ${r.machine.node}; ` +
      `crossOriginIsolated=${r.crossOriginIsolated} (timer resolution ${r.crossOriginIsolated ? '5 µs' : '100 µs'})`,
  );
  const goals = [];
  if (r.roundTrip) {
    table(
      `Round trip, one call in flight (ms; ${r.plan.rounds} interleaved rounds × ${r.plan.perRound} calls per subject)`,
      [
        'subject',
        'median',
        'p95',
        'p99',
        `median of ${r.plan.batch}-call means`,
        '× raw MC',
        '× raw MC, paired rounds',
        '× Penpal, paired rounds',
      ],
      Object.entries(r.roundTrip).map(([name, s]) => [
        name,
        ms(s.median),
        ms(s.p95),
        ms(s.p99),
        ms(s.batchMedian),
        x(s.ratio),
        x(s.ratioPairedRounds),
        x(s.toPenpalPairedRounds),
      ]),
    );
    const sdk = r.roundTrip['SDK Plugin#getVideos'];
    // Judged round by round: each round compares subjects measured seconds apart, so the ratio
    // survives the machine's load drifting during the run.
    const ratio = sdk.ratioPairedRounds;
    goals.push(
      `SDK round trip ≤ 1.1 × raw MessageChannel: ${ratio <= 1.1 ? 'met' : 'MISSED'} (${x(ratio)}, paired rounds)`,
    );
    goals.push(
      `SDK round trip ≤ Penpal 7: ${sdk.toPenpalPairedRounds <= 1 ? 'met' : 'MISSED'} ` +
        `(${x(sdk.toPenpalPairedRounds)} Penpal's, paired rounds)`,
    );
  }
  if (r.concurrent) {
    table(
      `${r.plan.concurrent} concurrent calls (ms until all settled; median of ${r.plan.concurrentRounds} rounds)`,
      ['subject', 'total', 'per call', 'failures'],
      Object.entries(r.concurrent).map(([name, c]) => [name, ms(c.medianMs), ms(c.medianMs / c.calls), c.failures]),
    );
    const failures = Object.values(r.concurrent).reduce((sum, c) => sum + c.failures, 0);
    goals.push(
      `${r.plan.concurrent} concurrent calls all succeed: ${failures ? `MISSED (${failures} failed)` : 'met'}`,
    );
  }
  if (r.push) {
    table(
      'Event push, frame → host callback, one way (ms; clocks aligned by probes)',
      ['subject', 'median', 'p95', 'p99', 'n', 'missing'],
      Object.entries(r.push).map(([name, s]) => [name, ms(s.median), ms(s.p95), ms(s.p99), s.n, s.missing]),
    );
  }
  if (r.startup) {
    table(
      'Startup: create → first answered call, frame load and handshake included (ms)',
      ['kind', 'median', 'p95', 'n'],
      Object.entries(r.startup).map(([name, s]) => [name, ms(s.median), ms(s.p95), s.n]),
    );
  }
  if (r.leaks) {
    const l = r.leaks;
    table(
      `Leftovers after ${l.cycles} × (new Plugin, on, subscribe, getVideos, cleanup())`,
      ['what', 'left'],
      [
        ['listeners', l.live.listeners],
        ['timers', l.live.timers],
        ['message ports (open)', l.live.ports],
        ['iframes in the DOM', l.iframesLeft],
        ['overlay <div>s in the DOM', l.overlaysLeft],
        ['Plugin objects (heap)', l.objectsLeft.Plugin],
        ['HostConnection objects (heap)', l.objectsLeft.HostConnection],
        ['HTMLIFrameElement objects (heap)', l.objectsLeft.HTMLIFrameElement],
        ['MessagePort objects (heap)', l.objectsLeft.MessagePort],
        ['JS heap growth (bytes)', `${l.heapGrowth} (${l.heapGrowthPerCycle} per cycle)`],
        [
          '  of which objects (JS, DOM, strings)',
          `${l.heapGrowthByKind.objects.bytes} bytes, ${l.heapGrowthByKind.objects.count} objects` +
            ` (${Object.entries(l.heapGrowthByKind.objects.byType)
              .map(([type, n]) => `${type} ${n > 0 ? '+' : ''}${n}`)
              .join(', ')})`,
        ],
        ['  of which engine (compiled code, V8 caches)', `${l.heapGrowthByKind.engine.bytes} bytes`],
        ['failed calls', l.failures],
        ['ms per cycle', ms(l.msPerCycle)],
      ],
      { left: true },
    );
    const left = [l.live.listeners, l.live.timers, l.live.ports, l.iframesLeft, l.overlaysLeft, l.objectsLeft.Plugin];
    goals.push(`zero leftovers after ${l.cycles} cycles: ${left.every((v) => v === 0) ? 'met' : 'MISSED'}`);
  }
  if (r.realService?.skipped) {
    console.log(`\nReal local service: not measured (${r.realService.skipped})`);
  } else if (r.realService) {
    const s = r.realService;
    const row = (what, f) => [what, ms(f.median), ms(f.p95), f.n];
    table(
      `Real local service (${s.serviceURL}; this page is not isolated: 0.1 ms timers)`,
      ['what', 'median', 'p95', 'n'],
      [
        row('new Plugin → first getVideos()', s.firstCall),
        row('createAccount(token) (HTTP behind it)', s.createAccount),
        row('openPlugin() → pluginOpened (first)', s.coldOpen),
        row('openPlugin() → pluginOpened (again)', s.warmOpen),
      ],
    );
    if (s.errors.length) console.log(`errors (${s.errors.length}): ${s.errors.join(' | ')}`);
  }
  if (goals.length) console.log(`\nGoals (BENCHMARKS.md):\n  ${goals.join('\n  ')}`);
}

function printProfile(p) {
  console.log(`Profile of ${p.subject} in a loop (unminified pages): ${p.msPerCall.toFixed(3)} ms per call`);
  for (const [side, { file, top }] of Object.entries(p.sides)) {
    console.log(`\n${side} (${file}), self time by function, share of all samples:`);
    for (const { name, share } of top) console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
}

// ---- The run ----

try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => log(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') log(`console: ${message.text()}`);
  });
  const cdp = await page.createCDPSession();
  await page.goto(`${hostOrigin()}/bench/host.html`);
  await page.waitForFunction(() => document.title === 'bench ready');
  results.crossOriginIsolated = await page.evaluate(() => window.bench.crossOriginIsolated);

  log('opening the frames');
  results.subjects = await page.evaluate(() => window.bench.setup());

  if (profile) {
    // Unminified pages, so no timed phase: only where the time of an SDK call goes.
    log(`profile: 5000 calls of ${profileSubject}`);
    results.profile = await profileCalls(page, cdp, browser);
  } else {
    await timedPhases(page, cdp);
  }
} finally {
  await browser.close();
  for (const server of servers) server.close();
  await service?.close?.();
}

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const resultFile = args.includes('--out')
  ? args[args.indexOf('--out') + 1]
  : `bench/results/${profile ? 'profile' : only || args.includes('--tree') ? 'partial' : 'latest'}.json`;
writeFileSync(resolve(root, resultFile), `${JSON.stringify(results, null, 2)}\n`);
if (profile) printProfile(results.profile);
else printTable(results);
console.log(`\nbench: wrote ${resultFile}`);
clearTimeout(hardLimit);
