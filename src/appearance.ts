/**
 * The `appearance` and `locale` options as the service checks them. The `Plugin` only checks their
 * type and sends them: the service knows what it supports, so a partner's older SDK still reaches
 * every appearance key the service gains, and the SDK bundle stays small (docs/white-label.md). A bad value
 * refuses the connection (or rejects `update()`) with an `invalid_parameter` naming the field.
 *
 * Colours are hex (`#rgb` or `#rrggbb`): the one notation whose contrast can be checked without a
 * CSS engine, and the one brand palettes are given in.
 */
import * as z from 'zod/mini';
import { InvalidParameterError } from './errors.js';
import { oneOf, type Appearance } from './options.js';

/** The relative luminance of a hex colour (WCAG 2.1). */
export function luminance(hex: string): number {
  const digits = hex.length < 5 ? hex.replace(/\w/g, '$&$&') : hex;
  let sum = 0;
  for (const [i, weight] of [0.2126, 0.7152, 0.0722].entries()) {
    const c = parseInt(digits.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    sum += weight * (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  }
  return sum;
}

/** The contrast ratio of two hex colours, from 1 to 21 (WCAG 2.1). */
export function contrast(a: string, b: string): number {
  const [dark, light] = [luminance(a), luminance(b)].sort();
  return (light! + 0.05) / (dark! + 0.05);
}

/** The least contrast allowed between text and its background: WCAG 2.1 AA for body text. */
export const MIN_TEXT_CONTRAST = 4.5;

/** A number from `min` to `max`. */
function range(min: number, max: number) {
  return z.custom<number>((value) => typeof value === 'number' && value >= min && value <= max, {
    error: `must be a number from ${min} to ${max}`,
  });
}
const hexColor = z.custom<string>((value) => typeof value === 'string' && /^#([\da-f]{3}){1,2}$/i.test(value), {
  error: 'must be a hex colour such as "#1d4ed8" or "#fff"',
});

/** The studio's look: see docs/white-label.md, "Appearance". Colours are hex; lengths are CSS pixels. */
export const appearanceSchema = z.strictObject({
  /** `light` (default), `dark`, or `auto` (follows the user's system setting). */
  colorScheme: z.optional(oneOf(['light', 'dark', 'auto'])),
  /** Buttons and highlights. Their text is black or white, whichever reads better. */
  colorPrimary: z.optional(hexColor),
  /** The page's background. */
  colorBackground: z.optional(hexColor),
  /** The text. With `colorBackground`, it must contrast at least 4.5:1 (WCAG 2.1 AA). */
  colorText: z.optional(hexColor),
  /** A CSS font-family list, e.g. `"Inter, system-ui, sans-serif"`. */
  fontFamily: z.optional(
    z.custom<string>((value) => typeof value === 'string' && /^[\w\s,'"-]{1,200}$/.test(value), {
      error:
        'must be a CSS font-family list of at most 200 characters (letters, digits, spaces, commas, quotes, hyphens)',
    }),
  ),
  /** Corner radius of fields, buttons and panels, in pixels (0 to 32, default 6). */
  borderRadius: z.optional(range(0, 32)),
  /** The spacing unit every gap and padding is a multiple of, in pixels (2 to 8, default 4). */
  spacingUnit: z.optional(range(2, 8)),
});
/** The `appearance` option: colours, font, corner radius and spacing of the studio. */
export type CheckedAppearance = z.infer<typeof appearanceSchema>;

/**
 * Refuses text the user could not read: `colorText` on `colorBackground` below 4.5:1. (With only
 * one of them given, the studio picks the other, black or white, whichever reads better.)
 */
export function checkContrast(appearance: Appearance | undefined, name: string): void {
  const { colorText: text, colorBackground: background } = appearance ?? {};
  const ratio = text && background ? contrast(text, background) : 21;
  if (ratio < MIN_TEXT_CONTRAST) {
    throw new InvalidParameterError(
      `${name}.colorText "${text}" on colorBackground "${background}" has a contrast of ${ratio.toFixed(2)}:1; text needs at least ${MIN_TEXT_CONTRAST}:1 (WCAG 2.1 AA): pick a darker or lighter colorText.`,
      { field: `${name}.colorText` },
    );
  }
}

/**
 * A BCP 47 language tag (`de`, `pt-BR`). A well-formed tag of a language the studio does not speak
 * is accepted: the studio falls back (the browser's language, then English) and says so in debug.
 */
export const localeSchema = z.custom<string>(
  (value) => {
    try {
      return typeof value === 'string' && value.length <= 35 && Intl.getCanonicalLocales(value).length === 1;
    } catch {
      return false;
    }
  },
  { error: 'must be a language tag such as "de" or "pt-BR"' },
);
