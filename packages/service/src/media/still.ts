/**
 * A scene's still picture, composed by sharp (libvips): the scene's image cover-cropped to the
 * frame (or the palette's colour), a shaded band under the text when there is an image, the accent
 * bar, and the text laid out by {@link layoutText} inside the frame's safe area. ffmpeg then only
 * repeats and encodes these stills: it never decodes a picture the service did not make (the
 * scenes' images were rewritten by sharp when they were downloaded, `images.ts`).
 *
 * A still is raw RGB (`rgb24`, the frame's width × height × 3 bytes), not a PNG: ffmpeg reads it
 * as it is, so no PNG is compressed by sharp and decompressed by ffmpeg for every scene. A picture
 * that several scenes of a render show is decoded and cropped once ({@link Backgrounds}).
 *
 * Layout (layout.ts, `placeText`): with an image, the text sits low, above the captions' area, and
 * the band grows with it; without one, the text is centred above the captions' area.
 */
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { MAX_IMAGE_PIXELS } from './images.js';
import { cssColor, placeText } from './layout.js';
import type { Scene, Storyboard } from './storyboard.js';

/**
 * Pictures already decoded and cover-cropped to a frame, as raw RGB, by path, frame size and
 * background: one map per render (`renderVideo`), so a picture that several scenes show is decoded
 * once, and nothing is held once the render is over.
 */
export type Backgrounds = Map<string, Promise<Buffer>>;

/** `image` decoded, upright, cover-cropped to `width` × `height` and flattened on `background`. */
function coverOf(image: string, width: number, height: number, background: string): Promise<Buffer> {
  // The intake's cap (images.ts) again: a second guard behind its checks.
  return sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize(width, height, { fit: 'cover', position: 'centre' })
    .flatten({ background })
    .removeAlpha()
    .raw()
    .toBuffer();
}

/**
 * The still of `scene` as raw RGB of the storyboard's frame size (`rgb24`). `backgrounds` keeps
 * each decoded picture for the next scene of the render that shows it.
 */
export async function sceneStill(
  scene: Scene,
  board: Storyboard,
  backgrounds: Backgrounds = new Map(),
): Promise<Buffer> {
  const { width: w, height: h, palette } = board;
  const { left, top, bar, blocks, bandTop } = await placeText(scene, board);

  const background = cssColor(palette.background);
  let base: Sharp;
  if (scene.image) {
    const key = `${scene.image}\0${w}×${h}\0${background}`;
    let cover = backgrounds.get(key);
    if (!cover) backgrounds.set(key, (cover = coverOf(scene.image, w, h, background)));
    base = sharp(await cover, { raw: { width: w, height: h, channels: 3 } });
  } else {
    base = sharp({ create: { width: w, height: h, channels: 3, background } });
  }
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
  return base.composite(layers).removeAlpha().raw().toBuffer();
}
