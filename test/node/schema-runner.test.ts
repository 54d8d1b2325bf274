// The SDK runs its zod schemas with zod's own runner (`schema._zod.run`, src/schema.ts) instead of
// `safeParse`, and its objects and optionals are types of its own on zod's core (issue 32).
// `_zod.run` is an internal of zod's core, so package.json pins zod to `~4.6`; this test fails
// loudly when the internal changes, and proves on many good and bad inputs that every issue — code,
// path, message, input, expected type, unknown keys — and every parsed value is what zod's
// `safeParse` gives with zod's own `$ZodObject` and `$ZodOptional`.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as core from 'zod/v4/core';
import * as options from '../../src/options.js';
import { parse } from '../../src/validate.js';
import { hostMessageSchemas, serviceMessageSchemas, connectSchema, helloSchema } from '../../src/wire/protocol.js';
import * as z from '../../src/schema.js';

const zodVersion = (createRequire(import.meta.url)('zod/package.json') as { version: string }).version;
const PINNED = '~4.6.7';

test(`zod is ${PINNED}, as package.json pins it: a new zod is an upgrade to check, not a drift`, async () => {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  assert.equal(pkg.dependencies.zod, PINNED, 'the zod range of package.json changed: check zod’s `_zod.run` (below)');
  assert.match(zodVersion, /^4\.6\.\d+$/, `zod ${zodVersion} is installed; src/schema.ts relies on zod 4.6's _zod.run`);
});

test('zod internals the SDK relies on: `_zod.run` is synchronous and returns `{ value, issues }` with raw issues', () => {
  const check = z.custom<string>((value) => typeof value === 'string', 'must be a string');
  assert.equal(typeof check._zod.run, 'function', 'zod schemas no longer have `_zod.run`: see src/schema.ts');
  const good = check._zod.run({ value: 'x', issues: [] }, { async: false });
  assert.ok(!(good instanceof Promise), '`_zod.run` returned a promise for a synchronous check');
  assert.deepEqual(good, { value: 'x', issues: [] });
  const bad = z.run(z.strictObject({ a: check }), { a: 1, b: 2 });
  assert.equal(bad.issues.length, 2);
  const [first, second] = bad.issues;
  assert.equal(first!.code, 'custom');
  assert.deepEqual(first!.path, ['a']);
  assert.equal(first!.input, 1, 'a raw issue carries its input');
  assert.equal(first!.inst, check, 'a raw issue carries the schema that raised it');
  assert.equal(z.message(first!), 'must be a string');
  assert.equal(second!.code, 'unrecognized_keys');
  assert.deepEqual((second as { keys: string[] }).keys, ['b']);
  assert.equal(
    z.message(
      z.run(
        z.custom(() => false),
        1,
      ).issues[0]!,
    ),
    'Invalid input',
  );
});

/** Values of every kind a partner (or a fuzzer) can pass. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  NaN,
  Infinity,
  1000,
  600_001,
  true,
  false,
  '',
  'x',
  'https://example.com/a',
  'ftp://example.com/',
  'javascript:alert(1)',
  'x'.repeat(300),
  'y'.repeat(9000),
  'en-US',
  'de',
  'PENDING',
  '16:9',
  15,
  [],
  ['a'],
  {},
  { nested: 1 },
  Object.create({ inherited: 1 }),
  () => {},
  Symbol('s'),
  10n,
  new AbortController().signal,
  new Date(0),
];

/** For an object schema: objects built from its keys with every value, unknown keys, missing keys. */
function* inputsFor(schema: z.Schema): Generator<unknown> {
  yield* VALUES;
  const shape = (schema._zod.def as { shape?: Record<string, z.Schema> }).shape;
  if (!shape) return;
  const keys = Object.keys(shape);
  const good: Record<string, unknown> = {};
  yield good;
  for (const key of keys) {
    for (const value of VALUES) {
      yield { [key]: value };
      good[key] = value;
      yield { ...good };
    }
    for (const inner of inputsFor(shape[key]!)) yield { [key]: inner };
    yield { [key]: undefined, unknownKey: 1, [`${key}x`]: 2 };
    // Inherited keys: zod reads them as present (`key in input`).
    for (const value of [undefined, 'x', 1, {}]) yield Object.create({ [key]: value }) as unknown;
  }
  yield { unknown: 1 };
  yield JSON.parse('{"__proto__": {"a": 1}, "b": 2}');
  yield Object.assign(Object.create({ inherited: 1 }), { own: 1 });
}

const references = new WeakMap<z.Schema, z.Schema>();
/**
 * The same schema built with zod's own `$ZodObject`, `$ZodOptional` and `$ZodNever`, as src/schema.ts
 * built it until issue 32; its checks (`$ZodCustom`) are the very same instances.
 */
