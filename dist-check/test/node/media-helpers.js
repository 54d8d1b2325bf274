// What the media tests share: solid-colour pictures made by ffmpeg, and MP4 files read back by a
// real media parser (mp4box).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createFile } from 'mp4box';
import { ffmpegPath } from '../../src/service/render/tools.js';
/** Writes a solid-colour picture (`name`'s extension picks the format) into `dir`; returns its path. */
export function picture(dir, name, color, size = '800x600') {
  const file = join(dir, name);
  execFileSync(ffmpegPath(), [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=${size}`,
    '-frames:v',
    '1',
    file,
  ]);
  return file;
}
/** Duration, dimensions and codecs of an MP4, read by mp4box. */
export function probe(bytes) {
  return new Promise((resolve, reject) => {
    const mp4 = createFile();
    mp4.onReady = resolve;
    mp4.onError = (_module, message) => reject(new Error(message));
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    buffer.fileStart = 0;
    mp4.appendBuffer(buffer);
    mp4.flush();
  });
}
//# sourceMappingURL=media-helpers.js.map
