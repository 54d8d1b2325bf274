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
/** Seconds of silence before each scene's voice (voice.ts starts speaking after it). */
export declare const VOICE_LEAD = 0.15;
export interface StoryboardSource {
    sourceURL: string;
    /** The business's name (`og:site_name`), when the page names it. */
    siteName?: string;
    title?: string;
    description?: string;
    headings?: readonly string[];
    sentences?: readonly string[];
    /** Files of the topic's downloaded images, in page order. */
    images: readonly string[];
    /** The page URL each file was downloaded from (by file); a file without one lists no picture URL. */
    imageURLs?: Readonly<Record<string, string>>;
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
    /** Where the scene's text and picture came from (absent in storyboards made before issue 33). */
    sources?: SceneSources;
}
/**
 * Where a scene came from: the page, the page's text each of its texts was taken from (an excerpt:
 * the sentence, heading, title or description as the page has it), and its picture's URL. A text
 * without an excerpt was written by the service (the closing line, a business name from the
 * address); one the user edited keeps no excerpt either.
 */
export interface SceneSources {
    pageURL: string;
    heading?: string;
    text?: string;
    voiceover?: string;
    pictureURL?: string;
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
/**
 * Whether `hostname` is a domain people could visit: not an IP address, `localhost`, a name
 * without a dot, or a reserved or private-network suffix (RFC 2606, 6761, 6762, 8375).
 */
export declare function isPublicDomain(hostname: string): boolean;
export declare function buildStoryboard(source: StoryboardSource, params: StoryboardParams): Storyboard;
/**
 * The sources of a scene the user edited (the editor's save): each text keeps its excerpt when it
 * is still the text of a scene of `before`, the picture its URL when it is a file of `imageURLs`;
 * a text the user wrote has none.
 */
export declare function editedSources(before: readonly Scene[], scene: {
    heading: string;
    body?: string | undefined;
    narration: string;
    image?: string | undefined;
}, pageURL: string, imageURLs: Readonly<Record<string, string>>): SceneSources;
//# sourceMappingURL=storyboard.d.ts.map