/**
 * The quality report of a finished render, measured on its files — never predicted from the
 * storyboard. Each figure is read from what a viewer gets:
 *
 * - loudness and true peak: ffmpeg's EBU R128 meter (`ebur128=peak=true`) over the MP4's audio;
 * - caption speed: the WebVTT file's cues, characters (spaces included) over seconds shown;
 * - text contrast: a decoded frame from the middle of each scene, at the boxes where the text was
 *   drawn (layout.ts, `placeText`): the text's own pixels against the brightest (for light text)
 *   of the pixels around its letters, by WCAG 2's relative luminance;
 * - flashes: every frame decoded at 64×36, a flash being a pair of opposing changes of at least
 *   0.1 in relative luminance, the darker side below 0.8 (WCAG 2.3.1), counted in each of 48
 *   blocks of the frame (each about 2 % of it) within any one-second window;
 * - duration: the file's, as ffmpeg reads it;
 * - caption offset: for every cue (a scene's first and those split in the middle of its speech),
 *   the nearest point where the voice starts after a silence (`silencedetect`) against its start.
 *
 * `warnings` names every limit of {@link QUALITY_LIMITS} the file breaks, with its scene.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { QualityWarning, RenderQuality } from 'video-plugin/internal';
import { placeText } from './layout.js';
import { QUALITY_LIMITS } from './quality-limits.js';
import type { Storyboard } from './storyboard.js';
import { ffmpegPath } from './tools.js';

/** The files a quality report reads. */
export interface MeasuredFiles {
  video: string;
  captions: string;
}

/** Runs ffmpeg with `args`, resolving with what it wrote (stdout as bytes, stderr as text). */
function run(args: string[], signal?: AbortSignal): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      ffmpegPath(),
      ['-hide_banner', '-nostdin', '-nostats', ...args],
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, ...(signal ? { signal } : {}) },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`ffmpeg failed: ${stderr.toString().trim().split('\n').slice(-2).join(' | ')}`));
        else resolve({ stdout, stderr: stderr.toString() });
      },
    );
  });
}

