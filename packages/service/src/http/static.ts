/**
 * Everything the service serves that is not JSON: the plugin page (`/plugin`), its built assets
 * (`/assets/…`) and the videos' generated media (`/media/videos/…`).
 *
 * The page may be framed only by the partners' allowed origins (CSP `frame-ancestors`; no
 * X-Frame-Options, which cannot list several origins) and may load nothing from elsewhere.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import send from 'send';
import { NotFoundError, ServiceError } from 'video-plugin/internal';
import type { ServiceConfig } from '../config.js';
import { videoSvg } from './placeholder.js';
import { frameAncestorSources } from '../origins.js';
import { pluginPageHtml } from './page-html.js';
import type { Store } from '../store/store.js';
import {
  isFile,
  keepTranscript,
  keptPictureHash,
  MEDIA_FILES,
  mediaFileHash,
  PICTURE_TYPES,
  PLACEHOLDER_FILES,
  SVG_TYPE,
  videoFile,
  type MediaFileName,
} from '../media/files.js';
import {
  contentKey,
  MediaStoreUnavailable,
  STORE_RETRY_AFTER_SECONDS,
  type ByteRange,
  type MediaStore,
} from '../media/store.js';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The sandbox the studio runs in, set by its own response (CSP `sandbox`) rather than by an iframe
 * attribute: each keyword is one the studio needs, and nothing else is allowed (no navigation of the
 * partner's page, no `alert()`/`confirm()`/`print()`, no downloads, no `document.domain`, no pointer
 * or orientation lock). Its scripts run (`allow-scripts`) at the service's own origin
 * (`allow-same-origin`: its API calls, its socket and its storage are the service's), its forms
 * submit (`allow-forms`: without it a form's Enter never reaches its submit listener), and a
 * finished render's link opens in a new tab that is not sandboxed
 * (`allow-popups allow-popups-to-escape-sandbox`). The same keywords on the SDK's iframe would make
 * Chromium warn "can escape its sandboxing" on every partner page (true only of a same-origin
 * frame): SECURITY.md, "The studio's sandbox".
 */
export const STUDIO_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox';

/**
 * The Content-Security-Policy of the plugin page for `partnerID` (its `?partner=`). Framing is
 * allowed to that partner's origins only: the header names no other partner's (on a hosted service
 * that list would be its customers), and one partner that allows `*` opens no one else's frame. An
 * unknown or missing partner gets `'none'`.
 */
export function pageCsp(config: ServiceConfig, partnerID: string | null): string {
  const partner = partnerID === null ? undefined : config.partners.get(partnerID);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // Every picture is the service's own checked copy (/media/…): a page cannot make the user's
    // browser call a source site or an intranet URL (the pages use no data: or blob: image).
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    // DOM XSS sinks take only Trusted Types, and Lit's policy (`lit-html`) is the only one.
    "require-trusted-types-for 'script'",
    'trusted-types lit-html',
    `frame-ancestors ${frameAncestorSources(partner ? [partner] : []).join(' ')}`,
    `sandbox ${STUDIO_SANDBOX}`,
  ].join('; ');
}

/** Answers `GET /plugin`: the HTML shell of the iframe's page. */
export async function servePluginPage(
  res: ServerResponse,
  config: ServiceConfig,
  partnerID: string | null,
): Promise<void> {
  const stylesheet = await isFile(join(config.publicDir, 'app.css'));
  const html = pluginPageHtml({ stylesheet });
  res
    .writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
      'content-security-policy': pageCsp(config, partnerID),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    })
    .end(html);
}

/** Answers `GET /assets/<file>` from the public directory; nothing outside it is reachable. */
export async function serveAsset(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  config: ServiceConfig,
): Promise<void> {
  const root = resolve(config.publicDir);
  let relative: string;
  try {
    relative = decodeURIComponent(path.slice('/assets/'.length));
  } catch {
    throw missing(path);
  }
  // Refuse anything that could step out of the directory or name a hidden file, before touching disk.
  const segments = relative.split('/');
  if (
    relative === '' ||
    relative.includes('\\') ||
    relative.includes('\0') ||
    segments.some((s) => s === '' || s.startsWith('.'))
  ) {
    throw missing(path);
  }
  const file = resolve(root, ...segments);
  if (!file.startsWith(root + sep) || !(await isFile(file))) throw missing(path);
  const content = await readFile(file);
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': content.length,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : content);
}

