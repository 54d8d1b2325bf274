// `npm run bench:render`: how long the local service's renderer takes to make each kind of video
// (5, 15 and 30 s; 16:9 and 4:5), and its peak memory: the Node process (storyboard, voiceover,
// the scenes' stills composed by sharp) and the ffmpeg process (encoding), read from /proc while it
// runs. Scenes use two 1600×1200 pictures made by ffmpeg, taken in by the service's image intake
// (sharp), as a topic's downloaded images would be. Then 20 generations started at once through
// the real service (its render queue): how many end COMPLETE, with their statuses in order, and
// how long all of them take. Uses the built code in dist/ (`npm run build` first), or the
// TypeScript sources with --source. Prints the ffmpeg it runs. Writes bench/results/render.json.
//
//   node bench/render.mjs                        one render of each kind, after one warm-up render
//   node bench/render.mjs --runs 3               the median of 3 renders of each kind
//   node --import tsx bench/render.mjs --source  the same, from src/ (no build)
//   --durations 30                               only the 30 s videos (comma-separated list)
//   --no-burst                                   without the 20 generations at once
// Each row also says where the time went, by the renderer's own stages (its progress reporter):
// voicing, composing_scenes (stills), rendering (segments, join, mux), finishing (thumbnail, files).
/* global setInterval, clearInterval, performance, fetch, AbortController */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { lavfi } from '../packages/service/test/support/lavfi.mjs';
import { readEvents } from './sse.mjs';

const fromSource = process.argv.includes('--source');
/**
 * A module of the SDK (`server/index`) or of the service (`service/…`): built (`dist/…js`) or, with
 * --source, its source (`src/…ts`, the service's in `packages/service/src/`).
 */
