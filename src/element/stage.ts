/**
 * The element's stage: everything `<video-plugin>` shows of its own around the studio. The
 * iframe's container, the loading skeleton, the failure panel with its retry button; where they
 * stand by display mode (in the element for `inline`, in a modal `<dialog>` for `modal` and
 * `drawer`); the dialog opened and closed with the studio's UI, the page's scroll locked meanwhile
 * and the focus given back; the `closed` event with its reason. The element decides what to build
 * and when (attributes, lifecycle, the `Plugin`); the stage shows it. Nothing here runs at import time.
 */
import type { Display } from './attributes.js';
import { dispatchPluginEvent, type CloseReason } from './events.js';

/** What the stage asks of its element. */
export interface StageHost {
  /** Whether the studio's UI is open now. */
  isOpen(): boolean;
  /** The element's own controls (Esc on the dialog, a click on its backdrop) close the UI. */
  close(): void;
  /** The retry button of the failure panel was clicked. */
  retry(): void;
  /** The element's content (the default slot) was clicked. */
  launch(): void;
}

/** What the stage shows over the studio: the skeleton, the failure panel, or nothing. */
export type Show = 'loading' | 'failed' | '';

/**
 * One element's stage, built into its shadow root. The element tells it where to stand
 * ({@link Stage.place}), what to show ({@link Stage.show}) and why the UI closes
 * ({@link Stage.closing}); the stage follows the iframe (shown or hidden) by itself.
 */
export class Stage {
  /** The iframe's container: the `Plugin`'s `domElement`. */
  readonly frame: HTMLElement;
  readonly #element: HTMLElement;
  readonly #stage: HTMLElement;
  readonly #dialog: HTMLDialogElement;
  readonly #host: StageHost;
  #display: Display | undefined;
  #show: Show = '';
  #open = false;
  /**
   * Why the UI is about to close, for the `closed` event: set by the element's own controls and by
   * `close()`; otherwise `ui` (the studio's own control, Esc inside it, the editor's exit).
   */
  closing: CloseReason | undefined;
  /** What had the focus when the dialog opened. */
  #opener: HTMLElement | undefined;

