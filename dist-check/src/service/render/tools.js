/**
 * Where the renderer's tools are: the ffmpeg binary shipped inside `@ffmpeg-installer/*` (one npm
 * package per platform, the binary in the package: nothing is downloaded at install or run time),
 * and the DejaVu Sans font shipped by `dejavu-fonts-ttf` for the scenes' text.
 */
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
/** Path of the ffmpeg binary (`VIDEO_PLUGIN_FFMPEG` overrides it, e.g. for another platform). */
export function ffmpegPath() {
  return process.env.VIDEO_PLUGIN_FFMPEG || require('@ffmpeg-installer/ffmpeg').path;
}
/** Path of the bold sans-serif font of the scenes' text. */
export function fontPath() {
  return require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
}
//# sourceMappingURL=tools.js.map
