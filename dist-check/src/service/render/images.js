/**
 * A topic's images, downloaded and kept by the service when the search runs, so that videos never
 * hot-link the source site. Refused (and skipped): anything that is not a JPEG, PNG, GIF or WebP by
 * its bytes, files over {@link MAX_IMAGE_BYTES}, pictures over {@link MAX_IMAGE_PIXELS} or
 * {@link MAX_IMAGE_SIDE} (decompression bombs: the header is read before anything is decoded),
 * and files ffmpeg cannot decode.
 */
import { writeFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { ffmpeg } from './render.js';
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_SIDE = 12_000;
const TYPES = new Set(['jpg', 'png', 'gif', 'webp']);
/** Checks `bytes` without decoding them; returns the type and size, or why they are refused. */
export function checkImage(bytes) {
  if (bytes.byteLength > MAX_IMAGE_BYTES) return { refused: `over ${MAX_IMAGE_BYTES} bytes` };
  let size;
  try {
    size = imageSize(bytes);
  } catch {
    return { refused: 'not an image' };
  }
  const { type, width, height } = size;
  if (!type || !TYPES.has(type)) return { refused: `a ${type ?? 'unknown'} file, not JPEG, PNG, GIF or WebP` };
  if (!width || !height) return { refused: 'no dimensions' };
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return { refused: `${width}×${height} is too large` };
  }
  return { type, width, height };
}
/** Reads at most `max` bytes of a response; undefined when there are more. */
async function readAtMost(response, max) {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
/** Downloads `url` into `dir` as `<index>.<type>` after the checks above. */
export async function downloadImage(url, dir, index, { timeoutMs, signal }) {
  const timeout = AbortSignal.timeout(timeoutMs);
  let bytes;
  try {
    const response = await fetch(url, {
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      headers: { accept: 'image/*', 'user-agent': 'video-plugin-service' },
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { skipped: `HTTP ${response.status}` };
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_IMAGE_BYTES) {
      await response.body?.cancel();
      return { skipped: `over ${MAX_IMAGE_BYTES} bytes` };
    }
    bytes = await readAtMost(response, MAX_IMAGE_BYTES);
  } catch (error) {
    if (signal?.aborted) throw error;
    return { skipped: timeout.aborted ? 'timed out' : `unreachable (${error.message})` };
  }
  if (!bytes) return { skipped: `over ${MAX_IMAGE_BYTES} bytes` };
  const checked = checkImage(bytes);
  if ('refused' in checked) return { skipped: checked.refused };
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${index}.${checked.type}`);
  await writeFile(file, bytes);
  // A file whose header is fine may still not decode: ffmpeg reads it once, to the end.
  try {
    await ffmpeg(['-i', file, '-frames:v', '1', '-f', 'null', '-'], signal);
  } catch {
    await rm(file, { force: true });
    return { skipped: 'does not decode' };
  }
  return { file, width: checked.width, height: checked.height };
}
//# sourceMappingURL=images.js.map
