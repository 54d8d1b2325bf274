/**
 * The iframe's life: create it hidden, place it, show and hide it, move it, destroy it.
 * With no element given, the iframe lives in an appended `<div>` that becomes a full-viewport
 * overlay while the UI is open.
 */

export interface FrameOptions {
  /** Full URL of the service page, hash included. */
  src: string;
  /** Accessible name of the iframe. */
  title: string;
  /** Element that holds the iframe; when omitted a `<div>` is appended to `document.body`. */
  parent?: HTMLElement | undefined;
}

// The backdrop's colour as styles.ts writes the dialog's: the CDN files hold its text once.
const OVERLAY_STYLE = 'position:fixed;inset:0;z-index:2147483000;background:rgb(15 23 42/.55);display:none';

/** How `mount` moved the iframe: kept alive (`moveBefore`) or reloaded (`append`). */
export type MoveResult = 'kept' | 'reloaded';

export class Frame {
  readonly iframe: HTMLIFrameElement;
  readonly #src: string;
  /** The `<div>` this frame appended itself, if no parent was given. */
  #overlay: HTMLDivElement | undefined;
  #visible = false;
  /** What had the focus when the UI showed: it gets the focus back if the UI hides with it. */
  #opener: HTMLElement | null | undefined;

  constructor(options: FrameOptions) {
    const iframe = document.createElement('iframe');
    iframe.title = options.title;
    iframe.part.add('frame');
    iframe.allow = 'clipboard-write; fullscreen';
    iframe.style.cssText = 'border:0;width:100%;height:100%;display:none;color-scheme:normal';
    this.iframe = iframe;
    this.#src = options.src;
    this.#place(options.parent);
    // Set the source last, once the iframe is in the document, so it loads once.
    iframe.src = options.src;
  }

  /** Whether the UI is showing. */
  get visible(): boolean {
    return this.#visible;
  }

  show(): void {
    this.#show(true);
  }

  hide(): void {
    this.#show(false);
  }

  /**
   * Shows or hides the UI. A keyboard user keeps their place: the overlay, which covers the page,
   * takes the focus into the frame as it shows, and whatever had the focus before gets it back when
   * the UI hides with the focus inside it (closed with its ✕ or Esc, the editor exited).
   */
  #show(visible: boolean): void {
    const { iframe } = this;
    const overlay = this.#overlay;
    const display = visible ? 'block' : 'none';
    const focused = (iframe.getRootNode() as Document).activeElement === iframe;
    if (visible > this.#visible) this.#opener = document.activeElement as HTMLElement | null;
    this.#visible = visible;
    iframe.style.display = display;
    if (overlay) {
      overlay.style.display = display;
      // A frame that has just shown takes the focus a frame later (Firefox drops it before).
      if (visible) setTimeout(() => iframe.focus());
    }
    if (!visible && focused) this.#opener?.focus();
  }

  /**
   * Moves the iframe into `parent`. Uses `moveBefore` where the browser has it, which keeps the
   * frame's document alive; otherwise the move reloads the frame and the caller must reconnect.
   */
  mount(parent: HTMLElement, hidden: boolean): MoveResult {
    let result: MoveResult = 'reloaded';
    if (this.iframe.isConnected) {
      try {
        (parent as unknown as { moveBefore(node: Node, child: Node | null): void }).moveBefore(this.iframe, null);
        result = 'kept';
      } catch {
        // Not every browser has moveBefore, and it refuses moves out of the iframe's document (e.g.
        // into an element not in the document): fall back to a reloading move.
      }
    }
    if (result === 'reloaded') parent.append(this.iframe);
    // The iframe is out of its overlay now (if it had one), which goes.
    this.#overlay?.remove();
    this.#overlay = undefined;
    this.#show(!hidden);
    return result;
  }

  /**
   * Loads the service page again, in place: also after it failed to load or went to another page.
   * (Setting the same `src` again would only scroll to its hash.) A removed iframe stays removed.
   */
  reload(): void {
    const { iframe } = this;
    const { parentNode: parent, nextSibling: next } = iframe;
    if (!parent) return;
    iframe.remove();
    iframe.src = this.#src;
    parent.insertBefore(iframe, next);
  }

  /** Removes the iframe (and the `<div>` this frame appended) from the document. */
  destroy(): void {
    this.#show(false);
    this.iframe.remove();
    this.#overlay?.remove();
    this.#overlay = undefined;
  }

  #place(parent: HTMLElement | undefined): void {
    if (!parent) {
      parent = this.#overlay = document.createElement('div');
      parent.dataset.videoPlugin = '';
      parent.style.cssText = OVERLAY_STYLE;
      document.body.append(parent);
    }
    parent.append(this.iframe);
  }
}