/** The frames of `video` as raw RGB bytes: `before` its input (a seek), `after` it (a filter, a count). */
async function decode(before: string[], video: string, after: string[], signal?: AbortSignal): Promise<Buffer> {
  const args = ['-loglevel', 'error', ...before, '-i', video, ...after, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'];
  return (await run(args, signal)).stdout;
}

/** What the soundtrack measures: loudness, true peak, length, and where the voice starts. */
export interface SoundMeasure {
  loudnessLUFS: number;
  truePeakDBTP: number;
  durationSeconds: number;
  /** Seconds at which sound starts after a silence (and 0 when the file starts with sound). */
  onsets: number[];
}

/** Reads the soundtrack of `video` with ffmpeg's EBU R128 meter and silence detector. */
export async function measureSound(video: string, signal?: AbortSignal): Promise<SoundMeasure> {
  const { stderr } = await run(
    [
      '-loglevel',
      'info',
      '-i',
      video,
      '-map',
      '0:a:0',
      '-af',
      // framelog=verbose: the meter's line per 100 ms stays out of the info log, its summary does not.
      'ebur128=peak=true:framelog=verbose,silencedetect=noise=-40dB:duration=0.08',
      '-f',
      'null',
      '-',
    ],
    signal,
  );
  // From the meter's summary; a silent track reads -inf, reported as -99.
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const number = (pattern: RegExp, what: string) => {
    const match = pattern.exec(summary);
    if (!match) throw new Error(`ffmpeg did not report the ${what}`);
    return match[1] === '-inf' ? -99 : Math.max(-99, Number(match[1]));
  };
  const [, h, m, s] = /Duration: (\d+):(\d+):([\d.]+)/.exec(stderr) ?? [];
  if (s === undefined) throw new Error('ffmpeg did not report the duration');
  const starts = [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((match) => Number(match[1]));
  const onsets = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((match) => Number(match[1]));
  // Sound from the first sample: no silence starts at 0.
  if (starts.length === 0 || starts[0]! > 0.01) onsets.unshift(0);
  return {
    loudnessLUFS: number(/I:\s+(-?[\d.]+|-inf) LUFS/, 'integrated loudness'),
    truePeakDBTP: number(/Peak:\s+(-?[\d.]+|-inf) dBFS/, 'true peak'),
    durationSeconds: Number(h) * 3600 + Number(m) * 60 + Number(s),
    onsets,
  };
}

/** One cue of a WebVTT file. */
export interface ParsedCue {
  start: number;
  end: number;
  text: string;
}

/** What the captions' writer escapes in cue text (accessibility.ts), read back. */
const VTT_REFERENCES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/**
 * The cues of a WebVTT file (its text with tags removed, lines joined by a space, and the
 * character references the writer makes read back as their characters).
 */
export function parseVtt(vtt: string): ParsedCue[] {
  const seconds = (time: string) =>
    time
      .split(':')
      .map(Number)
      .reduce((sum, part) => sum * 60 + part, 0);
  const cues: ParsedCue[] = [];
  for (const block of vtt.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((line) => line.includes('-->'));
    if (at < 0) continue;
    const [start, end] = lines[at]!.split('-->').map((part) => part.trim().split(/\s+/)[0]!);
    const text = lines
      .slice(at + 1)
      .join(' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&(?:amp|lt|gt);/g, (reference) => VTT_REFERENCES[reference]!)
      .trim();
    cues.push({ start: seconds(start!), end: seconds(end!), text });
  }
  return cues;
}

/** Each 8-bit sRGB channel value, linearised (WCAG 2). */
const LINEAR = Float64Array.from({ length: 256 }, (_, c) =>
  c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4,
);

/** WCAG 2's relative luminance of an sRGB pixel (0–255 channels). */
export function luminance(r: number, g: number, b: number): number {
  return 0.2126 * LINEAR[r]! + 0.7152 * LINEAR[g]! + 0.0722 * LINEAR[b]!;
}

/** WCAG's contrast ratio of two relative luminances. */
export const contrastRatio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** One frame of `video` at `seconds`, as RGB bytes of its full size. */
async function frameAt(video: string, seconds: number, width: number, height: number, signal?: AbortSignal) {
  const stdout = await decode(['-ss', seconds.toFixed(3)], video, ['-frames:v', '1'], signal);
  if (stdout.length < width * height * 3) throw new Error(`no frame at ${seconds.toFixed(2)} s`);
  return stdout;
}

/**
 * The lowest contrast of each scene's text in `video`: in the middle of the scene, for each text
 * block where layout.ts drew it, the median luminance of the letters' solid pixels against the
 * background pixel closest to it in luminance (its 95th percentile: a few pixels of H.264 noise
 * do not decide) among those 3 px or more away from any ink.
 */
export async function measureContrast(video: string, board: Storyboard, signal?: AbortSignal): Promise<number[]> {
  const { width, height } = board;
  const ratios: number[] = [];
  for (const scene of board.scenes) {
    const frame = await frameAt(video, scene.start + scene.duration / 2, width, height, signal);
    const { blocks } = await placeText(scene, board);
    let lowest = Number.POSITIVE_INFINITY;
    for (const { left, top, drawn } of blocks) {
      const { data: alpha, info } = await sharp(drawn.png)
        .extractChannel(3)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const w = info.width;
      const h = info.height;
      const near = new Uint8Array(w * h);
      const R = 3;
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          if (alpha[y * w + x]! === 0) continue;
          for (let dy = -R; dy <= R; dy++) {
            for (let dx = -R; dx <= R; dx++) {
              const nx = x + dx;
              const ny = y + dy;
              if (nx >= 0 && ny >= 0 && nx < w && ny < h) near[ny * w + nx] = 1;
            }
          }
        }
      }
      const ink: number[] = [];
      const around: number[] = [];
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const fx = left + x;
          const fy = top + y;
          if (fx >= width || fy >= height) continue;
          const at = (fy * width + fx) * 3;
          const l = luminance(frame[at]!, frame[at + 1]!, frame[at + 2]!);
          if (alpha[y * w + x]! >= 250) ink.push(l);
          else if (!near[y * w + x]) around.push(l);
        }
      }
      if (ink.length === 0 || around.length === 0) continue;
      ink.sort((a, b) => a - b);
      around.sort((a, b) => a - b);
      const text = ink[Math.floor(ink.length / 2)]!;
      const median = around[Math.floor(around.length / 2)]!;
      // The background's worst part: its brightest under light text, its darkest under dark text.
      const worst =
        text >= median ? around[Math.floor(around.length * 0.95)]! : around[Math.floor(around.length * 0.05)]!;
      lowest = Math.min(lowest, contrastRatio(text, worst));
    }
    ratios.push(lowest);
  }
  return ratios;
}

