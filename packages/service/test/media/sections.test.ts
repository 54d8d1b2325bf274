// Scenes that follow the page (issue 45, item 6): a four-section restaurant page, read as a topic
// search reads it, gives storyboards whose scenes each take their heading, narration and picture
// from one section (their `sources` say which), that name the business as a heading once, use every
// section when the video is long enough, leave no scene silent for more than a second (by the
// storyboard's timing, and in the voice eSpeak makes), and whose alt text is about the business.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { altText } from '../../src/media/accessibility.js';
import { readPage, type SourcePage } from '../../src/media/source.js';
import { videoLanguageOf } from '../../src/media/source/language.js';
import {
  buildStoryboard,
  editedTimes,
  MAX_SILENCE,
  narrationSeconds,
  VOICE_LEAD,
  type Storyboard,
} from '../../src/media/storyboard.js';
import { parseWav, voiceover } from '../../src/media/voice.js';

const PAGE_URL = 'https://www.trattorialucia.com/';
const HTML = readFileSync(new URL('../fixtures/sites/restaurant-en.html', import.meta.url), 'utf8');
const page = readPage(HTML, new URL(PAGE_URL));
/** The page's pictures as a topic keeps them: a file per picture, in page order. */
const files = page.images.map((_, index) => `/topic/${index}.jpg`);
const imageURLs = Object.fromEntries(files.map((file, index) => [file, page.images[index]!]));

function storyboardOf(read: SourcePage, duration: 5 | 15 | 30, language: 'en-US' | 'fr' = 'en-US'): Storyboard {
  return buildStoryboard(
    { sourceURL: PAGE_URL, ...read, images: files, imageURLs },
    { aspectRatio: '16:9', duration, language },
  );
}

/** The section of the page a text of a scene's `sources` came from (its heading or one of its sentences). */
const sectionOf = (text: string | undefined) =>
  text === undefined
    ? undefined
    : page.sections.findIndex((section) => section.heading === text || section.sentences.includes(text));
/** The section of each sentence of a scene's voiceover excerpt (two sentences when it says two). */
const voiceSections = (voiceover: string | undefined) =>
  page.sections.flatMap((section, index) =>
    section.sentences.some((sentence) => voiceover?.includes(sentence)) ? [index] : [],
  );

describe("a page's sections", () => {
  test('each heading starts one, with its paragraphs and pictures; a card picture before its heading is its own', () => {
    assert.deepEqual(
      page.sections.map((section) => [section.heading, section.sentences.length, section.images]),
      [
        ['Trattoria Lucia', 1, []],
        ['Our kitchen', 2, [`${PAGE_URL}pictures/kitchen.jpg`]],
        ['The terrace', 2, [`${PAGE_URL}pictures/terrace.jpg`]],
        ['Wine from small growers', 2, [`${PAGE_URL}pictures/cellar.jpg`]],
        ['Tiramisu to finish', 2, [`${PAGE_URL}pictures/tiramisu.jpg`]],
      ],
    );
  });

  test("the footer's address and the navigation are in no section", () => {
    const text = JSON.stringify(page.sections);
    assert.doesNotMatch(text, /River Street|Open Tuesday|Book a table/);
  });

  test("the page's language is read from <html lang>, and maps to a language the service speaks", () => {
    assert.equal(page.language, 'en-US');
    assert.equal(readPage(HTML.replace('lang="en-US"', 'lang="fr"'), new URL(PAGE_URL)).language, 'fr');
    assert.deepEqual(
      ['fr', 'fr-CA', 'en', 'en-GB', 'en-ie', 'it', 'pt-BR', 'de_AT', 'ja', 'x', '', undefined].map(videoLanguageOf),
      ['fr', 'fr', 'en-US', 'en-GB', 'en-US', 'it-IT', 'pt', 'de', undefined, undefined, undefined, undefined],
    );
  });
});