const code = (path) =>
  new URL(
    fromSource
      ? path.replace(/^service\//, '../packages/service/src/').replace(/^(?!\.\.)/, '../src/') + '.ts'
      : `../dist/${path}.js`,
    import.meta.url,
  ).href;
// The service's memory setting, as its launchers apply it (MALLOC_ARENA_MAX when unset: Node runs
// this bench once more with it, and this process only waits). See packages/service/src/launcher.ts.
const { relaunchWithArenaLimit } = await import(code('service/launcher'));
if (relaunchWithArenaLimit()) await new Promise(() => {});
const { buildStoryboard, RESOLUTIONS } = await import(code('service/media/storyboard'));
const { renderVideo } = await import(code('service/media/render'));
const { SceneCache } = await import(code('service/media/segments'));
const { normaliseImage } = await import(code('service/media/images'));
const { currentFfmpeg, ffmpegPath, ffmpegVersion } = await import(code('service/media/tools'));

const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const runs = Number(option('--runs') ?? 1);
const durations = (option('--durations') ?? '5,15,30').split(',').map(Number);
const burst = !process.argv.includes('--no-burst');
const work = mkdtempSync(join(tmpdir(), 'video-plugin-bench-render-'));
const picture = (name, source) => lavfi(ffmpegPath(), `${source}=s=1600x1200`, join(work, name), ['-frames:v', '1']);
/** `file` taken in as a topic's image is: checked and rewritten by sharp. */
async function takeIn(file) {
  const image = await normaliseImage(readFileSync(file));
  if (!image.data) throw new Error(`the intake refused ${file}: ${image.refused}`);
  const kept = `${file}.kept.${image.type}`;
  writeFileSync(kept, image.data);
  return kept;
}
const images = [await takeIn(picture('a.png', 'mandelbrot')), await takeIn(picture('b.jpg', 'testsrc2'))];
const ffmpeg = currentFfmpeg();
const loadAtStart = loadavg()[0];
console.log(`ffmpeg ${ffmpeg.path} (${ffmpeg.source}): ${ffmpegVersion(ffmpeg.path)}`);
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

/**
 * Peaks of resident memory (kB) while it runs, sampled every 20 ms from /proc: of any ffmpeg child
 * (its VmHWM), and of this Node process (its VmRSS: VmHWM would be the whole run's). Returns a
 * function that stops and gives `{ ffmpeg, node }`.
 */
function watchMemory() {
  let ffmpeg = 0;
  let node = 0;
  const kB = (status, field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const timer = setInterval(() => {
    node = Math.max(node, kB(readFileSync('/proc/self/status', 'utf8'), 'VmRSS'));
    try {
      const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/);
      for (const pid of children.filter(Boolean))
        ffmpeg = Math.max(ffmpeg, kB(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM'));
    } catch {
      // The child ended between the two reads.
    }
  }, 20);
  return () => {
    clearInterval(timer);
    return { ffmpeg, node };
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A progress reporter that times the renderer's stages: seconds spent in each. */
function stageClock() {
  const spent = {};
  let current;
  let since = performance.now();
  const close = () => {
    if (current) spent[current] = (spent[current] ?? 0) + (performance.now() - since) / 1000;
    since = performance.now();
  };
  return {
    stage(stage) {
      close();
      current = stage;
      return true;
    },
    within() {},
    done() {
      close();
      current = undefined;
      return Object.fromEntries(Object.entries(spent).map(([stage, s]) => [stage, Number(s.toFixed(2))]));
    },
  };
}
/**
 * CPU seconds used so far by this process and its waited-for children (ffmpeg): a figure that a
 * busy machine changes far less than the wall time (`/proc/self/stat`, in clock ticks of 1/100 s).
 */
function cpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]) / 100);
  return { self: utime + stime, children: cutime + cstime };
}
const cpuSince = (before) => {
  const now = cpuSeconds();
  return {
    node: Number((now.self - before.self).toFixed(2)),
    ffmpeg: Number((now.children - before.children).toFixed(2)),
  };
};

const results = [];
// One warm-up: the first voiceover instantiates eSpeak's WebAssembly.
await renderVideo(buildStoryboard(source, { aspectRatio: '16:9', duration: 5, language: 'en-US' }), work, 'warmup');
for (const duration of durations) {
  for (const aspectRatio of ['16:9', '4:5']) {
    const times = [];
    const stageRuns = [];
    const cpuRuns = [];
    const reuse = { same: [], edited: [], sameCpu: [], editedCpu: [] };
    let ffmpegPeak = 0;
    for (let run = 0; run < runs; run++) {
      // A fresh cache per run: the first render makes every scene (a full render).
      const cache = new SceneCache(join(work, `cache-${duration}-${aspectRatio.replace(':', 'x')}-${run}`));
      const board = buildStoryboard(source, { aspectRatio, duration, language: 'en-US' });
      const stop = watchMemory();
      const clock = stageClock();
      const cpu = cpuSeconds();
      const started = performance.now();
      const name = `v${duration}-${aspectRatio.replace(':', 'x')}-${run}`;
      await renderVideo(board, work, name, { progress: clock, cache });
      times.push((performance.now() - started) / 1000);
      cpuRuns.push(cpuSince(cpu));
      stageRuns.push(clock.done());
      ffmpegPeak = Math.max(ffmpegPeak, stop().ffmpeg);
      // "Complete video" after the preview: the same storyboard again, every scene reused.
      let before = cpuSeconds();
      const same = await renderVideo(board, work, `${name}-same`, { cache });
      reuse.sameCpu.push(cpuSince(before));
      // One scene edited (its text and its voice line), then rendered again.
      const scene = board.scenes[Math.floor(board.scenes.length / 2)];
      board.scenes[board.scenes.indexOf(scene)] = { ...scene, heading: 'Fresh today', narration: 'Fresh today.' };
      before = cpuSeconds();
      const edited = await renderVideo(board, work, `${name}-edited`, { cache });
      reuse.editedCpu.push(cpuSince(before));
      reuse.same.push(same.stats.ms / 1000);
      reuse.edited.push(edited.stats.ms / 1000);
    }
    const row = {
      duration,
      aspectRatio,
      resolution: RESOLUTIONS[aspectRatio].join('×'),
      seconds: Number(median(times).toFixed(2)),
      ffmpegPeakMB: Math.round(ffmpegPeak / 1024),
      // The stages and the CPU time of the median run.
      stages: stageRuns[times.indexOf(median(times))],
      cpu: cpuRuns[times.indexOf(median(times))],
      sameAgainSeconds: Number(median(reuse.same).toFixed(2)),
      oneSceneEditedSeconds: Number(median(reuse.edited).toFixed(2)),
      sameAgainCpu: reuse.sameCpu[times.indexOf(median(times))],
      oneSceneEditedCpu: reuse.editedCpu[times.indexOf(median(times))],
    };
    results.push(row);
    console.log(
      `${String(duration).padStart(2)} s ${aspectRatio.padEnd(4)} ${row.resolution.padEnd(9)} ${row.seconds.toFixed(2).padStart(6)} s   ffmpeg peak ${row.ffmpegPeakMB} MB   ${Object.entries(
        row.stages,
      )
        .map(([stage, seconds]) => `${stage} ${seconds.toFixed(2)}`)
        .join(', ')}; CPU node ${row.cpu.node} s, ffmpeg ${row.cpu.ffmpeg} s; again ${row.sameAgainSeconds} s, ` +
        `one scene edited ${row.oneSceneEditedSeconds} s (${Math.round((100 * row.oneSceneEditedSeconds) / row.seconds)} %); ` +
        `CPU again ${row.sameAgainCpu.node} + ${row.sameAgainCpu.ffmpeg} s, edited ${row.oneSceneEditedCpu.node} + ${row.oneSceneEditedCpu.ffmpeg} s`,
    );
  }
}
// ---- 20 generations started at once, through the real service and its render queue ----
async function burstOf20() {
  const { startService } = await import(code('service/server'));
  const { createAccountToken } = await import(code('server/index'));
  const photo = readFileSync(images[1]);
  const site = createServer((req, res) => {
    if (req.url === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>${source.title}</title><meta name="description" content="${source.description}">
      <h1>${source.headings[0]}</h1><p>${source.sentences.join(' ')}</p><img src="/photo.jpg">`);
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteURL = `http://127.0.0.1:${site.address().port}/`;
  const service = await startService({
    port: 0,
    allowLoopbackSources: [Number(new URL(siteURL).port)],
    jobMs: 200,
    mediaDir: join(work, 'service-media'),
  });
  const [partner] = service.partners;
  const call = async (method, path, session, body) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(session ? { authorization: `Bearer ${session}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json();
  };
  const token = await createAccountToken({ partnerID: partner.id, secret: partner.secret, account: {} });
  const { session } = await call('POST', '/api/accounts', undefined, { token });

  /** Every generation's statuses, in the order the status stream told them. */
  const seen = new Map();
  const streamAbort = new AbortController();
  const stream = await fetch(`${service.url}/api/events`, {
    headers: { authorization: `Bearer ${session}` },
    signal: streamAbort.signal,
  });
  let onEvent = () => {};
  void readEvents(stream.body, (event, data) => onEvent(event, data));
  const topic = await call('POST', '/api/topics', session, { sourceURL: siteURL });
  await new Promise((resolve) => {
    onEvent = (event, data) =>
      event === 'topic' && data.id === topic.topicId && data.status === 'COMPLETE' && resolve();
  });
  const memory = watchMemory();
  const started = performance.now();
  // Every generation event is kept (some arrive before their POST has answered).
  let ids;
  let settle;
  const finished = new Promise((resolve) => (settle = resolve));
  const final = (statuses) => ['COMPLETE', 'FAILED'].includes(statuses.at(-1));
  onEvent = (event, data) => {
    if (event !== 'generation') return;
    const list = seen.get(data.requestId) ?? [];
    if (list.at(-1) !== data.status) list.push(data.status);
    seen.set(data.requestId, list);
    if (ids && ids.every((id) => final(seen.get(id) ?? []))) settle();
  };
  const requests = await Promise.all(
    Array.from({ length: 20 }, () =>
      call('POST', '/api/generations', session, { topicId: topic.topicId, aspectRatio: '16:9', duration: 5 }),
    ),
  );
  ids = requests.map((request) => request.requestId);
  if (ids.every((id) => final(seen.get(id) ?? []))) settle();
  await finished;
  const burstSeconds = (performance.now() - started) / 1000;
  const peaks = memory();
  const orders = ids.map((id) => (seen.get(id) ?? []).join(' → '));
  const complete = orders.filter((order) => order === 'PENDING → PROCESSING → COMPLETE').length;
  console.log(
    `20 generations (5 s, 16:9) at once: ${complete}/20 PENDING → PROCESSING → COMPLETE, ` +
      `${orders.length - complete} other, in ${burstSeconds.toFixed(1)} s (render concurrency ${availableParallelism()}); ` +
      `node peak ${Math.round(peaks.node / 1024)} MB, ffmpeg peak ${Math.round(peaks.ffmpeg / 1024)} MB`,
  );
  streamAbort.abort();
  await service.close();
  site.close();
  return {
    generations: 20,
    complete,
    other: orders.length - complete,
    seconds: Number(burstSeconds.toFixed(1)),
    nodePeakMB: Math.round(peaks.node / 1024),
    ffmpegPeakMB: Math.round(peaks.ffmpeg / 1024),
  };
}
const burstResult = burst ? await burstOf20() : undefined;

const nodePeakMB = Math.round(process.resourceUsage().maxRSS / 1024);
const loadAtEnd = loadavg()[0];
/** glibc's malloc arenas for this process (its launcher's setting, or the operator's). */
const arenas = process.env.MALLOC_ARENA_MAX ?? 'unset';
// The figures of issue 34 in one block, for the lead's idle re-measure.
const full = (aspectRatio) =>
  results.find((row) => row.duration === Math.max(...durations) && row.aspectRatio === aspectRatio);
console.log(
  [
    `summary (${ffmpeg.source} ffmpeg: ${ffmpegVersion(ffmpeg.path)}; ${availableParallelism()} cores; ` +
      `MALLOC_ARENA_MAX ${arenas}; ` +
      `load average ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end)`,
    `  full render ${Math.max(...durations)} s: 16:9 ${full('16:9')?.seconds} s, 4:5 ${full('4:5')?.seconds} s`,
    burstResult
      ? `  20 generations at once: ${burstResult.complete}/20 COMPLETE in order, ${burstResult.seconds} s; ` +
        `node peak ${burstResult.nodePeakMB} MB during them`
      : '  20 generations at once: not run (--no-burst)',
    `  node peak over the whole run ${nodePeakMB} MB; ffmpeg peak ` +
      `${Math.max(burstResult?.ffmpegPeakMB ?? 0, ...results.map((row) => row.ffmpegPeakMB))} MB`,
  ].join('\n'),
);
mkdirSync(new URL('results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('results/render.json', import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), ffmpeg: { path: ffmpeg.path, source: ffmpeg.source, version: ffmpegVersion(ffmpeg.path) }, runs, cores: availableParallelism(), mallocArenaMax: arenas, load: { start: loadAtStart, end: loadAtEnd }, nodePeakMB, results, burst: burstResult }, null, 2)}\n`,
);
rmSync(work, { recursive: true, force: true });
