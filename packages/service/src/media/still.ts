/**
 * A scene's still picture, composed by sharp (libvips): the scene's image cover-cropped to the
 * frame (or the palette's colour), a shaded band under the text when there is an image, the accent
 * bar, and the text laid out by {@link layoutText} inside the frame's safe area. ffmpeg then only
 * repeats and encodes these stills: it never decodes a picture the service did not make (the
 * scenes' images were rewritten by sharp when they were downloaded, `images.ts`).
 *
 * Layout (layout.ts, `placeText`): with an image, the text sits low, above the captions' area, and
 * the band grows with it; without one, the text is centred above the captions' area.
 */
import sharp, { type OverlayOptions } from 'sharp';
import { cssColor, placeText } from './layout.js';
import type { Scene, Storyboard } from './storyboard.js';

/** Largest picture the renderer opens, in pixels (a second guard behind the intake's checks). */
const MAX_INPUT_PIXELS = 40_000_000;

/** The still of `scene` as a PNG of the storyboard's frame size. */
export async function sceneStill(scene: Scene, board: Storyboard): Promise<Buffer> {
  const { width: w, height: h, palette } = board;
  const { left, top, bar, blocks, bandTop } = await placeText(scene, board);

  const background = cssColor(palette.background);
  const base = scene.image
    ? sharp(scene.image, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize(w, h, { fit: 'cover', position: 'centre' })
        .flatten({ background })
    : sharp({ create: { width: w, height: h, channels: 3, background } });
  const layers: OverlayOptions[] = [];
  if (bandTop !== undefined) {
    layers.push({
      input: { create: { width: w, height: h - bandTop, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.6 } } },
      left: 0,
      top: bandTop,
    });
  }
  layers.push({
    input: { create: { ...bar, channels: 3, background: cssColor(palette.accent) } },
    left,
    top,
  });
  for (const block of blocks) layers.push({ input: block.drawn.png, left: block.left, top: block.top });
  // Plain RGB: the video has no alpha (the band's shade is part of the still once composed).
  return base.composite(layers).removeAlpha().png({ compressionLevel: 2 }).toBuffer();
}
