/**
 * Reads a topic search's source page: fetches it (time limit, size limit, a few redirects) and reads
 * its title, description, image URLs, headings, sentences, sections and language as the bytes arrive (source/charset.ts
 * decodes them, source/page.ts parses them).
 *
 * Failures are {@link SourceError}s whose `code` becomes the topic's `error.code`:
 * `source_unreachable`, `source_timeout`, `source_http_error`, `source_not_html`.
 */
import type { JOB_FAILURE_CODES } from 'video-plugin/internal';
import { EgressError, guardedFetch, type EgressPolicy } from '../egress.js';
import { PageDecoder } from './source/charset.js';
import { PageReader, type SourcePage } from './source/page.js';

export { MAX_IMAGES, readPage, type PageSection, type SourcePage } from './source/page.js';

/** Status error codes of a failed topic search. */
export type SourceErrorCode = (typeof JOB_FAILURE_CODES)['topicSearch'][number];

/** Why a source page could not be read. */
export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Limits of one fetch. */
export interface FetchLimits {
  timeoutMs: number;
  /** Aborts the fetch when the service shuts down (the error is then rethrown as is). */
  signal?: AbortSignal;
  /** What may be connected to (egress.ts). */
  egress: EgressPolicy;
}

/** Bytes of a page that are read; the rest is ignored (title and meta tags come first). */
export const MAX_PAGE_BYTES = 1024 * 1024;
/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;

/** Fetches `url` and reads it as a topic source. */
export async function fetchSourcePage(url: string, limits: FetchLimits): Promise<SourcePage> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([timeout, limits.signal]) : timeout;
  try {
    const { response, finalURL } = await follow(url, signal, limits.egress);
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
    const reader = new PageReader(finalURL);
    let started = declaredHTML;
    const read = (text: string) => {
      // Without a Content-Type, trust the page only if it starts like HTML.
      if (!started && text !== '') {
        if (!/^\s*(<!doctype html|<html)/i.test(text)) throw notHTML();
        started = true;
      }
      reader.write(text);
    };
    await readLimited(response, signal, (bytes) => read(decoder.write(bytes)));
    read(decoder.end());
    if (!started) throw notHTML();
    return reader.end();
  } catch (error) {
    if (limits.signal?.aborted) throw error;
    if (error instanceof SourceError) throw error;
    if (error instanceof EgressError || !timeout.aborted) {
      // One answer for a refused address, a name that does not resolve, a closed or a filtered
      // port: the detail is for the log, not for whoever asked (a search is not a port scanner).
      console.warn(
        `video-plugin-service: source not reached: ${url}: ${error instanceof EgressError ? error.detail : (error as Error).message}`,
      );
      throw new SourceError('source_unreachable', `${url} could not be reached. Check the address.`);
    }
    throw new SourceError('source_timeout', `${url} did not answer within ${limits.timeoutMs} ms.`);
  }
}

async function follow(
  url: string,
  signal: AbortSignal,
  egress: EgressPolicy,
): Promise<{ response: Response; finalURL: URL }> {
  let current = new URL(url);
  for (let redirects = 0; ; redirects++) {
    // Every hop through the egress check: a redirect to an internal address is refused like one.
    const response = await guardedFetch(
      current,
      {
        signal,
        headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': 'video-plugin-service' },
      },
      egress,
    );
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
