/**
 * A page's own language (`<html lang>`) as one of the languages a video can be in: the same tag
 * when the service speaks it (`en-GB`), else the first language of the same primary subtag
 * (`fr-CA` → `fr`, `it` → `it-IT`, `pt-BR` → `pt`), English as the default's (`en`, `en-IE` →
 * `en-US`); undefined for a language the service does not speak or a malformed tag.
 */
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from 'video-plugin/internal';

export function videoLanguageOf(tag: string | undefined): Language | undefined {
  let canonical: string | undefined;
  try {
    canonical = tag?.trim() ? Intl.getCanonicalLocales(tag.trim().replace(/_/g, '-'))[0] : undefined;
  } catch {
    return undefined;
  }
  if (canonical === undefined) return undefined;
  const exact = LANGUAGES.find((language) => language.toLowerCase() === canonical.toLowerCase());
  if (exact) return exact;
  const primary = canonical.split('-')[0]!.toLowerCase();
  const primaryOf = (language: string) => language.split('-')[0]!.toLowerCase();
  if (primaryOf(DEFAULT_LANGUAGE) === primary) return DEFAULT_LANGUAGE;
  return LANGUAGES.find((language) => primaryOf(language) === primary);
}