function reference(schema: z.Schema): z.Schema {
  const def = schema._zod.def as {
    type: string;
    shape?: Record<string, z.Schema>;
    strict?: true;
    innerType?: z.Schema;
  };
  let zod = references.get(schema);
  if (zod) return zod;
  if (def.type === 'optional') zod = new core.$ZodOptional({ type: 'optional', innerType: reference(def.innerType!) });
  else if (def.type === 'object') {
    const shape = Object.fromEntries(Object.entries(def.shape!).map(([key, field]) => [key, reference(field)]));
    const catchall = def.strict ? { catchall: new core.$ZodNever({ type: 'never' }) } : {};
    zod = new core.$ZodObject({ type: 'object', shape, ...catchall });
  } else zod = schema;
  references.set(schema, zod);
  return zod;
}

/** zod's own verdict (what the SDK used until issue 32): safeParse of zod's own types, with each issue's input. */
function zodVerdict(schema: z.Schema, value: unknown) {
  const result = core.safeParse(reference(schema), value, { reportInput: true });
  if (result.success) return { data: result.data };
  return {
    issues: result.error.issues.map((i) => ({
      code: i.code,
      path: i.path,
      message: i.message,
      input: i.input,
      expected: (i as { expected?: unknown }).expected,
      keys: (i as { keys?: unknown }).keys,
    })),
  };
}

/** The runner's verdict, as src/schema.ts and src/validate.ts read it. */
function runnerVerdict(schema: z.Schema, value: unknown) {
  const result = z.run(schema, value);
  if (!result.issues.length) return { data: result.value };
  return {
    issues: result.issues.map((i) => ({
      code: i.code,
      path: i.path ?? [],
      message: z.message(i),
      input: i.input,
      expected: (i as { expected?: unknown }).expected,
      keys: (i as { keys?: unknown }).keys,
    })),
  };
}

const schemas: [string, z.Schema][] = [
  ...(Object.entries(options) as [string, unknown][]).filter(
    (entry): entry is [string, z.Schema] => typeof entry[1] === 'object' && entry[1] !== null && '_zod' in entry[1],
  ),
  ...Object.entries(hostMessageSchemas).map(([k, s]): [string, z.Schema] => [`host ${k}`, s]),
  ...Object.entries(serviceMessageSchemas).map(([k, s]): [string, z.Schema] => [`service ${k}`, s]),
  ['hello', helloSchema],
  ['connect', connectSchema],
];

test('the SDK’s object and optional types are its own zod types, not zod’s', () => {
  const optional = z.optional(z.custom());
  const object = z.strictObject({ a: optional });
  assert.equal(object._zod.constr.name, '$VideoPluginObject');
  assert.equal(optional._zod.constr.name, '$VideoPluginOptional');
  assert.ok(object._zod.traits.has('$ZodType') && !(object instanceof core.$ZodObject));
  assert.ok(!(optional instanceof core.$ZodOptional));
});

test('the runner and the SDK’s own types give what zod’s safeParse of zod’s types gives: every issue and every parsed value, on many inputs', (t) => {
  assert.ok(schemas.length >= 20, `only ${schemas.length} schemas found`);
  let compared = 0;
  let failing = 0;
  for (const [name, schema] of schemas) {
    for (const value of inputsFor(schema)) {
      const expected = zodVerdict(schema, value);
      assert.deepEqual(runnerVerdict(schema, value), expected, `${name}: ${String(value)}`);
      if (expected.issues) failing++;
      compared++;
    }
  }
  t.diagnostic(`${schemas.length} schemas, ${compared} inputs, ${failing} of them failing`);
  assert.ok(compared > 2000 && failing > 1000, `${compared} inputs, ${failing} failing`);
});

test('parse() keeps its messages: the field named, what to do said', () => {
  const error = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return { name: (e as Error).name, message: (e as Error).message, data: (e as { data?: unknown }).data };
    }
    assert.fail('no error');
  };
  const environment = error(() => parse(options.pluginOptionsSchema, { environment: 'dev' }, 'options'));
  assert.equal(environment.name, 'InvalidParameterError');
  assert.equal(environment.message, 'options.environment must be one of "prod", "demo", got "dev".');
  assert.deepEqual(environment.data, { field: 'options.environment' });
  const spelled = error(() => parse(options.signalOptionsSchema, { signl: 1, other: 2 }, 'options'));
  assert.equal(spelled.message, 'options has unknown keys "signl", "other": remove it or fix the spelling.');
  assert.deepEqual(spelled.data, { field: 'options' });
  const timeout = error(() => parse(options.openEditorOptionsSchema, { timeout: -1 }, 'options'));
  assert.equal(timeout.message, 'options.timeout must be a number of milliseconds, > 0 and <= 600000, got -1.');
  assert.deepEqual(timeout.data, { field: 'options.timeout' });
  const notObject = error(() => parse(options.signalOptionsSchema, 'x', 'options'));
  assert.equal(notObject.message, 'options must be an object, got "x".');
});
