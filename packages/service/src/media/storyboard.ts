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
import { SentenceSplitter } from './source/sentences.js';

/** The aspect ratios and their standard resolutions. */
export const RESOLUTIONS = { '16:9': [1280, 720], '4:5': [1080, 1350] } as const;
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

/** The closing line, per language: "Visit example.com". */
const VISIT: Record<string, string> = {
  de: 'Besuchen Sie',
  es: 'Visita',
  fr: 'Rendez-vous sur',
  'it-IT': 'Visita',
  pt: 'Visite',
};

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

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

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
export function sceneCount(duration: 5 | 15 | 30, pace: Pace): number {
  const base = { 5: 2, 15: 4, 30: 6 }[duration];
  if (duration === 5) return base;
  return base + (pace === 'brisk' ? 1 : pace === 'calm' ? -1 : 0);
}

/**
 * The first `max` words of `text`, ending with `end` when cut: a full stop for what is spoken, an
 * ellipsis for what is shown (a cut shown with a full stop reads as the page's own sentence).
 */
function limitWords(text: string, max: number, end: '.' | '…' = '.'): string {
  const parts = text.split(/\s+/).filter(Boolean);
  if (parts.length <= max) return parts.join(' ');
  return `${parts
    .slice(0, max)
    .join(' ')
    .replace(end === '.' ? /[,;:]$/ : /[.,;:]$/, '')}${end}`;
}

export function buildStoryboard(source: StoryboardSource, params: StoryboardParams): Storyboard {
  const [width, height] = RESOLUTIONS[params.aspectRatio];
  const { palette, pace } = styleOf(params.videoInstructions);
  const host = new URL(source.sourceURL).hostname.replace(/^www\./, '');
  const name = source.title?.split(/\s[|–—-]\s/)[0]?.trim() || host;
  const count = sceneCount(params.duration, pace);
  const sceneLength = params.duration / count;
  // What fits in a scene when spoken at this pace, with a breath at the end.
  const wordBudget = Math.max(3, Math.floor((sceneLength - 0.6) * (WORDS_PER_MINUTE[pace] / 60)));

  // Content: the page's headings and key sentences, the description first.
  const texts = [
    ...(source.sentences ?? []),
    ...(source.headings ?? []).map((heading) => heading.replace(/[.!?]*$/, '.')),
  ].filter((text, index, all) => text.length > 2 && all.indexOf(text) === index);
  const headings = [...(source.headings ?? [])];

  const scenes: Omit<Scene, 'start' | 'duration'>[] = [];
  // The description's first sentence ("Dr. Müller …" is not cut at "Dr.").
  const intro = source.description ? new SentenceSplitter(params.language).first(source.description) : undefined;
  scenes.push({
    kind: 'title',
    heading: name,
    ...(intro ? { body: limitWords(intro, 18, '…') } : {}),
    ...(source.images[0] ? { image: source.images[0] } : {}),
    narration: limitWords([`${name}.`, intro].filter(Boolean).join(' '), wordBudget),
  });
  for (let i = 1; i < count - 1; i++) {
    const text = texts[(i - 1) % Math.max(1, texts.length)] ?? intro ?? name;
    const heading = headings[i - 1] ?? name;
    const image = source.images.length > 0 ? source.images[i % source.images.length] : undefined;
    scenes.push({
      kind: 'content',
      heading: limitWords(heading, 8, '…'),
      body: limitWords(text, 22, '…'),
      ...(image ? { image } : {}),
      narration: limitWords(text, wordBudget),
    });
  }
  const visit = `${VISIT[params.language] ?? 'Visit'} ${host}`;
  scenes.push({ kind: 'closing', heading: name, body: host, narration: limitWords(`${visit}.`, wordBudget) });

  return {
    width,
    height,
    fps: FPS,
    duration: params.duration,
    language: params.language,
    palette,
    pace,
    scenes: scenes.map((scene, index) => ({ ...scene, start: index * sceneLength, duration: sceneLength })),
  };
}
