// The encoder killed or hanging mid-render (issue 35): the real ffmpeg process of a real render is
// found by the test (in /proc, by its output file) and killed with SIGKILL or stopped with
// SIGSTOP. The renderer runs it once more; a second kill fails the render with render_failed
// naming its stage. A hang is found by ffmpeg's progress reports stopping (a stall window), not by
// a limit on the render's total time. Linux only (/proc).
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { RenderError, renderVideo } from '../../src/media/render.js';
import { buildStoryboard } from '../../src/media/storyboard.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-encoder-'));
after(() => rmSync(work, { recursive: true, force: true }));

const board = () =>
  buildStoryboard(
    { sourceURL: 'https://harbor-lane.example/', title: 'Harbor Lane Coffee', images: [] },
    // 15 s (four scenes of 3.75 s): each scene's encode still lasts far longer than the few
    // milliseconds the test takes to find its process, and a render is half the work of 30 s.
    { aspectRatio: '16:9', duration: 15, language: 'en-US' },
  );

/** Every process this test started and stopped: made to go on and end, whatever happens. */
const touched = new Set<number>();
after(() => {
  for (const pid of touched) {
    for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
  }
});

/** This process's ffmpeg children whose command line contains `marker`. */
function children(marker: string): number[] {
  let pids: string[];
  try {
    pids = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/);
  } catch {
    return [];
  }
  return pids.filter(Boolean).flatMap((pid) => {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return command.includes('ffmpeg') && command.includes(marker) ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });
}

/**
 * The next ffmpeg child with `marker` in its command line that is not in `seen`. There is no event
 * for a process starting: /proc is read every few milliseconds, with no limit but the test's own.
 */
async function nextEncoder(marker: string, seen: Set<number>): Promise<number> {
  for (;;) {
    const pid = children(marker).find((candidate) => !seen.has(candidate));
    if (pid !== undefined) {
      seen.add(pid);
      touched.add(pid);
      return pid;
    }
    await sleep(2);
  }
}

/**
 * The stall window of the two hang tests, which each wait it out (once, then twice): the renderer's
 * `stallMs` (the service's `renderStallMs`, default 20 s), set short so that the tests wait 15 s in
 * all instead of 30 (the window was 10 s). It applies to every ffmpeg of the render, not only the
 * stopped one, so it stays ten times the half second between two progress reports of a working
 * ffmpeg; a working process that it caught on a very busy machine would be run once more (the
 * retry), not fail the render.
 */
const STALL_MS = 5_000;

describe('the encoder killed or hanging mid-render', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  test('an encoder killed mid-render is run once more, and the render completes', { timeout: 300_000 }, async () => {
    const seen = new Set<number>();
    const rendering = renderVideo(board(), join(work, 'killed-once'), 'v');
    const first = await nextEncoder('segment-0.mp4', seen);
    process.kill(first, 'SIGKILL');
    const files = await rendering;
    assert.equal(files.stats.scenesRendered, 4);
    // The scene was encoded by a second process.
    assert.equal(seen.size, 1);
    assert.match(readFileSync(files.video).subarray(4, 8).toString('latin1'), /ftyp/);
  });

  test(
    'killed again when it is run once more: FAILED with render_failed, naming the stage',
    { timeout: 300_000 },
    async () => {
      const seen = new Set<number>();
      const rendering = renderVideo(board(), join(work, 'killed-twice'), 'v');
      rendering.catch(() => {});
      process.kill(await nextEncoder('segment-0.mp4', seen), 'SIGKILL');
      process.kill(await nextEncoder('segment-0.mp4', seen), 'SIGKILL');
      await assert.rejects(rendering, (error: unknown) => {
        assert.ok(error instanceof RenderError);
        assert.equal(error.code, 'render_failed');
        assert.match(error.message, /at its rendering stage: ffmpeg was killed \(SIGKILL\), and again/);
        return true;
      });
    },
  );

  test(
    'an encoder that stops reporting progress is stopped after the stall window and run once more',
    { timeout: 300_000 },
    async () => {
      const seen = new Set<number>();
      const rendering = renderVideo(board(), join(work, 'hung'), 'v', { stallMs: STALL_MS });
      const hung = await nextEncoder('segment-0.mp4', seen);
      process.kill(hung, 'SIGSTOP');
      const files = await rendering;
      assert.equal(files.stats.scenesRendered, 4);
      // The stopped process was ended by the renderer, not left behind.
      assert.throws(() => process.kill(hung, 0), { code: 'ESRCH' });
    },
  );

  test(
    'hanging again when it is run once more: FAILED with render_failed, naming the stage',
    { timeout: 300_000 },
    async () => {
      const seen = new Set<number>();
      const rendering = renderVideo(board(), join(work, 'hung-twice'), 'v', { stallMs: STALL_MS });
      rendering.catch(() => {});
      process.kill(await nextEncoder('segment-0.mp4', seen), 'SIGSTOP');
      process.kill(await nextEncoder('segment-0.mp4', seen), 'SIGSTOP');
      await assert.rejects(rendering, (error: unknown) => {
        assert.ok(error instanceof RenderError);
        assert.equal(error.code, 'render_failed');
        assert.match(
          error.message,
          new RegExp(`at its rendering stage: ffmpeg made no progress for ${STALL_MS / 1000} s, and again`),
        );
        return true;
      });
    },
  );
});
