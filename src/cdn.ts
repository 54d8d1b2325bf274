/**
 * The CDN scripts, built from this one entry by rollup (`npm run build`):
 * - `dist/cdn/video-plugin.min.js`, a classic script (IIFE) for a plain `<script src>`, with or
 *   without `defer`/`async`, anywhere in the page (what unpkg and jsDelivr serve by default);
 * - `dist/cdn/video-plugin.module.min.js`, the same as an ES module that also exports the API.
 *
 * Each registers `<video-plugin>`, sets `window.VideoPlugin` (the `Plugin` class, the error
 * classes, the constants and the version) and turns `[data-video-plugin]` markup into studios (see
 * `embed.ts`), now and whenever such markup is added (`cdn-register.ts`). A second copy of the same
 * version (both files, or one twice) does nothing; another version leaves the first one's
 * registration and warns.
 *
 * ```html
 * <script src="https://cdn.jsdelivr.net/npm/video-plugin@0.1/dist/cdn/video-plugin.min.js" defer></script>
 * ```
 *
 * `data-service-url` and `data-debug` on that `<script>` set the service and debug output of every
 * `[data-video-plugin]` embed; markup cannot set them (embed.ts).
 */
import { TAG_NAME, defineVideoPlugin } from './element/define.js';
import { VideoPluginElement } from './element/video-plugin-element.js';
import { register } from './cdn-register.js';

export * from './index.js';
export { TAG_NAME, VideoPluginElement, defineVideoPlugin };
export type { VideoPluginGlobal } from './cdn-register.js';

// A module script is not `document.currentScript`: its tag is the module script whose `src` is
// this module's own URL.
register((document) =>
  [...document.querySelectorAll('script[type=module][src]')].find(
    (script) => (script as HTMLScriptElement).src === import.meta.url,
  ),
);
