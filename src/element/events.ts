/**
 * The element's DOM events: one per `Plugin` event, same name, the payload in `detail`. One helper
 * dispatches them all, and the global event maps type them.
 */
import type { PluginEventMap, PluginEventName } from '../wire/api.js';

/** The `detail` of each event: the `Plugin` payload (`null` for events without one). */
export type VideoPluginEventDetail<K extends PluginEventName> = PluginEventMap[K] extends undefined
  ? null
  : PluginEventMap[K];

/** Why the UI closed: see the `closed` event. */
export type CloseReason = 'escape' | 'backdrop' | 'ui' | 'api';

/** The element's own events, beside the `Plugin`'s. */
export interface VideoPluginElementOwnEventMap {
  /** The studio connected (also after a retry or a new configuration). */
  ready: CustomEvent<null>;
  /** The studio's UI closed, and why. */
  closed: CustomEvent<{ reason: CloseReason }>;
}

/** Every event `<video-plugin>` dispatches, by name. */
export type VideoPluginElementEventMap = {
  [K in PluginEventName]: CustomEvent<VideoPluginEventDetail<K>>;
} & VideoPluginElementOwnEventMap;

/**
 * Dispatches `name` on `target` with `detail`, composed so that it leaves the shadow root.
 *
 * Every event bubbles except `error`: like the platform's own `error` events (`<img>`, `<script>`),
 * it stays on the element, so that it never reaches `window`, where `window.onerror` and error
 * reporters would take it for an uncaught exception.
 */
export function dispatchPluginEvent<K extends PluginEventName>(
  target: EventTarget,
  name: K,
  detail: PluginEventMap[K],
): boolean {
  return target.dispatchEvent(
    new CustomEvent(name, { detail: detail ?? null, bubbles: name !== 'error', composed: true }),
  );
}

declare global {
  // `error` is left out: `HTMLElementEventMap` already types it as `ErrorEvent`. The element's own
  // `addEventListener` overload types it as `CustomEvent<VideoPluginError>`.
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
    ready: VideoPluginElementEventMap['ready'];
    closed: VideoPluginElementEventMap['closed'];
  }
}
