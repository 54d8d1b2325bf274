/**
 * A video's storyboard: the scenes, their text, image and timing, the palette and the pace, built
 * from the topic's source page (title, description, headings, sentences, downloaded images) and
 * the generation's parameters. Pure: no I/O, so every rule is tested directly.
 *
 * - Scenes: a title scene headed by the business's name, content scenes and a closing scene
 *   headed by its line with the real domain (never a local address). 5 s → 2 scenes, 15 s → 4,
 *   30 s → 6; a brisk pace adds one, a calm pace removes one content scene.
 * - With the page's sections (section-scenes.ts), each content scene is one section's, and the
 *   scenes' lengths follow what each says; without them (topics read before sections), content
 *   scenes take the page's headings and sentences in order, and the scenes are even.
 * - Text: the page's whole sentences, shortened only at sentence and clause boundaries
 *   (sentences.ts), the narration short enough for its captions to read at 16 chars/s; each scene
 *   lists its sources (the page, the page's words it took, its picture's URL).
 * - Layout: 16:9 at 1280×720, 4:5 at 1080×1350 (the model: storyboard-model.ts).
 * - `videoInstructions`: words pick the palette (warm, cool, bold, fresh, elegant) and the pace
 *   (brisk: fast, upbeat, energetic, quick; calm: calm, slow, relaxed, gentle).
 */
import { SentenceSplitter } from './source/sentences.js';
import { sectionScenes } from './section-scenes.js';
import {
  asSentence,
  BODY_CHARS,
  DISCOVER,
  FPS,
  fitting,
  HEADING_CHARS,
  isPublicDomain,
  MIN_SCENE,
  NARRATION_CPS,
  RESOLUTIONS,
  sceneCount,
  styleOf,
  VISIT,
  VOICE_LEAD,
  type Picked,
  type Scene,
  type SceneSources,
  type Storyboard,
  type StoryboardParams,
  type StoryboardSource,
} from './storyboard-model.js';

export {
  FPS,
  frameAt,
  isPublicDomain,
  MAX_SILENCE,
  NARRATION_CPS,
  narrationSeconds,
  PALETTES,
  RESOLUTIONS,
  sceneCount,
  styleOf,
  VOICE_LEAD,
  WORDS_PER_MINUTE,
  type Pace,
  type Palette,
  type Scene,
  type SceneSources,
  type Storyboard,
  type StoryboardParams,
  type StoryboardSection,
  type StoryboardSource,
} from './storyboard-model.js';

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
