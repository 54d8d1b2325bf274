/**
 * Where the renderer's tools are: the ffmpeg binary shipped inside `@ffmpeg-installer/*` (one npm
 * package per platform, the binary in the package: nothing is downloaded at install or run time),
 * and the DejaVu Sans font shipped by `dejavu-fonts-ttf` for the scenes' text.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Path of the ffmpeg binary (`VIDEO_PLUGIN_FFMPEG` overrides it, e.g. for another platform). */
export function ffmpegPath(): string {
  return process.env.VIDEO_PLUGIN_FFMPEG || (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** Path of the sans-serif font of the scenes' text: bold for headings, regular (Book) for the rest. */
export function fontPath(weight: 'bold' | 'regular' = 'bold'): string {
  return require.resolve(`dejavu-fonts-ttf/ttf/${weight === 'bold' ? 'DejaVuSans-Bold' : 'DejaVuSans'}.ttf`);
}
