// Scene-level rendering (issue 34) and byte-identical re-renders (issue 33), on real renders read
// back with ffmpeg: a render made of cached per-scene segments joined without re-encoding; the
// same storyboard gives the same bytes; an edit re-renders only its scene and leaves the other
// scenes' decoded frames identical; the joins have no seam (frame timing, no repeated frame, the
// voice within 40 ms of its picture); the voice track is at −16 LUFS ± 1 with a true peak ≤ −1
// dBTP, measured on the MP4 by ffmpeg's ebur128 filter; the cache's size limit and its emptying; the
// bundled 2018 ffmpeg (the fallback) through the same pipeline.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { LOUDNESS } from '../../src/media/loudness.js';
import { renderVideo, type RenderedFiles } from '../../src/media/render.js';
import { SceneCache } from '../../src/media/segments.js';
import { buildStoryboard, type Storyboard, type StoryboardSource } from '../../src/media/storyboard.js';
import { ffmpegPath } from '../../src/media/tools.js';
import { parseWav, voiceover } from '../../src/media/voice.js';
import { CountingCache, ffprobe, ffprobePath, picture } from '../support/media-helpers.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-segments-'));
after(() => rmSync(work, { recursive: true, force: true }));

const SOURCE: StoryboardSource = {
  sourceURL: 'https://www.harbor-lane.example/',
  title: 'Harbor Lane Coffee Roasters',
  description: 'Small-batch coffee roasted every morning by the harbor.',
  headings: ['Roasted at dawn', 'Our café', 'Beans to take home', 'Wholesale'],
  sentences: ['We roast twelve coffees.', 'The café opens at seven.', 'Order beans online.', 'We sell to cafés.'],
  images: [picture(work, 'red.png', 'red'), picture(work, 'blue.png', 'blue')],
};

