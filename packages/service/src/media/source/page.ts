/**
 * What a topic takes from its source page's markup, read by `htmlparser2` as the text arrives
 * (entities decoded by the parser, with the `entities` tables, in text and attributes alike).
 *
 * - Title: `og:title`, else `twitter:title`, else the first `<title>` (not an inline SVG's).
 * - Description: `og:description`, else `twitter:description`, else `<meta name="description">`.
 * - Images: `og:image` (and its `:url`, `:secure_url`), `twitter:image`, then each `<img>` or
 *   `<picture>` in order, at its largest (see image-candidates.ts); resolved against `<base href>`,
 *   http(s) only, without repeats, tracking pixels or anything inside `<template>`. Those the
 *   renderer refuses by extension (SVG, AVIF, …) only fill the places left.
 * - Text: `h1`–`h3` headings and the sentences of `<p>`s (sentences.ts), without what `<script>`,
 *   `<style>`, `<noscript>`, `<template>`, `<svg>` or `<math>` hold, whitespace collapsed.
 * - Name: `og:site_name`, the business's own name for itself.
 * - Sections: the page cut where an `h1`–`h3` heading, a `<section>` or an `<article>` starts, each
 *   with its heading, its paragraphs' sentences and its pictures (a picture before a section's
 *   heading is the section's), so that a scene can take its heading, words and picture from one
 *   of them. What a `<footer>`, `<nav>` or `<aside>` holds (an address, opening hours, links) is in
 *   no section. A section without a heading or a sentence is left out.
 * - Language: `<html lang>` (or `xml:lang`), as written.
 * - Nothing a browser would not show: no text or image inside an element that is `hidden`,
 *   `aria-hidden="true"`, styled inline `display:none` or `visibility:hidden`, a `<template>` or a
 *   `<noscript>` (a page's stylesheets are not read: what they hide still counts).
 */
import { Parser, type Handler } from 'htmlparser2';
import { SentenceSplitter } from './sentences.js';
import { type Candidate, candidatesOf, isPixel, largest, rendererCanUse, usableSource } from './image-candidates.js';

/** What a topic takes from its source page. */
export interface SourcePage {
  /** `og:site_name`. */
  siteName?: string;
  title?: string;
  description?: string;
  images: string[];
  /** The text of its `h1`–`h3` headings and the first sentences of its paragraphs (a few each). */
  headings: string[];
  sentences: string[];
  /** The page cut at its headings, in page order (see above); a page without headings has one or none. */
  sections: PageSection[];
  /** `<html lang>`, as written (a BCP 47 tag when the page is well made). */
  language?: string;
}

/** One part of a page: a heading, the sentences of its paragraphs, its pictures (resolved URLs). */
export interface PageSection {
  heading?: string;
  sentences: string[];
  images: string[];
}

/** Sections kept per page. */
export const MAX_SECTIONS = 12;
/** Sentences kept per section. */
export const MAX_SECTION_SENTENCES = 6;
/** Elements that start a section of their own. */
const SECTIONING = new Set(['section', 'article']);
/** Elements whose content belongs to no section: the site's links, address and asides. */
const OUTSIDE_SECTIONS = new Set(['footer', 'nav', 'aside']);

/** Images kept per topic. */
export const MAX_IMAGES = 8;
/** Headings and sentences kept per topic, each. */
export const MAX_TEXTS = 8;
/** Characters of a title, description, heading or sentence; longer ones are cut at a word. */
const MAX_TEXT = 300;
/** Characters of a paragraph that are split into sentences (a few sentences are kept). */
const MAX_PARAGRAPH = 4000;
/** Paragraphs whose sentences are considered (the sentences come from the first ones). */
const MAX_PARAGRAPHS = MAX_TEXTS * 4;
/** Image URLs noted before they are resolved and filtered (a few times the number kept). */
const MAX_IMAGE_URLS = MAX_IMAGES * 4;

const META_IMAGES = ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'];
/** Elements whose text is not the page's (their images still count, but for those hidden). */
const SILENT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math']);
/** Elements whose content a browser does not show, images included. */
const UNSHOWN = new Set(['noscript', 'template']);
/** Elements that have no end tag: they hide nothing after them. */
const VOID = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));

/** Whether an element with `attributes` is hidden from a browser's reader, whatever it holds. */
function hides(name: string, attributes: Record<string, string>): boolean {
  if (UNSHOWN.has(name) || 'hidden' in attributes) return true;
  if (attributes['aria-hidden']?.trim().toLowerCase() === 'true') return true;
  const style = attributes.style?.toLowerCase().replace(/\s+/g, '') ?? '';
  return /(^|;)(display:none|visibility:(hidden|collapse))(!important)?(;|$)/.test(style);
}
const HEADINGS = new Set(['h1', 'h2', 'h3']);

/** Text of one element, collected up to a limit. */
class TextBuffer {
  readonly #parts: string[] = [];
  #length = 0;
  cut = false;

  constructor(readonly limit: number) {}

