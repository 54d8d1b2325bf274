/**
 * The render: a storyboard and its voiceover into an MP4 (H.264 video, AAC audio, `+faststart` so
 * players start before the end is loaded), a thumbnail that is a real frame of it, WebVTT
 * captions of the narration and its plain-text transcript (accessibility.ts). Each scene's still is
 * composed by sharp (`still.ts`: its image cover-cropped to the frame or the palette's colour, a
 * shaded band, the text laid out by measured width); ffmpeg repeats the stills for their scenes'
 * lengths, fades between them and encodes.
 *
 * Files are written under temporary names and renamed at the end: a failed or aborted render leaves
 * nothing that could be served.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { captions, transcript } from './accessibility.js';
import type { Storyboard } from './storyboard.js';
import { sceneStill } from './still.js';
import type { ProgressStage } from 'video-plugin/internal';
import { ffmpegPath } from './tools.js';
import { voiceover } from './voice.js';

/**
 * What a job reports its progress to; the jobs' `ProgressTracker` (jobs/progress.ts) is the
 * service's. Declared here, where it is called, so that media/ needs nothing from jobs/.
 */
export interface ProgressReporter {
  /** Enters `stage` (ignored when the job is already past it). */
  stage(stage: ProgressStage): unknown;
  /** How far the current stage is, 0..1 (published when the throttle allows). */
  within(share: number): void;
}

/** A render that did not produce its file. */
export class RenderError extends Error {
  constructor(
    readonly code: 'render_failed' | 'render_aborted',
    message: string,
  ) {
    super(message);
  }
}

export { captions } from './accessibility.js';

export interface RenderedFiles {
  video: string;
  thumbnail: string;
  captions: string;
  transcript: string;
}

/**
 * Runs ffmpeg with `args`; rejects with its last lines of output when it fails. With `onTime`,
 * ffmpeg reports its own progress (`-progress pipe:1`, a block about every half second) and
 * `onTime` gets the seconds of output written so far (`out_time_us`) from each block.
 */
export function ffmpeg(args: string[], signal?: AbortSignal, onTime?: (seconds: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const progress = onTime ? ['-progress', 'pipe:1', '-nostats'] : [];
    const child = spawn(ffmpegPath(), ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...progress, ...args], {
      stdio: ['ignore', onTime ? 'pipe' : 'ignore', 'pipe'],
      ...(signal ? { signal } : {}),
    });
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      // `out_time_us` (and, in FFmpeg 4, the misnamed `out_time_ms`) are microseconds; `N/A` at first.
      for (const line of lines) {
        const match = /^out_time_[mu]s=(\d+)$/.exec(line.trim());
        if (match) onTime?.(Number(match[1]) / 1e6);
      }
    });
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
    child.on('error', (error) =>
      reject(
        signal?.aborted
          ? new RenderError('render_aborted', 'The render was stopped.')
          : new RenderError('render_failed', `ffmpeg could not run: ${error.message}`),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else if (!signal?.aborted) {
        reject(
          new RenderError(
            'render_failed',
            `ffmpeg failed (${code}): ${errors.trim().split('\n').slice(-3).join(' | ')}`,
          ),
        );
      }
    });
  });
}

/**
 * Renders `board` into `dir` as `<name>.mp4`, `<name>.jpg` (thumbnail), `<name>.vtt` (captions)
 * and `<name>.txt` (transcript). Resolves with their paths once all four are in place.
 *
 * `progress` is told each stage as it starts (`voicing`, `composing_scenes`, `rendering`,
 * `finishing`) and how far the stage is: the stills made, and while encoding the share of the
 * video's duration ffmpeg reports written.
 */
