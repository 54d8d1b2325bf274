// `npm run bench:open`: click → studio visible, for each `preload` mode of <video-plugin> (issue 21).
// A partner page on http://localhost:PORT loads the CDN ES module and holds
// `<video-plugin display="modal" launcher preload=…>` with a button; the real local service
// (dist/service/server.js) runs on http://127.0.0.1 (another site: another process). Each round is
// a fresh browser context (cold caches, as a first visit) and the same user: the page loads, the
// user reads for READ_MS, moves the pointer onto the button (real input: pointerenter), and clicks
// HOVER_MS later. Reported per mode: click → `pluginOpened` (the AI page is showing and answered),
// and how many iframes existed at the click. Writes bench/results/open.json.
//
//   node bench/open.mjs                 10 rounds per mode
//   node bench/open.mjs --rounds 3      a smoke run
//   node bench/open.mjs --hover-ms 100  a quicker hand (default 250 ms, a typical hover → click)
/* global customElements */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { CHROMIUM_FLAGS, requireChromium } from '../scripts/chromium.mjs';

const argument = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const ROUNDS = argument('--rounds', 10);
const READ_MS = argument('--read-ms', 1000);
const HOVER_MS = argument('--hover-ms', 250);
const MODES = ['auto', 'intent', 'none'];

const requireFrom = (pkg) => createRequire(createRequire(import.meta.url).resolve(pkg));
const puppeteer = (await import(pathToFileURL(requireFrom('@web/test-runner-chrome').resolve('puppeteer-core')).href))
  .default;
const dist = new URL('../dist/', import.meta.url);
const cdn = readFileSync(new URL('cdn/video-plugin.module.min.js', dist), 'utf8');
const { startService } = await import(new URL('service/server.js', dist).href);

const hardLimit = setTimeout(() => {
  console.error('bench:open: stopped after 10 minutes');
  process.exit(2);
}, 10 * 60_000);
hardLimit.unref();

const service = await startService({ port: 0, host: '127.0.0.1', allowLoopbackSources: true, media: 'placeholder' });
const page = (preload) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bench: preload=${preload}</title>
<script type="module" src="/video-plugin.module.min.js"></script></head>
<body style="margin:0;padding:40px">
<video-plugin partner-id="demo-partner" auth-mode="uncontrolled" display="modal" launcher
  preload="${preload}" service-url="${service.url}">
  <button type="button" style="width:200px;height:48px">Create a video</button>
</video-plugin>
<script>
  // The click and the opening, on the page's clock.
  const el = document.querySelector('video-plugin');
  window.bench = { frames: () => el.shadowRoot?.querySelectorAll('iframe').length ?? 0 };
  document.addEventListener('click', () => {
    window.bench.clickAt = performance.now();
    window.bench.framesAtClick = window.bench.frames();
  }, { capture: true });
  el.addEventListener('pluginOpened', () => (window.bench.openedAt = performance.now()));
</script></body></html>`;

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (url.pathname === '/video-plugin.module.min.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(cdn);
  } else if (MODES.includes(url.searchParams.get('preload'))) {
    res.writeHead(200, { 'content-type': 'text/html' }).end(page(url.searchParams.get('preload')));
  } else {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, 'localhost', resolve));
const origin = `http://localhost:${server.address().port}`;

const browser = await puppeteer.launch({ executablePath: requireChromium(), headless: true, args: CHROMIUM_FLAGS });
const samples = Object.fromEntries(MODES.map((mode) => [mode, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved: machine noise falls on every mode alike.
    for (const mode of MODES) {
      const context = await browser.createBrowserContext();
      const tab = await context.newPage();
      await tab.goto(`${origin}/?preload=${mode}`, { waitUntil: 'load' });
      await tab.waitForFunction(() => customElements.get('video-plugin') !== undefined);
      await new Promise((resolve) => setTimeout(resolve, READ_MS));
      const button = await tab.$('video-plugin > button');
      const box = await button.boundingBox();
      await tab.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await new Promise((resolve) => setTimeout(resolve, HOVER_MS));
      await tab.mouse.down();
      await tab.mouse.up();
      await tab.waitForFunction(() => window.bench.openedAt !== undefined, { timeout: 30_000 });
      const { clickAt, openedAt, framesAtClick } = await tab.evaluate(() => window.bench);
      samples[mode].push({ ms: openedAt - clickAt, framesAtClick });
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
  await service.close();
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const results = {
  date: new Date().toISOString(),
  command: `node bench/open.mjs${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverage: loadavg()[0] },
  plan: { rounds: ROUNDS, readMs: READ_MS, hoverMs: HOVER_MS },
  modes: Object.fromEntries(
    MODES.map((mode) => {
      const ms = samples[mode].map((sample) => sample.ms);
      return [
        mode,
        {
          medianMs: Math.round(quantile(ms, 0.5)),
          p90Ms: Math.round(quantile(ms, 0.9)),
          minMs: Math.round(Math.min(...ms)),
          maxMs: Math.round(Math.max(...ms)),
          iframesAtClick: [...new Set(samples[mode].map((sample) => sample.framesAtClick))],
        },
      ];
    }),
  ),
};
console.log(
  `click → studio visible (pluginOpened), ${ROUNDS} cold rounds per mode, read ${READ_MS} ms, hover ${HOVER_MS} ms`,
);
console.log('preload   median     p90     min     max  iframes at click');
for (const [mode, figures] of Object.entries(results.modes)) {
  console.log(
    `${mode.padEnd(7)} ${String(figures.medianMs).padStart(6)} ms ${String(figures.p90Ms).padStart(4)} ms ${String(figures.minMs).padStart(4)} ms ${String(figures.maxMs).padStart(4)} ms  ${figures.iframesAtClick.join(', ')}`,
  );
}
mkdirSync(fileURLToPath(new URL('results/', import.meta.url)), { recursive: true });
writeFileSync(new URL('results/open.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
