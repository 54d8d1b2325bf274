/**
 * `onIntent`: the first sign that the user is about to use a control — the pointer over it, the
 * focus on it, a touch — a few hundred milliseconds before the click. The element's
 * `preload="intent"` creates its studio then; with the `Plugin`, create it in the callback:
 *
 * ```ts
 * let plugin: Plugin | undefined;
 * const studio = () => (plugin ??= new Plugin(partnerID, { serviceURL }));
 * onIntent(button, studio);
 * button.onclick = () => studio().openPlugin();
 * ```
 */

/**
 * Calls `callback` once, at the first intent event on `target` (or inside it). Returns the function
 * that stops listening (harmless after the callback ran).
 */
export function onIntent(target: EventTarget, callback: () => void): () => void {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  // Pointer over it (mouse, pen, also touch), focus in it (keyboard), a touch on it.
  for (const type of ['pointerenter', 'focusin', 'touchstart']) {
    target.addEventListener(
      type,
      () => {
        stop();
        callback();
      },
      { passive: true, signal: controller.signal },
    );
  }
  return stop;
}
