/**
 * The element's own UI, beside the class: the stage (the iframe's container, the loading skeleton,
 * the failure panel with its retry button), the dialog that holds it in `modal` and `drawer`
 * display, the page's scroll lock while a dialog is open, and the focus given back when it closes.
 * The class decides when; this module knows how. Nothing here runs at import time.
 */

/**
 * Appends the shadow root's fixed content: the placeholder slot, the stage (the iframe's container
 * `.frame`, the skeleton `[part=loading]`, the failure panel `[part=failed]` with its message and
 * `[part=retry]`) and the (empty) dialog. The stage lives in the root (inline display) or in the
 * dialog (modal, drawer); its `data-show` picks what shows.
 */
export function buildStage(root: HTMLElement | DocumentFragment): void {
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
        node('p', {}),
        node(
          'div',
          {},
          node('button', { part: 'retry', type: 'button' }, node('slot', { name: 'retry' }, 'Try again')),
        ),
      ),
    ),
    node('dialog', { part: 'dialog', 'aria-label': 'Video creation' }),
  );
}

/** How many modal dialogs lock the page's scroll, and the overflow they found. */
let scrollLocks = 0;
let pageOverflow = '';

/**
 * Opens `dialog` as a modal (focus moves in) and locks the page's scroll. Returns what had the
 * focus, for {@link closeDialog} to give it back.
 */
export function openDialog(dialog: HTMLDialogElement): HTMLElement | undefined {
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
export function closeDialog(dialog: HTMLDialogElement, opener: HTMLElement | undefined): void {
  if (!dialog.open) return;
  dialog.close();
  if (--scrollLocks === 0) document.documentElement.style.overflow = pageOverflow;
  opener?.focus();
}
