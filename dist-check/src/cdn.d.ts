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
 */
import * as api from './index.js';
import { TAG_NAME, defineVideoPlugin } from './element/define.js';
import { VideoPluginElement } from './element/video-plugin-element.js';
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
//# sourceMappingURL=cdn.d.ts.map