describe('scenes that follow the page', () => {
  for (const duration of [5, 15, 30] as const) {
    test(`${duration} s: each content scene's heading, narration, text and picture come from one section`, () => {
      const board = storyboardOf(page, duration);
      for (const [index, scene] of board.scenes.entries()) {
        if (scene.kind !== 'content') continue;
        const at = sectionOf(scene.sources?.heading);
        assert.ok(at !== undefined && at > 0, `scene ${index + 1}: its heading is a section's`);
        const section = page.sections[at]!;
        assert.equal(scene.heading, section.heading);
        assert.deepEqual([...new Set(voiceSections(scene.sources?.voiceover))], [at], `scene ${index + 1}: narration`);
        if (scene.sources?.text) {
          assert.deepEqual([...new Set(voiceSections(scene.sources.text))], [at], `scene ${index + 1}: text`);
        }
        assert.ok(section.images.includes(scene.sources?.pictureURL ?? ''), `scene ${index + 1}: picture`);
        assert.equal(imageURLs[scene.image!], scene.sources?.pictureURL);
      }
    });

    test(`${duration} s: the business's name is the heading of one scene, and the address is never said`, () => {
      const board = storyboardOf(page, duration);
      assert.equal(board.scenes.filter((scene) => scene.heading === 'Trattoria Lucia').length, 1);
      assert.equal(board.scenes[0]!.heading, 'Trattoria Lucia');
      assert.equal(board.scenes.at(-1)!.heading, 'Visit trattorialucia.com');
      for (const scene of board.scenes) assert.doesNotMatch(`${scene.narration} ${scene.body ?? ''}`, /River Street/);
    });

    test(`${duration} s: no scene is silent for more than ${MAX_SILENCE} s by its timing, and the scenes fill the video on whole frames`, () => {
      const board = storyboardOf(page, duration);
      for (const [index, scene] of board.scenes.entries()) {
        // What the scene does not spend saying its narration (the lead-in, the tail and what is left).
        const silent = scene.duration - (narrationSeconds(scene.narration, board.pace) - VOICE_LEAD - 0.2);
        assert.ok(silent <= MAX_SILENCE, `scene ${index + 1} of ${duration} s is silent for ${silent.toFixed(2)} s`);
        assert.ok(
          Number.isInteger(Math.round(scene.start * board.fps * 1e6) / 1e6),
          `scene ${index + 1} starts on a frame`,
        );
        if (index > 0) assert.equal(scene.start, board.scenes[index - 1]!.start + board.scenes[index - 1]!.duration);
      }
      const last = board.scenes.at(-1)!;
      assert.ok(Math.abs(last.start + last.duration - duration) < 1e-9);
    });
  }

  test("a 30-second video says every section's words; a 15-second one the first two sections'", () => {
    const used = (board: Storyboard) =>
      board.scenes.filter((scene) => scene.kind === 'content').map((scene) => sectionOf(scene.sources?.heading));
    assert.deepEqual(used(storyboardOf(page, 30)), [1, 2, 3, 4]);
    assert.deepEqual(used(storyboardOf(page, 15)), [1, 2]);
  });

  test('the title scene says the opening words of the page when there is time, and shows a picture of no section', () => {
    const [title] = storyboardOf(page, 30).scenes;
    assert.equal(title!.narration, 'Trattoria Lucia. Family cooking from Bologna, by the river since 2009.');
    assert.equal(title!.sources?.pictureURL, `${PAGE_URL}pictures/dining-room.jpg`);
  });

  test('the alt text names the business and the sections its scenes show, not one scene', () => {
    const board = storyboardOf(page, 30);
    assert.equal(
      altText({ name: 'Trattoria Lucia', duration: 30, language: 'en-US' }, board),
      'A 30-second video about “Trattoria Lucia”: Our kitchen, The terrace, and Wine from small growers.',
    );
    assert.equal(
      altText({ name: 'Trattoria Lucia', duration: 15, language: 'en-US' }, storyboardOf(page, 15)),
      'A 15-second video about “Trattoria Lucia”: Our kitchen and The terrace.',
    );
  });
});

/**
 * The longest run, in seconds, of samples quieter than −50 dBFS between `from` and `to` (seconds)
 * of `samples`.
 */
function longestSilence(samples: Int16Array, rate: number, from: number, to: number): number {
  let longest = 0;
  let run = 0;
  for (let at = Math.round(from * rate); at < Math.round(to * rate); at++) {
    run = Math.abs(samples[at]!) < 104 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest / rate;
}

describe('the voice of scenes that follow the page', () => {
  test(`no scene of the voiceover is silent for more than ${MAX_SILENCE} s`, { timeout: 120_000 }, async () => {
    for (const duration of [15, 30] as const) {
      const board = storyboardOf(page, duration);
      const { samples, rate } = parseWav(await voiceover(board));
      for (const [index, scene] of board.scenes.entries()) {
        const silent = longestSilence(samples, rate, scene.start, scene.start + scene.duration);
        assert.ok(silent <= MAX_SILENCE, `scene ${index + 1} of ${duration} s is silent for ${silent.toFixed(2)} s`);
      }
    }
  });
});

describe('an edit of scenes of their own lengths', () => {
  const board = storyboardOf(page, 15);
  const lengths = (times: { duration: number }[]) => times.map((time) => Math.round(time.duration * 100) / 100);

  test('keeps the length of each scene that says what it said, wherever it moved; the others share the rest', () => {
    const [title, kitchen, terrace, closing] = board.scenes.map((scene) => scene.narration);
    const before = lengths(board.scenes);
    assert.deepEqual(lengths(editedTimes(board.scenes, [title!, kitchen!, terrace!, closing!], 15)), before);
    // The kitchen's line rewritten: the others keep theirs, it gets what is left.
    assert.deepEqual(lengths(editedTimes(board.scenes, [title!, 'New words.', terrace!, closing!], 15)), before);
    // Moved: the terrace first, the title second.
    const moved = editedTimes(board.scenes, [terrace!, title!, kitchen!, closing!], 15);
    assert.deepEqual(lengths(moved), [before[2], before[0], before[1], before[3]]);
    assert.equal(moved.at(-1)!.start + moved.at(-1)!.duration, 15);
  });

  test('spreads the scenes evenly when one is added or removed', () => {
    const narrations = board.scenes.map((scene) => scene.narration);
    assert.deepEqual(lengths(editedTimes(board.scenes, [...narrations, 'One more.'], 15)), [3, 3, 3, 3, 3]);
    assert.deepEqual(lengths(editedTimes(board.scenes, narrations.slice(1), 15)), [5, 5, 5]);
  });
});
