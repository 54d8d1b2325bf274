/**
 * Content-Security-Policy as a browser enforces it, for the few directives the SDK's frame and the
 * service's media meet: parse the page's policies, find the directive that governs a request (with
 * CSP Level 3's fallbacks), match a URL against its source list, and write the directive a partner
 * must put in place when it does not allow the URL.
 *
 * Only what a diagnosis needs: nonces, hashes and `'strict-dynamic'` never match a URL, and a
 * path in a source expression is compared as written (no percent-decoding).
 */

/** One policy: from the page's `Content-Security-Policy` header, or one `<meta http-equiv>` tag. */
export interface Policy {
  /** Where the page declared it. */
  readonly from: 'header' | 'meta';
  /** Directive name (lower case) → its source list, as written. The first of two equal names wins. */
  readonly directives: ReadonlyMap<string, readonly string[]>;
}

/** The directives a diagnosis asks about, each with the ones it falls back to (CSP Level 3). */
export const FALLBACKS = {
  'frame-src': ['frame-src', 'child-src', 'default-src'],
  'connect-src': ['connect-src', 'default-src'],
  'img-src': ['img-src', 'default-src'],
  'media-src': ['media-src', 'default-src'],
  'script-src': ['script-src-elem', 'script-src', 'default-src'],
} as const;
export type FetchDirective = keyof typeof FALLBACKS;

/** Directives a `<meta>` policy cannot carry (the browser ignores them there). */
const HEADER_ONLY = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

/**
 * Parses a header value (several policies separated by commas, as `fetch` joins repeated headers)
 * or a `<meta>` tag's `content` (one policy).
 */
export function parsePolicies(text: string, from: Policy['from']): Policy[] {
  const policies = from === 'header' ? text.split(',') : [text];
  return policies
    .map((policy) => {
      const directives = new Map<string, string[]>();
      for (const part of policy.split(';')) {
        const [name, ...sources] = part.trim().split(/\s+/);
        const key = name?.toLowerCase();
        if (!key || directives.has(key) || (from === 'meta' && HEADER_ONLY.has(key))) continue;
        directives.set(key, sources);
      }
      return { from, directives };
    })
    .filter((policy) => policy.directives.size > 0);
}

/** The directive of `policy` that governs `directive` requests, or undefined when none does. */
export function governing(
  policy: Policy,
  directive: FetchDirective,
): { name: string; sources: readonly string[] } | undefined {
  for (const name of FALLBACKS[directive]) {
    const sources = policy.directives.get(name);
    if (sources) return { name, sources };
  }
  return undefined;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };
const portOf = (url: URL): string => url.port || DEFAULT_PORTS[url.protocol] || '';

/** Whether a source list allows `url`, for a document whose origin is `self`. */
export function allows(sources: readonly string[], url: URL, self: string): boolean {
  return sources.some((source) => matches(source, url, self));
}

/**
 * The origins of `chain` (this page, then the pages above it) that the service page's
 * `frame-ancestors` `sources` refuse: the browser stops the frame for each. An opaque origin
 * ("null") matches no source.
 */
export function refusedAncestors(sources: readonly string[], chain: readonly string[], service: string): string[] {
  return chain.filter((origin) => origin === 'null' || !allows(sources, new URL(origin), service));
}

