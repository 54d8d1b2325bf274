/**
 * Reads a topic search's source page: fetches it (time limit, size limit, a few redirects) and
 * picks out its title, description and image URLs.
 *
 * Failures are {@link SourceError}s whose `code` becomes the topic's `error.code`:
 * `source_unreachable`, `source_timeout`, `source_http_error`, `source_not_html`.
 */
import { PageDecoder } from './source/charset.js';

/** Status error codes of a failed topic search. */
export type SourceErrorCode = 'source_unreachable' | 'source_timeout' | 'source_http_error' | 'source_not_html';

/** Why a source page could not be read. */
export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** What a topic takes from its source page. */
export interface SourcePage {
  title?: string;
  description?: string;
  images: string[];
  /** The text of its `h1`–`h3` headings and the first sentences of its paragraphs (a few each). */
  headings: string[];
  sentences: string[];
}

/** Limits of one fetch. */
export interface FetchLimits {
  timeoutMs: number;
  /** Aborts the fetch when the service shuts down (the error is then rethrown as is). */
  signal?: AbortSignal;
}

/** Bytes of a page that are read; the rest is ignored (title and meta tags come first). */
export const MAX_PAGE_BYTES = 1024 * 1024;
/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;
/** Images kept per topic. */
export const MAX_IMAGES = 8;
const MAX_TEXT = 300;

/** Fetches `url` and reads it as a topic source. */
export async function fetchSourcePage(url: string, limits: FetchLimits): Promise<SourcePage> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([timeout, limits.signal]) : timeout;
  try {
    const { response, finalURL } = await follow(url, signal);
    const type = response.headers.get('content-type') ?? '';
    const declaredHTML = /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(type);
    const notHTML = () =>
      new SourceError(
        'source_not_html',
        `${url} is not an HTML page (Content-Type: ${type || 'none'}). Give the address of a web page.`,
      );
    if (!declaredHTML && type !== '') {
      await response.body?.cancel();
      throw notHTML();
    }
    const decoder = new PageDecoder(/charset\s*=\s*"?([\w.:-]+)/i.exec(type)?.[1]);
    let html = '';
    await readLimited(response, signal, (bytes) => (html += decoder.write(bytes)));
    html += decoder.end();
    // Without a Content-Type, trust the page only if it starts like HTML.
    if (!declaredHTML && !/^\s*(<!doctype html|<html)/i.test(html)) throw notHTML();
    return readPage(html, finalURL);
  } catch (error) {
    if (limits.signal?.aborted) throw error;
    if (error instanceof SourceError) throw error;
    if (timeout.aborted) {
      throw new SourceError('source_timeout', `${url} did not answer within ${limits.timeoutMs} ms.`);
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new SourceError(
      'source_unreachable',
      `${url} could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message}). Check the address.`,
    );
  }
}

async function follow(url: string, signal: AbortSignal): Promise<{ response: Response; finalURL: URL }> {
  let current = new URL(url);
  for (let redirects = 0; ; redirects++) {
    const response = await fetch(current, {
      signal,
      redirect: 'manual',
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': 'video-plugin-service' },
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, current);
      if (redirects >= MAX_REDIRECTS) {
        throw new SourceError('source_http_error', `${url} redirected more than ${MAX_REDIRECTS} times.`);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new SourceError('source_http_error', `${url} redirected to ${next.protocol} URL, which cannot be read.`);
      }
      current = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SourceError('source_http_error', `${current.href} answered HTTP ${response.status}.`);
    }
    return { response, finalURL: current };
  }
}

/** Hands the body's first {@link MAX_PAGE_BYTES} to `read` as they arrive; the rest is not fetched. */
async function readLimited(response: Response, signal: AbortSignal, read: (bytes: Uint8Array) => void): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (let size = 0; size < MAX_PAGE_BYTES;) {
      signal.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      read(value.subarray(0, MAX_PAGE_BYTES - size));
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Picks the title, description and images out of an HTML page (exported for tests). */
export function readPage(html: string, pageURL: URL): SourcePage {
  // Comments, scripts and styles may contain tag-like text that is not part of the page.
  const markup = html.replace(/<!--[\s\S]*?-->|<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  const meta = new Map<string, string>();
  for (const [tag] of markup.matchAll(/<meta\b[^>]*>/gi)) {
    const attrs = attributes(tag);
    const name = (attrs.get('property') ?? attrs.get('name'))?.toLowerCase();
    const content = attrs.get('content');
    if (name && content !== undefined && !meta.has(name)) meta.set(name, content);
  }
  const baseHref = /<base\b[^>]*>/i.exec(markup)?.[0];
  const base = resolve(baseHref ? attributes(baseHref).get('href') : undefined, pageURL) ?? pageURL;

  const title = clean(meta.get('og:title') ?? /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(markup)?.[1]);
  const description = clean(meta.get('og:description') ?? meta.get('description'));
  const candidates = [meta.get('og:image'), meta.get('og:image:url'), meta.get('og:image:secure_url')];
  for (const [tag] of markup.matchAll(/<img\b[^>]*>/gi)) candidates.push(attributes(tag).get('src'));
  const images: string[] = [];
  for (const candidate of candidates) {
    const url = resolve(candidate, base);
    if (url && !images.includes(url.href)) images.push(url.href);
    if (images.length === MAX_IMAGES) break;
  }
  const headings = texts(markup, /<h[1-3]\b[^>]*>([\s\S]*?)<\/h[1-3]\s*>/gi, MAX_TEXTS);
  const sentences = texts(markup, /<p\b[^>]*>([\s\S]*?)<\/p\s*>/gi, MAX_TEXTS * 2)
    .flatMap((paragraph) => paragraph.match(/[^.!?]+[.!?]+/g) ?? [paragraph])
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.split(' ').length >= 4)
    .slice(0, MAX_TEXTS);
  return { ...(title ? { title } : {}), ...(description ? { description } : {}), images, headings, sentences };
}

/** Headings and sentences kept per topic, each. */
const MAX_TEXTS = 8;

/** The cleaned text of every match of `pattern` (group 1), without repeats. */
function texts(markup: string, pattern: RegExp, max: number): string[] {
  const found: string[] = [];
  for (const match of markup.matchAll(pattern)) {
    const text = clean(match[1]);
    if (text && !found.includes(text)) found.push(text);
    if (found.length === max) break;
  }
  return found;
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(/([^\s"'<>/=]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g)) {
    const name = (match[1] as string).toLowerCase();
    if (!found.has(name)) found.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return found;
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

function clean(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const plain = decodeEntities(text.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  return plain === '' ? undefined : plain.slice(0, MAX_TEXT);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] !== '#') return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}
