/**
 * The scenes of a page read in sections (storyboard.ts decides when): each content scene one
 * section's, and scene lengths that follow what each scene says.
 */
import type { SentenceSplitter } from './source/sentences.js';
import {
  asSentence,
  BODY_CHARS,
  FPS,
  fitting,
  forms,
  MAX_STRETCH,
  MIN_SCENE,
  NARRATION_CPS,
  narrationSeconds,
  sceneCount,
  VOICE_LEAD,
  VOICE_TAIL,
  type Pace,
  type Picked,
  type Scene,
  type SceneSources,
  type StoryboardParams,
  type StoryboardSection,
  type StoryboardSource,
} from './storyboard-model.js';

/** What {@link sectionScenes} takes from `buildStoryboard`. */
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
export function sectionScenes(source: StoryboardSource, params: StoryboardParams, context: SectionContext): Scene[] {
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
