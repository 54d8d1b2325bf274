/**
 * A paragraph's sentences, split by `Intl.Segmenter` in the page's language. The segmenter ends a
 * sentence at every full stop before a capital ("Dr. Müller"), so a break after a known
 * abbreviation, an initial ("J. R.", "z. B."), a dotted abbreviation ("e.g.", "U.S.") or, in
 * languages that write ordinals with a full stop, a day or ordinal ("am 3. Oktober") is undone.
 * Decimals ("9.30") never end one.
 *
 * {@link SentenceSplitter.shortenings} shortens a text only where it may be cut: whole sentences
 * dropped from its end, then a first sentence's trailing clauses (after `;`, a dash, or a comma
 * before a word that opens a clause, "…, and we deliver"), then its parenthesis. Never mid-phrase.
 */
/** Splits paragraphs into sentences in one language. */
export declare class SentenceSplitter {
    #private;
    /** @param language the page's language (a BCP 47 tag); a malformed or missing one uses the default */
    constructor(language?: string);
    /**
     * The sentences of `paragraph` (whitespace already collapsed) that have at least 4 words.
     * @param cut the paragraph was cut short: its last piece is not a sentence
     */
    split(paragraph: string, cut?: boolean): string[];
    /** The first sentence of `text`, however short (all of it when it has no sentence break). */
    first(text: string): string;
    /** All sentences of `text`, however short (the last one too when it has no closing stop). */
    sentences(text: string): string[];
    /**
     * `text` and its shorter forms cut only at boundaries, longest first, without repeats: its
     * first 1..n sentences, then the first sentence's clause cuts. Every form ends with a sentence's
     * closing punctuation; a text ending in an ellipsis (cut by the page reader) is not a form, nor
     * is a cut shorter than 3 words.
     */
    shortenings(text: string): string[];
}
//# sourceMappingURL=sentences.d.ts.map