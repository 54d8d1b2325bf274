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
/** Longest silence inside a scene, in seconds, that a storyboard of a page's sections leaves. */
export const MAX_SILENCE = 1;
/** Seconds a scene keeps after its voice ends (the voice may run a little longer than estimated). */
const VOICE_TAIL = 0.2;
/** Shortest scene, in seconds. */
const MIN_SCENE = 1.6;
/** A content scene of a page's sections lasts at most this many times the scenes' even share. */
const MAX_STRETCH = 1.5;

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
  const usable = (heading: string | undefined) =>
    heading !== undefined && heading.length <= HEADING_CHARS && !/…$/u.test(heading);
  const headings = (source.headings ?? []).filter(usable);
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
  const board = (scenes: Scene[]): Storyboard => ({
    width,
    height,
    fps: FPS,
    duration: params.duration,
    language: params.language,
    palette,
    pace,
    scenes,
  });

  // The title scene: the name, and the description's first sentence when it fits.
  const description = source.description ? [source.description] : [];
  const intro = fitting(splitter, description, BODY_CHARS.title);
  const named = asSentence(name.text);
  // The closing line: the real domain to visit, or the business's name on a local address. It is
  // the closing scene's heading (the name is the title scene's), the name under it.
  const closing = domain
    ? `${VISIT[primary] ?? VISIT.en!} ${domain}.`
    : `${DISCOVER[primary] ?? DISCOVER.en!} ${name.text}.`;
  const closingScene = (narration: string, voiceover?: string): Omit<Scene, 'start' | 'duration'> => ({
    kind: 'closing',
    heading: closing.replace(/\.$/u, ''),
    ...(domain ? { body: name.text } : {}),
    narration,
    sources: sourcesOf({ heading: name.excerpt, voiceover }),
  });

  const sections = (source.sections ?? []).filter(
    (section) => usable(section.heading) && section.heading !== name.text && section.sentences.length > 0,
  );
  if (sections.length > 0) {
    return board(
      sectionScenes(source, params, {
        name,
        named,
        intro,
        description,
        closing,
        closingScene,
        splitter,
        pace,
        sourcesOf,
        pictureURL,
        sections,
      }),
    );
  }

  const scenes: Omit<Scene, 'start' | 'duration'>[] = [];
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
  scenes.push(closingScene(closing));
  return board(scenes.map((scene, index) => ({ ...scene, start: index * sceneLength, duration: sceneLength })));
}

/** What {@link sectionScenes} takes from {@link buildStoryboard}. */
interface SectionContext {
  name: Picked;
  named: string;
  intro: Picked | undefined;
  description: readonly string[];
  closing: string;
  closingScene: (narration: string, voiceover?: string) => Omit<Scene, 'start' | 'duration'>;
  splitter: SentenceSplitter;
  pace: Pace;
  sourcesOf: (fields: Omit<SceneSources, 'pageURL'>) => SceneSources;
  pictureURL: (image: string | undefined) => string | undefined;
  /** The sections a content scene can be made of: a usable heading that is not the name, a sentence. */
  sections: readonly StoryboardSection[];
}

/** The forms of `texts` that fit in `chars`, each with its excerpt, longest first. */
function forms(splitter: SentenceSplitter, texts: readonly string[], chars: number): Picked[] {
  return texts
    .flatMap((excerpt) => splitter.shortenings(excerpt).map((text) => ({ text, excerpt })))
    .filter((form) => form.text.length <= chars)
    .sort((a, b) => b.text.length - a.text.length);
}

/**
 * The scenes of a page read in sections: each content scene is one section's (its heading, what
 * it says and shows, its picture), the sections in page order, and again from the first when the
 * video has more content scenes than the page has sections (each sentence said once). The title
 * scene shows the name and the page's first picture outside those sections (its `og:image`, its
 * header's); the closing scene the closing line.
 *
 * Scene lengths follow what each says: every scene gets the time its narration needs
 * ({@link narrationSeconds}), then an even share of what is left, so that no scene is silent for
 * more than {@link MAX_SILENCE} where the page has the words to fill it. What is said is chosen to
 * fit: first the longest sentence of each section that a scene of at most {@link MAX_STRETCH}
 * times the even length can say, shortened while the whole is too long; then, while time is left,
 * the title scene says the page's opening words, a content scene a second sentence of its section,
 * the closing scene the name before its line.
 */
