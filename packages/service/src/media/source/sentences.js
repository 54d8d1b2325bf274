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
/** Words that end in a full stop without ending a sentence (lower case, without the stop). */
const ABBREVIATIONS = new Set([
    // titles
    'dr dra prof mr mrs ms mx mme mlle mgr hr fr sr sra srta sig dott ing dipl mag jr st sen',
    // references, places, quantities
    'ca cf vs vgl bzw inkl zzgl ggf evtl sog approx dept est nr tel str av ave avda blvd rd pág pag pp núm',
    // months
    'jan feb mar apr jun jul aug sep sept oct okt nov dec dez',
]
    .join(' ')
    .split(' '));
/** Languages that write ordinals and days with a full stop ("3. Oktober"). */
const ORDINAL_STOP_LANGUAGES = new Set('de da nb nn no fi is cs sk sl hr pl hu tr'.split(' '));
/** The last word of a segment when it ends in a full stop. */
const LAST_WORD = /([\p{L}\p{N}][\p{L}\p{N}.]*)\.\s*$/u;
/** A sentence shorter than this many words is a fragment ("Read more."), not content. */
const MIN_WORDS = 4;
/**
 * Words that open a clause which can be dropped with everything after it, when they follow a
 * comma: conjunctions and relative words of English, German, French, Spanish, Italian and
 * Portuguese (lower case).
 */
const CLAUSE_OPENERS = new Set([
    'and but so or yet which who whom whose where when while because although though since whereas',
    'before after until unless if once',
    'und aber oder denn doch weil da dass wo wenn während obwohl sodass welche welcher welches die der das',
    'bevor nachdem damit sobald bis ob als seit',
    'et mais ou donc car qui que où quand lorsque lorsqu puisque pendant tandis dont afin avant après si',
    'y pero o pues porque aunque mientras donde cuando quien quienes cual cuyo antes después para si',
    'e ma o però perché mentre dove quando che chi sebbene benché cui prima dopo se affinché',
    'mas ou pois porque embora enquanto onde quando quem cujo antes depois para se',
]
    .join(' ')
    .split(' '));
/** A sentence's closing punctuation (Latin, CJK, Arabic, Devanagari). */
const SENTENCE_END = /[.!?…。！？؟।]+["'”’»)\]]*$/u;
/** Splits paragraphs into sentences in one language. */
export class SentenceSplitter {
    #sentences;
    #words;
    #ordinals;
    /** @param language the page's language (a BCP 47 tag); a malformed or missing one uses the default */
    constructor(language) {
        const locale = validLocale(language?.trim().replace(/_/g, '-'));
        this.#sentences = new Intl.Segmenter(locale, { granularity: 'sentence' });
        this.#words = new Intl.Segmenter(locale, { granularity: 'word' });
        this.#ordinals = ORDINAL_STOP_LANGUAGES.has(new Intl.Locale(this.#sentences.resolvedOptions().locale).language);
    }
    /**
     * The sentences of `paragraph` (whitespace already collapsed) that have at least 4 words.
     * @param cut the paragraph was cut short: its last piece is not a sentence
     */
    split(paragraph, cut = false) {
        const sentences = [];
        let pending = '';
        for (const { segment } of this.#sentences.segment(paragraph)) {
            pending += segment;
            if (this.#continues(pending))
                continue;
            sentences.push(pending.trim());
            pending = '';
        }
        if (pending.trim() !== '')
            sentences.push(pending.trim());
        if (cut)
            sentences.pop();
        return sentences.filter((sentence) => this.#long(sentence));
    }
    /** The first sentence of `text`, however short (all of it when it has no sentence break). */
    first(text) {
        let sentence = '';
        for (const { segment } of this.#sentences.segment(text)) {
            sentence += segment;
            if (!this.#continues(sentence))
                break;
        }
        return sentence.trim();
    }
    /** All sentences of `text`, however short (the last one too when it has no closing stop). */
    sentences(text) {
        const sentences = [];
        let pending = '';
        for (const { segment } of this.#sentences.segment(text)) {
            pending += segment;
            if (this.#continues(pending))
                continue;
            if (pending.trim() !== '')
                sentences.push(pending.trim());
            pending = '';
        }
        if (pending.trim() !== '')
            sentences.push(pending.trim());
        return sentences;
    }
    /**
     * `text` and its shorter forms cut only at boundaries, longest first, without repeats: its
     * first 1..n sentences, then the first sentence's clause cuts. Every form ends with a sentence's
     * closing punctuation; a text ending in an ellipsis (cut by the page reader) is not a form, nor
     * is a cut shorter than 3 words.
     */
    shortenings(text) {
        const sentences = this.sentences(text);
        const forms = [];
        for (let count = sentences.length; count > 0; count--)
            forms.push(sentences.slice(0, count).join(' '));
        const first = sentences[0];
        if (first !== undefined)
            forms.push(...clauseCuts(first));
        // The whole text is the page's, stop or not; a cut one ends like a sentence.
        return forms.filter((form, index) => !/…$/u.test(form) && (index === 0 || SENTENCE_END.test(form)) && forms.indexOf(form) === index);
    }
    /** Whether the segmenter's break after `text` falls after an abbreviation, not a sentence. */
    #continues(text) {
        const word = LAST_WORD.exec(text)?.[1];
        if (word === undefined)
            return false;
        if (/^\p{L}$/u.test(word) || word.includes('.') || ABBREVIATIONS.has(word.toLowerCase()))
            return true;
        return this.#ordinals && /^\d{1,2}$/.test(word);
    }
    /** Whether `text` has at least {@link MIN_WORDS} words: spaces tell in most scripts, ICU in the rest. */
    #long(text) {
        if (text.split(' ').length >= MIN_WORDS)
            return true;
        let count = 0;
        for (const { isWordLike } of this.#words.segment(text))
            if (isWordLike && ++count === MIN_WORDS)
                return true;
        return false;
    }
}
/**
 * The shorter forms of one sentence, longest first: cut before `;`, a spaced dash or a comma
 * followed by a clause opener, each closed with the sentence's own stop (a full stop for `?`/`!`
 * cuts: the question is gone), then without its parentheses. Cuts of fewer than 3 words are left
 * out: "In Portland." is no sentence of the page.
 */
function clauseCuts(sentence) {
    const stop = /。$/u.test(sentence) ? '。' : '.';
    const close = (cut) => `${cut.replace(/[\s,;:–—-]+$/u, '')}${stop}`;
    const cuts = [];
    const boundary = /\s*;\s*|\s+[–—-]\s+|,\s+(?=([\p{L}]+))/gu;
    for (const match of sentence.matchAll(boundary)) {
        const opener = match[1]?.toLowerCase();
        if (match[0].trim().startsWith(',') && (opener === undefined || !CLAUSE_OPENERS.has(opener)))
            continue;
        const cut = sentence.slice(0, match.index);
        if (cut.split(/\s+/).length >= 3 && !/[([]/.test(cut.replace(/\([^)]*\)|\[[^\]]*\]/g, '')))
            cuts.push(close(cut));
    }
    cuts.reverse();
    const bare = sentence.replace(/\s*\([^)]*\)/g, '');
    const forms = bare !== sentence ? [bare, ...cuts.map((cut) => cut.replace(/\s*\([^)]*\)/g, ''))] : [];
    return [...cuts, ...forms].sort((a, b) => b.length - a.length);
}
function validLocale(tag) {
    if (!tag)
        return undefined;
    try {
        return Intl.getCanonicalLocales(tag)[0];
    }
    catch {
        return undefined;
    }
}
//# sourceMappingURL=sentences.js.map