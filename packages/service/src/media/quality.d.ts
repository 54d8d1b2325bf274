import type { RenderQuality } from 'video-plugin/internal';
import type { Storyboard } from './storyboard.js';
/** The limits every render is held to: the one place they are written. */
export declare const QUALITY_LIMITS: {
    /** Integrated loudness, LUFS: the target and how far from it. */
    readonly loudnessLUFS: -16;
    readonly loudnessTolerance: 1;
    /** Highest true peak, dBTP. */
    readonly truePeakDBTP: -1;
    /** Fastest caption cue, characters per second. */
    readonly captionCharsPerSecond: 17;
    /** Lowest contrast ratio of on-video text (WCAG 1.4.3, AA). */
    readonly textContrast: 4.5;
    /** Most flashes in any one second (WCAG 2.3.1). */
    readonly flashesPerSecond: 3;
    /** Largest gap between a cue's start and its words, milliseconds. */
    readonly captionOffsetMs: 150;
    /** Largest gap between the file's length and the storyboard's, seconds. */
    readonly durationSeconds: 0.1;
};
/** The files a quality report reads. */
export interface MeasuredFiles {
    video: string;
    captions: string;
}
/** What the soundtrack measures: loudness, true peak, length, and where the voice starts. */
export interface SoundMeasure {
    loudnessLUFS: number;
    truePeakDBTP: number;
    durationSeconds: number;
    /** Seconds at which sound starts after a silence (and 0 when the file starts with sound). */
    onsets: number[];
}
/** Reads the soundtrack of `video` with ffmpeg's EBU R128 meter and silence detector. */
export declare function measureSound(video: string, signal?: AbortSignal): Promise<SoundMeasure>;
/** One cue of a WebVTT file. */
export interface ParsedCue {
    start: number;
    end: number;
    text: string;
}
/** The cues of a WebVTT file (its text with tags removed and lines joined by a space). */
export declare function parseVtt(vtt: string): ParsedCue[];
/** WCAG 2's relative luminance of an sRGB pixel (0–255 channels). */
export declare function luminance(r: number, g: number, b: number): number;
/** WCAG's contrast ratio of two relative luminances. */
export declare const contrastRatio: (a: number, b: number) => number;
/**
 * The lowest contrast of each scene's text in `video`: in the middle of the scene, for each text
 * block where layout.ts drew it, the median luminance of the letters' solid pixels against the
 * background pixel closest to it in luminance (its 95th percentile: a few pixels of H.264 noise
 * do not decide) among those 3 px or more away from any ink.
 */
export declare function measureContrast(video: string, board: Storyboard, signal?: AbortSignal): Promise<number[]>;
/**
 * The most flashes in any one second of `video`, for each second (index = the second it starts):
 * WCAG 2.3.1's general flash, a pair of opposing changes in relative luminance of 0.1 or more
 * where the darker state is below 0.8, counted per block of {@link FLASH_GRID}.
 */
export declare function measureFlashes(video: string, fps: number, signal?: AbortSignal): Promise<number[]>;
/** Measures `files` (a finished render of `board`) against {@link QUALITY_LIMITS}. */
export declare function measureQuality(files: MeasuredFiles, board: Storyboard, signal?: AbortSignal): Promise<RenderQuality>;
//# sourceMappingURL=quality.d.ts.map