function sectionScenes(source: StoryboardSource, params: StoryboardParams, context: SectionContext): Scene[] {
  const { name, named, intro, description, closing, splitter, pace, sourcesOf, pictureURL, sections } = context;
  const count = sceneCount(params.duration, pace);
  const even = params.duration / count;
  const need = (text: string) => narrationSeconds(text, pace);
  const maxChars = (seconds: number) => Math.floor((seconds - VOICE_LEAD - VOICE_TAIL) * NARRATION_CPS);
  const fileOf = new Map(Object.entries(source.imageURLs ?? {}).map(([file, url]) => [url, file]));
  const inSections = new Set(sections.flatMap((section) => section.images));
  const files = (urls: readonly string[]) => urls.flatMap((url) => fileOf.get(url) ?? []);
  // Pictures of no content section: the title's, and a section's without one of its own.
  const loose = source.images.filter((file) => !inSections.has(pictureURL(file) ?? ''));

  // The content scenes' sections, and the sentences still unsaid in each.
  const unsaid = sections.map((section) => [...new Set(section.sentences)]);
  const rounds = new Map<number, number>();
  const content = Array.from({ length: count - 2 }, (_, index) => {
    const at = index % sections.length;
    rounds.set(at, (rounds.get(at) ?? 0) + 1);
    return { at, round: rounds.get(at)! - 1 };
  });
  const stretch = maxChars(Math.min(even * MAX_STRETCH, params.duration - MIN_SCENE * (count - 1)));
  // What each content scene says: all its section's forms that fit, longest first; `pick` the one used.
  // (the forms of one sentence: the longest that fits, and its shorter forms to fall back on).
  const choices = content.map(({ at }) => {
    const options = forms(splitter, unsaid[at]!, stretch);
    const picked = options[0];
    if (picked) unsaid[at]!.splice(unsaid[at]!.indexOf(picked.excerpt), 1);
    return { options: picked ? options.filter((option) => option.excerpt === picked.excerpt) : [], pick: 0 };
  });
  const heading = (at: number) => ({ text: sections[at]!.heading!, excerpt: sections[at]!.heading! });
  const said = (index: number): Picked => {
    const choice = choices[index]!;
    return (
      choice.options[choice.pick] ?? {
        text: asSentence(heading(content[index]!.at).text),
        excerpt: heading(content[index]!.at).excerpt,
      }
    );
  };
  let titleSaid: { text: string; excerpt: string } = { text: named, excerpt: name.excerpt };
  let closingSaid: { text: string; excerpt?: string } = { text: closing };
  const extra: (Picked | undefined)[] = content.map(() => undefined);
  const needs = () => [
    need(titleSaid.text),
    ...content.map((_, index) => need(joined(said(index), extra[index]))),
    need(closingSaid.text),
  ];
  const total = () => needs().reduce((sum, seconds) => sum + Math.max(MIN_SCENE, seconds), 0);
  // Too long: the longest content scene says a shorter form of its sentence, while there is one.
  while (total() > params.duration) {
    const longest = choices
      .map((choice, index) => ({ choice, index, seconds: need(said(index).text) }))
      .filter(({ choice }) => choice.pick < choice.options.length - 1)
      .sort((a, b) => b.seconds - a.seconds)[0];
    if (!longest) break;
    longest.choice.pick++;
  }
  // Time left: more of the page's words, where they fit in it.
  // The title scene: the page's opening words (its name's section), else its description; one
  // that starts with the name is said without saying the name first.
  const opening = source.sections?.find((section) => section.heading === name.text)?.sentences ?? [];
  const intros = [
    ...forms(splitter, opening, maxChars(params.duration)),
    ...forms(splitter, description, maxChars(params.duration)),
  ];
  for (const option of intros) {
    const text = option.text.startsWith(name.text) ? option.text : `${named} ${option.text}`;
    titleSaid = { text, excerpt: option.excerpt };
    if (total() <= params.duration) break;
    titleSaid = { text: named, excerpt: name.excerpt };
  }
  for (const [index, { at }] of content.entries()) {
    // A second sentence only after a first said whole: the two read as the page wrote them.
    if (said(index).text !== said(index).excerpt) continue;
    for (const option of forms(splitter, unsaid[at]!, stretch)) {
      extra[index] = option;
      if (total() <= params.duration) {
        unsaid[at]!.splice(unsaid[at]!.indexOf(option.excerpt), 1);
        break;
      }
      extra[index] = undefined;
    }
  }
  // The closing line names a domain: the name before it, when there is time ("Discover Name." has it).
  if (!closing.includes(name.text)) {
    closingSaid = { text: `${named} ${closing}`, excerpt: name.excerpt };
    if (total() > params.duration) closingSaid = { text: closing };
  }

  // The scenes, their lengths on whole frames: each its need, then an even share of the rest.
  const seconds = needs().map((value) => Math.max(MIN_SCENE, value));
  const spare = Math.max(0, params.duration - seconds.reduce((sum, value) => sum + value, 0)) / count;
  const scale = Math.min(1, params.duration / seconds.reduce((sum, value) => sum + value, 0));
  const ends: number[] = [];
  let end = 0;
  for (const value of seconds) ends.push(Math.round((end += value * scale + spare) * FPS) / FPS);
  ends[ends.length - 1] = params.duration;

  const titleImage = loose[0] ?? source.images[0];
  const scenes: Omit<Scene, 'start' | 'duration'>[] = [
    {
      kind: 'title',
      heading: name.text,
      ...(intro ? { body: intro.text } : {}),
      ...(titleImage ? { image: titleImage } : {}),
      narration: titleSaid.text,
      sources: sourcesOf({
        heading: name.excerpt,
        text: intro?.excerpt,
        voiceover: titleSaid.excerpt,
        pictureURL: pictureURL(titleImage),
      }),
    },
    ...content.map(({ at, round }, index) => {
      const voice = said(index);
      const more = extra[index];
      const narration = joined(voice, more);
      const excerpt = more ? `${voice.excerpt} ${more.excerpt}` : voice.excerpt;
      // On screen: what is said when it fits, else the sentence it was taken from when that does.
      const shown = fitting(splitter, [narration, voice.excerpt], BODY_CHARS.content);
      const own = files(sections[at]!.images);
      const image = own.length > 0 ? own[round % own.length] : loose[(index + 1) % Math.max(1, loose.length)];
      return {
        kind: 'content' as const,
        heading: heading(at).text,
        ...(shown ? { body: shown.text } : {}),
        ...(image ? { image } : {}),
        narration,
        sources: sourcesOf({
          heading: heading(at).excerpt,
          // The page's words: what is said was taken from them (a scene never shows its own words).
          text: shown ? (shown.excerpt === narration ? excerpt : shown.excerpt) : undefined,
          voiceover: excerpt,
          pictureURL: pictureURL(image),
        }),
      };
    }),
    context.closingScene(closingSaid.text, closingSaid.excerpt),
  ];
  return scenes.map((scene, index) => {
    const start = index === 0 ? 0 : ends[index - 1]!;
    return { ...scene, start, duration: ends[index]! - start };
  });
}

