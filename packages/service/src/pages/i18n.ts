/**
 * The studio's languages: one catalogue per locale (locales/*.ts), the locale in use, and `t()`.
 * Dates, numbers and language names come from `Intl` in the same locale.
 */
import { de } from './locales/de.js';
import { en, type MessageKey, type Messages } from './locales/en.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { it } from './locales/it.js';
import { pt } from './locales/pt.js';

/** The studio's languages: the video languages of the reference. */
export const CATALOGUES: Record<string, Messages> = { en, de, es, fr, it, pt };
export const LOCALES = Object.keys(CATALOGUES);

/** What `resolveLocale` chose: the catalogue's language, and the tag to format dates and numbers with. */
export interface Resolved {
  language: string;
  /** The partner's or browser's full tag when its language is the catalogue's (`de-CH`), else the language. */
  tag: string;
  /** Set when the partner asked for a locale the studio does not speak. */
  unsupported?: string;
}

const languageOf = (tag: string): string => {
  try {
    return new Intl.Locale(tag).language;
  } catch {
    return '';
  }
};

/**
 * The partner's `locale` if the studio speaks its language, else the first of the browser's
 * languages it speaks, else English.
 */
export function resolveLocale(requested: string | undefined, browser: readonly string[]): Resolved {
  for (const tag of [...(requested ? [requested] : []), ...browser]) {
    const language = languageOf(tag);
    if (Object.hasOwn(CATALOGUES, language)) {
      return { language, tag, ...(requested && tag !== requested ? { unsupported: requested } : {}) };
    }
  }
  return { language: 'en', tag: 'en', ...(requested ? { unsupported: requested } : {}) };
}

let messages: Messages = en;
let tag = 'en';

/** Switches the studio's language, the page's `lang` and its title. */
export function useLocale(resolved: Resolved): void {
  messages = CATALOGUES[resolved.language] ?? en;
  tag = resolved.tag;
  document.documentElement.lang = tag;
  document.title = t('studio.title');
}

/** The message `key` in the current language, with `{name}` placeholders filled from `params`. */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  return messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
}

/** A message for an error shown to the user: by its code when the catalogue has one. */
export function errorText(error: { code?: string } | undefined): string {
  const key = `error.${error?.code}` as MessageKey;
  return Object.hasOwn(messages, key) ? t(key) : t('error.generic');
}

/** A date (ISO string) in the current locale: "23 Nov 2026, 16:40". */
export const formatDate = (iso: string): string =>
  new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** A number of seconds in the current locale: "15 s", "15 Sek.". */
export const formatSeconds = (seconds: number): string =>
  new Intl.NumberFormat(tag, { style: 'unit', unit: 'second', unitDisplay: 'short' }).format(seconds);

/**
 * A language tag's name in the current locale, in its short form: "Englisch (Australien)",
 * "Englisch (GB)". The long form ("Englisch (Vereinigtes Königreich)", 310 px with WCAG's text
 * spacing) does not fit a closed select at 320 px, which every engine draws on one line, cut off
 * (reflow.test.ts measures every option).
 */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([tag], { type: 'language', style: 'short' }).of(code) ?? code;
  } catch {
    return code;
  }
}
