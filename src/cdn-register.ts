/**
 * What both CDN scripts do when they run (`cdn.ts`, the ES module; `cdn-classic.ts`, the classic
 * script): register `<video-plugin>`, set `window.VideoPlugin` and start the `[data-video-plugin]`
 * embeds with the settings of the file's own `<script>` (embed.ts). A second copy of the same
 * version does nothing; another version leaves the first one's registration and warns.
 */
import * as api from './index.js';
import { TAG_NAME, defineVideoPlugin } from './element/define.js';
import { VideoPluginElement } from './element/video-plugin-element.js';
import { VERSION } from './version.js';
import { siteSettings, startEmbeds } from './embed.js';

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

/**
 * Runs the CDN script. `ownScript` finds the `<script>` element that loaded it, each file its own
 * way (a classic script knows it, a module looks for it): the one place its settings come from.
 */
export function register(ownScript: (document: Document) => unknown): void {
  const host = globalThis as { VideoPlugin?: VideoPluginGlobal; document?: Document };
  // An own property only: an element with id="VideoPlugin" in sanitized markup is reachable as
  // window.VideoPlugin too (named access), and must not pass for a copy already loaded.
  if (!Object.hasOwn(host, 'VideoPlugin')) {
    defineVideoPlugin();
    host.VideoPlugin = Object.freeze({ ...api, VideoPluginElement, defineVideoPlugin, TAG_NAME, version: VERSION });
    // The service URL and debug output come from the site's own <script> tag only (embed.ts).
    if (host.document) startEmbeds(host.document, siteSettings(host.document, ownScript));
  } else if (host.VideoPlugin!.version !== VERSION) {
    // Another version came first: it keeps the element, the global and the embeds; this warns.
    defineVideoPlugin();
  }
}
