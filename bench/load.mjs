// `npm run bench:load`: the local service under the load a partner's integration makes (issue 19).
// It runs the service the way partners do — the `video-plugin-service` command as its own process,
// real media, the default render concurrency (the cores), a SQLite --data file — and reports:
//   1. 20 generations with real media started at once: how many end COMPLETE, whether each one's
//      statuses came in order, and how long the twenty take (then their 20 final renders);
//   2. 100 aborted downloads of a preview MP4 (a player seeking): the service's open files and
//      memory before and after;
//   3. a soak of mixed API use (default 10 minutes): accounts, logins, topic searches, generations,
//      renames, lists, status streams opened and dropped, range downloads, aborted downloads;
//      requests per kind, failures, and the service's open files and memory at start and end.
// Figures come from /proc/<pid> of the service process, and its JavaScript heap after a full
// garbage collection (through the inspector on loopback: `--inspect=127.0.0.1:0`), which tells
// memory that is held from memory not yet collected. Uses the built code (`npm run build`).
// Writes bench/results/load.json. Every loop is bounded in count and time; traffic stays on 127.0.0.1.
//
//   node bench/load.mjs                    all three, a 10-minute soak
//   node bench/load.mjs --soak-minutes 1   a shorter soak
//
// The service process and what is read of it: bench/lib/load-service.mjs; the API client:
// load-client.mjs; the phases: load-phases.mjs (1-3) and load-held.mjs (4).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lavfi } from '../packages/service/test/support/lavfi.mjs';
import { client } from './lib/load-client.mjs';
import { heldLoad } from './lib/load-held.mjs';
import { abortedDownloads, generationsAtOnce, soak } from './lib/load-phases.mjs';
import { connectService, spawnService } from './lib/load-service.mjs';

const argument = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const SOAK_MINUTES = argument('--soak-minutes', 10);
const GENERATIONS = argument('--generations', 20);
const ABORTS = argument('--aborts', 100);
/** `--service-env NAME=VALUE` (repeatable): set in the service's environment, e.g. an allocator to compare. */
const SERVICE_ENV = Object.fromEntries(
  process.argv.flatMap((value, index) =>
    process.argv[index - 1] === '--service-env' ? [value.split(/=(.*)/s).slice(0, 2)] : [],
  ),
);
/**
 * `--subscribers N`: also run the held-load phase: N live status subscribers (half SSE streams,
 * half WebSockets) while `--rate` API calls per second run for `--load-seconds`. `--only
 * subscribers` runs that phase alone.
 */
const SUBSCRIBERS = argument('--subscribers', 0);
const RATE = argument('--rate', 200);
const LOAD_SECONDS = argument('--load-seconds', 60);
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
/** `--out FILE`: where the results go (default bench/results/load.json), so that runs side by side keep theirs. */
const OUT = process.argv.includes('--out')
  ? process.argv[process.argv.indexOf('--out') + 1]
  : fileURLToPath(new URL('./results/load.json', import.meta.url));

const { createAccountToken, loginAccountToken } = await import(new URL('../dist/server/index.js', import.meta.url));
const { ffmpegPath } = await import(new URL('../dist/service/media/tools.js', import.meta.url));
const { MALLOC_ARENA_MAX } = await import(new URL('../dist/service/launcher.js', import.meta.url));
const PARTNER = 'bench-partner';
const SECRET = 'bench-partner-secret-0123456789abcdef';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-bench-load-'));
let child;
let site;
const cleanup = () => {
  child?.kill('SIGKILL');
  site?.close();
  rmSync(work, { recursive: true, force: true });
};
process.once('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

// ---- The partner's web page the topic searches read: text and two real pictures ----
const picture = (name, source) =>
  readFileSync(lavfi(ffmpegPath(), `${source}=s=1280x960`, join(work, name), ['-frames:v', '1']));
const pictures = { '/a.png': picture('a.png', 'mandelbrot'), '/b.jpg': picture('b.jpg', 'testsrc2') };
site = createServer((req, res) => {
  const body = pictures[req.url];
  if (body)
    return res.writeHead(200, { 'content-type': req.url.endsWith('png') ? 'image/png' : 'image/jpeg' }).end(body);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>Harbor Lane Coffee</title>
    <meta name="description" content="Small-batch coffee roasted every morning by the harbor."></head>
    <body><h1>Roasted at dawn</h1><p>We roast twelve single-origin coffees in small batches. The café opens at seven.</p>
    <h2>Beans to take home</h2><p>Order online and pick them up on your way to work.</p>
    <img src="/a.png" alt=""><img src="/b.jpg" alt=""></body></html>`);
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const SOURCE = `http://127.0.0.1:${site.address().port}/`;

// ---- The service, as its own process ----
child = spawnService({ work, partner: PARTNER, secret: SECRET, mallocArenaMax: MALLOC_ARENA_MAX, env: SERVICE_ENV });
const service = await connectService(child);
const api = client({ base: service.base, partner: PARTNER, secret: SECRET, source: SOURCE, createAccountToken });
const context = { ...service, ...api, source: SOURCE, partner: PARTNER, secret: SECRET, loginAccountToken };

const results = { date: new Date().toISOString(), cores: availableParallelism(), node: process.version };
results.start = service.serviceResources();

if (ONLY === undefined) {
  results.generations = await generationsAtOnce(context, GENERATIONS);
  results.abortedDownloads = await abortedDownloads(context, ABORTS, results.generations.previewVideoId);
  results.soak = await soak(context, {
    minutes: SOAK_MINUTES,
    previewVideoId: results.generations.previewVideoId,
    oldSession: results.generations.session,
  });
}
if (SUBSCRIBERS > 0 && (ONLY === undefined || ONLY === 'subscribers')) {
  results.subscribers = await heldLoad(context, { subscribers: SUBSCRIBERS, rate: RATE, loadSeconds: LOAD_SECONDS });
}

delete results.generations?.session;
results.serviceEnv = SERVICE_ENV;
writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
console.log(`${OUT} written`);
process.exit(0);