const ffmpeg = (args: string[]) =>
  execFileSync(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', ...args], { maxBuffer: 1 << 28 });

const decoded = new Map<string, { pts: number; md5: string }[]>();
/** Every decoded frame of `video`, in order: its timestamp (in 1/25 s) and MD5 (ffmpeg's `framemd5`). */
function frames(video: string): { pts: number; md5: string }[] {
  let list = decoded.get(video);
  if (!list) {
    list = ffmpeg(['-i', video, '-map', '0:v', '-f', 'framemd5', '-'])
      .toString()
      .split('\n')
      .filter((line) => /^\d/.test(line))
      .map((line) => {
        const fields = line.split(',').map((field) => field.trim());
        return { pts: Number(fields[2]), md5: fields.at(-1)! };
      });
    decoded.set(video, list);
  }
  return list;
}
const frameHashes = (video: string) => frames(video).map((frame) => frame.md5);

/** Times (s) of `video`'s key frames, from ffprobe's packet list. */
function keyFrameTimes(video: string): number[] {
  return execFileSync(
    ffprobePath(),
    ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', video],
    {
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((line) => line.includes('K'))
    .map((line) => Number(line.split(',')[0]));
}

/** `video`'s audio as mono 16-bit samples at `rate`. */
function audioOf(video: string, rate: number): Int16Array {
  const bytes = ffmpeg(['-i', video, '-map', '0:a', '-ac', '1', '-ar', String(rate), '-f', 's16le', '-']);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
}

/**
 * Time (s) of the first sample in [`from`, `to`) s louder than a fifth of that span's peak: where
 * the speech starts, whatever its level (the render's voice is louder than eSpeak's own).
 */
function onset(samples: Int16Array, rate: number, from: number, to: number): number {
  const span = samples.subarray(Math.round(from * rate), Math.round(to * rate));
  const peak = span.reduce((max, sample) => Math.max(max, Math.abs(sample)), 0);
  const at = span.findIndex((sample) => Math.abs(sample) > peak / 5);
  return from + at / rate;
}

/** Integrated loudness (LUFS) and true peak (dBTP) of `video`'s audio, by ffmpeg's ebur128 filter. */
function loudness(video: string): { integrated: number; truePeak: number } {
  const log = spawnSync(
    ffmpegPath(),
    ['-hide_banner', '-nostats', '-i', video, '-map', '0:a', '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    { encoding: 'utf8' },
  ).stderr;
  const summary = log.slice(log.lastIndexOf('Summary:'));
  return {
    integrated: Number(/\bI:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]),
    truePeak: Number(/\bPeak:\s+(-?[\d.]+) dBFS/.exec(summary)?.[1]),
  };
}

let serial = 0;
/** Renders `board` into its own folder. */
const render = (board: Storyboard, cache?: SceneCache): Promise<RenderedFiles> =>
  renderVideo(board, join(work, 'out'), `v${++serial}`, { cache });

const board30 = () => buildStoryboard(SOURCE, { aspectRatio: '16:9', duration: 30, language: 'en-US' });

describe('scene-level rendering', () => {
  const cache = new SceneCache(join(work, 'cache'));
  let first: RenderedFiles;

  test(
    'the same storyboard again reuses every scene and gives the same MP4, poster, captions, chapters and transcript',
    { timeout: 300_000 },
    async () => {
      first = await render(board30(), cache);
      assert.deepEqual({ ...first.stats, ms: 0 }, { scenes: 6, scenesRendered: 6, scenesReused: 0, ms: 0 });
      const again = await render(board30(), cache);
      assert.deepEqual({ ...again.stats, ms: 0 }, { scenes: 6, scenesRendered: 0, scenesReused: 6, ms: 0 });
      assert.deepEqual(again.sha256, first.sha256);
      // Made from nothing again (an empty cache, as after a restart): still the same bytes.
      const fresh = await render(board30(), new SceneCache(join(work, 'fresh-cache')));
      assert.deepEqual(fresh.sha256, first.sha256);
      assert.equal(fresh.stats.scenesRendered, 6);
    },
  );

  test(
    'after one scene is edited only it is rendered again, and the other scenes’ decoded frames are identical',
    { timeout: 300_000 },
    async () => {
      const board = board30();
      board.scenes[2] = { ...board.scenes[2]!, heading: 'Fresh today', narration: 'Fresh today.' };
      const edited = await render(board, cache);
      assert.deepEqual({ ...edited.stats, ms: 0 }, { scenes: 6, scenesRendered: 1, scenesReused: 5, ms: 0 });
      // The chapters follow the edit (they are made by the final mux, which only copies the scenes).
      const titles = (video: string) => ffprobe(video).chapters.map((chapter) => chapter.tags?.title);
      assert.deepEqual(titles(edited.video), [
        ...titles(first.video).slice(0, 2),
        'Fresh today',
        ...titles(first.video).slice(3),
      ]);
      assert.notEqual(titles(first.video)[2], 'Fresh today');
      const before = frameHashes(first.video);
      const after = frameHashes(edited.video);
      assert.equal(before.length, 750);
      assert.equal(after.length, 750);
      for (const [index, scene] of board.scenes.entries()) {
        const [from, to] = [scene.start * 25, (scene.start + scene.duration) * 25];
        const same = after.slice(from, to).every((hash, frame) => hash === before[from + frame]);
        assert.equal(same, index !== 2, `scene ${index + 1}: frames ${same ? 'identical' : 'changed'}`);
      }
    },
  );

  test(
    'no seam at the joins: a frame every 40 ms, no frame repeated, the voice within 40 ms of its picture',
    { timeout: 600_000 },
    async () => {
      const board = board30();
      first ??= await render(board, cache);
      // Every frame 40 ms after the one before, from 0 to the end: no gap, no duplicate.
      const times = frames(first.video).map((frame) => frame.pts);
      assert.deepEqual(
        times,
        times.map((_, index) => index),
        'frame timestamps 0, 1, 2… (in 1/25 s)',
      );
      const hashes = frameHashes(first.video);
      const keyFrames = keyFrameTimes(first.video);
      // The voice as the renderer's own voiceover places it: each line 150 ms into its scene.
      const rate = 22050;
      const reference = parseWav(await voiceover(board)).samples;
      const heard = audioOf(first.video, rate);
      for (const scene of board.scenes.slice(1)) {
        const join = scene.start * 25;
        // No frozen frame: the last frame of a scene and the first of the next differ.
        assert.notEqual(hashes[join - 1], hashes[join], `frames ${join - 1} and ${join} differ`);
        // The picture's own join: each scene's segment starts with a key frame, so the key frame
        // nearest the join is where its picture starts in the file (ffprobe's packet timestamps).
        const pictureStart = keyFrames.reduce((best, time) =>
          Math.abs(time - scene.start) < Math.abs(best - scene.start) ? time : best,
        );
        assert.ok(Math.abs(pictureStart - scene.start) <= 0.04, `the picture's join at ${pictureStart} s`);
        // The voice's start after the picture's, against where the voiceover puts it.
        const end = scene.start + scene.duration;
        const expected = onset(reference, rate, scene.start, end) - scene.start;
        const measured = onset(heard, rate, pictureStart, end) - pictureStart;
        assert.ok(
          Math.abs(measured - expected) <= 0.04,
          `scene at ${scene.start} s: voice ${(measured * 1000).toFixed(0)} ms after its picture, expected ${(expected * 1000).toFixed(0)} ms`,
        );
        // No click: the track is near silence around each join (one continuous track, no cut).
        const around = heard.subarray(
          Math.round((scene.start - 0.005) * rate),
          Math.round((scene.start + 0.005) * rate),
        );
        assert.ok(Math.max(...around.map(Math.abs)) < 0.05 * 32768, `quiet at the join at ${scene.start} s`);
      }
    },
  );

  test(
    'the voice is at −16 LUFS ± 1 and its true peak at most −1 dBTP, in every language',
    { timeout: 600_000 },
    async () => {
      const languages = ['en-US', 'en-GB', 'de', 'es', 'fr', 'it-IT', 'pt'] as const;
      const measured: string[] = [];
      for (const language of languages) {
        const files = await render(buildStoryboard(SOURCE, { aspectRatio: '16:9', duration: 15, language }), cache);
        const { integrated, truePeak } = loudness(files.video);
        measured.push(`${language} ${integrated} LUFS ${truePeak} dBTP`);
        assert.ok(Math.abs(integrated - LOUDNESS.integrated) <= LOUDNESS.tolerance, measured.join('; '));
        assert.ok(truePeak <= LOUDNESS.truePeak, measured.join('; '));
      }
      // The 30 s 4:5 video too (its own mix).
      const tall = await render(
        buildStoryboard(SOURCE, { aspectRatio: '4:5', duration: 30, language: 'en-US' }),
        cache,
      );
      const { integrated, truePeak } = loudness(tall.video);
      assert.ok(Math.abs(integrated - LOUDNESS.integrated) <= LOUDNESS.tolerance, `4:5: ${integrated} LUFS`);
      assert.ok(truePeak <= LOUDNESS.truePeak, `4:5: ${truePeak} dBTP`);
    },
  );
});

describe('the scene cache', () => {
  test(
    'an unchanged voice track takes its AAC encode from the cache (no audio encode)',
    { timeout: 300_000 },
    async () => {
      const audio = new SceneCache(join(work, 'audio-cache'));
      const board = () => buildStoryboard(SOURCE, { aspectRatio: '16:9', duration: 5, language: 'en-US' });
      const made = await render(board(), audio);
      const entries = readdirSync(audio.dir).filter((name) => name.endsWith('.m4a'));
      assert.equal(entries.length, 1, 'one AAC track for the one voice track');
      // The entry is what the next render of the same track uses: 6 dB less there, a quieter mix.
      const entry = join(audio.dir, entries[0]!);
      const quieter = join(work, 'quieter.m4a');
      execFileSync(ffmpegPath(), ['-v', 'error', '-i', entry, '-af', 'volume=-6dB', '-c:a', 'aac', quieter]);
      renameSync(quieter, entry);
      const again = await render(board(), audio);
      assert.notEqual(again.sha256.video, made.sha256.video);
      const [before, after] = [loudness(made.video).integrated, loudness(again.video).integrated];
      assert.ok(after < before - 3, `${after} LUFS, ${before} LUFS before`);
    },
  );

  test(
    'two renders of one storyboard at once: each entry is made once, by one of them, and the other takes it',
    { timeout: 300_000 },
    async () => {
      const cache = new CountingCache(join(work, 'together-cache'));
      const board = () => buildStoryboard(SOURCE, { aspectRatio: '16:9', duration: 5, language: 'en-US' });
      const [a, b] = await Promise.all([render(board(), cache), render(board(), cache)]);
      assert.equal(a.sha256.video, b.sha256.video);
      assert.ok(cache.puts.size >= 2 * a.stats.scenes, 'a voice and a picture per scene');
      assert.deepEqual(
        [...cache.puts].filter(([, count]) => count > 1),
        [],
        'no entry made twice',
      );
    },
  );

  test('keeps to its size limit, dropping the least recently used entries first', async () => {
    const cache = new SceneCache(join(work, 'small-cache'), 2500);
    const file = (name: string) => {
      const path = join(work, `entry-${name}`);
      writeFileSync(path, Buffer.alloc(1000, name));
      return path;
    };
    await cache.put('a.mp4', file('a'));
    await cache.put('b.mp4', file('b'));
    // Both made long ago; then `a` is used again: `b` is now the least recently used.
    const past = Date.now() / 1000 - 3600;
    utimesSync(join(cache.dir, 'a.mp4'), past, past);
    utimesSync(join(cache.dir, 'b.mp4'), past, past - 1);
    assert.equal(await cache.take('a.mp4', join(work, 'taken-a')), true);
    await cache.put('c.mp4', file('c'));
    assert.deepEqual(readdirSync(cache.dir).sort(), ['a.mp4', 'c.mp4']);
    assert.equal(await cache.take('b.mp4', join(work, 'taken-b')), false);
  });

  test('is emptied when it is opened again (a service start)', async () => {
    const dir = join(work, 'restart-cache');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'old.mp4'), 'made by an earlier run');
    new SceneCache(dir);
    // Gone with what it held: the folder is made again by the first entry kept.
    assert.equal(existsSync(dir), false);
  });
});

describe('the bundled ffmpeg (the fallback without a system one)', () => {
  test(
    'renders the same way: segments, join, limiter, bit-exact files, twice the same bytes',
    { timeout: 300_000 },
    async () => {
      const bundled = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
      const before = process.env.VIDEO_PLUGIN_FFMPEG;
      process.env.VIDEO_PLUGIN_FFMPEG = bundled;
      try {
        assert.equal(ffmpegPath(), bundled);
        const board = buildStoryboard(SOURCE, { aspectRatio: '16:9', duration: 5, language: 'en-US' });
        const first = await render(board);
        const second = await render(board, new SceneCache(join(work, 'bundled-cache')));
        assert.deepEqual(second.sha256, first.sha256);
        assert.equal(frameHashes(first.video).length, 125);
      } finally {
        if (before === undefined) delete process.env.VIDEO_PLUGIN_FFMPEG;
        else process.env.VIDEO_PLUGIN_FFMPEG = before;
      }
    },
  );
});
