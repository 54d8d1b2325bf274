/**
 * The `appearance` and `locale` options as the service checks them. The `Plugin` only checks their
 * type and sends them: the service knows what it supports, so a partner's older SDK still reaches
 * every appearance key the service gains, and the SDK bundle stays small (issue 14). A bad value
 * refuses the connection (or rejects `update()`) with an `invalid_parameter` naming the field.
 *
 * Colours are hex (`#rgb` or `#rrggbb`): the one notation whose contrast can be checked without a
 * CSS engine, and the one brand palettes are given in.
 */
import * as z from 'zod/mini';
import type { Appearance } from './options.js';
/** The relative luminance of a hex colour (WCAG 2.1). */
export declare function luminance(hex: string): number;
/** The contrast ratio of two hex colours, from 1 to 21 (WCAG 2.1). */
export declare function contrast(a: string, b: string): number;
/** The least contrast allowed between text and its background: WCAG 2.1 AA for body text. */
export declare const MIN_TEXT_CONTRAST = 4.5;
/** The studio's look: see README "Appearance". Colours are hex; lengths are CSS pixels. */
export declare const appearanceSchema: z.ZodMiniObject<
  {
    colorScheme: z.ZodMiniOptional<z.ZodMiniCustom<'light' | 'dark' | 'auto', 'light' | 'dark' | 'auto'>>;
    colorPrimary: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    colorBackground: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    colorText: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    fontFamily: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    borderRadius: z.ZodMiniOptional<z.ZodMiniCustom<number, number>>;
    spacingUnit: z.ZodMiniOptional<z.ZodMiniCustom<number, number>>;
  },
  z.core.$strict
>;
/** The `appearance` option: colours, font, corner radius and spacing of the studio. */
export type CheckedAppearance = z.infer<typeof appearanceSchema>;
/**
 * Refuses text the user could not read: `colorText` on `colorBackground` below 4.5:1. (With only
 * one of them given, the studio picks the other, black or white, whichever reads better.)
 */
export declare function checkContrast(appearance: Appearance | undefined, name: string): void;
/**
 * A BCP 47 language tag (`de`, `pt-BR`). A well-formed tag of a language the studio does not speak
 * is accepted: the studio falls back (the browser's language, then English) and says so in debug.
 */
export declare const localeSchema: z.ZodMiniCustom<string, string>;
//# sourceMappingURL=appearance.d.ts.map
