/** What marks a host element. */
export declare const EMBED_ATTRIBUTE = 'data-video-plugin';
/** The `<video-plugin>` attributes a host forwards, each as `data-` + its name. */
export declare const FORWARDED_ATTRIBUTES: readonly [
  'partner-id',
  'environment',
  'auth-mode',
  'service-url',
  'debug',
  'connect-timeout',
  'call-timeout',
];
/** When the studio opens: at once, on a click on the launcher, or when your code calls `openPlugin`. */
export declare const OPEN_ON: readonly ['load', 'click', 'none'];
/** The launcher's label when `data-launcher-text` is not set. */
export declare const DEFAULT_LAUNCHER_TEXT = 'Create a video';
/**
 * Upgrades every host in `document`, now or once it is parsed, and every host added later.
 * Called once by the CDN scripts.
 */
export declare function startEmbeds(document: Document): void;
//# sourceMappingURL=embed.d.ts.map
