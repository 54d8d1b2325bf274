/**
 * The voice track's loudness, normalised once on the whole mixed track (never per scene: the
 * scenes keep their balance) to {@link LOUDNESS}: −16 LUFS integrated, true peak at most −1 dBTP
 * (EBU R128, the level podcasts and social players use).
 *
 * ffmpeg's `ebur128` filter measures the mono track (integrated loudness and true peak), and the
 * mux applies one linear gain (`volume`): no compression, no limiter, the voice sounds as eSpeak
 * made it. The mono voice goes into both channels of the stereo AAC track at −3 dB each, which keeps
 * its loudness (BS.1770 adds the channels' energies) and lowers each channel's peak by 3 dB.
 * When the gain to −16 LUFS would put the true peak above {@link PEAK_TARGET}, the peak wins and
 * the track stays quieter (eSpeak's speech peaks about 12 dB over its loudness: this does not
 * happen with its voices). Measuring the 22 kHz mono track costs about a tenth of what ffmpeg's
 * two-pass `loudnorm` did (which resamples to 192 kHz twice). Both steps are pure functions of the
 * samples, so a render stays byte-identical. The finished file is what counts: render.test.ts
 * measures the MP4 itself with `ebur128`.
 */
import { encode, type RunOptions } from './encoder.js';

/** The targets: integrated loudness (LUFS), its tolerance (LU), the highest true peak (dBTP). */
export const LOUDNESS = { integrated: -16, tolerance: 1, truePeak: -1 } as const;

/** Highest true peak the gain may aim at: a margin under the limit for the AAC encoder (measured: none). */
const PEAK_TARGET = LOUDNESS.truePeak - 0.3;
/** What a mono signal's peak loses per channel when ffmpeg spreads it over two (−3 dB). */
const STEREO_SPREAD_DB = -3.01;

/**
 * The gain in dB (to 2 decimals) that brings the mono voice track `wav` to {@link LOUDNESS} once
 * it is spread over two channels; 0 for a silent track.
 */
export async function loudnessGain(wav: string, options: RunOptions): Promise<number> {
  const log = await encode('voicing', ['-i', wav, '-af', 'ebur128=peak=true', '-f', 'null', '-'], {
    ...options,
    onTime: undefined,
    log: true,
  });
  const summary = log.slice(log.lastIndexOf('Summary:'));
  const integrated = Number(/\bI:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1]);
  const peak = Number(/\bPeak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1]);
  // Silence (or a track too short to gate) has no loudness: leave it as it is.
  if (!Number.isFinite(integrated) || !Number.isFinite(peak)) return 0;
  const gain = Math.min(LOUDNESS.integrated - integrated, PEAK_TARGET - (peak + STEREO_SPREAD_DB));
  return Math.round(gain * 100) / 100;
}
