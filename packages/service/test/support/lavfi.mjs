// A picture or a clip made by ffmpeg from one of its lavfi sources (`color=…`, `testsrc2=…`,
// `mandelbrot=…`): shared by the media tests (TypeScript, through lavfi.d.mts) and the benches
// (plain Node, bench/load.mjs), so it is JavaScript. The caller passes the ffmpeg to run: the
// tests use the sources' `ffmpegPath()`, the benches the built one's.
import { execFileSync } from 'node:child_process';

/**
 * Runs `ffmpeg` on the lavfi `source` with the output options `options` into `file`; returns
 * `file`. E.g. `lavfi(ffmpeg, 'color=c=red:s=800x600', 'red.png', ['-frames:v', '1'])`.
 */
export function lavfi(ffmpeg, source, file, options = []) {
  execFileSync(ffmpeg, ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, ...options, file]);
  return file;
}
