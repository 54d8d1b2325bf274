// `npm run bench:render`: how long the local service's renderer takes to make each kind of video
// (5, 15 and 30 s; 16:9 and 4:5), and its peak memory: the Node process (storyboard, voiceover) and
// the ffmpeg process (pictures, encoding), read from /proc while it runs. Scenes use two 1600×1200
// pictures made by ffmpeg, as a topic's downloaded images would be. Uses the built code in
// dist/service/render/ (`npm run build` first). Writes bench/results/render.json.
//
//   node bench/render.mjs            one render of each kind, after one warm-up render
//   node bench/render.mjs --runs 3   the median of 3 renders of each kind
/* global setInterval, clearInterval, performance */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../dist/service/render/', import.meta.url);
const { buildStoryboard } = await import(new URL('storyboard.js', dist).href);
const { renderVideo } = await import(new URL('render.js', dist).href);
const { ffmpegPath } = await import(new URL('tools.js', dist).href);

const runs = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 1;
const work = mkdtempSync(join(tmpdir(), 'video-plugin-bench-render-'));
const picture = (name, source) => {
  const file = join(work, name);
  execFileSync(ffmpegPath(), [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `${source}=s=1600x1200`,
    '-frames:v',
    '1',
    file,
  ]);
  return file;
};
const images = [picture('a.png', 'mandelbrot'), picture('b.jpg', 'testsrc2')];
const source = {
  sourceURL: 'https://www.harbor-lane.example/',
  title: 'Harbor Lane Coffee Roasters',
  description: 'Small-batch coffee roasted every morning by the harbor. Visit our café.',
  headings: ['Roasted at dawn', 'Our café', 'Beans to take home', 'Wholesale'],
  sentences: [
    'We roast twelve single-origin coffees in small batches.',
    'The café opens at seven every day.',
    'Order beans online and pick them up on your way to work.',
  ],
  images,
};

/** The peak resident memory (VmHWM, kB) of the newest ffmpeg child, sampled every 20 ms. */
function watchFfmpeg() {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/);
      for (const pid of children.filter(Boolean)) {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peak = Math.max(peak, hwm);
      }
    } catch {
      // The child ended between the two reads.
    }
  }, 20);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = [];
// One warm-up: the first voiceover instantiates eSpeak's WebAssembly.
await renderVideo(buildStoryboard(source, { aspectRatio: '16:9', duration: 5, language: 'en-US' }), work, 'warmup');
for (const duration of [5, 15, 30]) {
  for (const aspectRatio of ['16:9', '4:5']) {
    const times = [];
    let ffmpegPeak = 0;
    for (let run = 0; run < runs; run++) {
      const board = buildStoryboard(source, { aspectRatio, duration, language: 'en-US' });
      const stop = watchFfmpeg();
      const started = performance.now();
      await renderVideo(board, work, `v${duration}-${aspectRatio.replace(':', 'x')}-${run}`);
      times.push((performance.now() - started) / 1000);
      ffmpegPeak = Math.max(ffmpegPeak, stop());
    }
    const row = {
      duration,
      aspectRatio,
      resolution: `${buildStoryboard(source, { aspectRatio, duration, language: 'en-US' }).width}×${buildStoryboard(source, { aspectRatio, duration, language: 'en-US' }).height}`,
      seconds: Number(median(times).toFixed(2)),
      ffmpegPeakMB: Math.round(ffmpegPeak / 1024),
    };
    results.push(row);
    console.log(
      `${String(duration).padStart(2)} s ${aspectRatio.padEnd(4)} ${row.resolution.padEnd(9)} ${row.seconds.toFixed(2).padStart(6)} s   ffmpeg peak ${row.ffmpegPeakMB} MB`,
    );
  }
}
const nodePeakMB = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(`node peak ${nodePeakMB} MB; ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(2)}`);
mkdirSync(new URL('results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('results/render.json', import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), runs, cores: availableParallelism(), nodePeakMB, results }, null, 2)}\n`,
);
rmSync(work, { recursive: true, force: true });
