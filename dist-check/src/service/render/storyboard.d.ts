/**
 * A video's storyboard: the scenes, their text, image and timing, the palette and the pace, built
 * from the topic's source page (title, description, headings, sentences, downloaded images) and
 * the generation's parameters. Pure: no I/O, so every rule is tested directly.
 *
 * - Scenes: a title scene, content scenes (one per image, or text only when there is none) and a
 *   closing scene with the business name and the site's address. 5 s → 2 scenes, 15 s → 4,
 *   30 s → 6; a brisk pace adds one, a calm pace removes one content scene.
 * - Layout: 16:9 at 1280×720, 4:5 at 1080×1350.
 * - `videoInstructions`: words pick the palette (warm, cool, bold, fresh, elegant) and the pace
 *   (brisk: fast, upbeat, energetic, quick; calm: calm, slow, relaxed, gentle).
 */
/** The aspect ratios and their standard resolutions. */
export declare const RESOLUTIONS: {
  readonly '16:9': readonly [1280, 720];
  readonly '4:5': readonly [1080, 1350];
};
/** Frames per second of every render. */
export declare const FPS = 25;
export type Pace = 'calm' | 'normal' | 'brisk';
export interface Palette {
  name: string;
  /** Background of text scenes, `0xRRGGBB`. */
  background: string;
  /** Accent bar and the closing scene's band. */
  accent: string;
  text: string;
}
/** Palettes, with the words of `videoInstructions` that pick each. The first is the default. */
export declare const PALETTES: readonly (Palette & {
  words: readonly string[];
})[];
/** Words per minute of the voiceover, by pace. */
export declare const WORDS_PER_MINUTE: Record<Pace, number>;
export interface StoryboardSource {
  sourceURL: string;
  title?: string;
  description?: string;
  headings?: readonly string[];
  sentences?: readonly string[];
  /** Files of the topic's downloaded images, in page order. */
  images: readonly string[];
}
export interface StoryboardParams {
  aspectRatio: '16:9' | '4:5';
  duration: 5 | 15 | 30;
  language: string;
  videoInstructions?: string;
}
export interface Scene {
  kind: 'title' | 'content' | 'closing';
  /** Large text on the scene. */
  heading: string;
  /** Smaller text under it. */
  body?: string;
  /** Image file, or none for a text scene. */
  image?: string;
  /** Start and length in seconds. */
  start: number;
  duration: number;
  /** What the voiceover says during the scene (also its caption). */
  narration: string;
}
export interface Storyboard {
  width: number;
  height: number;
  fps: number;
  duration: number;
  language: string;
  palette: Palette;
  pace: Pace;
  scenes: Scene[];
}
/** The palette and pace that `videoInstructions` ask for. */
export declare function styleOf(instructions?: string): {
  palette: Palette;
  pace: Pace;
};
/** How many scenes a video of `duration` seconds has at `pace`. */
export declare function sceneCount(duration: 5 | 15 | 30, pace: Pace): number;
export declare function buildStoryboard(source: StoryboardSource, params: StoryboardParams): Storyboard;
//# sourceMappingURL=storyboard.d.ts.map