/** Grid of the flash count: 8 × 6 blocks of a 64 × 36 frame. */
const FLASH_GRID = { width: 64, height: 36, columns: 8, rows: 6 } as const;

/**
 * The most flashes in any one second of `video`, for each second (index = the second it starts):
 * WCAG 2.3.1's general flash, a pair of opposing changes in relative luminance of 0.1 or more
 * where the darker state is below 0.8, counted per block of {@link FLASH_GRID}.
 */
export async function measureFlashes(video: string, fps: number, signal?: AbortSignal): Promise<number[]> {
  const { width, height, columns, rows } = FLASH_GRID;
  const stdout = await decode([], video, ['-vf', `fps=${fps},scale=${width}:${height}:flags=area`], signal);
  const size = width * height * 3;
  const frames = Math.floor(stdout.length / size);
  const bw = width / columns;
  const bh = height / rows;
  // Each block's mean luminance, frame by frame.
  const series = Array.from({ length: columns * rows }, () => new Float64Array(frames));
  for (let f = 0; f < frames; f++) {
    const sums = new Float64Array(columns * rows);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = f * size + (y * width + x) * 3;
        sums[Math.floor(y / bh) * columns + Math.floor(x / bw)]! += luminance(
          stdout[at]!,
          stdout[at + 1]!,
          stdout[at + 2]!,
        );
      }
    }
    for (let b = 0; b < sums.length; b++) series[b]![f] = sums[b]! / (bw * bh);
  }
  const seconds = Math.max(1, Math.ceil(frames / fps));
  const worst = new Array<number>(seconds).fill(0);
  for (const values of series) {
    const transitions = transitionsOf(values);
    for (let second = 0; second < seconds; second++) {
      // Any one second: every window of `fps` frames starting in this second.
      for (let start = second * fps; start < (second + 1) * fps && start < frames; start++) {
        const count = transitions.filter((t) => t >= start && t < start + fps).length;
        worst[second] = Math.max(worst[second]!, Math.floor(count / 2));
      }
    }
  }
  return worst;
}

/** The frames at which a luminance series completes a change of ≥ 0.1 opposite to the last one. */
function transitionsOf(values: Float64Array): number[] {
  const at: number[] = [];
  let direction = 0;
  let low = values[0] ?? 0;
  let high = low;
  for (let i = 1; i < values.length; i++) {
    const v = values[i]!;
    low = Math.min(low, v);
    high = Math.max(high, v);
    if (direction <= 0 && v - low >= 0.1 && low < 0.8) {
      at.push(i);
      direction = 1;
      low = high = v;
    } else if (direction >= 0 && high - v >= 0.1 && v < 0.8) {
      at.push(i);
      direction = -1;
      low = high = v;
    }
  }
  return at;
}

/** The scene (0-based) of `board` playing at `seconds`. */
function sceneAt(board: Storyboard, seconds: number): number {
  const index = board.scenes.findIndex((scene) => seconds < scene.start + scene.duration - 1e-6);
  return index < 0 ? board.scenes.length - 1 : index;
}

