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
    { aspectRatio: '16:9', duration: 30, language: 'en-US' },
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

describe('the encoder killed or hanging mid-render', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  test('an encoder killed mid-render is run once more, and the render completes', { timeout: 300_000 }, async () => {
    const seen = new Set<number>();
    const rendering = renderVideo(board(), join(work, 'killed-once'), 'v');
    const first = await nextEncoder('segment-0.mp4', seen);
    process.kill(first, 'SIGKILL');
    const files = await rendering;
    assert.equal(files.stats.scenesRendered, 6);
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
      // A window shorter than the default, for the test; still long enough for a busy machine, where
      // ffmpeg starts slowly but then reports about every half second.
      const rendering = renderVideo(board(), join(work, 'hung'), 'v', { stallMs: 10_000 });
      const hung = await nextEncoder('segment-0.mp4', seen);
      process.kill(hung, 'SIGSTOP');
      const files = await rendering;
      assert.equal(files.stats.scenesRendered, 6);
      // The stopped process was ended by the renderer, not left behind.
      assert.throws(() => process.kill(hung, 0), { code: 'ESRCH' });
    },
  );

  test(
    'hanging again when it is run once more: FAILED with render_failed, naming the stage',
    { timeout: 300_000 },
    async () => {
      const seen = new Set<number>();
      const rendering = renderVideo(board(), join(work, 'hung-twice'), 'v', { stallMs: 10_000 });
      rendering.catch(() => {});
      process.kill(await nextEncoder('segment-0.mp4', seen), 'SIGSTOP');
      process.kill(await nextEncoder('segment-0.mp4', seen), 'SIGSTOP');
      await assert.rejects(rendering, (error: unknown) => {
        assert.ok(error instanceof RenderError);
        assert.equal(error.code, 'render_failed');
        assert.match(error.message, /at its rendering stage: ffmpeg made no progress for 10 s, and again/);
        return true;
      });
    },
  );
});
