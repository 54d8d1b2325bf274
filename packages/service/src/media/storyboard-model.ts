/**
 * What a storyboard is made of (storyboard.ts builds one): its scenes, palettes, pace, sizes and
 * timing rules, and the text picking its scenes share (a page's text shortened at boundaries only,
 * sentences.ts). Pure data and functions.
 */
import { QUALITY_LIMITS } from './quality-limits.js';
import type { SentenceSplitter } from './source/sentences.js';
import type { AspectRatio, Duration, Language, SceneSources } from 'video-plugin/internal';

export type { SceneSources };

/** The aspect ratios and their standard resolutions. */
export const RESOLUTIONS = { '16:9': [1280, 720], '4:5': [1080, 1350] } as const satisfies Record<
  AspectRatio,
  readonly [number, number]
>;
/** Frames per second of every render. */
export const FPS = 25;

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
export const PALETTES: readonly (Palette & { words: readonly string[] })[] = [
  { name: 'indigo', background: '0x1e1b4b', accent: '0x6366f1', text: 'white', words: [] },
  {
    name: 'warm',
    background: '0x451a03',
    accent: '0xf59e0b',
    text: 'white',
    words: ['warm', 'cozy', 'sunny', 'morning'],
  },
  { name: 'cool', background: '0x0c4a6e', accent: '0x38bdf8', text: 'white', words: ['cool', 'calm', 'ocean', 'blue'] },
  {
    name: 'bold',
    background: '0x111111',
    accent: '0xef4444',
    text: 'white',
    words: ['bold', 'energetic', 'strong', 'red'],
  },
  {
    name: 'fresh',
    background: '0x052e16',
    accent: '0x22c55e',
    text: 'white',
    words: ['fresh', 'green', 'nature', 'organic'],
  },
  {
    name: 'elegant',
    background: '0x0a0a0a',
    accent: '0xd4af37',
    text: 'white',
    words: ['elegant', 'luxury', 'premium', 'gold'],
  },
];

const PACE_WORDS: Record<Exclude<Pace, 'normal'>, readonly string[]> = {
  brisk: ['fast', 'upbeat', 'energetic', 'quick', 'brisk', 'dynamic'],
  calm: ['calm', 'slow', 'relaxed', 'gentle', 'soothing'],
};

/** Words per minute of the voiceover, by pace. */
export const WORDS_PER_MINUTE: Record<Pace, number> = { calm: 145, normal: 165, brisk: 190 };

/** The closing line with a real domain, per language: "Visit bloomandstem.com". */
export const VISIT: Record<string, string> = {
  de: 'Besuchen Sie',
  en: 'Visit',
  es: 'Visita',
  fr: 'Rendez-vous sur',
  it: 'Visita',
  pt: 'Visite',
};
/** The closing line without one (a local or private address): "Discover Bloom & Stem". */
export const DISCOVER: Record<string, string> = {
  de: 'Entdecken Sie',
  en: 'Discover',
  es: 'Descubre',
  fr: 'Découvrez',
  it: 'Scopri',
  pt: 'Descubra',
};

/** The caption speed a narration is chosen for: the quality report's limit, less a margin. */
export const NARRATION_CPS = QUALITY_LIMITS.captionCharsPerSecond - 1;
/** Seconds of silence before each scene's voice (voice.ts starts speaking after it). */
export const VOICE_LEAD = 0.15;
/** Longest on-video body of a content scene and of the title scene, in characters. */
export const BODY_CHARS = { content: 150, title: 110 } as const;
/** Longest scene heading, in characters: longer page headings are passed over. */
export const HEADING_CHARS = 70;
/** Longest silence inside a scene, in seconds, that a storyboard of a page's sections leaves. */
export const MAX_SILENCE = 1;
/** Seconds a scene keeps after its voice ends (the voice may run a little longer than estimated). */
export const VOICE_TAIL = 0.2;
/** Shortest scene, in seconds. */
export const MIN_SCENE = 1.6;
/** A content scene of a page's sections lasts at most this many times the scenes' even share. */
export const MAX_STRETCH = 1.5;

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
  /**
   * The page's sections (source/page.ts: a heading, its sentences, its pictures' page URLs). With
   * them each content scene is one section's; topics read before them have only the lists above.
   */
  sections?: readonly StoryboardSection[];
}