/** Measures `files` (a finished render of `board`) against {@link QUALITY_LIMITS}. */
export async function measureQuality(
  files: MeasuredFiles,
  board: Storyboard,
  signal?: AbortSignal,
): Promise<RenderQuality> {
  const L = QUALITY_LIMITS;
  const warnings: QualityWarning[] = [];
  const warn = (warning: QualityWarning) => warnings.push(warning);
  const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

  const sound = await measureSound(files.video, signal);
  if (Math.abs(sound.loudnessLUFS - L.loudnessLUFS) > L.loudnessTolerance) {
    warn({
      check: 'loudness',
      value: sound.loudnessLUFS,
      message: `the soundtrack is ${sound.loudnessLUFS} LUFS (${L.loudnessLUFS} ± ${L.loudnessTolerance})`,
    });
  }
  if (sound.truePeakDBTP > L.truePeakDBTP) {
    warn({
      check: 'truePeak',
      value: sound.truePeakDBTP,
      message: `the soundtrack peaks at ${sound.truePeakDBTP} dBTP (at most ${L.truePeakDBTP})`,
    });
  }
  if (Math.abs(sound.durationSeconds - board.duration) > L.durationSeconds) {
    warn({
      check: 'duration',
      value: sound.durationSeconds,
      message: `the file lasts ${sound.durationSeconds} s, the storyboard ${board.duration} s`,
    });
  }

  const cues = parseVtt(await readFile(files.captions, 'utf8'));
  let fastest = 0;
  let offset = 0;
  for (const [index, cue] of cues.entries()) {
    const scene = sceneAt(board, cue.start) + 1;
    const speed = [...cue.text].length / Math.max(0.001, cue.end - cue.start);
    fastest = Math.max(fastest, speed);
    if (speed > L.captionCharsPerSecond) {
      warn({
        check: 'captionSpeed',
        scene,
        value: round(speed),
        message: `caption ${index + 1} reads at ${round(speed)} chars/s (at most ${L.captionCharsPerSecond}): shorten scene ${scene}'s voiceover`,
      });
    }
    // The voice's start nearest the cue's: every cue starts on its words (voice.ts speaks each
    // cue's words as a piece of its own, after a pause).
    const nearest = sound.onsets.reduce(
      (best, onset) => (Math.abs(onset - cue.start) < Math.abs(best - cue.start) ? onset : best),
      Number.POSITIVE_INFINITY,
    );
    const gap = Math.abs(nearest - cue.start) * 1000;
    offset = Math.max(offset, Math.min(gap, (board.duration + 1) * 1000));
    if (gap > L.captionOffsetMs) {
      warn({
        check: 'captionOffset',
        scene,
        value: Math.round(gap),
        message: `caption ${index + 1} starts ${Number.isFinite(gap) ? `${Math.round(gap)} ms from` : 'without'} its words (at most ${L.captionOffsetMs} ms)`,
      });
    }
  }

  const contrasts = await measureContrast(files.video, board, signal);
  for (const [index, ratio] of contrasts.entries()) {
    if (ratio < L.textContrast) {
      warn({
        check: 'contrast',
        scene: index + 1,
        value: round(ratio, 2),
        message: `scene ${index + 1}'s text has a contrast of ${round(ratio, 2)}:1 (at least ${L.textContrast}:1)`,
      });
    }
  }

  const flashes = await measureFlashes(files.video, board.fps, signal);
  for (const [second, count] of flashes.entries()) {
    if (count > L.flashesPerSecond) {
      const scene = sceneAt(board, second) + 1;
      warn({
        check: 'flashes',
        scene,
        value: count,
        message: `${count} flashes in the second from ${second} s, in scene ${scene} (at most ${L.flashesPerSecond})`,
      });
    }
  }

  const finite = contrasts.filter(Number.isFinite);
  return {
    loudnessLUFS: sound.loudnessLUFS,
    truePeakDBTP: sound.truePeakDBTP,
    maxCaptionCharsPerSecond: round(fastest),
    minTextContrast: round(finite.length > 0 ? Math.min(...finite) : 21, 2),
    maxFlashesPerSecond: Math.max(0, ...flashes),
    durationSeconds: round(sound.durationSeconds, 2),
    maxCaptionOffsetMs: Math.round(offset),
    warnings,
  };
}