/** CSP Level 3 "does url match expression" for one source expression, without redirects. */
export function matches(expression: string, url: URL, self: string): boolean {
  const source = expression.toLowerCase();
  const network = /^(https?|wss?):$/.test(url.protocol);
  if (source === '*') return network;
  if (source === "'self'") return matchesSelf(url, self);
  if (source.startsWith("'")) return false; // 'none', nonces, hashes, keywords
  const scheme = /^([a-z][a-z0-9+.-]*):$/.exec(source);
  if (scheme) return schemeMatches(`${scheme[1]}:`, url.protocol);
  const host = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[^/:]+)(?::(\d+|\*))?(\/.*)?$/.exec(source);
  if (!host) return false;
  const [, expressionScheme, expressionHost = '', expressionPort, path] = host;
  if (expressionScheme !== undefined) {
    if (!schemeMatches(`${expressionScheme}:`, url.protocol)) return false;
  } else {
    // No scheme: the document's, and an http page's expression also matches https (and ws/wss).
    if (self === 'null') return false;
    const selfScheme = new URL(self).protocol;
    if (!schemeMatches(selfScheme, url.protocol) && !(selfScheme === 'http:' && url.protocol === 'wss:')) return false;
  }
  const hostname = url.hostname.toLowerCase();
  if (expressionHost.startsWith('*.')) {
    if (!hostname.endsWith(expressionHost.slice(1))) return false;
  } else if (expressionHost !== '*' && expressionHost !== hostname) {
    return false;
  }
  if (expressionPort === undefined) {
    // No port: the scheme's default, or 443 when an http expression is met by https.
    const port = portOf(url);
    const scheme = expressionScheme ? `${expressionScheme}:` : url.protocol;
    if (port !== DEFAULT_PORTS[scheme] && port !== DEFAULT_PORTS[url.protocol]) return false;
  } else if (expressionPort !== '*' && expressionPort !== portOf(url)) {
    return false;
  }
  if (path && path !== '/') {
    return path.endsWith('/') ? url.pathname.startsWith(path) : url.pathname === path;
  }
  return true;
}

/** `http:` also matches `https:`, and `ws:` matches `wss:` (the secure upgrade). */
function schemeMatches(expression: string, scheme: string): boolean {
  return (
    expression === scheme ||
    (expression === 'http:' && scheme === 'https:') ||
    (expression === 'ws:' && scheme === 'wss:') ||
    // CSP3: an http(s) scheme-source matches the WebSocket schemes of the same security.
    (expression === 'http:' && (scheme === 'ws:' || scheme === 'wss:')) ||
    (expression === 'https:' && scheme === 'wss:')
  );
}

function matchesSelf(url: URL, self: string): boolean {
  if (self === 'null') return false;
  const own = new URL(self);
  if (url.origin === own.origin) return true;
  // 'self' of an http page also matches its https twin (and ws/wss) on the same host.
  const upgrade =
    (own.protocol === 'http:' && (url.protocol === 'https:' || url.protocol === 'ws:' || url.protocol === 'wss:')) ||
    (own.protocol === 'https:' && url.protocol === 'wss:');
  return upgrade && url.hostname === own.hostname && (portOf(url) === portOf(own) || !url.port);
}

/** Why a policy blocks a request, and the directive that would allow it. */
export interface Blocked {
  policy: Policy;
  /** The directive that decided (`default-src` when the asked one is missing). */
  decidedBy: string;
  sources: readonly string[];
  /** The whole directive to put in the policy instead, e.g. `frame-src 'self' https://app.example`. */
  fix: string;
}

/**
 * The policies among `policies` that block a `directive` request to `url` (every policy must allow
 * it), each with the directive that would: the sources it falls back to now, plus the URL's origin.
 */
export function blockedBy(policies: readonly Policy[], directive: FetchDirective, url: URL, self: string): Blocked[] {
  const blocked: Blocked[] = [];
  for (const policy of policies) {
    const rule = governing(policy, directive);
    if (!rule || allows(rule.sources, url, self)) continue;
    const kept = rule.sources.filter((source) => source.toLowerCase() !== "'none'");
    // A fallback is replaced by the asked directive itself; a more specific one must change itself.
    const name = rule.name === 'default-src' || rule.name === 'child-src' ? directive : rule.name;
    blocked.push({ policy, decidedBy: rule.name, sources: rule.sources, fix: [name, ...kept, url.origin].join(' ') });
  }
  return blocked;
}

/** A source list as it reads in a policy, e.g. `'self' https://cdn.example`, or `(empty)`. */
export function describeSources(sources: readonly string[]): string {
  return sources.length > 0 ? sources.join(' ') : '(empty: nothing)';
}
