/**
 * Early, clear errors for tokens that cannot work. The browser has no secret, so this only
 * decodes: the service verifies the signature and everything else.
 */
import { InvalidTokenError } from './errors.js';

const CLOCK_SKEW_SECONDS = 30;

function decodeSegment(segment: string): unknown {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
}

/** Throws an `InvalidTokenError` if `token` is not a JWT, has expired, or names another partner. */
export function checkToken(token: string, partnerID: string, field: string): void {
  const parts = token.split('.');
  let payload: Record<string, unknown> | undefined;
  try {
    if (parts.length === 3) payload = decodeSegment(parts[1]!) as Record<string, unknown>;
  } catch {
    payload = undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new InvalidTokenError(
      'token_malformed',
      `${field} is not a JWT (three Base64URL parts: header.payload.signature). Mint it on your server with createAccountToken or loginAccountToken from video-plugin/server.`,
      { field },
    );
  }
  if (typeof payload.exp === 'number' && payload.exp + CLOCK_SKEW_SECONDS < Date.now() / 1000) {
    throw new InvalidTokenError(
      'token_expired',
      `${field} expired at ${new Date(payload.exp * 1000).toISOString()}. Mint a fresh token just before the call.`,
      { field, exp: payload.exp },
    );
  }
  if (typeof payload.iss === 'string' && payload.iss !== partnerID) {
    throw new InvalidTokenError(
      'token_unknown_issuer',
      `${field} was issued for partner ${JSON.stringify(payload.iss)}, but this Plugin was created for ${JSON.stringify(partnerID)}. Use the same partner ID on the server and in the page.`,
      { field, iss: payload.iss },
    );
  }
}
