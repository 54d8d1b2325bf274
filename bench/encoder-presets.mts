// How the scenes' x264 settings were chosen (BENCHMARKS.md, "Issue 34's speed and memory"): one
// content scene and the closing scene of a 30 s video, at 16:9 and 4:5, each encoded exactly as
// the renderer encodes a segment (render.ts, `segmentArgs`) with each candidate setting. Prints
// the encode's CPU seconds (ffmpeg's, from /proc/self/stat), the bytes, and the quality against a
// lossless encode of the same frames (ffmpeg's `ssim` and `psnr` filters). CPU seconds on a busy
// machine are inflated alike for every row; run it idle for figures to publish.
//
//   node --import tsx bench/encoder-presets.mts
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { normaliseImage } from '../packages/service/src/media/images.js';
import { H264, segmentArgs } from '../packages/service/src/media/render.js';
import { sceneStill } from '../packages/service/src/media/still.js';
import { buildStoryboard, type Storyboard } from '../packages/service/src/media/storyboard.js';
import { ffmpegPath } from '../packages/service/src/media/tools.js';
import { lavfi } from '../packages/service/test/support/lavfi.mjs';

const CANDIDATES: Record<string, string[]> = {
  'veryfast stillimage (before issue 34)': [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-tune',
    'stillimage',
    '-pix_fmt',
    'yuv420p',
  ],
  'superfast stillimage': ['-c:v', 'libx264', '-preset', 'superfast', '-tune', 'stillimage', '-pix_fmt', 'yuv420p'],
  'ultrafast stillimage': ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'stillimage', '-pix_fmt', 'yuv420p'],
  'the renderer’s (render.ts, H264)': H264,
};
const LOSSLESS = ['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p'];

const work = mkdtempSync(join(tmpdir(), 'video-plugin-bench-encoders-'));
/** CPU seconds of the children this process has waited for. */
const childCpu = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
};
const ffmpeg = (args: string[]) => execFileSync(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
/** `measure` (ssim or psnr) of `file` against `reference`, from ffmpeg's log. */
function quality(file: string, reference: string, measure: 'ssim' | 'psnr'): string {
  const log = spawnSync(
    ffmpegPath(),
    ['-hide_banner', '-i', file, '-i', reference, '-lavfi', `[0][1]${measure}`, '-f', 'null', '-'],
    {
      encoding: 'utf8',
    },
  ).stderr;
  return (measure === 'ssim' ? /All:([\d.]+)/ : /average:([\d.inf]+)/).exec(log)?.[1] ?? '?';
}

try {
  const taken = async (name: string, source: string) => {
    const image = await normaliseImage(
      readFileSync(lavfi(ffmpegPath(), `${source}=s=1600x1200`, join(work, name), ['-frames:v', '1'])),
    );
    if ('refused' in image) throw new Error(image.refused);
    const file = join(work, `${name}.kept.${image.type}`);
    writeFileSync(file, image.data);
    return file;
  };
  const images = [await taken('a.png', 'mandelbrot'), await taken('b.jpg', 'testsrc2')];
  const source = {
    sourceURL: 'https://www.harbor-lane.example/',
    title: 'Harbor Lane Coffee Roasters',
    description: 'Small-batch coffee roasted every morning by the harbor. Visit our café.',
    headings: ['Roasted at dawn', 'Our café', 'Beans to take home', 'Wholesale'],
    sentences: ['We roast twelve single-origin coffees in small batches.', 'The café opens at seven every day.'],
    images,
  };
  console.log(`${ffmpegPath()}; load average ${loadavg()[0]!.toFixed(2)}`);
  for (const aspectRatio of ['16:9', '4:5'] as const) {
    const board: Storyboard = buildStoryboard(source, { aspectRatio, duration: 30, language: 'en-US' });
    for (const index of [1, board.scenes.length - 1]) {
      const scene = board.scenes[index]!;
      const still = join(work, `still-${index}.rgb`);
      writeFileSync(still, await sceneStill(scene, board));
      const frames = Math.round(scene.duration * board.fps);
      const reference = join(work, 'reference.mkv');
      ffmpeg(segmentArgs(board, still, frames, reference, LOSSLESS));
      for (const [name, settings] of Object.entries(CANDIDATES)) {
        const file = join(work, 'candidate.mp4');
        const before = childCpu();
        ffmpeg(segmentArgs(board, still, frames, file, settings));
        const cpu = childCpu() - before;
        console.log(
          `${aspectRatio.padEnd(4)} scene ${index + 1} (${scene.kind.padEnd(7)}) ${name.padEnd(40)} CPU ${cpu.toFixed(2)} s, ` +
            `${Math.round(statSync(file).size / 1024)} KB, SSIM ${quality(file, reference, 'ssim')}, PSNR ${quality(file, reference, 'psnr')} dB`,
        );
      }
    }
  }
  console.log(`load average ${loadavg()[0]!.toFixed(2)} at the end`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
