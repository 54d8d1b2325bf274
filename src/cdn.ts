/**
 * The CDN scripts, built from this one entry by rollup (`npm run build`):
 * - `dist/cdn/video-plugin.min.js`, a classic script (IIFE) for a plain `<script src>`, with or
 *   without `defer`/`async`, anywhere in the page (what unpkg and jsDelivr serve by default);
 * - `dist/cdn/video-plugin.module.min.js`, the same as an ES module that also exports the API.
 *
 * Each registers `<video-plugin>`, sets `window.VideoPlugin` (the `Plugin` class, the error
 * classes, the constants and the version) and turns `[data-video-plugin]` markup into studios (see
 * `embed.ts`), now and whenever such markup is added. A second copy of the same version (both files,
 * or one twice) does nothing; another version leaves the first one's registration and warns.
 *
 * ```html
 * <script src="https://cdn.jsdelivr.net/npm/video-plugin@0.1/dist/cdn/video-plugin.min.js" defer></script>
 * ```
 *
 * `data-service-url` and `data-debug` on that `<script>` set the service and debug output of every
 * `[data-video-plugin]` embed; markup cannot set them (embed.ts).
 */
import * as api from './index.js';
import { TAG_NAME, defineVideoPlugin } from './element/define.js';
import { VideoPluginElement } from './element/video-plugin-element.js';
import { VERSION } from './version.js';
import { siteSettings, startEmbeds } from './embed.js';

export * from './index.js';
export { TAG_NAME, VideoPluginElement, defineVideoPlugin };

/** What `window.VideoPlugin` holds. */
export type VideoPluginGlobal = typeof api & {
  VideoPluginElement: typeof VideoPluginElement;
  defineVideoPlugin: typeof defineVideoPlugin;
  TAG_NAME: typeof TAG_NAME;
  version: string;
};

declare global {
  interface Window {
    /** Set by the video-plugin CDN script. */
    VideoPlugin?: VideoPluginGlobal;
  }
}

const host = globalThis as { VideoPlugin?: VideoPluginGlobal; document?: Document };
// An own property only: an element with id="VideoPlugin" in sanitized markup is reachable as
// window.VideoPlugin too (named access), and must not pass for a copy already loaded.
if (!Object.hasOwn(host, 'VideoPlugin')) {
  defineVideoPlugin();
  host.VideoPlugin = Object.freeze({ ...api, VideoPluginElement, defineVideoPlugin, TAG_NAME, version: VERSION });
  // The service URL and debug output come from the site's own <script> tag only (embed.ts).
  if (host.document)
    startEmbeds(
      host.document,
      siteSettings(host.document, () => import.meta.url),
    );
} else if (host.VideoPlugin!.version !== VERSION) {
  // Another version came first: it keeps the element, the global and the embeds; this warns.
  defineVideoPlugin();
}
