/**
 * The CDN bundle (`dist/cdn/video-plugin.min.js`): one self-contained ES module with Lit and zod
 * inside, for pages with no build step. Loading it registers `<video-plugin>` and sets
 * `window.VideoPlugin` (the `Plugin` class, the error classes, the constants and the version); it
 * also exports the same names for `import { Plugin } from '…/video-plugin.min.js'`.
 *
 * ```html
 * <script type="module" src="https://cdn.jsdelivr.net/npm/video-plugin@0/dist/cdn/video-plugin.min.js"></script>
 * ```
 */
import * as api from './index.js';
import { TAG_NAME, defineVideoPlugin } from './element/define.js';
import { VideoPluginElement } from './element/video-plugin-element.js';
import { VERSION } from './version.js';

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

defineVideoPlugin();
// A second copy keeps the first one's global, so that it matches the registered element.
const host = globalThis as { VideoPlugin?: VideoPluginGlobal };
host.VideoPlugin ??= Object.freeze({ ...api, VideoPluginElement, defineVideoPlugin, TAG_NAME, version: VERSION });