  add(text: string): void {
    if (this.#length >= this.limit) {
      this.cut = true;
      return;
    }
    this.#parts.push(text);
    this.#length += text.length;
  }

  /** The text, whitespace collapsed, within the limit. */
  toString(): string {
    const text = collapse(this.#parts.join(''));
    if (text.length > this.limit) this.cut = true;
    return text.slice(0, this.limit);
  }
}

/** Reads a page's markup as it arrives: `write` its text in pieces, then `end` for what it holds. */
export class PageReader {
  readonly #pageURL: URL;
  readonly #parser: Parser;
  /** The first non-empty `content` of each meta name (of an image name, the first 8). */
  readonly #meta = new Map<string, string[]>();
  #base: string | undefined;
  #language: string | undefined;
  #title: TextBuffer | undefined;
  #titleDone = false;
  #heading: TextBuffer | undefined;
  #paragraph: TextBuffer | undefined;
  #sentences: SentenceSplitter | undefined;
  /** How deep inside silent elements (and inside hidden ones, {@link hides}) the parser is. */
  #silent = 0;
  #inert = 0;
  /** The open elements, each with whether it hides what it holds. */
  readonly #elements: { name: string; hides: boolean }[] = [];
  /** The candidates of the `<source>`s of the `<picture>` being read. */
  #picture: Candidate[] | undefined;
  readonly #imageURLs: string[] = [];
  readonly #headings: string[] = [];
  readonly #sentenceList: string[] = [];
  #paragraphs = 0;
  /** The sections so far, the last one open; image URLs as written (resolved in `end`). */
  readonly #sections: PageSection[] = [{ sentences: [], images: [] }];
  /** How deep inside a `<footer>`, `<nav>` or `<aside>` the parser is. */
  #outside = 0;

  constructor(pageURL: URL) {
    this.#pageURL = pageURL;
    const handler: Partial<Handler> = {
      onopentag: (name, attributes) => this.#open(name, attributes),
      onclosetag: (name) => this.#close(name),
      ontext: (text) => this.#text(text),
    };
    this.#parser = new Parser(handler, { decodeEntities: true });
  }

  /** Reads the next piece of the page's text. */
  write(text: string): void {
    this.#parser.write(text);
  }

