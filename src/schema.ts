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

/** What zod's runner leaves: the parsed value, and the issues as the schemas raised them. */
export type Result = core.ParsePayload;
/** An issue as a schema raised it: with its `input` and the schema (`inst`), `path` if not at the root. */
export type RawIssue = core.$ZodRawIssue;

/**
 * Runs `schema` on `value` with zod's own runner, `schema._zod.run` — what zod's `safeParse` calls
 * before it wraps the issues in a `$ZodError` (0.44 kB gzip of every partner's page, issue 32).
 * `_zod.run` is an internal of zod's core: package.json pins zod to `~4.6` and
 * test/node/zod-internals.test.ts fails when it changes. Every schema of the browser code is
 * synchronous, so the result is never a promise.
 */
export function run(schema: Schema, value: unknown): Result {
  return schema._zod.run({ value, issues: [] }, { async: false }) as Result;
}

/** The parsed value, or `undefined` when `value` does not pass `schema`. */
export function valid<T extends Schema>(schema: T, value: unknown): core.output<T> | undefined {
  const result = run(schema, value);
  return result.issues.length ? undefined : (result.value as core.output<T>);
}

/**
 * An issue's message as zod gives it by default: the issue's own, else the message of the check
 * that raised it (`custom(check, message)`), else zod's "Invalid input". Unlike zod's
 * `safeParse`, zod's global config (`z.config()`: locales, `customError`), which a partner's page
 * can change, does not reach the SDK's messages.
 */
export function message(issue: RawIssue): string {
  const own = issue.message || issue.inst?._zod.def.error?.(issue as never);
  return (typeof own === 'string' ? own : own?.message) ?? 'Invalid input';
}
