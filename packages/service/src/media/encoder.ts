/**
 * Running ffmpeg: one process per step of a render, watched while it runs.
 *
 * - **Progress**: every run reports with `-progress pipe:1` (a block about every half second of
 *   work, and one at the end). `onTime` gets the seconds of output written (`out_time_us`).
 * - **A hang is a stall, not a slow run**: a process that writes no progress for `stallMs` (default
 *   {@link STALL_MS}) is killed and counts as failed. A long render on a busy machine keeps
 *   reporting, so nothing is held to a fixed total time.
 * - **One retry** ({@link encode}): a process that was killed by a signal (the OOM killer, an
 *   operator) or that stalled is run once more; a second such end fails the render with
 *   `render_failed`, naming the render's stage. An ffmpeg that exits with an error is not retried:
 *   the same input would fail the same way.
 */
import { spawn } from 'node:child_process';
import type { ProgressStage } from 'video-plugin/internal';
import { ffmpegPath } from './tools.js';

/** Longest time an ffmpeg process may go without reporting progress before it counts as hung. */
export const STALL_MS = 20_000;

/**
 * Output options that make ffmpeg's files depend on their input only: no encoder version string,
 * no creation time, no metadata copied from the input (docs/service.md, "Byte-identical renders").
 */
export const BITEXACT = [
  '-fflags',
  '+bitexact',
  '-flags:v',
  '+bitexact',
  '-flags:a',
  '+bitexact',
  '-map_metadata',
  '-1',
];

/** A render that did not produce its file. `stage` is where it stopped, when known. */
export class RenderError extends Error {
  constructor(
    readonly code: 'render_failed' | 'render_aborted',
    message: string,
    /** Why ffmpeg ended, when it was not its own error: killed by a signal, or stalled. */
    readonly interrupted?: 'killed' | 'stalled',
  ) {
    super(message);
  }
}

export interface RunOptions {
  signal?: AbortSignal | undefined;
  /** Told the seconds of output written, from ffmpeg's progress reports. */
  onTime?: ((seconds: number) => void) | undefined;
  /** See {@link STALL_MS}. */
  stallMs?: number | undefined;
  /** Resolve with ffmpeg's log (at `info` level) instead of nothing: for filters that print results. */
  log?: boolean;
}

/**
 * Runs ffmpeg with `args`; rejects with a {@link RenderError} carrying its last lines of output
 * when it fails, is killed, or stalls. Resolves with its log when `log` is set (else '').
 */
export function ffmpeg(args: string[], options: RunOptions = {}): Promise<string> {
  const { signal, onTime, stallMs = STALL_MS, log = false } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpegPath(),
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        log ? 'info' : 'error',
        '-y',
        '-progress',
        'pipe:1',
        '-nostats',
        ...args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], ...(signal ? { signal } : {}) },
    );
    let stalled = false;
    let watchdog: NodeJS.Timeout | undefined;
    const watch = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        stalled = true;
        child.kill('SIGKILL');
      }, stallMs);
    };
    watch();
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => {
      watch();
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      // `out_time_us` (and, in FFmpeg 4, the misnamed `out_time_ms`) are microseconds; `N/A` at first.
      for (const line of lines) {
        const match = /^out_time_[mu]s=(\d+)$/.exec(line.trim());
        if (match) onTime?.(Number(match[1]) / 1e6);
      }
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!log) output = output.slice(-2000);
    });
    child.on('error', (error) => {
      clearTimeout(watchdog);
      reject(
        signal?.aborted
          ? new RenderError('render_aborted', 'The render was stopped.')
          : new RenderError('render_failed', `ffmpeg could not run: ${error.message}`),
      );
    });
    child.on('close', (code, killedBy) => {
      clearTimeout(watchdog);
      if (code === 0) resolve(log ? output : '');
      else if (signal?.aborted) reject(new RenderError('render_aborted', 'The render was stopped.'));
      else if (stalled) {
        reject(new RenderError('render_failed', `ffmpeg made no progress for ${stallMs / 1000} s`, 'stalled'));
      } else if (killedBy) {
        reject(new RenderError('render_failed', `ffmpeg was killed (${killedBy})`, 'killed'));
      } else {
        const last = output.trim().split('\n').slice(-3).join(' | ');
        reject(new RenderError('render_failed', `ffmpeg failed (${code}): ${last}`));
      }
    });
  });
}

/**
 * {@link ffmpeg}, run once more when the first process was killed or stalled; a second such end,
 * or any other failure, rejects with `render_failed` naming `stage`.
 */
export async function encode(stage: ProgressStage, args: string[], options: RunOptions = {}): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ffmpeg(args, options);
    } catch (error) {
      if (!(error instanceof RenderError) || error.code !== 'render_failed') throw error;
      if (error.interrupted && attempt === 1) continue;
      const again = error.interrupted ? ', and again when it was run a second time' : '';
      throw new RenderError(
        'render_failed',
        `The render failed at its ${stage} stage: ${error.message}${again}.`,
        error.interrupted,
      );
    }
  }
}
