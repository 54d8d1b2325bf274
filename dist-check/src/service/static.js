import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { NotFoundError } from '../errors.js';
import { videoSvg } from './media.js';
import { pluginPageHtml } from './page-html.js';
import { videoFile } from './jobs.js';
const CONTENT_TYPES = {
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
/** The Content-Security-Policy of the plugin page. */
export function pageCsp(config) {
  const ancestors = new Set();
  for (const partner of config.partners.values())
    for (const origin of partner.allowedOrigins) ancestors.add(origin.source);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // Topic images live on the source websites (the real service would proxy them).
    "img-src 'self' data: http: https:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${[...ancestors].join(' ') || "'none'"}`,
  ].join('; ');
}
/** Answers `GET /plugin`: the HTML shell of the iframe's page. */
export async function servePluginPage(res, config) {
  const stylesheet = await isFile(join(config.publicDir, 'app.css'));
  const html = pluginPageHtml({ stylesheet });
  res
    .writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
      'content-security-policy': pageCsp(config),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    })
    .end(html);
}
/** Answers `GET /assets/<file>` from the public directory; nothing outside it is reachable. */
export async function serveAsset(req, res, path, config) {
  const root = resolve(config.publicDir);
  let relative;
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
/** Real media files of a video: what each URL name serves, and its type. */
const MEDIA_FILES = {
  'preview.mp4': { kind: 'preview', ext: 'mp4', type: 'video/mp4' },
  'render.mp4': { kind: 'final', ext: 'mp4', type: 'video/mp4' },
  'thumbnail.jpg': { kind: 'preview', ext: 'jpg', type: 'image/jpeg' },
  'captions.vtt': { kind: 'final', ext: 'vtt', type: 'text/vtt; charset=utf-8' },
  'preview.vtt': { kind: 'preview', ext: 'vtt', type: 'text/vtt; charset=utf-8' },
};
/**
 * A video's media (`/media/videos/<id>/<name>`): real files (MP4 with HTTP range requests, so that
 * players can seek; JPEG thumbnail; WebVTT captions) or the SVG stand-ins of `media: placeholder`.
 * Served only once they exist; the unguessable video ID is the key (see SECURITY.md).
 */
export async function serveMedia(req, res, path, store, mediaDir) {
  // A topic's kept images (the editor shows them): /media/topics/<topicId>/<n>.<type>.
  const image = /^\/media\/topics\/([\w-]+)\/(\d+\.(png|jpg|gif|webp))$/.exec(path);
  if (image) {
    const topic = store.topics.get(image[1]);
    const file = topic?.files?.find((kept) => kept.endsWith(`/${image[2]}`));
    if (!file) throw missing(path);
    const type = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' }[image[3]];
    return sendFile(req, res, file, type);
  }
  const match = /^\/media\/videos\/([\w-]+)\/([\w.]+)$/.exec(path);
  const video = match ? store.videos.get(match[1]) : undefined;
  const name = match?.[2] ?? '';
  if (!video) throw missing(path);
  if (video.media === 'mp4') {
    const file = MEDIA_FILES[name];
    const ready =
      file?.kind === 'preview'
        ? video.hasPreview
        : video.renders.some((render) => render.format === 'mp4' && render.status === 'COMPLETE');
    if (!file || !ready) throw missing(path);
    return sendFile(req, res, videoFile(mediaDir, video.id, file.kind, file.ext), file.type);
  }
  const kind = name === 'thumbnail.svg' ? 'thumbnail' : name === 'render.svg' ? 'render' : undefined;
  const ready =
    kind === 'thumbnail' ? video.hasThumbnail : video.renders.some((render) => render.status === 'COMPLETE');
  if (!kind || !ready) throw missing(path);
  const svg = videoSvg(video, kind);
  res
    .writeHead(200, {
      'content-type': 'image/svg+xml',
      'content-length': Buffer.byteLength(svg),
      // An SVG opened directly is a document: it must not run anything.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    })
    .end(svg);
}
/**
 * Sends a file with `Content-Length` and `Accept-Ranges: bytes`; a `Range: bytes=a-b` request (one
 * range) gets `206` and that part, an unsatisfiable one `416`.
 */
async function sendFile(req, res, file, type) {
  let size;
  try {
    size = (await stat(file)).size;
  } catch {
    throw missing(new URL(req.url ?? '/', 'http://service.invalid').pathname);
  }
  const headers = {
    'content-type': type,
    'accept-ranges': 'bytes',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    // Players on the partner's page (another origin) may read it, as from a CDN.
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (range && (range[1] || range[2])) {
    // `a-b`, `a-` (to the end) or `-n` (the last n bytes).
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size || start > end) {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, {
      ...headers,
      'content-range': `bytes ${start}-${end}/${size}`,
      'content-length': end - start + 1,
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file, { start, end }).pipe(res);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': size });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}
async function isFile(path) {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
function missing(path) {
  return new NotFoundError('not_found', `Nothing is served at ${path}.`);
}
//# sourceMappingURL=static.js.map