  constructor(element: HTMLElement, root: HTMLElement | DocumentFragment, host: StageHost) {
    this.#element = element;
    this.#host = host;
    buildStage(root);
    this.#stage = root.querySelector('.stage')!;
    this.frame = this.#stage.querySelector('.frame')!;
    const dialog = (this.#dialog = root.querySelector('dialog')!);
    // Handlers of the element's own nodes: they live and go with the element.
    const close = (reason: CloseReason) => {
      this.closing = reason;
      host.close();
    };
    dialog.oncancel = (event) => {
      event.preventDefault();
      close('escape');
    };
    dialog.onclick = (event) => event.target === dialog && close('backdrop');
    root.querySelector<HTMLElement>('[part=retry]')!.onclick = () => host.retry();
    root.querySelector('slot')!.onclick = () => host.launch();
    new MutationObserver(() => this.sync()).observe(this.frame, {
      subtree: true,
      childList: true,
      attributeFilter: ['style'],
    });
  }

  /**
   * Stands where `display` puts the studio: in the element (inline) or in the dialog (modal,
   * drawer); `undefined` when nothing is built. Only a change of display moves the stage: moving
   * it reloads the iframe in it.
   */
  place(display: Display | undefined): void {
    this.#display = display;
    if (!display) return;
    this.#dialog.className = display;
    // The dialog never moves: its parent is the shadow root, where the inline stage stands.
    const place = display === 'inline' ? this.#dialog.parentNode! : this.#dialog;
    if (this.#stage.parentNode !== place) place.append(this.#stage);
  }

  /**
   * Shows the loading skeleton, the failure panel, or neither (`''`). The panel says, in `locale`
   * (a language tag), that the studio could not load, and offers its retry only when `retry` (a
   * retry can help). The skeleton stands where the studio will show: while the inline UI is
   * closed, not over the element's own content (its placeholder or launcher), and with
   * `height="auto"`, where the element takes no room for a studio that does not show, only in
   * place of what the stage showed already (the failure panel, on a retry).
   */
  show(show: Show = this.#show, retry?: boolean, locale?: string): void {
    this.#show = show;
    if (show === 'failed') {
      const [message, again] = failedText(this.#element, locale);
      const panel = this.#stage.querySelector('[part=failed]')!;
      panel.querySelector('p')!.textContent = message;
      panel.querySelector('[name=retry]')!.textContent = again;
      panel.querySelector<HTMLElement>('[part=retry]')!.parentElement!.hidden = !retry;
    }
    const element = this.#element;
    const covered =
      show === 'loading' &&
      this.#display === 'inline' &&
      !this.#open &&
      (element.childElementCount > 0 || (element.getAttribute('height') === 'auto' && !this.#stage.dataset.show));
    this.#stage.dataset.show = covered ? '' : show;
  }

  /**
   * Follows the studio's UI: shown or hidden. In modal and drawer display, opens the dialog (focus
   * moves into the studio, the page's scroll is locked) or closes it (focus returns to what had
   * it). Fires `closed` on the element when the UI closes.
   */
  sync(): void {
    const open = this.#host.isOpen();
    if (open === this.#open) return;
    this.#open = open;
    this.show();
    if (open && this.#display && this.#display !== 'inline') {
      this.#opener = openDialog(this.#dialog);
      this.frame.querySelector('iframe')?.focus();
    } else if (!open) {
      closeDialog(this.#dialog, this.#opener);
      this.#opener = undefined;
      const reason = this.closing ?? 'ui';
      this.closing = undefined;
      dispatchPluginEvent(this.#element, 'closed', { reason });
    }
  }
}

/**
 * Appends the shadow root's fixed content: the placeholder slot, the stage (the iframe's container
 * `.frame`, the skeleton `[part=loading]`, the failure panel `[part=failed]` with its message in the
 * `failed` slot and `[part=retry]`) and the (empty) dialog. The stage lives in the root (inline display) or in the
 * dialog (modal, drawer); its `data-show` picks what shows.
 */
function buildStage(root: HTMLElement | DocumentFragment): void {
  // Built node by node: pages with Trusted Types refuse markup strings (innerHTML).
  const node = (tag: string, attributes: Record<string, string>, ...children: (Node | string)[]): HTMLElement => {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    element.append(...children);
    return element;
  };
  const bar = () => node('i', {});
  root.append(
    node('slot', {}),
    node(
      'div',
      { class: 'stage' },
      node('div', { class: 'frame' }),
      node(
        'div',
        { part: 'loading', role: 'progressbar', 'aria-label': 'Loading' },
        node('slot', { name: 'loading' }, bar(), bar(), bar()),
      ),
      node(
        'div',
        { part: 'failed', role: 'alert' },
        node('slot', { name: 'failed' }, node('p', {})),
        node('div', {}, node('button', { part: 'retry', type: 'button' }, node('slot', { name: 'retry' }))),
      ),
    ),
    node('dialog', { part: 'dialog', 'aria-label': 'Video creation' }),
  );
}

/**
 * What the failure panel says to the end user, by language: that the studio could not load, and the
 * retry button's label. Never the developer's message (that goes to the console and the `error`
 * event). The languages of the studio itself; any other gets English.
 */
const FAILED_TEXT: Record<string, string> = {
  en: 'The studio could not load.|Try again',
  de: 'Das Studio konnte nicht geladen werden.|Erneut versuchen',
  es: 'No se pudo cargar el estudio.|Reintentar',
  fr: "Le studio n'a pas pu être chargé.|Réessayer",
  it: 'Non è stato possibile caricare lo studio.|Riprova',
  pt: 'Não foi possível carregar o estúdio.|Tentar novamente',
};

/**
 * The panel's message and retry label in `locale` (the element's), else in the page's language (the
 * `lang` nearest to `element`), else in the browser's.
 */
function failedText(element: HTMLElement, locale?: string): [string, string] {
  for (const tag of [locale, element.closest<HTMLElement>('[lang]')?.lang, ...navigator.languages]) {
    const text = FAILED_TEXT[tag?.split('-')[0]!.toLowerCase() ?? ''];
    if (text) return text.split('|') as [string, string];
  }
  return FAILED_TEXT.en!.split('|') as [string, string];
}

/** How many modal dialogs lock the page's scroll, and the overflow they found. */
let scrollLocks = 0;
let pageOverflow = '';

/**
 * Opens `dialog` as a modal (focus moves in) and locks the page's scroll. Returns what had the
 * focus, for {@link closeDialog} to give it back.
 */
function openDialog(dialog: HTMLDialogElement): HTMLElement | undefined {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (scrollLocks++ === 0) {
    pageOverflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = 'hidden';
  }
  dialog.showModal();
  return active instanceof HTMLElement ? active : undefined;
}

/** Closes `dialog` if it is open: the page scrolls again (once no dialog holds it), `opener` gets the focus. */
function closeDialog(dialog: HTMLDialogElement, opener: HTMLElement | undefined): void {
  if (!dialog.open) return;
  dialog.close();
  if (--scrollLocks === 0) document.documentElement.style.overflow = pageOverflow;
  opener?.focus();
}
