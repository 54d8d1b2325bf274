/**
 * Which picture an `<img>` (with the `<source>`s of its `<picture>`) shows at its largest: lazy
 * loaders' `data-` attributes before the placeholder `src`, the widest or densest `srcset`
 * candidate, sources in a type the renderer can use. URLs stay as written; the page resolves them.
 */
import { READABLE_IMAGE_TYPES } from '../images.js';

type Attributes = Readonly<Record<string, string>>;

/** One image a `srcset`, `src` or `data-src` offers, and how large it is. */
export interface Candidate {
  url: string;
  /** Its `w` descriptor, in CSS pixels. */
  width?: number;
  /** Its `x` descriptor (1 without one). */
  density: number;
}

/** The types of `<picture><source type>` the renderer can use. */
const USABLE_TYPES = READABLE_IMAGE_TYPES;

/** Extensions of files the renderer refuses (render/images.ts): such images only fill places left. */
const REFUSED_EXTENSIONS = /\.(svgz?|avif|jxl|heic|heif|ico|bmp|tiff?)$/i;

/** The candidates of a `srcset` (the HTML standard's parsing: a URL, then descriptors up to a comma). */
export function parseSrcset(srcset: string): Candidate[] {
  const candidates: Candidate[] = [];
  const at = { index: 0 };
  const take = (pattern: RegExp) => {
    pattern.lastIndex = at.index;
    const text = pattern.exec(srcset)?.[0] ?? '';
    at.index += text.length;
    return text;
  };
  while (at.index < srcset.length) {
    take(/[\s,]*/y);
    let url = take(/\S*/y);
    if (url === '') break;
    let descriptors = '';
    // A URL that ends in commas has no descriptors; otherwise they run to the next comma outside ().
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    else descriptors = take(/(?:\([^)]*\)?|[^,(])*/y);
    const candidate: Candidate = { url, density: 1 };
    for (const descriptor of descriptors.trim().split(/\s+/)) {
      const value = Number(descriptor.slice(0, -1));
      if (!(value > 0)) continue;
      if (descriptor.endsWith('w')) candidate.width = value;
      else if (descriptor.endsWith('x')) candidate.density = value;
    }
    candidates.push(candidate);
  }
  return candidates;
}

/** The largest candidate: the widest of those with a width, else the densest; the first on a tie. */
export function largest(candidates: readonly Candidate[]): Candidate | undefined {
  const widths = candidates.filter((candidate) => candidate.width !== undefined);
  const pool = widths.length > 0 ? widths : candidates;
  const size = (candidate: Candidate) => candidate.width ?? candidate.density;
  return pool.reduce<Candidate | undefined>(
    (best, next) => (best && size(best) >= size(next) ? best : next),
    undefined,
  );
}

/**
 * What an `<img>` or `<source>` offers. A lazy loader's attributes (`data-srcset`,
 * `data-lazy-srcset`, `data-src`, `data-lazy-src`, `data-original`) replace `srcset` and `src`,
 * which then hold a placeholder. `data:` URLs are never pictures of the page.
 */
export function candidatesOf(attributes: Attributes): Candidate[] {
  const lazySet = attributes['data-srcset'] ?? attributes['data-lazy-srcset'];
  const lazy = attributes['data-src'] ?? attributes['data-lazy-src'] ?? attributes['data-original'];
  const [set, src] = lazySet || lazy ? [lazySet, lazy] : [attributes.srcset, attributes.src];
  return [...parseSrcset(set ?? ''), ...(src?.trim() ? [{ url: src.trim(), density: 1 }] : [])].filter(
    (candidate) => !/^data:/i.test(candidate.url),
  );
}

/** Whether a `<picture>`'s `<source>` is in a type the renderer can use (or says none). */
export function usableSource(attributes: Attributes): boolean {
  const type = attributes.type?.trim().toLowerCase();
  return !type || USABLE_TYPES.has(type);
}

/** Whether an `<img>` is a tracking pixel or a spacer: 0 or 1 pixel wide or high. */
export function isPixel(attributes: Attributes): boolean {
  return [attributes.width, attributes.height].some((size) => size !== undefined && Number.parseInt(size, 10) <= 1);
}

/** Whether the renderer can use the file at `url`, judged by its extension (it checks the bytes). */
export function rendererCanUse(url: URL): boolean {
  return !REFUSED_EXTENSIONS.test(url.pathname);
}
