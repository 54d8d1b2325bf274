/**
 * The iframe's life: create it hidden, place it, show and hide it, move it, destroy it.
 * With no element given, the iframe lives in an appended `<div>` that becomes a full-viewport
 * overlay while the UI is open.
 */
const OVERLAY_STYLE = 'position:fixed;inset:0;z-index:2147483000;background:rgba(15,23,42,.55);display:none;';
export class Frame {
  #src;
  /** The `<div>` this frame appended itself, if no parent was given. */
  #overlay;
  #visible = false;
  constructor(options) {
    const iframe = document.createElement('iframe');
    iframe.title = options.title;
    iframe.setAttribute('part', 'frame');
    iframe.allow = 'clipboard-write; fullscreen';
    iframe.style.cssText = 'border:0;width:100%;height:100%;display:none;color-scheme:normal;';
    this.iframe = iframe;
    this.#src = options.src;
    this.#place(options.parent);
    // Set the source last, once the iframe is in the document, so it loads once.
    iframe.src = options.src;
  }
  /** Whether the UI is showing. */
  get visible() {
    return this.#visible;
  }
  show() {
    this.#visible = true;
    this.iframe.style.display = 'block';
    if (this.#overlay) this.#overlay.style.display = 'block';
  }
  hide() {
    this.#visible = false;
    this.iframe.style.display = 'none';
    if (this.#overlay) this.#overlay.style.display = 'none';
  }
  /**
   * Moves the iframe into `parent`. Uses `moveBefore` where the browser has it, which keeps the
   * frame's document alive; otherwise the move reloads the frame and the caller must reconnect.
   */
  mount(parent, hidden) {
    const previousOverlay = this.#overlay;
    this.#overlay = undefined;
    let result = 'reloaded';
    const canMove = typeof parent.moveBefore === 'function' && this.iframe.isConnected && parent.isConnected;
    if (canMove) {
      try {
        parent.moveBefore(this.iframe, null);
        result = 'kept';
      } catch {
        // moveBefore refuses some moves (e.g. across documents): fall back to a reloading move.
      }
    }
    if (result === 'reloaded') parent.appendChild(this.iframe);
    previousOverlay?.remove();
    if (hidden) this.hide();
    else this.show();
    return result;
  }
  /**
   * Loads the service page again, in place: also after it failed to load or went to another page.
   * (Setting the same `src` again would only scroll to its hash.) A removed iframe stays removed.
   */
  reload() {
    const parent = this.iframe.parentNode;
    if (!parent) return;
    const next = this.iframe.nextSibling;
    this.iframe.remove();
    this.iframe.src = this.#src;
    parent.insertBefore(this.iframe, next);
  }
  /** Removes the iframe (and the `<div>` this frame appended) from the document. */
  destroy() {
    this.iframe.remove();
    this.#overlay?.remove();
    this.#overlay = undefined;
    this.#visible = false;
  }
  #place(parent) {
    if (parent) {
      parent.appendChild(this.iframe);
      return;
    }
    const overlay = document.createElement('div');
    overlay.dataset.videoPlugin = '';
    overlay.style.cssText = OVERLAY_STYLE;
    overlay.appendChild(this.iframe);
    document.body.appendChild(overlay);
    this.#overlay = overlay;
  }
}
//# sourceMappingURL=frame.js.map
