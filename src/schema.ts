/**
 * The zod constructs the SDK's browser code validates with — a check with its own message, an
 * optional field, a plain and a strict object — built on zod's core (`zod/v4/core`, zod's entry for
 * libraries) instead of zod/mini. The schemas, the parsing and the issues are zod's own; what is
 * left out is what zod/mini adds to every schema and the SDK never calls (`parse`, `parseAsync`,
 * `check`, `brand`, `register`…): 0.6 kB gzip of every partner's page (BENCHMARKS.md, issue 21).
 * Node-side code (the server helpers, the service) keeps zod/mini.
 */
import * as core from 'zod/v4/core';

/** A schema: what parses to `O` from an `I`. */
export type Schema<O = unknown, I = O> = core.$ZodType<O, I>;
/** What a schema parses to. */
export type infer<T extends Schema> = core.output<T>;
/** What a schema accepts (before defaults). */
export type input<T extends Schema> = core.input<T>;
export type Issue = core.$ZodIssue;

/** `check(value)` must hold, or the issue says `message`; without a check, anything passes. */
export function custom<T>(check: (value: unknown) => boolean = () => true, message?: string): core.$ZodCustom<T, T> {
  return core._custom<T>(core.$ZodCustom, check, message);
}

/** `inner`, or nothing (an absent key, or `undefined`). */
export function optional<T extends Schema>(inner: T): core.$ZodOptional<T> {
  return new core.$ZodOptional({ type: 'optional', innerType: inner }) as core.$ZodOptional<T>;
}

/** An object with these keys; others pass through unchecked and are dropped. */
export function object<S extends core.$ZodShape>(shape: S): core.$ZodObject<S, core.$strip> {
  return new core.$ZodObject({ type: 'object', shape }) as core.$ZodObject<S, core.$strip>;
}

/** No key may be there but these (one `never` schema for every object: it holds no state). */
const never = new core.$ZodNever({ type: 'never' });

/** An object with these keys and no other (an unknown key is an `unrecognized_keys` issue). */
export function strictObject<S extends core.$ZodShape>(shape: S): core.$ZodObject<S, core.$strict> {
  return new core.$ZodObject({ type: 'object', shape, catchall: never }) as core.$ZodObject<S, core.$strict>;
}

/** zod's synchronous safe parse: `{ success, data }` or `{ success: false, error }`. */
export const safeParse: typeof core.safeParse = core.safeParse;
