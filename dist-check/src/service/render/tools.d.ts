/** Path of the ffmpeg binary (`VIDEO_PLUGIN_FFMPEG` overrides it, e.g. for another platform). */
export declare function ffmpegPath(): string;
/** Path of the bold sans-serif font of the scenes' text. */
export declare function fontPath(): string;
//# sourceMappingURL=tools.d.ts.map
