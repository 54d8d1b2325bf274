/** The ffmpeg the renderer runs, and why that one. */
export interface FfmpegChoice {
    path: string;
    /** Where it was found. */
    source: 'VIDEO_PLUGIN_FFMPEG' | 'PATH' | 'bundled';
    /** Why the `ffmpeg` on `PATH` was passed over, when it was. */
    passedOver?: string;
}
/** Picks the ffmpeg for `env` (see the module's comment); runs the one on `PATH` to check it. */
export declare function chooseFfmpeg(env?: NodeJS.ProcessEnv): FfmpegChoice;
/** The ffmpeg chosen for the current environment, chosen once per `VIDEO_PLUGIN_FFMPEG` and `PATH`. */
export declare function currentFfmpeg(): FfmpegChoice;
/** Path of the ffmpeg binary the renderer runs (see {@link chooseFfmpeg}). */
export declare function ffmpegPath(): string;
/** The first line of `ffmpeg -version` at `path`, e.g. `ffmpeg version 5.1.6-0+deb12u1 …`. */
export declare function ffmpegVersion(path: string): string;
/**
 * Prints which ffmpeg the renderer uses (path, version, why), once per process, on stderr: the
 * first thing to check when a render fails or looks different on another machine.
 */
export declare function announceFfmpeg(): void;
/** Path of the sans-serif font of the scenes' text: bold for headings, regular (Book) for the rest. */
export declare function fontPath(weight?: 'bold' | 'regular'): string;
//# sourceMappingURL=tools.d.ts.map