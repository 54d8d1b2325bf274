/** The store's small values: the time stamps, new IDs, session keys and request fingerprints. */
import { createHash, randomUUID } from 'node:crypto';

/** The current time as an ISO-8601 string. */
export const nowISO = (): string => new Date().toISOString();

/** A new unguessable ID with a readable prefix (`acct_…`, `vid_…`). */
export const newId = (prefix: string): string => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/** The stored key of a session token. */
export const sessionKey = (token: string): string => createHash('sha256').update(token).digest('base64url');

/**
 * The fingerprint of a start request for its idempotency key: SHA-256 of the route and the
 * normalised body (keys sorted, defaults filled in), so that the same request always matches.
 */
export function fingerprint(route: string, body: Record<string, unknown>): string {
  const sorted = Object.fromEntries(
    Object.entries(body)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return createHash('sha256')
    .update(`${route}\n${JSON.stringify(sorted)}`)
    .digest('base64url');
}
