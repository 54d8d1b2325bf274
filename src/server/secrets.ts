/**
 * The rules every HS256 secret follows, in one place: the server helpers and the local service
 * both check secrets with these schemas, so a secret one accepts the other accepts too.
 *
 * RFC 7518 §3.2: an HS256 key must have at least 256 bits. Shorter secrets are refused, because a
 * token passes through the browser and a weak secret can be cracked offline from one token.
 */
import * as z from 'zod/mini';

/** Fewest bytes (UTF-8) of a partner secret or a webhook secret: 32 (256 bits, RFC 7518 §3.2). */
export const MIN_SECRET_BYTES = 32;

/** Most webhook secrets accepted at once (the newest and the ones being rolled out). */
export const MAX_WEBHOOK_SECRETS = 10;

const bytes = (text: string): number => new TextEncoder().encode(text).length;

/**
 * What is wrong with a secret, or undefined when it is long enough. `what` says which secret to use
 * ("the partner secret the service gave you"). The value itself is never part of the message.
 */
export function secretProblem(secret: string, what: string): string | undefined {
  const length = bytes(secret);
  if (length >= MIN_SECRET_BYTES) return undefined;
  return `must be at least ${MIN_SECRET_BYTES} bytes (it has ${length}; RFC 7518 §3.2: an HS256 key needs 256 bits): use ${what}, or make one with \`openssl rand -base64 32\``;
}

/** A secret of at least {@link MIN_SECRET_BYTES} bytes (validate.ts never echoes fields named `secret`). */
export const secretSchema = (what: string) =>
  z.string().check(
    z.refine((text) => secretProblem(text, what) === undefined, {
      error: (issue) => secretProblem(String(issue.input), what),
    }),
  );

/** A list of secrets (the newest first, during a roll), each of at least {@link MIN_SECRET_BYTES} bytes. */
export const secretListSchema = (what: string) =>
  z
    .array(secretSchema(what))
    .check(
      z.minLength(1, { error: `must hold at least one secret: pass ${what}` }),
      z.maxLength(MAX_WEBHOOK_SECRETS, { error: `must hold at most ${MAX_WEBHOOK_SECRETS} secrets` }),
    );
