/**
 * Scene text laid out by measured width: pango (through sharp's text input, libvips) breaks the
 * lines at words, inside a word only when the word alone is wider than the box (long German
 * compounds, with a hyphen), and draws them in DejaVu Sans as transparent PNGs. A heading or a
 * body that does not fit its lines and the box is drawn smaller, step by step down to a floor;
 * a body that still does not fit is shortened at its sentence or clause boundaries (never
 * mid-phrase, never with an ellipsis), or left out; only a heading (a user's long edit) still
 * ends with an ellipsis.
 *
 * {@link placeText} places a scene's text in its frame, for the renderer (still.ts) and for the
 * quality report (quality.ts), which measures the contrast of the rendered text at these boxes.
 * The bottom {@link CAPTION_AREA} of the frame holds no text: a player draws its captions and
 * its controls there.
 *
 * sharp crops a drawn text to its ink, so heights here are ink heights; {@link metrics} measures
 * the font's line height and its tallest line once per size to turn lines into heights.
 */
import sharp from 'sharp';
import { SentenceSplitter } from './source/sentences.js';
import { fontPath } from './tools.js';
/** The size factors tried in order; the last one is the floor, where the ellipsis takes over. */
export const SCALES = [1, 0.9, 0.8, 0.72];
const FAMILY = { bold: 'DejaVu Sans Bold', regular: 'DejaVu Sans' };
const ELLIPSIS = '…';
/**
 * The frame's title-safe area: 6 % of the width and of the height from each edge. What a player's
 * controls, a feed's overlay or a TV's overscan may cover stays free of text, at 16:9 and 4:5.
 */
export function safeArea(width, height) {
    const x = Math.round(width * 0.06);
    const y = Math.round(height * 0.06);
    return { left: x, top: y, width: width - 2 * x, height: height - 2 * y };
}
/** `text` with pango markup's special characters escaped: a page's `&` or `<` is text. */
export function escapeMarkup(text) {
    return text.replace(/[&<>'"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' })[c]);
}
/** Draws `text` at `size` px in `weight`, wrapped to `width`, in `color`. */
export async function drawText(text, { size, width, color, weight }) {
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
const measured = new Map();
/**
 * The line height at `size` (the ink of two lines minus the ink of one) and the ink height of the
 * tallest single line (accented capitals over descenders).
 */
function metrics(size, weight) {
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
async function linesHeight(lines, size, weight) {
    const { line, tallest } = await metrics(size, weight);
    return (lines - 1) * line + tallest + 1;
}
/**
 * `text` in at most `lines` lines and `maxHeight` px: at `size` when it fits, else at the first
 * smaller scale where it does; at the floor, its longest beginning that fits followed by an
 * ellipsis — cut between words, or inside the first word when even that is too long. Undefined
 * when not even one character and the ellipsis fit.
 */
export async function fitText(text, { size, lines, width, maxHeight, color, weight, shorten, }) {
    for (const scale of SCALES) {
        const options = { size: Math.round(size * scale), width, color, weight };
        const max = Math.min(maxHeight, await linesHeight(lines, options.size, weight));
        const drawn = await drawText(text, options);
        if (drawn.height <= max)
            return drawn;
        if (scale !== SCALES.at(-1))
            continue;
        if (shorten) {
            for (const form of shorten.shortenings(text).slice(1)) {
                const shorter = await drawText(form, options);
                if (shorter.height <= max)
                    return shorter;
            }
            return undefined;
        }
        const words = text.split(/\s+/).filter(Boolean);
        const cut = (count) => `${words
            .slice(0, count)
            .join(' ')
            .replace(/[\s.,;:!?–—-]+$/u, '')}${ELLIPSIS}`;
        const fitting = await longest(words.length - 1, cut, options, max);
        if (fitting)
            return fitting;
        const letters = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(words[0] ?? '')];
        return longest(letters.length - 1, (count) => `${letters
            .slice(0, count)
            .map((l) => l.segment)
            .join('')}${ELLIPSIS}`, options, max);
    }
    return undefined;
}
/** Binary search for the largest `count` in 1..`most` whose `textOf(count)` fits `maxHeight`. */
async function longest(most, textOf, options, maxHeight) {
    let low = 1;
    let high = most;
    let best;
    while (low <= high) {
        const middle = Math.floor((low + high) / 2);
        const drawn = await drawText(textOf(middle), options);
        if (drawn.height <= maxHeight) {
            best = drawn;
            low = middle + 1;
        }
        else
            high = middle - 1;
    }
    return best;
}
/**
 * Lays out `heading` (bold) and `body` (regular) in a box `width` wide and at most `maxHeight`
 * high, each fitted by {@link fitText}. The heading goes first but leaves room for one line of
 * body at its floor size; the body gets what is left.
 */
export async function layoutText({ heading, body }, width, maxHeight, style, language) {
    const gap = Math.round(style.body * 0.75);
    const floor = Math.round(style.body * SCALES.at(-1));
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
    const layout = { height: head?.height ?? 0 };
    if (head)
        layout.heading = { ...head, top: 0 };
    if (body) {
        const top = head ? head.height + gap : 0;
        const drawn = await fitText(body, {
            size: style.body,
            lines: style.bodyLines,
            width,
            maxHeight: maxHeight - top,
            color,
            weight: 'regular',
            shorten: new SentenceSplitter(language),
        });
        if (drawn) {
            layout.body = { ...drawn, top };
            layout.height = top + drawn.height;
        }
    }
    return layout;
}
/** The bottom share of the frame that holds no burned-in text: the player's captions and controls. */
export const CAPTION_AREA = 0.25;
/** Text sizes and lines for `scene` in a `width` × `height` frame. */
function textStyle(scene, width, height, color) {
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
/** An ffmpeg-style colour (`0xRRGGBB` or a name) as sharp and pango read it. */
export function cssColor(color) {
    return color.replace(/^0x/i, '#');
}
/**
 * Where `scene`'s text goes in `board`'s frame. Inside the safe area and above the caption area;
 * with an image at the bottom of that room (taking at most 45 % of the frame, so the picture
 * shows), without one centred in it.
 */
export async function placeText(scene, board) {
    const { width: w, height: h } = board;
    const safe = safeArea(w, h);
    const bottom = Math.min(safe.top + safe.height, h - Math.round(h * CAPTION_AREA));
    const bar = { width: Math.round(w * 0.12), height: Math.max(4, Math.round(h * 0.008)) };
    const barGap = Math.round(h * 0.025);
    const room = bottom - safe.top;
    const maxText = (scene.image ? Math.min(room, Math.round(h * 0.45)) : room) - bar.height - barGap;
    const style = textStyle(scene, w, h, cssColor(board.palette.text));
    const text = await layoutText(scene, safe.width, maxText, style, board.language);
    const group = bar.height + barGap + text.height;
    const top = scene.image ? bottom - group : safe.top + Math.round((room - group) / 2);
    const textTop = top + bar.height + barGap;
    const blocks = ['heading', 'body'].flatMap((kind) => {
        const drawn = text[kind];
        return drawn ? [{ kind, left: safe.left, top: textTop + drawn.top, drawn }] : [];
    });
    return {
        left: safe.left,
        top,
        bar,
        barGap,
        text,
        blocks,
        ...(scene.image ? { bandTop: Math.max(0, top - Math.round(h * 0.04)) } : {}),
    };
}
//# sourceMappingURL=layout.js.map