import { type Movie } from 'mp4box';
/** Writes a solid-colour picture (`name`'s extension picks the format) into `dir`; returns its path. */
export declare function picture(dir: string, name: string, color: string, size?: string): string;
/** Duration, dimensions and codecs of an MP4, read by mp4box. */
export declare function probe(bytes: Buffer): Promise<Movie>;
//# sourceMappingURL=media-helpers.d.ts.map
