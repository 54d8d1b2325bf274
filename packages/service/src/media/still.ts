/**
 * A scene's still picture, composed by sharp (libvips): the scene's image cover-cropped to the
 * frame (or the palette's colour), a shaded band under the text when there is an image, the accent
 * bar, and the text laid out by {@link layoutText} inside the frame's safe area. ffmpeg then only
 * repeats and encodes these stills: it never decodes a picture the service did not make (the
 * scenes' images were rewritten by sharp when they were downloaded, `images.ts`).
 *
 * Layout: with an image, the text sits at the bottom of the safe area and the band grows with it
 * (up to the lower 45 % of the frame); without one, the text is centred in the safe area.
 */
import sharp, { type OverlayOptions } from 'sharp';
import { layoutText, safeArea, type TextStyle } from './layout.js';
import type { Scene, Storyboard } from './storyboard.js';

/** Largest picture the renderer opens, in pixels (a second guard behind the intake's checks). */
const MAX_INPUT_PIXELS = 40_000_000;

/** An ffmpeg-style colour (`0xRRGGBB` or a name) as sharp and pango read it. */
export function cssColor(color: string): string {
  return color.replace(/^0x/i, '#');
}

/** Text sizes and lines for `scene` in a `width` × `height` frame. */
function styleOf(scene: Scene, width: number, height: number, color: string): TextStyle {
  // Sized on the short side, so that 16:9 (720 px) and 4:5 (1080 px) read alike; a portrait
  // frame has the height for a third line of heading.
  const unit = Math.min(width, height) / 720;
  return {
    heading: Math.round((scene.kind === 'content' ? 46 : 58) * unit),
    body: Math.round((scene.kind === 'content' ? 29 : 32) * unit),
    headingLines: height > width ? 3 : 2,
    bodyLines: scene.kind === 'content' ? 4 : 3,
    color,
  };
}

/** The still of `scene` as a PNG of the storyboard's frame size. */
export async function sceneStill(scene: Scene, board: Storyboard): Promise<Buffer> {
  const { width: w, height: h, palette } = board;
  const safe = safeArea(w, h);
  const bar = { width: Math.round(w * 0.12), height: Math.max(4, Math.round(h * 0.008)) };
  const barGap = Math.round(h * 0.025);
  // With an image, the text may take the safe area's lower part only, so the picture shows.
  const maxText = (scene.image ? Math.round(h * 0.45) - safe.top : safe.height) - bar.height - barGap;
  const text = await layoutText(scene, safe.width, maxText, styleOf(scene, w, h, cssColor(palette.text)));
  const group = bar.height + barGap + text.height;
  const top = scene.image ? safe.top + safe.height - group : safe.top + Math.round((safe.height - group) / 2);

  const background = cssColor(palette.background);
  const base = scene.image
    ? sharp(scene.image, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize(w, h, { fit: 'cover', position: 'centre' })
        .flatten({ background })
    : sharp({ create: { width: w, height: h, channels: 3, background } });
  const layers: OverlayOptions[] = [];
  if (scene.image) {
    const bandTop = Math.max(0, top - Math.round(h * 0.04));
    layers.push({
      input: { create: { width: w, height: h - bandTop, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.6 } } },
      left: 0,
      top: bandTop,
    });
  }
  layers.push({
    input: { create: { ...bar, channels: 3, background: cssColor(palette.accent) } },
    left: safe.left,
    top,
  });
  for (const block of [text.heading, text.body]) {
    if (block) layers.push({ input: block.png, left: safe.left, top: top + bar.height + barGap + block.top });
  }
  // Plain RGB: the video has no alpha (the band's shade is part of the still once composed).
  return base.composite(layers).removeAlpha().png({ compressionLevel: 2 }).toBuffer();
}
