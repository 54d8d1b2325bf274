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
/** How `mount` moved the iframe: kept alive (`moveBefore`) or reloaded (`appendChild`). */
export type MoveResult = 'kept' | 'reloaded';
export declare class Frame {
  #private;
  readonly iframe: HTMLIFrameElement;
  constructor(options: FrameOptions);
  /** Whether the UI is showing. */
  get visible(): boolean;
  show(): void;
  hide(): void;
  /**
   * Moves the iframe into `parent`. Uses `moveBefore` where the browser has it, which keeps the
   * frame's document alive; otherwise the move reloads the frame and the caller must reconnect.
   */
  mount(parent: HTMLElement, hidden: boolean): MoveResult;
  /**
   * Loads the service page again, in place: also after it failed to load or went to another page.
   * (Setting the same `src` again would only scroll to its hash.) A removed iframe stays removed.
   */
  reload(): void;
  /** Removes the iframe (and the `<div>` this frame appended) from the document. */
  destroy(): void;
}
//# sourceMappingURL=frame.d.ts.map
