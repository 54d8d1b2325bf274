/**
 * A paragraph's sentences, split by `Intl.Segmenter` in the page's language. The segmenter ends a
 * sentence at every full stop before a capital ("Dr. Müller"), so a break after a known
 * abbreviation, an initial ("J. R.", "z. B."), a dotted abbreviation ("e.g.", "U.S.") or, in
 * languages that write ordinals with a full stop, a day or ordinal ("am 3. Oktober") is undone.
 * Decimals ("9.30") never end one.
 */

/** Words that end in a full stop without ending a sentence (lower case, without the stop). */
const ABBREVIATIONS = new Set(
  [
    // titles
    'dr dra prof mr mrs ms mx mme mlle mgr hr fr sr sra srta sig dott ing dipl mag jr st sen',
    // references, places, quantities
    'ca cf vs vgl bzw inkl zzgl ggf evtl sog approx dept est nr tel str av avda pág pag pp núm',
    // months
    'jan feb mar apr jun jul aug sep sept oct okt nov dec dez',
  ]
    .join(' ')
    .split(' '),
);

/** Languages that write ordinals and days with a full stop ("3. Oktober"). */
const ORDINAL_STOP_LANGUAGES = new Set('de da nb nn no fi is cs sk sl hr pl hu tr'.split(' '));

/** The last word of a segment when it ends in a full stop. */
const LAST_WORD = /([\p{L}\p{N}][\p{L}\p{N}.]*)\.\s*$/u;

/** A sentence shorter than this many words is a fragment ("Read more."), not content. */
const MIN_WORDS = 4;

/** Splits paragraphs into sentences in one language. */
export class SentenceSplitter {
  readonly #sentences: Intl.Segmenter;
  readonly #words: Intl.Segmenter;
  readonly #ordinals: boolean;

  /** @param language the page's language (a BCP 47 tag); a malformed or missing one uses the default */
  constructor(language?: string) {
    const locale = validLocale(language?.trim().replace(/_/g, '-'));
    this.#sentences = new Intl.Segmenter(locale, { granularity: 'sentence' });
    this.#words = new Intl.Segmenter(locale, { granularity: 'word' });
    this.#ordinals = ORDINAL_STOP_LANGUAGES.has(new Intl.Locale(this.#sentences.resolvedOptions().locale).language);
  }

  /**
   * The sentences of `paragraph` (whitespace already collapsed) that have at least 4 words.
   * @param cut the paragraph was cut short: its last piece is not a sentence
   */
  split(paragraph: string, cut = false): string[] {
    const sentences: string[] = [];
    let pending = '';
    for (const { segment } of this.#sentences.segment(paragraph)) {
      pending += segment;
      if (this.#continues(pending)) continue;
      sentences.push(pending.trim());
      pending = '';
    }
    if (pending.trim() !== '') sentences.push(pending.trim());
    if (cut) sentences.pop();
    return sentences.filter((sentence) => this.#long(sentence));
  }

  /** The first sentence of `text`, however short (all of it when it has no sentence break). */
  first(text: string): string {
    let sentence = '';
    for (const { segment } of this.#sentences.segment(text)) {
      sentence += segment;
      if (!this.#continues(sentence)) break;
    }
    return sentence.trim();
  }

  /** Whether the segmenter's break after `text` falls after an abbreviation, not a sentence. */
  #continues(text: string): boolean {
    const word = LAST_WORD.exec(text)?.[1];
    if (word === undefined) return false;
    if (/^\p{L}$/u.test(word) || word.includes('.') || ABBREVIATIONS.has(word.toLowerCase())) return true;
    return this.#ordinals && /^\d{1,2}$/.test(word);
  }

  /** Whether `text` has at least {@link MIN_WORDS} words: spaces tell in most scripts, ICU in the rest. */
  #long(text: string): boolean {
    if (text.split(' ').length >= MIN_WORDS) return true;
    let count = 0;
    for (const { isWordLike } of this.#words.segment(text)) if (isWordLike && ++count === MIN_WORDS) return true;
    return false;
  }
}

function validLocale(tag: string | undefined): string | undefined {
  if (!tag) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}
