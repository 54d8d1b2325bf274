/**
 * Turns zod/mini issues into {@link InvalidParameterError}s that name the field and say what to do.
 *
 * zod/mini ships no messages (every issue says "Invalid input") unless a locale is loaded, and the
 * locale is bigger than this file; so the messages are written here from the issue's own data.
 * Used by the server helpers and by the local service for request bodies.
 */
import * as z from 'zod/mini';
import { InvalidParameterError } from '../errors.js';
type Issue = z.core.$ZodIssue;
/**
 * Parses `value` with `schema`; on failure throws an {@link InvalidParameterError} about the first
 * issue, with `data.field` set to the dotted path of the offending field.
 *
 * @param context - what was being validated, e.g. `createAccountToken` or `POST /api/topics body`;
 *   it starts the message.
 */
export declare function parseOrThrow<T extends z.ZodMiniType>(schema: T, value: unknown, context: string): z.infer<T>;
/** Builds the error for one issue (exported for the few checks done outside a schema). */
export declare function issueToError(issue: Issue | undefined, input: unknown, context: string): InvalidParameterError;
/**
 * A strict object schema whose "unknown field" message lists the allowed fields, so the partner
 * learns the fix along with the mistake.
 */
export declare function strictObject<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): z.ZodMiniObject<{ -readonly [P in keyof Shape]: Shape[P] }, z.core.$strict>;
export {};
//# sourceMappingURL=validate.d.ts.map
