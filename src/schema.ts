/**
 * The zod constructs the SDK's browser code validates with — a check with its own message, an
 * optional field, a plain and a strict object — built on zod's core (`zod/v4/core`, zod's entry for
 * libraries) instead of zod/mini. Every rule is a zod check (`$ZodCustom`), run by zod; the optional
 * and object types are the SDK's own zod types (below), and schemas run through zod's runner, not
 * `safeParse` (docs/architecture.md, "Validation"). What is left out is what zod/mini adds to every schema and the SDK never
 * calls (`parse`, `parseAsync`, `check`, `brand`, `register`…): 0.6 kB gzip of every partner's page
 * (BENCHMARKS.md, "Sizes"), then 1.5 kB more. docs/architecture.md, "Validation", says
 * why. Node-side code (the server helpers, the service) keeps zod/mini.
 */
import * as core from 'zod/v4/core';

/** A schema: what parses to `O` from an `I`. */
export type Schema<O = unknown, I = O> = core.$ZodType<O, I>;
/** What a schema parses to. */
export type infer<T extends Schema> = core.output<T>;
/** What a schema accepts (before defaults). */
export type input<T extends Schema> = core.input<T>;
export type Issue = core.$ZodIssue;

/**
 * `check(value)` must hold, or the issue says `message`; without a check, anything passes. The
 * definition zod's `_custom` factory makes, built here: `_custom` brings zod's params normaliser
 * (option objects, `message`/`error` juggling) that a string message never needs, 0.14 kB gzip of
 * every entry (BENCHMARKS.md, "Issue 32, third pass"). Without a message, `error` gives nothing and
 * the issue reads zod's "Invalid input", as `_custom` leaves it.
 */
export function custom<T>(check: (value: unknown) => boolean = () => true, message?: string): core.$ZodCustom<T, T> {
  return new core.$ZodCustom({
    type: 'custom',
    check: 'custom',
    fn: check,
    abort: true,
    error: () => message,
  }) as core.$ZodCustom<T, T>;
}

/** A field of an object: an absent key passes, `undefined` passes, anything else is `inner`'s. */
interface OptionalDef extends core.$ZodTypeDef {
  innerType: Schema;
}
/** An object's keys and their schemas; `strict`: no other key may be there. */
interface ObjectDef extends core.$ZodTypeDef {
  shape: Record<string, Schema>;
  strict?: true;
}

/**
 * The SDK's optional type on zod's core (`$constructor` + `$ZodType.init`, zod's documented
 * extension point) instead of zod's `$ZodOptional`, which brings zod's values, patterns and
 * defaults along: part of 1.1 kB gzip (BENCHMARKS.md, "Sizes"). Its own name, so `instanceof core.$ZodOptional`
 * stays false. Marks itself optional (`optin`/`optout`) the way zod's does, for the object below.
 */
const $VideoPluginOptional = /* @__PURE__ */ core.$constructor<core.$ZodType, OptionalDef>(
  '$VideoPluginOptional',
  (inst, def) => {
    (core.$ZodType.init as (inst: core.$ZodType, def: core.$ZodTypeDef) => void)(inst, def);
    inst._zod.optin = inst._zod.optout = 'optional';
    inst._zod.parse = (payload, ctx) =>
      payload.value === undefined ? payload : (def.innerType._zod.run(payload, ctx) as core.ParsePayload);
  },
);

/**
 * The SDK's object type on zod's core, in place of zod's `$ZodObject` (its JIT, shape cloning,
 * discriminator values, memoizer and symbol keys are unused here). Each key is still checked by its
 * zod schema, run by zod; what is the SDK's is the walk over the keys, which reproduces zod 4.6's
 * `$ZodObject` exactly (test/node/schema-runner.test.ts compares the two on thousands of inputs):
 * - not a plain object (`null`, an array, a primitive): one `invalid_type` issue, `expected: 'object'`;
 * - each key in the shape's order: its issues, their paths prefixed with the key; a key is present
 *   when `key in input` (inherited keys too); an absent optional key is skipped; an absent other key
 *   is its schema's issue on `undefined`, or, if that passes, an `invalid_type` issue with
 *   `expected: 'nonoptional'`; a present key is kept in the output, `undefined` included;
 * - unknown keys (`for…in`: inherited enumerable keys and `__proto__` too) are dropped; in a strict
 *   object they make one `unrecognized_keys` issue listing them all, after the keys' own issues.
 */
const $VideoPluginObject = /* @__PURE__ */ core.$constructor<core.$ZodType, ObjectDef>(
  '$VideoPluginObject',
  (inst, def) => {
    (core.$ZodType.init as (inst: core.$ZodType, def: core.$ZodTypeDef) => void)(inst, def);
    const shape = def.shape;
    inst._zod.parse = (payload, ctx) => {
      const input = payload.value as Record<string, unknown>;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        payload.issues.push({ expected: 'object', code: 'invalid_type', input, inst });
        return payload;
      }
      const value: Record<string, unknown> = (payload.value = {});
      for (const key in shape) {
        const field = shape[key]!._zod;
        const present = key in input;
        if (!present && field.optin) continue;
        const result = field.run({ value: input[key], issues: [] }, ctx) as core.ParsePayload;
        for (const issue of result.issues) ((issue as { path?: PropertyKey[] }).path ??= []).unshift(key);
        payload.issues.push(...result.issues);
        if (present) value[key] = result.value;
        else if (!result.issues.length) {
          payload.issues.push({ code: 'invalid_type', expected: 'nonoptional', input: undefined, path: [key] });
        }
      }
      if (def.strict) {
        const keys: string[] = [];
        for (const key in input) if (!Object.hasOwn(shape, key)) keys.push(key);
        if (keys.length) payload.issues.push({ code: 'unrecognized_keys', keys, input, inst, continue: true });
      }
      return payload;
    };
  },
);

/** `inner`, or nothing (an absent key, or `undefined`). */
export function optional<T extends Schema>(inner: T): core.$ZodOptional<T> {
  return new $VideoPluginOptional({ type: 'optional', innerType: inner }) as unknown as core.$ZodOptional<T>;
}

/** An object with these keys; others pass through unchecked and are dropped. */
export function object<S extends core.$ZodShape>(shape: S): core.$ZodObject<S, core.$strip> {
  return new $VideoPluginObject({ type: 'object', shape }) as unknown as core.$ZodObject<S, core.$strip>;
}

/** An object with these keys and no other (an unknown key is an `unrecognized_keys` issue). */
export function strictObject<S extends core.$ZodShape>(shape: S): core.$ZodObject<S, core.$strict> {
  return new $VideoPluginObject({ type: 'object', shape, strict: true }) as unknown as core.$ZodObject<S, core.$strict>;
}

/** What zod's runner leaves: the parsed value, and the issues as the schemas raised them. */
export type Result = core.ParsePayload;
/** An issue as a schema raised it: with its `input` and the schema (`inst`), `path` if not at the root. */
export type RawIssue = core.$ZodRawIssue;

/**
 * Runs `schema` on `value` with zod's own runner, `schema._zod.run` — what zod's `safeParse` calls
 * before it wraps the issues in a `$ZodError` (0.44 kB gzip of every partner's page; BENCHMARKS.md, "Sizes").
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
