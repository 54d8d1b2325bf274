// The keyboard of the frame commands (frame-commands.mjs): keys pressed where the focus is, in
// Puppeteer (Chromium, Firefox) and WebDriver (WebKit), and what has the focus in the frame.

/* global getComputedStyle, matchMedia, innerWidth, innerHeight -- FOCUSED runs inside the frame */

/**
 * frame-focus (and frame-tab's stops): what has the focus in the frame, once it is on `selector`
 * (at once when none is given; `lost` then says whether the frame's document has no focus or its
 * body has it). With the focused element: whether it is out of view or covered (`obscured`), its
 * computed focus ring, and what the frame says and shows (its live regions, its player, its running
 * animations), for a11y.test.ts.
 */
export const FOCUSED = (selector) => {
  const element = document.activeElement;
  const describe = (node) => {
    const data = Object.entries(node.dataset ?? {}).map(
      ([key, value]) => `[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${value}"]`,
    );
    const name = node.getAttribute('aria-label') ?? node.textContent.trim().slice(0, 40);
    return `${node.localName}${node.id ? `#${node.id}` : ''}${data.join('')} "${name}"`;
  };
  const lost = !document.hasFocus() || !element || element === document.body;
  if (selector && (lost || !element.matches(selector))) return null;
  const style = getComputedStyle(element ?? document.body);
  const video = document.querySelector('video');
  // WCAG 2.4.11: the focused element in the frame's viewport (as much of it as the viewport can
  // hold, for one taller or wider than it), and on top at its centre: what the page draws there is
  // the element or inside it, not a header, dialog or anything else over it. Null when in view.
  const obscured = (() => {
    if (lost) return null;
    const box = element.getBoundingClientRect();
    const seenX = Math.min(box.right, innerWidth) - Math.max(box.left, 0);
    const seenY = Math.min(box.bottom, innerHeight) - Math.max(box.top, 0);
    if (seenX < Math.min(box.width, innerWidth) - 1 || seenY < Math.min(box.height, innerHeight) - 1) {
      const at = [box.left, box.top, box.right, box.bottom].map((n) => n.toFixed(0));
      const page = document.scrollingElement;
      return `at ${at.join(', ')}, outside the ${innerWidth} × ${innerHeight} px viewport (the page scrolled to ${page.scrollTop} of ${page.scrollHeight} px)`;
    }
    const x = Math.max(box.left, 0) + seenX / 2;
    const y = Math.max(box.top, 0) + seenY / 2;
    const top = document.elementFromPoint(x, y);
    if (top && (top === element || element.contains(top))) return null;
    const where = (b) => [b.left, b.top, b.right, b.bottom].map((n) => n.toFixed(0)).join(', ');
    return `at ${where(box)}, under ${top ? `${describe(top)} at ${where(top.getBoundingClientRect())}` : 'nothing'} at its centre (${x.toFixed(0)}, ${y.toFixed(0)})`;
  })();
  return {
    lost,
    hasFocus: document.hasFocus(),
    focused: describe(element ?? document.body),
    obscured,
    value: element?.value,
    pressed: element?.getAttribute('aria-pressed') ?? null,
    ring: {
      style: style.outlineStyle,
      width: style.outlineWidth,
      color: style.outlineColor,
      offset: style.outlineOffset,
    },
    pageBackground: getComputedStyle(document.documentElement).backgroundColor,
    dialog: Boolean(document.querySelector('[role="dialog"]')),
    liveRegions: document.querySelectorAll('[role="status"], [role="log"], [aria-live="polite"]').length,
    announced: document.querySelector('[data-announce]')?.textContent.trim() ?? null,
    alert: document.querySelector('[role="alert"]')?.textContent.trim() ?? null,
    video: video && {
      paused: video.paused,
      autoplay: video.autoplay,
      controls: video.controls,
      captions: [...video.textTracks].map((track) => `${track.kind}:${track.mode}`),
    },
    reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
    progressBars: document.querySelectorAll('progress').length,
    animations: document.getAnimations().map((animation) => animation.animationName ?? animation.constructor.name),
  };
};

/** WebDriver's key codes of the key names frame-press and frame-tab take (Puppeteer's names). */
const WEBDRIVER_KEYS = {
  Tab: '\uE004',
  Enter: '\uE007',
  Escape: '\uE00C',
  ' ': '\uE00D',
  Shift: '\uE008',
  ArrowUp: '\uE013',
  ArrowDown: '\uE015',
};

/** Most Tab presses frame-tab makes before it says the focus never got there. */
export const MAX_TABS = 40;

/** Presses `key` (a Puppeteer key name, 'Shift+Tab' for a chord) or types `text`, where the focus is. */
export async function puppeteerPress(page, key, text) {
  if (text !== undefined) return page.keyboard.type(text);
  const [modifier, main] = key.length > 1 && key.includes('+') ? key.split('+') : [undefined, key];
  if (modifier) await page.keyboard.down(modifier);
  await page.keyboard.press(main);
  if (modifier) await page.keyboard.up(modifier);
}

/** Presses `key` ('Shift+Tab' for a chord) or types `text` through WebDriver, where the focus is. */
export async function webdriverPress(webdriver, key, text) {
  const codes =
    text !== undefined
      ? [...text].map((c) => [c])
      : [(key.length > 1 && key.includes('+') ? key.split('+') : [key]).map((name) => WEBDRIVER_KEYS[name] ?? name)];
  const actions = codes.flatMap((chord) => [
    ...chord.map((code) => ({ type: 'keyDown', value: code })),
    ...chord.toReversed().map((code) => ({ type: 'keyUp', value: code })),
  ]);
  await webdriver('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  await webdriver('DELETE', '/actions').catch(() => {});
}
