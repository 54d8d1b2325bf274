/**
 * Everything the service serves that is not JSON: the plugin page (`/plugin`), its built assets
 * (`/assets/…`) and the videos' generated media (`/media/videos/…`).
 *
 * The page may be framed only by the partners' allowed origins (CSP `frame-ancestors`; no
 * X-Frame-Options, which cannot list several origins) and may load nothing from elsewhere.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { NotFoundError } from '../errors.js';
import type { ServiceConfig } from './config.js';
import { videoSvg } from './media.js';
import { pluginPageHtml } from './page-html.js';
import type { Store } from './store.js';

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

/** The Content-Security-Policy of the plugin page. */
export function pageCsp(config: ServiceConfig): string {
  const ancestors = new Set<string>();
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
export async function servePluginPage(res: ServerResponse, config: ServiceConfig): Promise<void> {
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
 * Answers `GET /media/videos/<id>/thumbnail.svg` and `…/render.svg`. Media is public, like a CDN
 * URL (an `<img>` cannot send the session); the unguessable video ID is what protects it.
 */
export function serveMedia(res: ServerResponse, path: string, store: Store): void {
  const match = /^\/media\/videos\/([\w-]+)\/(thumbnail|render)\.svg$/.exec(path);
  const video = match ? store.videos.get(match[1] as string) : undefined;
  const kind = match?.[2] as 'thumbnail' | 'render' | undefined;
  const ready =
    kind === 'thumbnail' ? video?.hasThumbnail : video?.renders.some((render) => render.status === 'COMPLETE');
  if (!video || !kind || !ready) throw missing(path);
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

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function missing(path: string): NotFoundError {
  return new NotFoundError('not_found', `Nothing is served at ${path}.`);
}
