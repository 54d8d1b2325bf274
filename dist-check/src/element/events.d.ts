/**
 * The element's DOM events: one per `Plugin` event, same name, the payload in `detail`. One helper
 * dispatches them all, and the global event maps type them.
 */
import type { PluginEventMap, PluginEventName } from '../wire/api.js';
/** The `detail` of each event: the `Plugin` payload (`null` for events without one). */
export type VideoPluginEventDetail<K extends PluginEventName> = PluginEventMap[K] extends undefined
  ? null
  : PluginEventMap[K];
/** Every event `<video-plugin>` dispatches, by name. */
export type VideoPluginElementEventMap = {
  [K in PluginEventName]: CustomEvent<VideoPluginEventDetail<K>>;
};
/**
 * Dispatches `name` on `target` with `detail`, composed so that it leaves the shadow root.
 *
 * Every event bubbles except `error`: like the platform's own `error` events (`<img>`, `<script>`),
 * it stays on the element, so that it never reaches `window`, where `window.onerror` and error
 * reporters would take it for an uncaught exception.
 */
export declare function dispatchPluginEvent<K extends PluginEventName>(
  target: EventTarget,
  name: K,
  detail: PluginEventMap[K],
): boolean;
declare global {
  interface HTMLElementEventMap {
    pluginOpened: VideoPluginElementEventMap['pluginOpened'];
    pluginOpenFailed: VideoPluginElementEventMap['pluginOpenFailed'];
    editorOpened: VideoPluginElementEventMap['editorOpened'];
    editorOpenFailed: VideoPluginElementEventMap['editorOpenFailed'];
    editorExited: VideoPluginElementEventMap['editorExited'];
    videoCreated: VideoPluginElementEventMap['videoCreated'];
    videoSaved: VideoPluginElementEventMap['videoSaved'];
    videoCompleted: VideoPluginElementEventMap['videoCompleted'];
    videoRendered: VideoPluginElementEventMap['videoRendered'];
    sessionLost: VideoPluginElementEventMap['sessionLost'];
  }
}
//# sourceMappingURL=events.d.ts.map
