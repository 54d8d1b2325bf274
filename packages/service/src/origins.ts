/**
 * Allowed host origins of a partner: parsing the patterns, matching a page's origin against them,
 * and writing them as CSP `frame-ancestors` sources.
 *
 * A pattern is an origin (`https://shop.example`, `http://localhost:8000`), an origin with a port
 * wildcard (`http://localhost:*`, any port, as in CSP), or `*` (any http/https origin).
 */

/** One parsed allowed-origin pattern. */
export interface OriginPattern {
  /** The pattern as written, normalised (lower case); also a valid CSP source expression. */
  readonly source: string;
  readonly scheme: 'http' | 'https' | '*';
  readonly host: string;
  /** A port number, `'*'` for any port. */
  readonly port: number | '*';
}

const PATTERN = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?$/;
const DEFAULT_PORTS = { http: 80, https: 443 } as const;

/** Parses a pattern; returns an explanation instead when it is not one. */
export function parseOriginPattern(text: string): OriginPattern | string {
  const source = text.trim().toLowerCase().replace(/\/$/, '');
  if (source === '*') return { source, scheme: '*', host: '*', port: '*' };
  const match = PATTERN.exec(source);
  if (!match) {
    return `"${text}" is not an origin pattern; write scheme://host[:port], e.g. https://shop.example, http://localhost:8000, http://localhost:* or *`;
  }
  const scheme = match[1] as 'http' | 'https';
  const port = match[3] === undefined ? DEFAULT_PORTS[scheme] : match[3] === '*' ? '*' : Number(match[3]);
  if (port !== '*' && port > 65535) return `"${text}" has a port above 65535`;
  return { source, scheme, host: match[2] as string, port };
}

/** Whether a page origin (as the browser reports it, e.g. `http://localhost:8000`) matches. */
export function originMatches(pattern: OriginPattern, origin: string): boolean {
  const parsed = parseOriginPattern(origin);
  // The page's origin must be concrete: no wildcards in it.
  if (typeof parsed === 'string' || parsed.port === '*' || parsed.scheme === '*') return false;
  if (pattern.scheme === '*') return true;
  return (
    pattern.scheme === parsed.scheme &&
    pattern.host === parsed.host &&
    (pattern.port === '*' || pattern.port === parsed.port)
  );
}

/** Whether any of the patterns matches the origin. */
export function isOriginAllowed(patterns: readonly OriginPattern[], origin: string): boolean {
  return patterns.some((pattern) => originMatches(pattern, origin));
}

/**
 * The `frame-ancestors` sources of a page that the given partners may frame: every allowed origin
 * of each, or `'none'` when there is none. The plugin page is sent with its own partner's only.
 */
export function frameAncestorSources(partners: Iterable<{ allowedOrigins: readonly OriginPattern[] }>): string[] {
  const sources = new Set<string>();
  for (const partner of partners) for (const origin of partner.allowedOrigins) sources.add(origin.source);
  return sources.size > 0 ? [...sources] : ["'none'"];
}
