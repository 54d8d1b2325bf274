/**
 * Reads a topic search's source page: fetches it (time limit, size limit, a few redirects) and
 * picks out its title, description and image URLs.
 *
 * Failures are {@link SourceError}s whose `code` becomes the topic's `error.code`:
 * `source_unreachable`, `source_timeout`, `source_http_error`, `source_not_html`.
 */
/** Status error codes of a failed topic search. */
export type SourceErrorCode = 'source_unreachable' | 'source_timeout' | 'source_http_error' | 'source_not_html';
/** Why a source page could not be read. */
export declare class SourceError extends Error {
  readonly code: SourceErrorCode;
  constructor(code: SourceErrorCode, message: string);
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
export declare const MAX_PAGE_BYTES: number;
/** Redirects followed before giving up. */
export declare const MAX_REDIRECTS = 5;
/** Images kept per topic. */
export declare const MAX_IMAGES = 8;
/** Fetches `url` and reads it as a topic source. */
export declare function fetchSourcePage(url: string, limits: FetchLimits): Promise<SourcePage>;
/** Picks the title, description and images out of an HTML page (exported for tests). */
export declare function readPage(html: string, pageURL: URL): SourcePage;
//# sourceMappingURL=source.d.ts.map
