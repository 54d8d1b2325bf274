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
// The real-service figures use dist/service/server.js: run `npm run build` first. The DevTools
// protocol's phases are in bench/lib/devtools.mjs, the statistics in figures.mjs, the tables in
// report.mjs.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM_FLAGS, requireChromium } from '../scripts/chromium.mjs';
import { leaks, profileCalls } from './lib/devtools.mjs';
import { round3, median, stats, summarizeTrips } from './lib/figures.mjs';
import { printProfile, printTable } from './lib/report.mjs';

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
    return leaks(page, cdp, plan.cycles);
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
    results.profile = await profileCalls(page, cdp, browser, {
      subject: profileSubject,
      serviceOrigin: serviceOrigin(),
    });
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
