/**
 * Allowed host origins of a partner: parsing the patterns, matching a page's origin against them,
 * and writing them as CSP `frame-ancestors` sources.
 *
 * A pattern is an origin (`https://shop.example`, `http://localhost:8000`), an origin with a port
 * wildcard (`http://localhost:*`, any port, as in CSP), or `*` (any http/https origin).
 */
const PATTERN = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?$/;
const DEFAULT_PORTS = { http: 80, https: 443 };
/** Parses a pattern; returns an explanation instead when it is not one. */
export function parseOriginPattern(text) {
  const source = text.trim().toLowerCase().replace(/\/$/, '');
  if (source === '*') return { source, scheme: '*', host: '*', port: '*' };
  const match = PATTERN.exec(source);
  if (!match) {
    return `"${text}" is not an origin pattern; write scheme://host[:port], e.g. https://shop.example, http://localhost:8000, http://localhost:* or *`;
  }
  const scheme = match[1];
  const port = match[3] === undefined ? DEFAULT_PORTS[scheme] : match[3] === '*' ? '*' : Number(match[3]);
  if (port !== '*' && port > 65535) return `"${text}" has a port above 65535`;
  return { source, scheme, host: match[2], port };
}
/** Whether a page origin (as the browser reports it, e.g. `http://localhost:8000`) matches. */
export function originMatches(pattern, origin) {
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
export function isOriginAllowed(patterns, origin) {
  return patterns.some((pattern) => originMatches(pattern, origin));
}
//# sourceMappingURL=origins.js.map
