// What the media tests share: solid-colour pictures made by ffmpeg, and MP4 files read back by a
// real media parser (mp4box) and by ffprobe (their streams and chapters).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createFile, type Movie } from 'mp4box';
import { SceneCache } from '../../src/media/segments.js';
import { ffmpegPath } from '../../src/media/tools.js';
import { lavfi } from './lavfi.mjs';

/** Writes a solid-colour picture (`name`'s extension picks the format) into `dir`; returns its path. */
export function picture(dir: string, name: string, color: string, size = '800x600'): string {
  return lavfi(ffmpegPath(), `color=c=${color}:s=${size}`, join(dir, name), ['-frames:v', '1']);
}

/** Duration, dimensions and codecs of an MP4, read by mp4box. */
export function probe(bytes: Buffer): Promise<Movie> {
  return new Promise((resolve, reject) => {
    const mp4 = createFile();
    mp4.onReady = resolve;
    mp4.onError = (_module: string, message: string) => reject(new Error(message));
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer & {
      fileStart: number;
    };
    buffer.fileStart = 0;
    mp4.appendBuffer(buffer);
    mp4.flush();
  });
}

/**
 * Decodes the frames of `video` at the given `times` (seconds) as raw RGB, one buffer of
 * `width` × `height` × 3 bytes per time, in order.
 */
export function framesAt(video: string, times: readonly number[], width: number, height: number): Buffer[] {
  return times.map((time) =>
    execFileSync(
      ffmpegPath(),
      [
        '-loglevel',
        'error',
        '-ss',
        time.toFixed(3),
        '-i',
        video,
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-',
      ],
      { maxBuffer: width * height * 3 + 1024 },
    ),
  );
}

/** The ffprobe beside the renderer's ffmpeg (the bundled build has none: then the one on PATH). */
export function ffprobePath(): string {
  const beside = ffmpegPath().replace(/ffmpeg$/, 'ffprobe');
  return existsSync(beside) ? beside : 'ffprobe';
}

/** A media file's streams and chapters, as ffprobe lists them. */
export interface Probed {
  streams: { index: number; codec_name?: string; codec_type: string; tags?: Record<string, string> }[];
  chapters: { start_time: string; end_time: string; tags?: { title?: string } }[];
}

/** Reads `file`'s streams and chapters with ffprobe (`args` before the file: `-f ffmetadata`…). */
export function ffprobe(file: string, args: string[] = []): Probed & { format?: { tags?: Record<string, string> } } {
  const json = execFileSync(
    ffprobePath(),
    ['-v', 'error', '-show_streams', '-show_chapters', '-show_format', '-of', 'json', ...args, file],
    { encoding: 'utf8' },
  );
  return JSON.parse(json) as Probed;
}

/** A scene cache that counts how often each entry is kept (once per time it was made). */
export class CountingCache extends SceneCache {
  readonly puts = new Map<string, number>();

  override async put(name: string, source: string): Promise<void> {
    this.puts.set(name, (this.puts.get(name) ?? 0) + 1);
    await super.put(name, source);
  }
}
