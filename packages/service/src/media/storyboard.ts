/**
 * A video's storyboard: the scenes, their text, image and timing, the palette and the pace, built
 * from the topic's source page (title, description, headings, sentences, downloaded images) and
 * the generation's parameters. Pure: no I/O, so every rule is tested directly.
 *
 * - Scenes: a title scene, content scenes (one per image, or text only when there is none) and a
 *   closing scene with the business's name and its real domain (never a local address). 5 s → 2
 *   scenes, 15 s → 4, 30 s → 6; a brisk pace adds one, a calm pace removes one content scene.
 * - Text: the page's whole sentences, shortened only at sentence and clause boundaries
 *   (sentences.ts), the narration short enough for its captions to read at 16 chars/s; each scene
 *   lists its sources (the page, the page's words it took, its picture's URL).
 * - Layout: 16:9 at 1280×720, 4:5 at 1080×1350.
 * - `videoInstructions`: words pick the palette (warm, cool, bold, fresh, elegant) and the pace
 *   (brisk: fast, upbeat, energetic, quick; calm: calm, slow, relaxed, gentle).
 */
import { QUALITY_LIMITS } from './quality-limits.js';
import { SentenceSplitter } from './source/sentences.js';
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
const VISIT: Record<string, string> = {
  de: 'Besuchen Sie',
  en: 'Visit',
  es: 'Visita',
  fr: 'Rendez-vous sur',
  it: 'Visita',
  pt: 'Visite',
};
/** The closing line without one (a local or private address): "Discover Bloom & Stem". */
const DISCOVER: Record<string, string> = {
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
const BODY_CHARS = { content: 150, title: 110 } as const;
/** Longest scene heading, in characters: longer page headings are passed over. */
const HEADING_CHARS = 70;

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
interface Picked {
  text: string;
  excerpt: string;
}

/**
 * The longest form of one of `texts` (whole sentences, or cut at a clause: sentences.ts) that has
 * at most `chars` characters, trying the texts in order; undefined when none has one.
 */
function fitting(splitter: SentenceSplitter, texts: readonly string[], chars: number): Picked | undefined {
  for (const excerpt of texts) {
    const text = splitter.shortenings(excerpt).find((form) => form.length <= chars);
    if (text) return { text, excerpt };
  }
  return undefined;
}

/** `heading` as a sentence of its own: "Roasted at dawn" → "Roasted at dawn." */
const asSentence = (heading: string) => (/[.!?。！？]$/u.test(heading) ? heading : `${heading}.`);

export function buildStoryboard(source: StoryboardSource, params: StoryboardParams): Storyboard {
  const [width, height] = RESOLUTIONS[params.aspectRatio];
  const { palette, pace } = styleOf(params.videoInstructions);
  const splitter = new SentenceSplitter(params.language);
  const primary = params.language.split('-')[0]!.toLowerCase();
  const pageURL = source.sourceURL;
  const hostname = new URL(pageURL).hostname.replace(/^www\./, '');
  const domain = isPublicDomain(hostname) ? hostname : undefined;
  const headings = (source.headings ?? []).filter((heading) => heading.length <= HEADING_CHARS && !/…$/u.test(heading));
  // The business: its own name, else its page title's first part, else its first heading, else its
  // domain — never a local address.
  const titleName = source.title?.split(/\s[|–—-]\s/)[0]?.trim();
  const name: Picked = source.siteName?.trim()
    ? { text: source.siteName.trim(), excerpt: source.siteName.trim() }
    : titleName
      ? { text: titleName, excerpt: source.title! }
      : headings[0]
        ? { text: headings[0], excerpt: headings[0] }
        : { text: domain ?? hostname, excerpt: '' };
  const count = sceneCount(params.duration, pace);
  const sceneLength = params.duration / count;
  // What the voice can say in a scene: its captions stay under the reading speed limit.
  const spoken = Math.floor((sceneLength - VOICE_LEAD - 0.2) * NARRATION_CPS);
  const sourcesOf = (fields: Omit<SceneSources, 'pageURL'>): SceneSources => ({
    pageURL,
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value)),
  });
  const pictureURL = (image: string | undefined) => (image ? source.imageURLs?.[image] : undefined);

  const scenes: Omit<Scene, 'start' | 'duration'>[] = [];
  // The title scene: the name, and the description's first sentence when it fits.
  const description = source.description ? [source.description] : [];
  const intro = fitting(splitter, description, BODY_CHARS.title);
  const named = asSentence(name.text);
  const introSaid = fitting(splitter, description, spoken - named.length - 1);
  const titleImage = source.images[0];
  scenes.push({
    kind: 'title',
    heading: name.text,
    ...(intro ? { body: intro.text } : {}),
    ...(titleImage ? { image: titleImage } : {}),
    narration: introSaid ? `${named} ${introSaid.text}` : named,
    sources: sourcesOf({
      heading: name.excerpt,
      text: intro?.excerpt,
      voiceover: introSaid?.excerpt ?? name.excerpt,
      pictureURL: pictureURL(titleImage),
    }),
  });

  // Content: the page's sentences in order, each said once; a scene left without one that fits
  // says its heading.
  const unsaid = (source.sentences ?? []).filter((text, index, all) => all.indexOf(text) === index);
  for (let i = 1; i < count - 1; i++) {
    const said = fitting(splitter, unsaid, spoken);
    if (said) unsaid.splice(unsaid.indexOf(said.excerpt), 1);
    // On screen: the whole of what is said when it fits, else a sentence of its own.
    const shown = fitting(splitter, said ? [said.excerpt] : unsaid, BODY_CHARS.content);
    if (shown && !said) unsaid.splice(unsaid.indexOf(shown.excerpt), 1);
    const heading = headings[i - 1] ? { text: headings[i - 1]!, excerpt: headings[i - 1]! } : name;
    const voice = said ?? { text: asSentence(heading.text), excerpt: heading.excerpt };
    const image = source.images.length > 0 ? source.images[i % source.images.length] : undefined;
    scenes.push({
      kind: 'content',
      heading: heading.text,
      ...(shown ? { body: shown.text } : {}),
      ...(image ? { image } : {}),
      narration: voice.text,
      sources: sourcesOf({
        heading: heading.excerpt,
        text: shown?.excerpt,
        voiceover: voice.excerpt,
        pictureURL: pictureURL(image),
      }),
    });
  }

  // The closing line: the real domain to visit, or the business's name on a local address.
  const closing = domain
    ? `${VISIT[primary] ?? VISIT.en!} ${domain}.`
    : `${DISCOVER[primary] ?? DISCOVER.en!} ${name.text}.`;
  scenes.push({
    kind: 'closing',
    heading: name.text,
    ...(domain ? { body: domain } : {}),
    narration: closing,
    sources: sourcesOf({ heading: name.excerpt }),
  });

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

/**
 * The sources of a scene the user edited (the editor's save): each text keeps its excerpt when it
 * is still the text of a scene of `before`, the picture its URL when it is a file of `imageURLs`;
 * a text the user wrote has none.
 */
export function editedSources(
  before: readonly Scene[],
  scene: { heading: string; body?: string | undefined; narration: string; image?: string | undefined },
  pageURL: string,
  imageURLs: Readonly<Record<string, string>>,
): SceneSources {
  const excerpt = (field: 'heading' | 'body' | 'narration', source: 'heading' | 'text' | 'voiceover') =>
    before.find((old) => old[field] !== undefined && old[field] === scene[field])?.sources?.[source];
  const found: Omit<SceneSources, 'pageURL'> = {
    heading: excerpt('heading', 'heading'),
    text: excerpt('body', 'text'),
    voiceover: excerpt('narration', 'voiceover'),
    pictureURL: scene.image ? imageURLs[scene.image] : undefined,
  };
  return { pageURL, ...Object.fromEntries(Object.entries(found).filter(([, value]) => value)) };
}