  /** Ends the page (closing what is still open) and returns what it holds. */
  end(): SourcePage {
    this.#parser.end();
    const base = resolve(this.#base, this.#pageURL) ?? this.#pageURL;
    const first = (...texts: (string | undefined)[]) =>
      texts.map((text) => (text === undefined ? undefined : limit(collapse(text)))).find(Boolean);
    const meta = (name: string) => this.#meta.get(name)?.[0];
    const siteName = first(meta('og:site_name'));
    const title = first(meta('og:title'), meta('twitter:title'), this.#title?.toString());
    const description = first(meta('og:description'), meta('twitter:description'), meta('description'));

    const usable: string[] = [];
    const others: string[] = [];
    const metaImages = META_IMAGES.flatMap((name) => this.#meta.get(name) ?? []);
    for (const value of [...metaImages, ...this.#imageURLs]) {
      const url = resolve(value, base);
      if (!url || usable.includes(url.href) || others.includes(url.href)) continue;
      (rendererCanUse(url) ? usable : others).push(url.href);
    }
    const images = [...usable, ...others].slice(0, MAX_IMAGES);
    const sections = this.#sections
      .filter((section) => section.heading !== undefined || section.sentences.length > 0)
      .slice(0, MAX_SECTIONS)
      .map((section) => ({
        ...section,
        // Only the pictures the topic keeps: a scene can show no other.
        images: section.images.map((value) => resolve(value, base)?.href ?? '').filter((url) => images.includes(url)),
      }));
    const language = this.#language?.trim();
    return {
      ...(siteName ? { siteName } : {}),
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      images,
      headings: this.#headings,
      sentences: this.#sentenceList,
      sections,
      ...(language ? { language } : {}),
    };
  }

  #open(name: string, attributes: Record<string, string>): void {
    const hidden = hides(name, attributes);
    if (!VOID.has(name)) this.#elements.push({ name, hides: hidden });
    if (hidden) this.#inert++;
    if (SILENT.has(name)) this.#silent++;
    if (this.#inert > 0) return;
    if (OUTSIDE_SECTIONS.has(name)) this.#outside++;
    if (SECTIONING.has(name)) this.#newSection();
    switch (name) {
      case 'html':
        this.#language ??= attributes.lang ?? attributes['xml:lang'];
        break;
      case 'base':
        if (attributes.href !== undefined) this.#base ??= attributes.href;
        break;
      case 'meta':
        this.#addMeta(attributes);
        break;
      case 'title':
        if (this.#silent === 0 && !this.#titleDone) this.#title = new TextBuffer(MAX_TEXT * 2);
        break;
      case 'picture':
        this.#picture = [];
        break;
      case 'source':
        if (this.#picture && usableSource(attributes)) this.#picture.push(...candidatesOf(attributes));
        break;
      case 'img':
        if (!isPixel(attributes)) this.#addImage([...(this.#picture ?? []), ...candidatesOf(attributes)]);
        if (this.#picture) this.#picture = [];
        break;
      case 'br':
        this.#text(' ');
        break;
      default:
        if (HEADINGS.has(name) && (this.#headings.length < MAX_TEXTS || this.#sections.length <= MAX_SECTIONS)) {
          this.#heading = new TextBuffer(MAX_TEXT * 2);
        }
        if (name === 'p' && this.#paragraphs < MAX_PARAGRAPHS) this.#paragraph = new TextBuffer(MAX_PARAGRAPH);
    }
  }

  #close(name: string): void {
    if (!VOID.has(name)) {
      // The parser closes every element it opened, in order (implied ends included).
      const element = this.#elements.pop();
      if (element?.hides) this.#inert--;
      else if (this.#inert === 0 && element && OUTSIDE_SECTIONS.has(element.name)) this.#outside--;
      // What follows a section's end is not the section's.
      if (this.#inert === 0 && element && SECTIONING.has(element.name)) this.#newSection();
    }
    if (SILENT.has(name)) this.#silent--;
    if (name === 'title' && this.#title) this.#titleDone = true;
    else if (name === 'picture') this.#picture = undefined;
    else if (HEADINGS.has(name) && this.#heading) this.#addHeading(this.#heading);
    else if (name === 'p' && this.#paragraph) this.#addParagraph(this.#paragraph);
  }

  #text(text: string): void {
    if (this.#silent > 0 || this.#inert > 0) return;
    if (this.#title && !this.#titleDone) this.#title.add(text);
    this.#heading?.add(text);
    this.#paragraph?.add(text);
  }

  #addMeta(attributes: Record<string, string>): void {
    const name = (attributes.property ?? attributes.name)?.trim().toLowerCase();
    const content = attributes.content;
    if (!name || content === undefined || content.trim() === '') return;
    const values = this.#meta.get(name) ?? [];
    if (values.length < (META_IMAGES.includes(name) ? MAX_IMAGES : 1)) this.#meta.set(name, [...values, content]);
  }

  #addImage(candidates: Candidate[]): void {
    const url = largest(candidates)?.url;
    if (url && this.#imageURLs.length < MAX_IMAGE_URLS && !this.#imageURLs.includes(url)) this.#imageURLs.push(url);
    if (url && this.#outside === 0) this.#sections.at(-1)!.images.push(url);
  }

  /** Opens a new section unless the open one is still empty. */
  #newSection(): void {
    const open = this.#sections.at(-1)!;
    if (open.heading !== undefined || open.sentences.length > 0 || open.images.length > 0) {
      this.#sections.push({ sentences: [], images: [] });
    }
  }

  #addHeading(buffer: TextBuffer): void {
    this.#heading = undefined;
    const heading = limit(buffer.toString());
    if (heading && !this.#headings.includes(heading) && this.#headings.length < MAX_TEXTS) this.#headings.push(heading);
    if (!heading || this.#outside > 0) return;
    // A heading starts a section, unless the open one has only pictures so far (a card's picture
    // comes before its heading): then it is that section's.
    const open = this.#sections.at(-1)!;
    if (open.heading !== undefined || open.sentences.length > 0) this.#sections.push({ sentences: [], images: [] });
    this.#sections.at(-1)!.heading = heading;
  }

  #addParagraph(buffer: TextBuffer): void {
    this.#paragraph = undefined;
    this.#paragraphs++;
    const text = buffer.toString();
    this.#sentences ??= new SentenceSplitter(this.#language);
    const section = this.#outside === 0 ? this.#sections.at(-1)! : undefined;
    for (const sentence of this.#sentences.split(text, buffer.cut)) {
      const kept = limit(sentence);
      if (!kept) continue;
      if (this.#sentenceList.length < MAX_TEXTS && !this.#sentenceList.includes(kept)) this.#sentenceList.push(kept);
      if (section && section.sentences.length < MAX_SECTION_SENTENCES && !section.sentences.includes(kept)) {
        section.sentences.push(kept);
      }
    }
  }
}

/** Picks the title, description, images, headings and sentences out of a whole page. */
export function readPage(html: string, pageURL: URL): SourcePage {
  const reader = new PageReader(pageURL);
  reader.write(html);
  return reader.end();
}

/** An absolute http(s) URL, or undefined for anything else (data:, javascript:, garbage). */
function resolve(value: string | undefined, base: URL): URL | undefined {
  if (!value?.trim()) return undefined;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** HTML's whitespace (not the no-break spaces) collapsed to single spaces, trimmed. */
function collapse(text: string): string {
  return text.replace(/[\t\n\f\r ]+/g, ' ').trim();
}

/** `text` within {@link MAX_TEXT} characters, cut at a word with an ellipsis; undefined when empty. */
function limit(text: string): string | undefined {
  if (text === '') return undefined;
  if (text.length <= MAX_TEXT) return text;
  const cut = text.slice(0, MAX_TEXT - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > MAX_TEXT / 2 ? cut.lastIndexOf(' ') : undefined).trimEnd()}…`;
}
