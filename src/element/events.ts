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
 * Dispatches `name` on `target` with `detail`, composed so that it leaves the shadow root: every
 * event of the element, the `Plugin`'s and its own (`ready`, `closed`), goes through here.
 *
 * Every event bubbles except `error`: like the platform's own `error` events (`<img>`, `<script>`),
 * it stays on the element, so that it never reaches `window`, where `window.onerror` and error
 * reporters would take it for an uncaught exception.
 */
export function dispatchPluginEvent<K extends PluginEventName>(
  target: EventTarget,
  name: K,
  detail: PluginEventMap[K],
): boolean;
export function dispatchPluginEvent<K extends keyof VideoPluginElementOwnEventMap>(
  target: EventTarget,
  name: K,
  detail: VideoPluginElementOwnEventMap[K]['detail'],
): boolean;
export function dispatchPluginEvent(target: EventTarget, name: string, detail: unknown): boolean {
  return target.dispatchEvent(
    new CustomEvent(name, { detail: detail ?? null, bubbles: name !== 'error', composed: true }),
  );
}

/**
 * The events of `<video-plugin>` that bubble (all but `error`), as they reach its containers,
 * `document` and `window`: the global event maps extend it, so that
 * `document.addEventListener('videoRendered', (e) => e.detail)` is typed. Extend it in an event map
 * of your own for other targets (a `ShadowRoot` the element sits in, say).
 *
 * `error` is left out: it does not bubble (it stays on the element, like the platform's own
 * `error` events), and the global maps already type `error` as `ErrorEvent`. Listen for it on the
 * element, whose own `addEventListener` types it as `CustomEvent<VideoPluginError>`.
 */
export type VideoPluginBubblingEventMap = Omit<VideoPluginElementEventMap, 'error'>;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the augmentation pattern
  interface HTMLElementEventMap extends VideoPluginBubblingEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the augmentation pattern
  interface DocumentEventMap extends VideoPluginBubblingEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the augmentation pattern
  interface WindowEventMap extends VideoPluginBubblingEventMap {}
}
