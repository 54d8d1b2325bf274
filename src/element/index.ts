/**
 * `video-plugin/element`: registers `<video-plugin>` (idempotently; a second copy of the library
 * warns instead of throwing) and exports its class and types.
 *
 * @example
 * ```ts
 * import 'video-plugin/element';
 * // <video-plugin partner-id="acme"></video-plugin>
 * ```
 * @module
 */
import { defineVideoPlugin } from './define.js';

export { VideoPluginElement, type Display, type Preload } from './video-plugin-element.js';
export { TAG_NAME, defineVideoPlugin } from './define.js';
export type { VideoPluginBubblingEventMap, VideoPluginElementEventMap, VideoPluginEventDetail } from './events.js';

defineVideoPlugin();
