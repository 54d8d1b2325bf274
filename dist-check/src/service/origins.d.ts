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
/** Parses a pattern; returns an explanation instead when it is not one. */
export declare function parseOriginPattern(text: string): OriginPattern | string;
/** Whether a page origin (as the browser reports it, e.g. `http://localhost:8000`) matches. */
export declare function originMatches(pattern: OriginPattern, origin: string): boolean;
/** Whether any of the patterns matches the origin. */
export declare function isOriginAllowed(patterns: readonly OriginPattern[], origin: string): boolean;
//# sourceMappingURL=origins.d.ts.map
