/**
 * Applies the partner's `appearance` to the page: the colour scheme as `data-scheme` on the root
 * (the stylesheet in styles.ts holds the light and dark palettes) and each given value as a CSS
 * custom property on the root's style, which wins over the stylesheet. Colours the partner left
 * out are chosen to stay readable on the ones it gave.
 */
import { contrast, luminance, type CheckedAppearance as Appearance } from 'video-plugin/internal';

const BLACK = '#0f172a';
const WHITE = '#ffffff';

/** Black or white, whichever reads better on `hex` (at least 4.5:1 for any colour). */
export const onColor = (hex: string): string => (contrast(hex, BLACK) >= contrast(hex, WHITE) ? BLACK : WHITE);

/** The custom properties the stylesheet reads; the ones set here replace its defaults. */
const PROPERTIES = [
  '--vp-bg',
  '--vp-text',
  '--vp-muted',
  '--vp-primary',
  '--vp-on-primary',
  '--vp-danger',
  '--vp-font',
  '--vp-radius',
  '--vp-space',
  'color-scheme',
] as const;

export function applyAppearance(appearance: Appearance, root: HTMLElement = document.documentElement): void {
  const { colorPrimary, colorText, fontFamily } = appearance;
  const background = appearance.colorBackground ?? (colorText ? onColor(colorText) : undefined);
  const text = colorText ?? (background ? onColor(background) : undefined);
  const values: Partial<Record<(typeof PROPERTIES)[number], string>> = {};
  if (background && text) {
    const dark = luminance(background) < 0.18;
    // The partner's palette decides light or dark, whatever colorScheme says; muted text is the
    // text itself (a mix could fall below 4.5:1 on a palette that just reaches it).
    Object.assign(values, {
      '--vp-bg': background,
      '--vp-text': text,
      '--vp-muted': text,
      '--vp-danger': dark ? '#fca5a5' : '#b91c1c',
      'color-scheme': dark ? 'dark' : 'light',
    });
  }
  if (colorPrimary) Object.assign(values, { '--vp-primary': colorPrimary, '--vp-on-primary': onColor(colorPrimary) });
  if (fontFamily) values['--vp-font'] = fontFamily;
  if (appearance.borderRadius !== undefined) values['--vp-radius'] = `${appearance.borderRadius}px`;
  if (appearance.spacingUnit !== undefined) values['--vp-space'] = `${appearance.spacingUnit}px`;
  root.dataset.scheme = appearance.colorScheme ?? 'light';
  for (const property of PROPERTIES) {
    const value = values[property];
    if (value === undefined) root.style.removeProperty(property);
    else root.style.setProperty(property, value);
  }
}
