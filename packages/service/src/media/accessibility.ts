/**
 * The words that make a finished video accessible: the captions (WebVTT cues of the narration, each
 * short and slow enough to read), the chapters (one per scene, titled by its heading: a list, a
 * WebVTT `kind="chapters"` file and the MP4's chapters as an ffmetadata file), the transcript (the
 * narration as plain text, scene by scene) and the alt text (one short sentence for a page's
 * `alt`/`aria-label`). Pure: all are functions of the storyboard and the video's name, so they are
 * tested without rendering.
 */
import { SentenceSplitter } from './source/sentences.js';
import type { Chapter } from 'video-plugin/internal';
import { frameAt, VOICE_LEAD, type Storyboard } from './storyboard.js';

/** Most characters of one caption cue (two lines of a player's captions); longer ones are split. */
export const MAX_CUE_CHARS = 84;

/** One caption cue: its time in seconds, its text, and the scene (0-based) it belongs to. */
export interface Cue {
  start: number;
  end: number;
  text: string;
  scene: number;
}

/**
 * The caption cues of `board`. A narration longer than {@link MAX_CUE_CHARS} is split between
 * sentences, else between clauses (at a comma or a semicolon), else between words
 * ({@link cueTexts}); the voice speaks each part as a piece of its own (voice.ts).
 *
 * `voiced` is where the voice track starts each piece, in seconds of the video, one per cue in
 * order: the renderer reads it from the voice it made (the WAV's cue points), so each cue starts
 * on its words and lasts until the next one's, the scene's last to the scene's end. Without it
 * (nothing was spoken yet) the times are an estimate: the scene's first cue starts when its voice
 * does ({@link VOICE_LEAD}) and the scene's time is shared by the characters of its cues.
 */
export function cues(board: Storyboard, voiced?: readonly number[]): Cue[] {
  const splitter = new SentenceSplitter(board.language);
  const texts = board.scenes.map((scene) => cueTexts(scene.narration, splitter));
  const count = texts.reduce((sum, parts) => sum + parts.length, 0);
  if (voiced && voiced.length !== count) {
    throw new Error(`the voice has ${voiced.length} cue points for ${count} caption cues`);
  }
  let next = 0;
  return board.scenes.flatMap((scene, index) => {
    const parts = texts[index]!;
    const end = scene.start + scene.duration;
    if (voiced) {
      const starts = voiced.slice(next, (next += parts.length));
      return parts.map((text, at) => {
        const start = Math.min(starts[at]!, end);
        return { start, end: Math.max(start, Math.min(starts[at + 1] ?? end, end)), text, scene: index };
      });
    }
    const start = scene.start + Math.min(VOICE_LEAD, scene.duration / 4);
    const total = parts.reduce((sum, part) => sum + part.length, 0) || 1;
    let at = start;
    return parts.map((text) => {
      const length = ((end - start) * text.length) / total;
      const cue = { start: at, end: at + length, text, scene: index };
      at += length;
      return cue;
    });
  });
}

/**
 * A scene's `narration` in the parts its cues show (and its voice speaks one by one), each of at
 * most {@link MAX_CUE_CHARS}, cut at the largest boundary that allows it.
 */
export function cueTexts(narration: string, splitter: SentenceSplitter): string[] {
  const text = narration.trim();
  if (text.length <= MAX_CUE_CHARS) return [text];
  for (const pieces of [splitter.sentences(text), text.split(/(?<=[,;:])\s+/u), text.split(/\s+/u)]) {
    if (pieces.length < 2) continue;
    const parts: string[] = [];
    for (const piece of pieces) {
      const last = parts.at(-1);
      if (last !== undefined && last.length + 1 + piece.length <= MAX_CUE_CHARS)
        parts[parts.length - 1] = `${last} ${piece}`;
      else parts.push(piece);
    }
    if (parts.every((part) => part.length <= MAX_CUE_CHARS)) return parts;
  }
  return [text];
}

/** `seconds` as a WebVTT timestamp: `00:00:02.520`. */
function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, size = 2) => String(n).padStart(size, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/**
 * `text` as WebVTT cue text: `&`, `<` and `>` as character references (else `<b>` is markup that
 * players show as bold and drop, and `-->` can end a cue), and no blank line (one ends the cue).
 * Text without them is written as it is, so renders of such text keep their bytes.
 */
const vttText = (text: string) =>
  text
    .replace(/\r\n?/gu, '\n')
    .replace(/\n\s*\n/gu, '\n')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');

/** WebVTT captions of {@link cues} (`voiced`: where the voice starts each one, in seconds). */
export function captions(board: Storyboard, voiced?: readonly number[]): string {
  const list = cues(board, voiced).map(
    (cue, index) => `${index + 1}\n${vttTime(cue.start)} --> ${vttTime(cue.end)}\n${vttText(cue.text)}\n`,
  );
  return `WEBVTT\n\n${list.join('\n')}`;
}

/**
 * The chapters of `board`: one per scene, in order, titled by the scene's heading on one line (a
 * heading's line breaks and runs of spaces become one space), from the frame the scene starts on
 * to the frame the next one does (the render's cut points: scenes start on whole frames, so the
 * second scene of a 5 s video at 25 fps starts at 2.52 s, not 2.5 s).
 */
export function chapters(board: Storyboard): Chapter[] {
  const at = (seconds: number) => frameAt(board, seconds) / board.fps;
  return board.scenes.map((scene) => ({
    title: scene.heading.replace(/\s+/gu, ' ').trim(),
    start: at(scene.start),
    end: at(scene.start + scene.duration),
  }));
}

/** The {@link chapters} as a WebVTT file for `<track kind="chapters">`: one cue per scene. */
export function chaptersVtt(board: Storyboard): string {
  const list = chapters(board).map(
    (chapter, index) =>
      `${index + 1}\n${vttTime(chapter.start)} --> ${vttTime(chapter.end)}\n${vttText(chapter.title)}\n`,
  );
  return `WEBVTT\n\n${list.join('\n')}`;
}

/**
 * `value` as an ffmetadata value: FFmpeg's metadata file reads `=`, `;`, `#`, `\` and a line
 * break as syntax unless a backslash comes before them.
 */
export const ffmetadataValue = (value: string): string => value.replace(/[=;#\\\n]/gu, (char) => `\\${char}`);

/**
 * The {@link chapters} as an FFmpeg metadata file (`-f ffmetadata`), which the final mux reads
 * with `-map_chapters`: a `[CHAPTER]` per scene, its start and end counted in frames (the file's
 * time base is one frame), so the MP4's chapters fall exactly on the scenes' cuts.
 */
export function chapterMetadata(board: Storyboard): string {
  const titles = chapters(board).map((chapter) => chapter.title);
  const sections = board.scenes.map((scene, index) =>
    [
      '[CHAPTER]',
      `TIMEBASE=1/${board.fps}`,
      `START=${frameAt(board, scene.start)}`,
      `END=${frameAt(board, scene.start + scene.duration)}`,
      `title=${ffmetadataValue(titles[index]!)}`,
    ].join('\n'),
  );
  return `;FFMETADATA1\n${sections.join('\n')}\n`;
}

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
