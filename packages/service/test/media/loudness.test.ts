// The voice track's loudness measured in JavaScript (loudness.ts, issue 34): BS.1770's integrated
// loudness of real eSpeak voices (three languages, two speeds) and of synthetic tracks (a tone, a
// tone at two levels that the relative gate splits, noise with silence) agrees with ffmpeg's
// `ebur128` within 0.1 LU; and the gain it gives, applied by the mux's own filter (gain and
// limiter) in ffmpeg, brings each voice to −16 LUFS within a few tenths, its peaks under the limit.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { integratedLoudness, LOUDNESS, loudnessFilter, loudnessGain } from '../../src/media/loudness.js';
import { ffmpegPath } from '../../src/media/tools.js';
import { type Pcm, speak, wavFile } from '../../src/media/voice.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-loudness-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** ffmpeg's integrated loudness (LUFS) of `pcm` after `filter`, read from ebur128's summary. */
function ffmpegLoudness(pcm: Pcm, filter = ''): number {
  const wav = join(work, `track-${Math.random().toString(36).slice(2)}.wav`);
  writeFileSync(wav, wavFile(pcm));
  const { stderr } = spawnSync(
    ffmpegPath(),
    ['-hide_banner', '-i', wav, '-af', `${filter}ebur128`, '-f', 'null', '-'],
    {
      encoding: 'utf8',
    },
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  return Number(/\bI:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]);
}

/** A synthetic 22 kHz track: `seconds` of `sample(t)` (−1..1). */
function synthetic(seconds: number, sample: (t: number, n: number) => number): Pcm {
  const rate = 22050;
  const samples = Int16Array.from({ length: Math.round(seconds * rate) }, (_, n) =>
    Math.round(Math.max(-1, Math.min(1, sample(n / rate, n))) * 32767),
  );
  return { rate, samples };
}

/** A deterministic noise (a linear congruential generator), −1..1. */
let seed = 1;
const noise = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 30 - 1;

const js = ({ samples, rate }: Pcm) =>
  integratedLoudness(
    Float32Array.from(samples, (s) => s / 32768),
    rate,
  );

test('integrated loudness in JavaScript agrees with ffmpeg ebur128 within 0.1 LU', async () => {
  const tracks: [string, Pcm][] = [
    ['tone 1 kHz', synthetic(5, (t) => 0.25 * Math.sin(2 * Math.PI * 1000 * t))],
    [
      'tone 100 Hz, then 6 kHz 20 dB lower',
      synthetic(8, (t) => (t < 4 ? 0.5 * Math.sin(2 * Math.PI * 100 * t) : 0.05 * Math.sin(2 * Math.PI * 6000 * t))),
    ],
    ['noise with silences', synthetic(6, (t) => (Math.floor(t) % 2 ? 0 : 0.3 * noise()))],
    [
      'en-US voice',
      await speak('We roast twelve single-origin coffees in small batches, every morning.', 'en-us', 175),
    ],
    ['de voice, fast', await speak('Wir rösten zwölf Kaffeesorten in kleinen Mengen.', 'de', 260)],
    ['fr voice', await speak('Le café ouvre à sept heures tous les jours.', 'fr-fr', 160)],
  ];
  for (const [name, pcm] of tracks) {
    const reference = ffmpegLoudness(pcm);
    assert.ok(Number.isFinite(reference), `ffmpeg measured ${name}`);
    const measured = js(pcm);
    assert.ok(
      Math.abs(measured - reference) <= 0.1,
      `${name}: ${measured.toFixed(2)} LUFS here, ${reference} by ffmpeg`,
    );
  }
  // Silence and a track shorter than one block have no loudness.
  assert.equal(js(synthetic(2, () => 0)), -Infinity);
  assert.equal(js(synthetic(0.3, (t) => Math.sin(2 * Math.PI * 440 * t))), -Infinity);
});

test('the gain, through the mux filter (gain, limiter) in ffmpeg, brings voices to −16 LUFS', async () => {
  for (const pcm of [
    await speak('Small-batch coffee roasted every morning by the harbor. Visit our café.', 'en-us', 175),
    await speak('Pedidos en línea, recogida de camino al trabajo.', 'es', 220),
    // Loud: the limiter takes more, the estimate adds it back.
    { ...synthetic(4, (t) => 0.9 * Math.sin(2 * Math.PI * 300 * t) * (Math.floor(t * 4) % 2)), rate: 22050 },
  ]) {
    const gain = loudnessGain(pcm.samples, pcm.rate);
    assert.equal(gain, loudnessGain(pcm.samples, pcm.rate), 'the same samples give the same gain');
    const result = ffmpegLoudness(pcm, `${loudnessFilter(gain)},`);
    assert.ok(Math.abs(result - LOUDNESS.integrated) <= 0.3, `${result} LUFS after a gain of ${gain} dB`);
  }
  assert.equal(loudnessGain(new Int16Array(22050), 22050), 0, 'silence is left as it is');
  execFileSync(ffmpegPath(), ['-version']);
});
