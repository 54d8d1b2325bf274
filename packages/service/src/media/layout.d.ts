import { SentenceSplitter } from './source/sentences.js';
import type { Scene, Storyboard } from './storyboard.js';
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
    heading?: DrawnText & {
        top: number;
    };
    body?: DrawnText & {
        top: number;
    };
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
export declare const SCALES: readonly [1, 0.9, 0.8, 0.72];
/**
 * The frame's title-safe area: 6 % of the width and of the height from each edge. What a player's
 * controls, a feed's overlay or a TV's overscan may cover stays free of text, at 16:9 and 4:5.
 */
export declare function safeArea(width: number, height: number): {
    left: number;
    top: number;
    width: number;
    height: number;
};
/** `text` with pango markup's special characters escaped: a page's `&` or `<` is text. */
export declare function escapeMarkup(text: string): string;
/** Draws `text` at `size` px in `weight`, wrapped to `width`, in `color`. */
export declare function drawText(text: string, { size, width, color, weight }: {
    size: number;
    width: number;
    color: string;
    weight: Weight;
}): Promise<DrawnText>;
/**
 * `text` in at most `lines` lines and `maxHeight` px: at `size` when it fits, else at the first
 * smaller scale where it does; at the floor, its longest beginning that fits followed by an
 * ellipsis — cut between words, or inside the first word when even that is too long. Undefined
 * when not even one character and the ellipsis fit.
 */
export declare function fitText(text: string, { size, lines, width, maxHeight, color, weight, shorten, }: {
    size: number;
    lines: number;
    width: number;
    maxHeight: number;
    color: string;
    weight: Weight;
    /** At the floor, shorten at sentence and clause boundaries (sentences.ts) instead of cutting. */
    shorten?: SentenceSplitter | undefined;
}): Promise<DrawnText | undefined>;
/**
 * Lays out `heading` (bold) and `body` (regular) in a box `width` wide and at most `maxHeight`
 * high, each fitted by {@link fitText}. The heading goes first but leaves room for one line of
 * body at its floor size; the body gets what is left.
 */
export declare function layoutText({ heading, body }: {
    heading: string;
    body?: string | undefined;
}, width: number, maxHeight: number, style: TextStyle, language?: string): Promise<TextLayout>;
/** The bottom share of the frame that holds no burned-in text: the player's captions and controls. */
export declare const CAPTION_AREA = 0.25;
/** A scene's text placed in its frame: the accent bar, the text blocks and the shaded band. */
export interface TextPlacement {
    /** Left edge of the bar and the text, and the top of the bar. */
    left: number;
    top: number;
    bar: {
        width: number;
        height: number;
    };
    /** From the bar's bottom to the text's top. */
    barGap: number;
    text: TextLayout;
    /** With an image: where the shaded band under the text starts (it reaches the frame's bottom). */
    bandTop?: number;
    /** The frame boxes of the drawn heading and body, with their drawn text. */
    blocks: {
        kind: 'heading' | 'body';
        left: number;
        top: number;
        drawn: DrawnText;
    }[];
}
/** An ffmpeg-style colour (`0xRRGGBB` or a name) as sharp and pango read it. */
export declare function cssColor(color: string): string;
/**
 * Where `scene`'s text goes in `board`'s frame. Inside the safe area and above the caption area;
 * with an image at the bottom of that room (taking at most 45 % of the frame, so the picture
 * shows), without one centred in it.
 */
export declare function placeText(scene: Scene, board: Storyboard): Promise<TextPlacement>;
//# sourceMappingURL=layout.d.ts.map