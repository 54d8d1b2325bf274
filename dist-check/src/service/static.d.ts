/**
 * Everything the service serves that is not JSON: the plugin page (`/plugin`), its built assets
 * (`/assets/…`) and the videos' generated media (`/media/videos/…`).
 *
 * The page may be framed only by the partners' allowed origins (CSP `frame-ancestors`; no
 * X-Frame-Options, which cannot list several origins) and may load nothing from elsewhere.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceConfig } from './config.js';
import type { Store } from './store.js';
/** The Content-Security-Policy of the plugin page. */
export declare function pageCsp(config: ServiceConfig): string;
/** Answers `GET /plugin`: the HTML shell of the iframe's page. */
export declare function servePluginPage(res: ServerResponse, config: ServiceConfig): Promise<void>;
/** Answers `GET /assets/<file>` from the public directory; nothing outside it is reachable. */
export declare function serveAsset(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  config: ServiceConfig,
): Promise<void>;
/**
 * A video's media (`/media/videos/<id>/<name>`): real files (MP4 with HTTP range requests, so that
 * players can seek; JPEG thumbnail; WebVTT captions) or the SVG stand-ins of `media: placeholder`.
 * Served only once they exist; the unguessable video ID is the key (see SECURITY.md).
 */
export declare function serveMedia(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  store: Store,
  mediaDir: string,
): Promise<void>;
//# sourceMappingURL=static.d.ts.map