/** A part of the source page: its heading, its paragraphs' sentences, its pictures' page URLs. */
export interface StoryboardSection {
  heading?: string;
  sentences: readonly string[];
  images: readonly string[];
}

export interface StoryboardParams {
  aspectRatio: AspectRatio;
  duration: Duration;
  language: Language;
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
  /** Where the scene's text and picture came from (absent in storyboards older than this field). */
  sources?: SceneSources;
}

export interface Storyboard {
  width: number;
  height: number;
  fps: number;
  duration: number;
  language: Language;
  palette: Palette;
  pace: Pace;
  scenes: Scene[];
}

/**
 * The frame at which `seconds` of `board` begin: a scene starts and ends on whole frames (its
 * segment has whole frames), so its cut point in the file is this frame's time, not `start` itself.
 */
export const frameAt = (board: Pick<Storyboard, 'fps'>, seconds: number): number => Math.round(seconds * board.fps);

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Seconds a scene needs for `narration` at `pace`: the voice's lead-in, the longer of the time
 * its captions take to read at {@link NARRATION_CPS} and the time the voice takes to say it (its
 * words at the pace's {@link WORDS_PER_MINUTE}, a pause after each sentence), then a short tail.
 */
export function narrationSeconds(narration: string, pace: Pace): number {
  const read = [...narration].length / NARRATION_CPS;
  const pauses = (narration.match(/[.!?…。！？]+(\s|$)/gu) ?? []).length * 0.3;
  const said = (words(narration).length * 60) / WORDS_PER_MINUTE[pace] + pauses;
  return VOICE_LEAD + Math.max(read, said) + VOICE_TAIL;
}

/** The palette and pace that `videoInstructions` ask for. */
export function styleOf(instructions = ''): { palette: Palette; pace: Pace } {
  const said = new Set(words(instructions));
  const { words: _words, ...palette } = PALETTES.find((p) => p.words.some((w) => said.has(w))) ?? PALETTES[0]!;
  const pace: Pace = PACE_WORDS.brisk.some((w) => said.has(w))
    ? 'brisk'
    : PACE_WORDS.calm.some((w) => said.has(w))
      ? 'calm'
      : 'normal';
  return { palette, pace };
}

/** How many scenes a video of `duration` seconds has at `pace`. */
export function sceneCount(duration: Duration, pace: Pace): number {
  const base = ({ 5: 2, 15: 4, 30: 6 } as const satisfies Record<Duration, number>)[duration];
  if (duration === 5) return base;
  return base + (pace === 'brisk' ? 1 : pace === 'calm' ? -1 : 0);
}

/**
 * Whether `hostname` is a domain people could visit: not an IP address, `localhost`, a name
 * without a dot, or a reserved or private-network suffix (RFC 2606, 6761, 6762, 8375).
 */
export function isPublicDomain(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.includes(':') || /^\[/.test(host) || /^\d+(\.\d+){3}$/.test(host) || !host.includes('.')) return false;
  return !/\.(localhost|local|test|invalid|example|internal|lan|home\.arpa|onion)$/.test(host);
}

/** A text picked for a scene: what is shown or said, and the page's text it came from. */
export interface Picked {
  text: string;
  excerpt: string;
}

/**
 * The longest form of one of `texts` (whole sentences, or cut at a clause: sentences.ts) that has
 * at most `chars` characters, trying the texts in order; undefined when none has one.
 */
export function fitting(splitter: SentenceSplitter, texts: readonly string[], chars: number): Picked | undefined {
  for (const excerpt of texts) {
    const text = splitter.shortenings(excerpt).find((form) => form.length <= chars);
    if (text) return { text, excerpt };
  }
  return undefined;
}

/** `heading` as a sentence of its own: "Roasted at dawn" → "Roasted at dawn." */
export const asSentence = (heading: string) => (/[.!?。！？]$/u.test(heading) ? heading : `${heading}.`);

/** The forms of `texts` that fit in `chars`, each with its excerpt, longest first. */
export function forms(splitter: SentenceSplitter, texts: readonly string[], chars: number): Picked[] {
  return texts
    .flatMap((excerpt) => splitter.shortenings(excerpt).map((text) => ({ text, excerpt })))
    .filter((form) => form.text.length <= chars)
    .sort((a, b) => b.text.length - a.text.length);
}
