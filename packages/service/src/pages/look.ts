/** The host's look on the studio: appearance, language, and the auto height sent to the host. */
import { appearanceSchema, checkContrast, INTERNAL_EVENTS, localeSchema, parse } from 'video-plugin/internal';
import { LOCALES, resolveLocale, useLocale } from './i18n.js';
import { studio } from './state.js';
import { applyAppearance } from './theme.js';
import { renderView } from './views.js';

/** Checks `appearance` and `locale` (the Plugin only checked their types); throws naming the field. */
export function checkLook({ appearance, locale }: { appearance?: unknown; locale?: unknown }, name: string): void {
  if (appearance !== undefined)
    checkContrast(parse(appearanceSchema, appearance, `${name}.appearance`), `${name}.appearance`);
  if (locale !== undefined) parse(localeSchema, locale, `${name}.locale`);
}

/** Applies the host's appearance and locale, then shows the current view in them. */
export function applyConfig(): void {
  const { config } = studio;
  // The Plugin checked both; a host that did not gets the defaults rather than a broken page.
  const appearance = appearanceSchema.safeParse(config?.appearance ?? {});
  applyAppearance(appearance.success ? appearance.data : {});
  const requested = localeSchema.safeParse(config?.locale).data;
  const locale = resolveLocale(requested, navigator.languages);
  if (locale.unsupported) {
    studio.log(`locale "${locale.unsupported}" is not available (${LOCALES.join(', ')}): using "${locale.tag}"`);
  }
  useLocale(locale);
  document.documentElement.toggleAttribute('data-fit', config?.height === 'auto');
  renderView(studio.root, studio.view, studio.actions, config);
  fitHeight();
}

// ---- Auto height: the host sizes the iframe to the page's content ----
//
// In auto mode (`data-fit` on the root) the stylesheet lays the page out at its natural height:
// nothing depends on the frame's own height (no `vh`, no `min-height: 100vh`), so the height sent
// cannot feed back into itself. The root's box is measured whenever it resizes: the observer
// reports at most once per rendered frame (coalesced with layout, like a requestAnimationFrame),
// and a height is sent only when it differs from the last one sent, in whole pixels (rounded up,
// so that the frame never scrolls a fraction of a pixel). A width change from the host (a narrower
// page) re-wraps the text and is measured the same way.

let sentHeight = 0;

function fitHeight(): void {
  if (studio.config?.height !== 'auto' || !studio.endpoint.host) return;
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === sentHeight) return;
  sentHeight = height;
  studio.endpoint.emit(INTERNAL_EVENTS.height, height);
}

/** Sends the page's height to the host whenever it changes (in auto mode). */
export function watchHeight(): void {
  new ResizeObserver(fitHeight).observe(document.documentElement);
}