/**
 * A video's media (`/media/videos/<id>/<name>`, names in `MEDIA_FILES`): real files (MP4 with HTTP
 * range requests, so that players can seek; JPEG thumbnail and poster; WebVTT captions and
 * chapters; the plain-text transcript) or the SVG stand-ins of `media: placeholder`. Served only
 * once they exist — a final render's files once the render is COMPLETE — and all by the same
 * rule: the unguessable video ID is the key (see SECURITY.md).
 *
 * With an S3 media store, a file whose record names its content's hash is read from the store
 * ({@link sendStored}); one the store does not have (made before the service had a store, into
 * the media folder) from the folder, as without a store.
 */
export async function serveMedia(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  store: Store,
  mediaDir: string,
  mediaStore?: MediaStore,
): Promise<void> {
  // A topic's kept images (the editor shows them): /media/topics/<topicId>/<n>.<type>.
  const image = /^\/media\/topics\/([\w-]+)\/(\d+\.(png|jpg|gif|webp))$/.exec(path);
  if (image) {
    const topic = store.topics.get(image[1] as string);
    const file = topic?.files?.find((kept) => kept.endsWith(`/${image[2]}`));
    if (!file) throw missing(path);
    const type = PICTURE_TYPES[image[3] as keyof typeof PICTURE_TYPES];
    const hash = mediaStore ? keptPictureHash(file) : undefined;
    if (mediaStore && hash && (await sendStored(req, res, mediaStore, hash, type))) return;
    return sendFile(req, res, file, type);
  }
  const match = /^\/media\/videos\/([\w-]+)\/([\w.-]+)$/.exec(path);
  const video = match ? store.videos.get(match[1] as string) : undefined;
  const name = match?.[2] ?? '';
  if (!video) throw missing(path);
  if (video.media === 'mp4') {
    const file = Object.hasOwn(MEDIA_FILES, name) ? MEDIA_FILES[name as MediaFileName] : undefined;
    const ready =
      file?.kind === 'preview'
        ? video.hasPreview
        : video.renders.some((render) => render.format === 'mp4' && render.status === 'COMPLETE');
    if (!file || !ready) throw missing(path);
    const hash = mediaStore ? mediaFileHash(video, name as MediaFileName) : undefined;
    if (mediaStore && hash && (await sendStored(req, res, mediaStore, hash, file.type))) return;
    const served = videoFile(mediaDir, video.id, file.kind, file.ext);
    if (file.ext === 'txt') await keepTranscript(video.storyboard, served);
    return sendFile(req, res, served, file.type);
  }
  // The poster is the thumbnail's picture, a file of the finished render (as with real media).
  const drawn = Object.hasOwn(PLACEHOLDER_FILES, name)
    ? PLACEHOLDER_FILES[name as keyof typeof PLACEHOLDER_FILES]
    : undefined;
  const ready =
    name === 'thumbnail.svg' ? video.hasThumbnail : video.renders.some((render) => render.status === 'COMPLETE');
  if (!drawn || !ready) throw missing(path);
  const svg = videoSvg(video, drawn);
  res
    .writeHead(200, {
      'content-type': SVG_TYPE,
      'content-length': Buffer.byteLength(svg),
      // An SVG opened directly is a document: it must not run anything.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      // Readable from the partner's page like the real media (a render's files, alike in both modes).
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    })
    .end(svg);
}

/**
 * Sends a file with the `send` package: `Content-Length`, `Accept-Ranges: bytes`, one `Range`
 * (`206`, or `416` when unsatisfiable; several ranges get the whole file), `If-Range`, `ETag` and
 * `Last-Modified` with `304` on `If-None-Match`/`If-Modified-Since` (`412` on a failed `If-Match`),
 * and HEAD. The file is read only while the client is there: `send` destroys the read stream when
 * the response ends or the client goes (a player that seeks drops its request), and on a read error
 * (the response, then under way, is cut).
 *
 * Which file may be read is decided by the callers; a missing one is the service's JSON 404.
 */
function sendFile(req: IncomingMessage, res: ServerResponse, file: string, type: string): Promise<void> {
  return new Promise((done, fail) => {
    const failed = (error: unknown): void => {
      // Nothing sent yet: the error answer must not carry the file's headers.
      if (!res.headersSent) for (const name of res.getHeaderNames()) res.removeHeader(name);
      fail(error);
    };
    // The file's own folder as the root, its name as the path: send then joins nothing that came
    // from the request, and no character of the folder's name is read as URL syntax.
    send(req, `/${encodeURIComponent(basename(file))}`, {
      root: dirname(file),
      dotfiles: 'allow',
      index: false,
      // `no-cache` (below): a re-rendered preview keeps its URL, so a player must revalidate.
      cacheControl: false,
      etag: true,
      lastModified: true,
      acceptRanges: true,
    })
      .on('headers', (response: ServerResponse) => {
        // Set before send writes its own: on 200, 206, 304, 412 and 416 alike.
        response.setHeader('content-type', type);
        response.setHeader('cache-control', 'no-cache');
        response.setHeader('x-content-type-options', 'nosniff');
        // Players on the partner's page (another origin) may read it, as from a CDN.
        response.setHeader('access-control-allow-origin', '*');
        response.setHeader('cross-origin-resource-policy', 'cross-origin');
      })
      .on('directory', () => failed(missing(pathOf(req))))
      .on('error', (error: { status?: number; statusCode?: number }) => {
        const status = error.status ?? error.statusCode ?? 500;
        if (res.headersSent) return failed(error); // a read error mid-file: the response is cut
        if (status === 404) return failed(missing(pathOf(req)));
        // send has set Content-Range (`bytes */size`) on a 416; the answer has no body.
        if (status === 416 || status === 412) return void res.writeHead(status, { 'content-length': 0 }).end();
        failed(error);
      })
      .pipe(res);
    res.once('close', () => done());
  });
}

