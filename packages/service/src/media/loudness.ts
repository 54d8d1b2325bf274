/**
 * The voice track's loudness, normalised once on the whole mixed track (never per scene: the
 * scenes keep their balance) to {@link LOUDNESS}: −16 LUFS integrated, true peak at most −1 dBTP
 * (EBU R128, the level podcasts and social players use).
 *
 * The track's integrated loudness is measured here, in JavaScript, on the 22 kHz mono samples the
 * render already holds ({@link integratedLoudness}: ITU-R BS.1770's K-weighting, 400 ms blocks
 * every 100 ms, the absolute and relative gates), with no ffmpeg process: loudness.test.ts proves
 * it against ffmpeg's `ebur128` within 0.1 LU. The mux applies one linear gain (`volume`) and a
 * peak limiter (`alimiter`, 5 ms look-ahead, 50 ms release, no auto-level) at {@link LIMIT_DBFS}
 * on the mono signal; what the limiter takes from the loudness is estimated by the same limits
 * applied here ({@link limitedLoudness}) and added back to the gain (the result is a few tenths
 * from −16 at most). The mono voice then goes into both channels of the stereo AAC track at
 * −3 dB each, which keeps its loudness (BS.1770 adds the channels' energies) and leaves each
 * channel's peaks near −4 dBFS: margin enough for the true peak between samples and the AAC
 * encoder's overshoot (measured: about 1.3 dB). Only the loudest syllables are touched (eSpeak's
 * voices peak 12–16 dB over their loudness). Every step is a pure function of the samples (the
 * gain is rounded to 2 decimals), so a render stays byte-identical. The limiter's look-ahead
 * delays the voice by 5 ms (FFmpeg 4.1 has no `latency` option to take it back): far inside the
 * 40 ms allowed between a picture and its voice. The finished file is what counts:
 * segments.test.ts and quality.test.ts measure the MP4 itself with ffmpeg's `ebur128`.
 */

/** The targets: integrated loudness (LUFS), its tolerance (LU), the highest true peak (dBTP). */
export const LOUDNESS = { integrated: -16, tolerance: 1, truePeak: -1 } as const;

/** The limiter's ceiling on the mono track, in dBFS (−4 dBFS in each stereo channel). */
const LIMIT_DBFS = -1;
/** The limiter's look-ahead (attack) and release, in seconds (as in {@link loudnessFilter}). */
const ATTACK = 0.005;
const RELEASE = 0.05;

/** One biquad's coefficients: numerator b0..b2, denominator a1, a2 (a0 = 1). */
type Biquad = [number, number, number, number, number];

/** BS.1770's K-weighting at `rate`: its high shelf, then its high pass (libebur128's derivation). */
function kWeighting(rate: number): [Biquad, Biquad] {
  let k = Math.tan((Math.PI * 1681.974450955533) / rate);
  let q = 0.7071752369554196;
  const vh = 10 ** (3.999843853973347 / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / q + k * k;
  const shelf: Biquad = [
    (vh + (vb * k) / q + k * k) / a0,
    (2 * (k * k - vh)) / a0,
    (vh - (vb * k) / q + k * k) / a0,
    (2 * (k * k - 1)) / a0,
    (1 - k / q + k * k) / a0,
  ];
  k = Math.tan((Math.PI * 38.13547087602444) / rate);
  q = 0.5003270373238773;
  a0 = 1 + k / q + k * k;
  return [shelf, [1, -2, 1, (2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0]];
}

/**
 * Integrated loudness (LUFS, BS.1770 / EBU R128) of the mono `samples` (−1..1) at `rate`, each
 * scaled by `gains` when given; −Infinity for silence or a track shorter than one 400 ms block.
 */
export function integratedLoudness(samples: ArrayLike<number>, rate: number, gains?: Float32Array): number {
  const [[b0, b1, b2, a1, a2], [c0, c1, c2, d1, d2]] = kWeighting(rate);
  const step = Math.round(rate / 10);
  // The K-weighted energy of each 100 ms step; a block is four steps.
  const steps = new Float64Array(Math.floor(samples.length / step));
  let [x1, x2, y1, y2, z1, z2] = [0, 0, 0, 0, 0, 0];
  for (let n = 0; n < steps.length * step; n++) {
    const x = samples[n]! * (gains?.[n] ?? 1);
    const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    const z = c0 * y + c1 * y1 + c2 * y2 - d1 * z1 - d2 * z2;
    [x2, x1, y2, y1, z2, z1] = [x1, x, y1, y, z1, z];
    steps[Math.floor(n / step)]! += z * z;
  }
  const blocks: number[] = [];
  for (let i = 3; i < steps.length; i++)
    blocks.push((steps[i - 3]! + steps[i - 2]! + steps[i - 1]! + steps[i]!) / (4 * step));
  const loudness = (energy: number) => -0.691 + 10 * Math.log10(energy);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const audible = blocks.filter((energy) => loudness(energy) > -70);
  if (audible.length === 0) return -Infinity;
  const gate = loudness(mean(audible)) - 10;
  return loudness(mean(audible.filter((energy) => loudness(energy) > gate)));
}

/**
 * The gain of a peak limiter at {@link LIMIT_DBFS} on `samples` (−1..1) after `gain` dB: 1 where
 * nothing is limited; each peak's reduction reached {@link ATTACK} before it and released
 * exponentially over {@link RELEASE} after it, as `alimiter` does (an estimate of its loss).
 */
function limiterGains(samples: ArrayLike<number>, rate: number, gain: number): Float32Array {
  const scale = 10 ** (gain / 20);
  const limit = 10 ** (LIMIT_DBFS / 20);
  const attack = Math.round(ATTACK * rate);
  const gains = new Float32Array(samples.length).fill(1);
  for (let n = 0; n < samples.length; n++) {
    const peak = Math.abs(samples[n]! * scale);
    if (peak <= limit) continue;
    const needed = limit / peak;
    for (let k = Math.max(0, n - attack); k <= n; k++) gains[k] = Math.min(gains[k]!, needed);
  }
  const release = 1 - Math.exp(-1 / (RELEASE * rate));
  for (let n = 1; n < gains.length; n++) gains[n] = Math.min(gains[n]!, gains[n - 1]! + (1 - gains[n - 1]!) * release);
  for (let n = 0; n < gains.length; n++) gains[n] = gains[n]! * scale;
  return gains;
}

/**
 * The gain in dB (to 2 decimals) that brings the mono voice track (`samples`, 16-bit, at `rate`)
 * to {@link LOUDNESS} with the limiter after it: measured as it is, then through the gain and the
 * limiter's estimate, whose loss is added back. 0 for a silent track.
 */
export function loudnessGain(samples: Int16Array, rate: number): number {
  const signal = Float32Array.from(samples, (sample) => sample / 32768);
  const integrated = integratedLoudness(signal, rate);
  // Silence (or a track too short to gate) has no loudness: leave it as it is.
  if (!Number.isFinite(integrated)) return 0;
  const first = Math.round((LOUDNESS.integrated - integrated) * 100) / 100;
  const limited = integratedLoudness(signal, rate, limiterGains(signal, rate, first));
  if (!Number.isFinite(limited)) return first;
  return Math.round((first + LOUDNESS.integrated - limited) * 100) / 100;
}

/** The audio filter of the mux: the gain, then the peak limiter (see the module's comment). */
export function loudnessFilter(gain: number): string {
  const limit = (10 ** (LIMIT_DBFS / 20)).toFixed(4);
  return `volume=${gain}dB,alimiter=limit=${limit}:attack=${ATTACK * 1000}:release=${RELEASE * 1000}:level=0`;
}
