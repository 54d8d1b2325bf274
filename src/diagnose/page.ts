/**
 * What the partner's page declares and where it sits: its Content-Security-Policy (the `<meta>`
 * tags, and the response headers read again with a same-origin `HEAD` of the page's own URL), its
 * Referrer-Policy, the origins of the pages above it, and the copies of the SDK it has loaded.
 */
import { parsePolicies, type Policy } from './csp.js';

/** The referrer policies a browser knows (a header's or meta's other tokens are ignored). */
export const REFERRER_POLICIES = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'same-origin',
  'origin',
  'strict-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
] as const;
export type ReferrerPolicy = (typeof REFERRER_POLICIES)[number];

/** Old `<meta name="referrer">` keywords, as the HTML standard maps them. */
const LEGACY_META: Record<string, ReferrerPolicy> = {
  never: 'no-referrer',
  default: 'strict-origin-when-cross-origin',
  always: 'unsafe-url',
  'origin-when-crossorigin': 'origin-when-cross-origin',
};

export interface PagePolicies {
  /** Every enforced policy of the page: the header's, then each `<meta>` tag's. */
  csp: Policy[];
  /** The page's effective referrer policy, and what set it. */
  referrer: { policy: ReferrerPolicy; from: 'header' | 'meta' | 'default' };
  /**
   * Whether the response headers could be read; otherwise why not (a page that is not http(s),
   * e.g. `about:srcdoc`, or a `HEAD` that failed), so that only the `<meta>` tags were read.
   */
  headers: { read: true; url: string } | { read: false; why: string };
}

/** The last recognised token of a comma-separated `Referrer-Policy` value. */
function lastPolicy(value: string, legacy: boolean): ReferrerPolicy | undefined {
  let found: ReferrerPolicy | undefined;
  for (const raw of value.split(',')) {
    const token = raw.trim().toLowerCase();
    const known = (REFERRER_POLICIES as readonly string[]).includes(token)
      ? (token as ReferrerPolicy)
      : legacy
        ? LEGACY_META[token]
        : undefined;
    if (known) found = known;
  }
  return found;
}

/** Reads the page's headers (HEAD, or GET where HEAD is not allowed); a sentence when it cannot. */
async function pageHeaders(signal: AbortSignal): Promise<Headers | string> {
  if (!/^https?:$/.test(location.protocol)) {
    return `this document is ${location.protocol.replace(/:$/, '')}:, not a page served over http(s)`;
  }
  const get = (method: string) =>
    fetch(location.href, { method, cache: 'no-store', credentials: 'same-origin', redirect: 'follow', signal });
  let response: Response;
  try {
    response = await get('HEAD');
    if (response.status === 405 || response.status === 501) {
      response = await get('GET');
      void response.body?.cancel();
    }
  } catch (error) {
    return `HEAD ${location.href} failed (${String(error)})`;
  }
  return response.headers;
}

/** The page's policies; never throws (what cannot be read is said in `headers`). */
export async function readPagePolicies(signal: AbortSignal): Promise<PagePolicies> {
  const read = await pageHeaders(signal);
  const headers = typeof read === 'string' ? undefined : read;
  const csp = headers ? parsePolicies(headers.get('content-security-policy') ?? '', 'header') : [];
  for (const meta of document.querySelectorAll('meta[http-equiv]')) {
    if (meta.getAttribute('http-equiv')?.toLowerCase() !== 'content-security-policy') continue;
    csp.push(...parsePolicies(meta.getAttribute('content') ?? '', 'meta'));
  }
  // A <meta name="referrer"> overrides the header (the last one the parser met wins).
  let referrer: PagePolicies['referrer'] = { policy: 'strict-origin-when-cross-origin', from: 'default' };
  const header = headers && lastPolicy(headers.get('referrer-policy') ?? '', false);
  if (header) referrer = { policy: header, from: 'header' };
  for (const meta of document.querySelectorAll('meta[name]')) {
    if (meta.getAttribute('name')?.toLowerCase() !== 'referrer') continue;
    const policy = lastPolicy(meta.getAttribute('content') ?? '', true);
    if (policy) referrer = { policy, from: 'meta' };
  }
  return {
    csp,
    referrer,
    headers: typeof read === 'string' ? { read: false, why: read } : { read: true, url: location.href },
  };
}

/**
 * The origins of the pages above this one, nearest first; `unknown` when the browser does not say
 * (Firefox has no `location.ancestorOrigins`, and a cross-origin parent cannot be asked).
 */
export function ancestorOrigins(): { origins: string[]; unknown: boolean } {
  const list = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (list) return { origins: [...list], unknown: false };
  const origins: string[] = [];
  let current: Window = window;
  while (current !== current.parent) {
    current = current.parent;
    try {
      origins.push(current.location.origin);
    } catch {
      return { origins, unknown: true };
    }
  }
  return { origins, unknown: false };
}

/** The SDK versions loaded on this page besides this module: the CDN global and the element class. */
export function loadedSdkVersions(): { where: string; version: string }[] {
  const found: { where: string; version: string }[] = [];
  const cdn = (globalThis as { VideoPlugin?: { version?: unknown } }).VideoPlugin?.version;
  if (typeof cdn === 'string') found.push({ where: 'window.VideoPlugin', version: cdn });
  const element = (globalThis.customElements?.get('video-plugin') as { version?: unknown } | undefined)?.version;
  if (typeof element === 'string') found.push({ where: '<video-plugin>', version: element });
  return found;
}

/** The `<script src>` of the CDN files on this page (their origin must be in `script-src`). */
export function cdnScripts(): URL[] {
  return [...document.querySelectorAll<HTMLScriptElement>('script[src]')]
    .map((script) => new URL(script.src, location.href))
    .filter((url) => /\/video-plugin(\.module)?\.min\.js$/.test(url.pathname));
}
