/** See lavfi.mjs. */
export function lavfi(ffmpeg: string, source: string, file: string, options?: readonly string[]): string;
