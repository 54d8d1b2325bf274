// Caption cues timed by the voice (issue 33, docs/service.md "Voiceover"): a narration split into
// several cues is spoken cue by cue, and each cue starts where its words do. Checked here on the
// voice track itself (eSpeak NG, no video): the WAV's cue points, the silence before each, the
// sound after it; the finished files are measured by quality.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Language } from 'video-plugin/internal';
import { captions, cues } from '../../src/media/accessibility.js';
import { buildStoryboard, type Storyboard } from '../../src/media/storyboard.js';
import { parseWav, voiceover, wavFile } from '../../src/media/voice.js';

/** A calm 30 s storyboard (6 s scenes) whose scene 2 says `narration`. */
function boardSaying(narration: string, language: Language): Storyboard {
  const board = buildStoryboard(
    { sourceURL: 'https://www.bloomandstem.com/', title: 'Bloom & Stem', images: [] },
    { aspectRatio: '16:9', duration: 30, language, videoInstructions: 'calm' },
  );
  board.scenes[1]!.narration = narration;
  return board;
}

/** Loudest sample of `samples` between `from` and `to` seconds, in dBFS. */
function peakDb(samples: Int16Array, rate: number, from: number, to: number): number {
  let peak = 0;
  for (let i = Math.max(0, Math.round(from * rate)); i < Math.min(samples.length, Math.round(to * rate)); i++) {
    peak = Math.max(peak, Math.abs(samples[i]!));
  }
  return peak === 0 ? -99 : 20 * Math.log10(peak / 32768);
}

describe('caption cues start where the voice says their words', () => {
  test('a WAV file keeps its cue points', () => {
    const samples = Int16Array.from({ length: 100 }, (_, i) => i);
    const back = parseWav(wavFile({ rate: 22050, samples, cues: [0, 42, 99] }));
    assert.deepEqual(back.cues, [0, 42, 99]);
    assert.deepEqual([...back.samples], [...samples]);
    assert.equal(parseWav(wavFile({ rate: 22050, samples })).cues, undefined);
  });

  test('captions refuse voice times that are not one per cue', () => {
    const board = boardSaying('We take the paper back.', 'en-US');
    assert.throws(() => captions(board, [0.15]), /the voice has 1 cue points for 5 caption cues/);
  });

  // Numbers and abbreviations take longer to say than their characters suggest: timed by their
  // share of the characters, the second cue of each of these started 170 ms to 2.2 s off its words.
  const NARRATIONS = {
    'en-US': 'His farm has supplied us since 2003, when the market opened at 4 a.m. We take the paper back.',
    de: 'Unser Roggenbrot reift 24 Std., bevor es in den Ofen kommt, der seit 1962 jeden Tag brennt.',
    fr: 'Nos comtés vieillissent de 18 à 36 mois, à 12,5 °C. Chaque meule est brossée à la main.',
  };
  for (const [language, narration] of Object.entries(NARRATIONS) as [Language, string][]) {
    test(`${language}: each cue of a split narration starts after a pause, on its first sound`, async () => {
      const board = boardSaying(narration, language);
      const { rate, samples, cues: points } = parseWav(await voiceover(board));
      const voiced = points!.map((point) => point / rate);
      const list = cues(board, voiced);
      const scene = list.filter((cue) => cue.scene === 1);
      assert.ok(scene.length >= 2, JSON.stringify(scene));
      assert.equal(scene.map((cue) => cue.text).join(' '), narration);
      for (const [index, cue] of list.entries()) {
        assert.equal(cue.start, voiced[index]);
        // Silence (below −40 dBFS) for the 80 ms before the cue, its words within 20 ms after.
        assert.ok(peakDb(samples, rate, cue.start - 0.08, cue.start) < -40, `before "${cue.text}"`);
        assert.ok(peakDb(samples, rate, cue.start, cue.start + 0.02) > -40, `"${cue.text}" starts on its words`);
      }
      // The cues of a scene follow each other to its end; none is shown at a false time.
      for (let i = 1; i < scene.length; i++) assert.equal(scene[i]!.start, scene[i - 1]!.end);
      assert.equal(scene.at(-1)!.end, board.scenes[1]!.start + board.scenes[1]!.duration);
      // Natural: no pause inside the scene's speech is longer than the one eSpeak makes after a
      // sentence plus what a cue may need to be read (at most half a second here).
      const first = scene[0]!.start;
      const last = scene.at(-1)!;
      let run = 0;
      let longest = 0;
      for (let i = Math.round(first * rate); i < Math.round((last.start + 0.05) * rate); i++) {
        run = Math.abs(samples[i]!) < 328 ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
      assert.ok(longest / rate <= 0.5, `a pause of ${(longest / rate).toFixed(2)} s`);
    });
  }

  test('the voice and its cue points are the same on every run', async () => {
    const board = boardSaying(NARRATIONS.fr, 'fr');
    const [a, b] = await Promise.all([voiceover(board), voiceover(board)]);
    assert.ok(a.equals(b));
  });
});
