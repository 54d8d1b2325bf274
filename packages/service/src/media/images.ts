/**
 * A topic's images, downloaded when the search runs (videos never hot-link the source site),
 * checked and rewritten by sharp (libvips) so that the renderer only ever reads pictures the
 * service made. Refused, each with one log line, and skipped:
 *
 * - files over {@link MAX_IMAGE_BYTES};
 * - anything that is not a JPEG, PNG, GIF or WebP by its first bytes, whatever its name or
 *   `Content-Type` (an HTML page, an SVG: libvips never sees them);
 * - pictures over {@link MAX_IMAGE_SIDE} a side or {@link MAX_IMAGE_PIXELS} (decompression bombs:
 *   read from the header before anything is decoded, and `limitInputPixels` behind that);
 * - files that do not decode to the end (truncated, corrupt).
 *
 * What is kept: the first frame of an animated image, turned upright by its EXIF orientation,
 * scaled down to at most {@link MAX_KEPT_SIDE} a side, without metadata (EXIF, GPS, ICC profiles:
 * converted to sRGB), as a JPEG — or a PNG when it has transparency.
 */
import { EgressError, guardedFetch, type EgressPolicy } from '../egress.js';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Largest picture kept, in pixels; the renderer opens none larger either (still.ts). */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_SIDE = 12_000;
/** Long side of a kept image: enough to cover a 1080×1350 frame from a 16:9 picture. */
export const MAX_KEPT_SIDE = 2560;
/** Longest a decode may take (a picture within the limits takes well under a second). */
const DECODE_SECONDS = 20;

/** A downloaded image, kept in the service's format, or why it was skipped. */
export type ImageResult = { file: string; width: number; height: number } | { skipped: string };

/** An image as the service keeps it, or why it was refused. */
export type NormalisedImage =
  { data: Buffer; type: 'jpg' | 'png'; width: number; height: number } | { refused: string };

/** The media types of the formats the service reads (what {@link formatOf} recognises). */
export const READABLE_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/jpg',
  'image/png',
  'image/gif',
  'image/webp',
]);

/** The format of `bytes` by their signature, or undefined when it is not one the service reads. */
function formatOf(bytes: Uint8Array): 'jpeg' | 'png' | 'gif' | 'webp' | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * Checks `bytes` and rewrites them as the service keeps images (see the module's comment), or
 * says why they are refused. Decodes nothing before the size in the header has been checked.
 */
export async function normaliseImage(bytes: Uint8Array): Promise<NormalisedImage> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) return { refused: `larger than ${MAX_IMAGE_BYTES} bytes` };
  const format = formatOf(bytes);
  if (!format) return { refused: 'not a JPEG, PNG, GIF or WebP image' };
  // Only the first frame of an animation (`pages: 1`, sharp's default, said for the reader);
  // `failOn: 'error'` refuses a truncated or corrupt file, not one with a harmless warning.
  const options = { pages: 1, failOn: 'error', sequentialRead: true } as const;
  let header;
  try {
    // The header only: nothing is decoded, so no pixel limit yet (sharp's default would refuse a
    // bomb here without saying its size).
    header = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch (error) {
    return { refused: `a ${format.toUpperCase()} whose header is unreadable (${firstLine(error)})` };
  }
  const { width, height } = header;
  if (!width || !height) return { refused: `a ${format.toUpperCase()} without dimensions` };
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return {
      refused: `${width}×${height} pixels is too large (at most ${MAX_IMAGE_SIDE} a side and ${MAX_IMAGE_PIXELS} in all)`,
    };
  }
  try {
    // Decoded once, to pixels: upright by its EXIF orientation, scaled down, in sRGB. The header
    // was checked; `limitInputPixels` holds the decoder to the same limit whatever it said.
    const { data, info } = await sharp(bytes, { ...options, limitInputPixels: MAX_IMAGE_PIXELS })
      .timeout({ seconds: DECODE_SECONDS })
      .rotate()
      .resize(MAX_KEPT_SIDE, MAX_KEPT_SIDE, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    // A PNG only when a pixel is see-through: GIF and WebP decode with an alpha channel that is
    // often fully opaque.
    const alpha = info.channels === 4 && data.some((value, index) => index % 4 === 3 && value < 255);
    const pixels = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    // Written fresh from pixels: no EXIF, XMP, ICC or comment of the original comes along.
    const encoded = alpha ? pixels.png() : pixels.removeAlpha().jpeg({ quality: 90 });
    return { data: await encoded.toBuffer(), type: alpha ? 'png' : 'jpg', width: info.width, height: info.height };
  } catch (error) {
    return { refused: `a ${format.toUpperCase()} that does not decode (${firstLine(error)})` };
  }
}