/** What a scene says: one sentence of its section, or two. */
const joined = (first: Picked, second: Picked | undefined) => (second ? `${first.text} ${second.text}` : first.text);

/**
 * The start and length of each scene of an edit (the editor's save) of `before`, whose scenes say
 * `narrations` in order: a scene that says what a scene of `before` said keeps that scene's length
 * (its voice and its frames stay the same, so the scene cache still has it, wherever it moved);
 * the others share the rest evenly. An edit that adds or removes scenes spreads them evenly, as
 * does one whose new scenes that would leave less than {@link MIN_SCENE} each.
 */
export function editedTimes(
  before: readonly Scene[],
  narrations: readonly string[],
  duration: number,
): { start: number; duration: number }[] {
  const even = () =>
    narrations.map((_, index) => ({
      start: (index * duration) / narrations.length,
      duration: duration / narrations.length,
    }));
  if (narrations.length !== before.length) return even();
  const unused = [...before];
  const kept = narrations.map((narration) => {
    const at = unused.findIndex((scene) => scene.narration === narration);
    return at < 0 ? undefined : unused.splice(at, 1)[0]!.duration;
  });
  const keptTotal = kept.reduce<number>((sum, length) => sum + (length ?? 0), 0);
  const free = kept.filter((length) => length === undefined).length;
  const share = free > 0 ? (duration - keptTotal) / free : 0;
  if (free > 0 ? share < MIN_SCENE : Math.abs(duration - keptTotal) > 1e-6) return even();
  const lengths = kept.map((length) => length ?? share);
  let start = 0;
  return lengths.map((length, index) => {
    const time = { start, duration: index === lengths.length - 1 ? duration - start : length };
    start += length;
    return time;
  });
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
