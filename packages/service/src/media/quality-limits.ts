/**
 * The limits of the quality report (quality.ts), in a module of their own: the storyboard
 * (storyboard.ts) paces its narration by the caption speed limit, and quality.ts measures a render
 * of a storyboard, so neither may import the other for them.
 */

/** The limits every render is held to: the one place they are written. */
export const QUALITY_LIMITS = {
  /** Integrated loudness, LUFS: the target and how far from it. */
  loudnessLUFS: -16,
  loudnessTolerance: 1,
  /** Highest true peak, dBTP. */
  truePeakDBTP: -1,
  /** Fastest caption cue, characters per second. */
  captionCharsPerSecond: 17,
  /** Lowest contrast ratio of on-video text (WCAG 1.4.3, AA). */
  textContrast: 4.5,
  /** Most flashes in any one second (WCAG 2.3.1). */
  flashesPerSecond: 3,
  /** Largest gap between a cue's start and its words, milliseconds. */
  captionOffsetMs: 150,
  /** Largest gap between the file's length and the storyboard's, seconds. */
  durationSeconds: 0.1,
} as const;
