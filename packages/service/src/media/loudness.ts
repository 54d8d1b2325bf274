/**
 * The voice track's loudness, normalised once on the whole mixed track (never per scene: the
 * scenes keep their balance) to {@link LOUDNESS}: −16 LUFS integrated, true peak at most −1 dBTP
 * (EBU R128, the level podcasts and social players use).
 *
 * ffmpeg's `ebur128` filter measures the mono track's integrated loudness (then once more through
 * the gain and the limiter, to add back what the limiter took); the mux applies one linear gain
 * (`volume`) and a peak limiter (`alimiter`, 5 ms look-ahead, 50 ms
 * release, no auto-level) at {@link LIMIT_DBFS} on the mono signal. The mono voice then goes into
 * both channels of the stereo AAC track at −3 dB each, which keeps its loudness (BS.1770 adds the
 * channels' energies) and leaves each channel's peaks near −4 dBFS: margin enough for the true peak
 * between samples and the AAC encoder's overshoot (measured: about 1.3 dB). Only the loudest
 * syllables are touched (eSpeak's voices peak 12–16 dB over their loudness). Measuring the 22 kHz
 * mono track twice costs a fraction of ffmpeg's two-pass `loudnorm` (which resamples to 192 kHz). Every step is a pure function of
 * the samples, so a render stays byte-identical. The limiter's look-ahead delays the voice by
 * 5 ms (FFmpeg 4.1 has no `latency` option to take it back): far inside the 40 ms allowed between
 * a picture and its voice. The finished file is what counts: segments.test.ts measures the MP4
 * itself with `ebur128`.
 */
import { encode, type RunOptions } from './encoder.js';

/** The targets: integrated loudness (LUFS), its tolerance (LU), the highest true peak (dBTP). */
export const LOUDNESS = { integrated: -16, tolerance: 1, truePeak: -1 } as const;

/** The limiter's ceiling on the mono track, in dBFS (−4 dBFS in each stereo channel). */
const LIMIT_DBFS = -1;

/** Integrated loudness (LUFS) of `wav` after `filter` (`ebur128`); NaN for silence. */
async function measure(wav: string, filter: string, options: RunOptions): Promise<number> {
  const log = await encode('voicing', ['-i', wav, '-af', `${filter}ebur128`, '-f', 'null', '-'], {
    ...options,
    onTime: undefined,
    log: true,
  });
  const summary = log.slice(log.lastIndexOf('Summary:'));
  return Number(/\bI:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1]);
}

/**
 * The gain in dB (to 2 decimals) that brings the mono voice track `wav` to {@link LOUDNESS} with
 * the limiter after it: measured once as it is, then once more through the gain and the limiter,
 * whose loss is added back (the limiter then takes a little more: the result is a few tenths
 * under −16 at most). 0 for a silent track.
 */
export async function loudnessGain(wav: string, options: RunOptions): Promise<number> {
  const integrated = await measure(wav, '', options);
  // Silence (or a track too short to gate) has no loudness: leave it as it is.
  if (!Number.isFinite(integrated)) return 0;
  const first = Math.round((LOUDNESS.integrated - integrated) * 100) / 100;
  const limited = await measure(wav, `${loudnessFilter(first)},`, options);
  if (!Number.isFinite(limited)) return first;
  return Math.round((first + LOUDNESS.integrated - limited) * 100) / 100;
}

/** The audio filter of the mux: the gain, then the peak limiter (see the module's comment). */
export function loudnessFilter(gain: number): string {
  const limit = (10 ** (LIMIT_DBFS / 20)).toFixed(4);
  return `volume=${gain}dB,alimiter=limit=${limit}:attack=5:release=50:level=0`;
}