export async function renderVideo(
  board: Storyboard,
  dir: string,
  name: string,
  signal?: AbortSignal,
  progress?: ProgressReporter,
): Promise<RenderedFiles> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(join(dir, `.${name}-`));
  try {
    progress?.stage('voicing');
    const voice = join(work, 'voice.wav');
    await writeFile(voice, await voiceover(board));
    // 1. One still picture per scene, composed by sharp (image, band, text): the costly scaling and
    //    text layout happen once per scene, not once per frame. One scene at a time: libvips
    //    already uses every core for each, and only one frame-sized picture is held at once.
    progress?.stage('composing_scenes');
    for (const [index, scene] of board.scenes.entries()) {
      progress?.within(index / board.scenes.length);
      let still: Buffer;
      try {
        still = await sceneStill(scene, board);
      } catch (error) {
        // The message reaches the partner: the image's name, not where the service keeps it.
        const reason = (error as Error).message.replaceAll(scene.image ?? '\0', basename(scene.image ?? ''));
        throw new RenderError('render_failed', `The picture of scene ${index + 1} could not be made: ${reason}`);
      }
      if (signal?.aborted) throw new RenderError('render_aborted', 'The render was stopped.');
      await writeFile(join(work, `still-${index}.png`), still);
    }

    // 2. The video: each still for its scene's length, faded in and out, then the voiceover.
    const inputs: string[] = [];
    const filters: string[] = [];
    const fade = board.pace === 'brisk' ? 0.25 : 0.45;
    for (const [index, scene] of board.scenes.entries()) {
      // The still is decoded once and repeated by the loop filter (an image input with -loop would
      // be read and decoded again for every frame).
      inputs.push('-i', join(work, `still-${index}.png`));
      const frames = Math.round(scene.duration * board.fps);
      const out = (scene.duration - fade).toFixed(3);
      filters.push(
        `[${index}:v]format=yuv420p,loop=loop=${frames - 1}:size=1:start=0,setpts=N/${board.fps}/TB,` +
          `fade=t=in:st=0:d=${fade},fade=t=out:st=${out}:d=${fade}[v${index}]`,
      );
    }
    const count = board.scenes.length;
    inputs.push('-i', voice);
    filters.push(`${board.scenes.map((_, i) => `[v${i}]`).join('')}concat=n=${count}:v=1:a=0[v]`);
    const video = join(work, 'video.mp4');
    progress?.stage('rendering');
    await ffmpeg(
      [
        ...inputs,
        '-filter_complex',
        filters.join(';'),
        '-map',
        '[v]',
        '-map',
        `${count}:a`,
        '-t',
        String(board.duration),
        '-r',
        String(board.fps),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-tune',
        'stillimage',
        '-pix_fmt',
        'yuv420p',
        '-threads',
        String(Math.max(1, Math.min(4, availableParallelism()))),
        '-c:a',
        'aac',
        '-b:a',
        '96k',
        '-ar',
        '44100',
        '-ac',
        '2',
        '-movflags',
        '+faststart',
        video,
      ],
      signal,
      progress && ((seconds) => progress.within(seconds / board.duration)),
    );
    progress?.stage('finishing');
    // The thumbnail: a real frame, in the middle of the first scene (after its fade-in).
    const thumbnail = join(work, 'thumbnail.jpg');
    const at = Math.min(board.scenes[0]!.duration / 2, board.duration - 0.1).toFixed(2);
    await ffmpeg(['-ss', at, '-i', video, '-frames:v', '1', '-q:v', '3', thumbnail], signal);
    const vtt = join(work, 'captions.vtt');
    await writeFile(vtt, captions(board));
    const text = join(work, 'transcript.txt');
    await writeFile(text, transcript(board));
    const files = {
      video: join(dir, `${name}.mp4`),
      thumbnail: join(dir, `${name}.jpg`),
      captions: join(dir, `${name}.vtt`),
      transcript: join(dir, `${name}.txt`),
    };
    // Readable by the service's user only, like the data file (the service serves them itself).
    await Promise.all([thumbnail, vtt, text, video].map((file) => chmod(file, 0o600)));
    await rename(thumbnail, files.thumbnail);
    await rename(vtt, files.captions);
    await rename(text, files.transcript);
    // The video last: once it is there, everything is.
    await rename(video, files.video);
    return files;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Runs renders at most `limit` at a time, in the order they were asked for (`p-limit`: a finished
 * render hands its slot straight to the next waiter, so a newcomer can never slip past the limit).
 * A render must take its slot exactly once: a job that waits for a second slot while holding one
 * deadlocks the queue as soon as every slot is held that way.
 */
export function renderQueue(limit = availableParallelism()): LimitFunction {
  return pLimit(Math.max(1, limit));
}
