import { type MessageKey, type Messages } from './locales/en.js';
/** The studio's languages: the video languages of the reference. */
export declare const CATALOGUES: Record<string, Messages>;
export declare const LOCALES: string[];
/** What `resolveLocale` chose: the catalogue's language, and the tag to format dates and numbers with. */
export interface Resolved {
  language: string;
  /** The partner's or browser's full tag when its language is the catalogue's (`de-CH`), else the language. */
  tag: string;
  /** Set when the partner asked for a locale the studio does not speak. */
  unsupported?: string;
}
/**
 * The partner's `locale` if the studio speaks its language, else the first of the browser's
 * languages it speaks, else English.
 */
export declare function resolveLocale(requested: string | undefined, browser: readonly string[]): Resolved;
/** Switches the studio's language and the page's `lang`. */
export declare function useLocale(resolved: Resolved): void;
/** The message `key` in the current language, with `{name}` placeholders filled from `params`. */
export declare function t(key: MessageKey, params?: Record<string, string | number>): string;
/** A message for an error shown to the user: by its code when the catalogue has one. */
export declare function errorText(
  error:
    | {
        code?: string;
      }
    | undefined,
): string;
/** A date (ISO string) in the current locale: "23 Nov 2026, 16:40". */
export declare const formatDate: (iso: string) => string;
/** A number of seconds in the current locale: "15 s", "15 Sek.". */
export declare const formatSeconds: (seconds: number) => string;
/** A language tag's name in the current locale: "Englisch (Australien)". */
export declare function languageName(code: string): string;
//# sourceMappingURL=i18n.d.ts.map
