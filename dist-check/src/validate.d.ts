/**
 * Turns zod/mini issues into one clear `InvalidParameterError` that names the field and says
 * what to do. (zod/mini ships without messages; these are ours, which keeps the bundle small. Lengths, URLs,
 * timeouts and choices among values are checks with their own message, so only these issue codes occur.)
 */
import type * as z from 'zod/mini';
/**
 * Parses `input` with `schema` or throws an `InvalidParameterError` naming `name` + the path of
 * the first issue, e.g. `options.editor.labels` or `videoGenerationParams.duration`.
 */
export declare function parse<T extends z.ZodMiniType>(
  schema: T,
  input: unknown,
  name: string,
  hint?: string,
): z.infer<T>;
//# sourceMappingURL=validate.d.ts.map
