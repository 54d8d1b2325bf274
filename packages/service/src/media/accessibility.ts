/**
 * The words that make a finished video accessible besides its captions (render.ts): the transcript
 * (the narration as plain text, scene by scene) and the alt text (one short sentence for a page's
 * `alt`/`aria-label`). Pure: both are functions of the storyboard and the video's name, so they are
 * tested without rendering.
 */
import type { Storyboard } from './storyboard.js';

/** The alt text stops adding scene headings once it is this long (screen readers read it whole). */
const ALT_TEXT_BUDGET = 150;
/** At most this many scene headings in the alt text. */
const ALT_TEXT_HEADINGS = 3;

/**
 * "A 30-second video about “Name”" and its "…: A, B and C." per language (keyed by the primary
 * subtag; English for any other). Only what the video shows: its name and its scenes' headings.
 */
const ALT_TEXT: Record<string, (seconds: number, name: string) => string> = {
  de: (s, name) => `Ein ${s}-sekündiges Video über „${name}“`,
  en: (s, name) => `A ${s}-second video about “${name}”`,
  es: (s, name) => `Un vídeo de ${s} segundos sobre «${name}»`,
  fr: (s, name) => `Une vidéo de ${s} secondes sur « ${name} »`,
  it: (s, name) => `Un video di ${s} secondi su «${name}»`,
  pt: (s, name) => `Um vídeo de ${s} segundos sobre “${name}”`,
};

/**
 * The transcript: for each scene, its start time and on-screen heading, then what the voiceover
 * says, a blank line between scenes. Plain text (served as `text/plain; charset=utf-8`).
 */
export function transcript(board: Storyboard): string {
  const time = (seconds: number) => {
    const whole = Math.floor(seconds);
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  };
  return board.scenes.map((scene) => `[${time(scene.start)}] ${scene.heading}\n${scene.narration}\n`).join('\n');
}

/**
 * A short description of the video in its language, for `alt` or `aria-label`: its length and
 * name, then the headings of its content scenes (those that are not the name) while they fit
 * in about {@link ALT_TEXT_BUDGET} characters. Without a storyboard (placeholder media) only the
 * length and the name: nothing else is known of what it shows.
 */
export function altText(video: { name: string; duration: number; language: string }, board?: Storyboard): string {
  const primary = video.language.split('-')[0]!.toLowerCase();
  const intro = (ALT_TEXT[primary] ?? ALT_TEXT.en!)(video.duration, video.name.trim());
  const headings: string[] = [];
  const list = (items: string[]) =>
    new Intl.ListFormat(ALT_TEXT[primary] ? video.language : 'en', { type: 'conjunction' }).format(items);
  // A content scene without a heading of its own shows the business name, as the title scene does.
  const names = new Set([
    video.name.trim(),
    ...(board?.scenes ?? []).filter((s) => s.kind !== 'content').map((s) => s.heading.trim()),
  ]);
  for (const scene of board?.scenes ?? []) {
    const heading = scene.heading.trim();
    if (scene.kind !== 'content' || !heading || names.has(heading) || headings.includes(heading)) continue;
    if (headings.length === ALT_TEXT_HEADINGS) break;
    if (`${intro}: ${list([...headings, heading])}.`.length > ALT_TEXT_BUDGET) break;
    headings.push(heading);
  }
  return headings.length > 0 ? `${intro}: ${list(headings)}.` : `${intro}.`;
}