const firstLine = (error: unknown) => (error as Error).message.split('\n')[0]!.trim();

/** Reads at most `max` bytes of a response; undefined when there are more. */
async function readAtMost(response: Response, max: number): Promise<Uint8Array | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
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

/** Redirects an image may take, each hop checked like the first address. */
const MAX_IMAGE_REDIRECTS = 3;

/** Fetches `url`: its bytes, or why not. Redirects are followed by hand, every hop through egress. */
async function download(
  url: string,
  { timeoutMs, signal, egress }: { timeoutMs: number; signal?: AbortSignal | undefined; egress: EgressPolicy },
): Promise<Uint8Array | { skipped: string }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = signal ? AbortSignal.any([timeout, signal]) : timeout;
  try {
    let current = new URL(url);
    let response: Response;
    for (let redirects = 0; ; redirects++) {
      response = await guardedFetch(
        current,
        { signal: both, headers: { accept: 'image/*', 'user-agent': 'video-plugin-service' } },
        egress,
      );
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) break;
      await response.body?.cancel();
      if (redirects >= MAX_IMAGE_REDIRECTS) return { skipped: `more than ${MAX_IMAGE_REDIRECTS} redirects` };
      current = new URL(location, current);
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { skipped: `HTTP ${response.status}` };
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    const bytes = length > MAX_IMAGE_BYTES ? undefined : await readAtMost(response, MAX_IMAGE_BYTES);
    if (!bytes) {
      await response.body?.cancel().catch(() => {});
      return { skipped: `larger than ${MAX_IMAGE_BYTES} bytes` };
    }
    return bytes;
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof EgressError) return { skipped: `unreachable (${error.detail})` };
    return { skipped: timeout.aborted ? 'timed out' : `unreachable (${(error as Error).message})` };
  }
}

/**
 * The page URL of each kept file: `files` named `<index>.<type>` by {@link downloadImage}, `urls`
 * the topic's image URLs in the same page order.
 */
export function imageURLsOf(files: readonly string[], urls: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    files.flatMap((file) => {
      const url = urls[Number(/(\d+)\.\w+$/.exec(file)?.[1] ?? Number.NaN)];
      return url === undefined ? [] : [[file, url]];
    }),
  );
}

/**
 * Downloads `url` and keeps it in `dir` as `<index>.jpg` or `<index>.png` after the checks above.
 * A skipped image is logged, one line naming the URL and the reason; the caller goes on without it.
 */
export async function downloadImage(
  url: string,
  dir: string,
  index: number,
  options: { timeoutMs: number; signal?: AbortSignal; egress: EgressPolicy },
): Promise<ImageResult> {
  const bytes = await download(url, options);
  const image = 'skipped' in bytes ? bytes : await normaliseImage(bytes);
  if ('skipped' in image || 'refused' in image) {
    const skipped = 'skipped' in image ? image.skipped : image.refused;
    console.warn(`video-plugin-service: image skipped, ${skipped}: ${url}`);
    return { skipped };
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${index}.${image.type}`);
  // Whole or not at all: the media route serves what is there.
  await writeFile(`${file}.part`, image.data, { mode: 0o600 });
  await rename(`${file}.part`, file);
  return { file, width: image.width, height: image.height };
}
