/**
 * Scene text laid out by measured width: pango (through sharp's text input, libvips) breaks the
 * lines at words, inside a word only when the word alone is wider than the box (long German
 * compounds, with a hyphen), and draws them in DejaVu Sans as transparent PNGs. A heading or a
 * body that does not fit its lines and the box is drawn smaller, step by step down to a floor;
 * what still does not fit then ends with an ellipsis.
 *
 * sharp crops a drawn text to its ink, so heights here are ink heights; {@link metrics} measures
 * the font's line height and its tallest line once per size to turn lines into heights.
 */
import sharp from 'sharp';
import { fontPath } from './tools.js';

export type Weight = 'bold' | 'regular';

/** A text drawn as a transparent PNG, cropped to its ink. */
export interface DrawnText {
  /** What was drawn: the text, or its beginning and an ellipsis. */
  text: string;
  /** Font size in pixels. */
  size: number;
  png: Buffer;
  width: number;
  height: number;
}

/** A heading (and a body under it) fitted into a box; `top`s are relative to the box's top. */
export interface TextLayout {
  heading?: DrawnText & { top: number };
  body?: DrawnText & { top: number };
  /** From the heading's top to the body's bottom. */
  height: number;
}

export interface TextStyle {
  /** Heading (bold) and body (regular) sizes in pixels, before any shrinking. */
  heading: number;
  body: number;
  /** Most lines of each. */
  headingLines: number;
  bodyLines: number;
  /** Text colour (a CSS colour name or `#rrggbb`). */
  color: string;
}

/** The size factors tried in order; the last one is the floor, where the ellipsis takes over. */
export const SCALES = [1, 0.9, 0.8, 0.72] as const;
const FAMILY: Record<Weight, string> = { bold: 'DejaVu Sans Bold', regular: 'DejaVu Sans' };
const ELLIPSIS = '…';

/**
 * The frame's title-safe area: 6 % of the width and of the height from each edge. What a player's
 * controls, a feed's overlay or a TV's overscan may cover stays free of text, at 16:9 and 4:5.
 */
export function safeArea(width: number, height: number): { left: number; top: number; width: number; height: number } {
  const x = Math.round(width * 0.06);
  const y = Math.round(height * 0.06);
  return { left: x, top: y, width: width - 2 * x, height: height - 2 * y };
}

/** `text` with pango markup's special characters escaped: a page's `&` or `<` is text. */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>'"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' })[c]!);
}

/** Draws `text` at `size` px in `weight`, wrapped to `width`, in `color`. */
export async function drawText(
  text: string,
  { size, width, color, weight }: { size: number; width: number; color: string; weight: Weight },
): Promise<DrawnText> {
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${color}">${escapeMarkup(text)}</span>`,
      fontfile: fontPath(weight),
      font: `${FAMILY[weight]} ${size}`,
      dpi: 72, // points are pixels
      width,
      wrap: 'word-char',
      align: 'left',
      rgba: true,
    },
  })
    .png({ compressionLevel: 2 })
    .toBuffer({ resolveWithObject: true });
  return { text, size, png: data, width: info.width, height: info.height };
}

const measured = new Map<string, Promise<{ line: number; tallest: number }>>();

/**
 * The line height at `size` (the ink of two lines minus the ink of one) and the ink height of the
 * tallest single line (accented capitals over descenders).
 */
function metrics(size: number, weight: Weight): Promise<{ line: number; tallest: number }> {
  const key = `${weight} ${size}`;
  let found = measured.get(key);
  if (!found) {
    const options = { size, width: 100_000, color: 'white', weight };
    found = Promise.all([drawText('ÅÉgjy', options), drawText('ÅÉgjy\nÅÉgjy', options)]).then(([one, two]) => ({
      line: two.height - one.height,
      tallest: one.height,
    }));
    measured.set(key, found);
  }
  return found;
}

/** The most ink that `lines` lines at `size` can have. */
async function linesHeight(lines: number, size: number, weight: Weight): Promise<number> {
  const { line, tallest } = await metrics(size, weight);
  return (lines - 1) * line + tallest + 1;
}

/**
 * `text` in at most `lines` lines and `maxHeight` px: at `size` when it fits, else at the first
 * smaller scale where it does; at the floor, its longest beginning that fits followed by an
 * ellipsis — cut between words, or inside the first word when even that is too long. Undefined
 * when not even one character and the ellipsis fit.
 */
export async function fitText(
  text: string,
  {
    size,
    lines,
    width,
    maxHeight,
    color,
    weight,
  }: { size: number; lines: number; width: number; maxHeight: number; color: string; weight: Weight },
): Promise<DrawnText | undefined> {
  for (const scale of SCALES) {
    const options = { size: Math.round(size * scale), width, color, weight };
    const max = Math.min(maxHeight, await linesHeight(lines, options.size, weight));
    const drawn = await drawText(text, options);
    if (drawn.height <= max) return drawn;
    if (scale !== SCALES.at(-1)) continue;
    const words = text.split(/\s+/).filter(Boolean);
    const cut = (count: number) =>
      `${words
        .slice(0, count)
        .join(' ')
        .replace(/[\s.,;:!?–—-]+$/u, '')}${ELLIPSIS}`;
    const fitting = await longest(words.length - 1, cut, options, max);
    if (fitting) return fitting;
    const letters = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(words[0] ?? '')];
    return longest(
      letters.length - 1,
      (count) =>
        `${letters
          .slice(0, count)
          .map((l) => l.segment)
          .join('')}${ELLIPSIS}`,
      options,
      max,
    );
  }
  return undefined;
}

/** Binary search for the largest `count` in 1..`most` whose `textOf(count)` fits `maxHeight`. */
async function longest(
  most: number,
  textOf: (count: number) => string,
  options: Parameters<typeof drawText>[1],
  maxHeight: number,
): Promise<DrawnText | undefined> {
  let low = 1;
  let high = most;
  let best: DrawnText | undefined;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const drawn = await drawText(textOf(middle), options);
    if (drawn.height <= maxHeight) {
      best = drawn;
      low = middle + 1;
    } else high = middle - 1;
  }
  return best;
}

/**
 * Lays out `heading` (bold) and `body` (regular) in a box `width` wide and at most `maxHeight`
 * high, each fitted by {@link fitText}. The heading goes first but leaves room for one line of
 * body at its floor size; the body gets what is left.
 */
export async function layoutText(
  { heading, body }: { heading: string; body?: string | undefined },
  width: number,
  maxHeight: number,
  style: TextStyle,
): Promise<TextLayout> {
  const gap = Math.round(style.body * 0.75);
  const floor = Math.round(style.body * SCALES.at(-1)!);
  const reserve = body ? gap + (await linesHeight(1, floor, 'regular')) : 0;
  const { color } = style;
  const head = await fitText(heading, {
    size: style.heading,
    lines: style.headingLines,
    width,
    maxHeight: maxHeight - reserve,
    color,
    weight: 'bold',
  });
  const layout: TextLayout = { height: head?.height ?? 0 };
  if (head) layout.heading = { ...head, top: 0 };
  if (body) {
    const top = head ? head.height + gap : 0;
    const drawn = await fitText(body, {
      size: style.body,
      lines: style.bodyLines,
      width,
      maxHeight: maxHeight - top,
      color,
      weight: 'regular',
    });
    if (drawn) {
      layout.body = { ...drawn, top };
      layout.height = top + drawn.height;
    }
  }
  return layout;
}
