/**
 * Dispatches `name` on `target` with `detail`, composed so that it leaves the shadow root.
 *
 * Every event bubbles except `error`: like the platform's own `error` events (`<img>`, `<script>`),
 * it stays on the element, so that it never reaches `window`, where `window.onerror` and error
 * reporters would take it for an uncaught exception.
 */
export function dispatchPluginEvent(target, name, detail) {
  return target.dispatchEvent(
    new CustomEvent(name, { detail: detail ?? null, bubbles: name !== 'error', composed: true }),
  );
}
//# sourceMappingURL=events.js.map