/**
 * Sends the object whose content's SHA-256 is `sha256` from the media store, with the headers of
 * {@link sendFile}: `Content-Length`, `Accept-Ranges: bytes`, one `Range` (`206` with
 * `Content-Range`, `416` when unsatisfiable; several ranges get the whole file), `If-Range`, an
 * `ETag` (the hash: the bytes of a key never change) with `304` on `If-None-Match` (`412` on a
 * failed `If-Match`), and HEAD. No `Last-Modified`: the ETag is exact. The store's stream is read
 * only while the client is there. A store that cannot be reached answers 503 with `Retry-After`.
 * Resolves false, having sent nothing, when the store does not have the object.
 */
async function sendStored(
  req: IncomingMessage,
  res: ServerResponse,
  mediaStore: MediaStore,
  sha256: string,
  type: string,
): Promise<boolean> {
  const key = contentKey(sha256);
  const size = await mediaStore.has(key).catch(storeDown);
  if (size === undefined) return false;
  const etag = `"${sha256}"`;
  const tags = (header: string | string[] | undefined) =>
    String(header ?? '')
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''));
  const headers: Record<string, string | number> = {
    'content-type': type,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
    'accept-ranges': 'bytes',
    etag,
  };
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined && !tags(ifMatch).some((tag) => tag === '*' || tag === etag)) {
    res.writeHead(412, { 'content-length': 0 }).end();
    return true;
  }
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && tags(ifNoneMatch).some((tag) => tag === '*' || tag === etag)) {
    const { 'content-type': _, ...unchanged } = headers;
    res.writeHead(304, unchanged).end();
    return true;
  }
  // If-Range with another validator: the client's copy is stale, so it gets the whole file.
  const ifRange = req.headers['if-range'];
  const range =
    ifRange === undefined || String(ifRange).trim() === etag ? byteRange(req.headers.range, size) : undefined;
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${size}`, 'content-length': 0 }).end();
    return true;
  }
  const status = range ? 206 : 200;
  const length = range ? range.end - range.start + 1 : size;
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  headers['content-length'] = length;
  if (req.method === 'HEAD' || length === 0) {
    res.writeHead(status, headers).end();
    return true;
  }
  const object = await mediaStore.get(key, range).catch(storeDown);
  // Gone between the two calls (nothing removes objects but an operator): as if never there.
  if (!object) throw missing(pathOf(req));
  res.writeHead(status, headers);
  // A client that goes (a player that seeks drops its request) ends the store's stream too; a read
  // error mid-file cuts the response, whose headers are already sent.
  await pipeline(object.body, res).catch(() => res.destroy());
  return true;
}

/**
 * The one range of a `Range` header within `size` bytes: undefined for none, several or a header
 * that is not bytes (the whole file is sent), `unsatisfiable` for one that starts past the end.
 */
function byteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const [, first, last] = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '') ?? [];
  if (first === undefined || last === undefined || (first === '' && last === '')) return undefined;
  if (first === '') {
    // The last N bytes.
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return 'unsatisfiable';
  return start > end ? undefined : { start, end };
}

/** A media store that could not be reached, as the answer to a request for a file: 503 with Retry-After. */
function storeDown(error: unknown): never {
  if (!(error instanceof MediaStoreUnavailable)) throw error;
  const unavailable = new ServiceError(
    'service_unavailable',
    `The service's media store could not be reached, so the file cannot be sent now. Try again in ${STORE_RETRY_AFTER_SECONDS} s.`,
    { retryable: true, retryAfterSeconds: STORE_RETRY_AFTER_SECONDS },
  );
  // The store's address and answer go to the service's log (with the 503), not to the player.
  unavailable.cause = error;
  throw unavailable;
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://service.invalid').pathname;
}

function missing(path: string): NotFoundError {
  return new NotFoundError(`Nothing is served at ${path}.`);
}
