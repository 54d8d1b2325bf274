/**
 * The odd values the fuzzer (test/support/fuzz.ts) puts in a message's fields, each with the type
 * it has once cloned (none when the browser cannot clone it), and which kind of field accepts it:
 * the generator's own knowledge of the protocol's schemas, independent of the code under test.
 */
/** The kind of value a field accepts, as the protocol's schemas define it. */
export type FieldKind = { exact: string | number } | 'string' | 'number' | 'unknown' | 'object?' | 'error';

/** The type a value has once cloned; decides which fields accept it. */
type CloneType = 'string' | 'finite' | 'nonfinite' | 'bigint' | 'boolean' | 'null' | 'undefined' | 'object' | 'array';

interface Odd {
  name: string;
  /** `undefined` when the browser cannot clone it. */
  type: CloneType | undefined;
  make: () => unknown;
}

/** About 1 MB. */
export const HUGE = 'A'.repeat(1 << 20);

/** `depth` levels of `{ a: { a: … } }`; the browser refuses to clone a few thousand levels. */
export function nested(depth: number): unknown {
  let value: unknown = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/**
 * Whether this engine's serializer takes 10,000 levels of nesting: the HTML spec sets no limit,
 * Chromium refuses it (DataCloneError) and Firefox and WebKit clone it. `structuredClone` is the
 * serializer postMessage uses, so the label follows the engine that runs the test.
 */
export const DEEP_NESTING_POSTABLE = (() => {
  try {
    structuredClone(nested(10_000));
    return true;
  } catch {
    return false;
  }
})();

export const ODD_VALUES: Odd[] = [
  { name: 'null', type: 'null', make: () => null },
  { name: 'undefined', type: 'undefined', make: () => undefined },
  { name: 'true', type: 'boolean', make: () => true },
  { name: '0', type: 'finite', make: () => 0 },
  { name: '-0', type: 'finite', make: () => -0 },
  { name: '1', type: 'finite', make: () => 1 },
  { name: '-1', type: 'finite', make: () => -1 },
  { name: '1.5', type: 'finite', make: () => 1.5 },
  { name: '2^53', type: 'finite', make: () => 2 ** 53 },
  { name: 'MAX_VALUE', type: 'finite', make: () => Number.MAX_VALUE },
  { name: 'NaN', type: 'nonfinite', make: () => NaN },
  { name: 'Infinity', type: 'nonfinite', make: () => Infinity },
  { name: '-Infinity', type: 'nonfinite', make: () => -Infinity },
  { name: 'BigInt', type: 'bigint', make: () => 10n },
  { name: 'huge BigInt', type: 'bigint', make: () => -(2n ** 100n) },
  { name: 'empty string', type: 'string', make: () => '' },
  { name: 'NUL', type: 'string', make: () => '\u0000' },
  { name: 'lone surrogate', type: 'string', make: () => '\ud800' },
  { name: 'astral', type: 'string', make: () => '𝒳🎬' },
  { name: '"__proto__"', type: 'string', make: () => '__proto__' },
  { name: '"constructor"', type: 'string', make: () => 'constructor' },
  { name: 'markup', type: 'string', make: () => '<img src=x onerror=alert(1)>' },
  { name: 'Date', type: 'object', make: () => new Date(0) },
  { name: 'invalid Date', type: 'object', make: () => new Date(NaN) },
  { name: 'Map', type: 'object', make: () => new Map<unknown, unknown>([[1, { t: 'ok' }]]) },
  { name: 'Set', type: 'object', make: () => new Set(['hello']) },
  { name: 'Blob', type: 'object', make: () => new Blob(['forged']) },
  { name: 'File', type: 'object', make: () => new File(['forged'], 'forged.txt') },
  { name: 'Uint8Array', type: 'object', make: () => new Uint8Array([1, 2, 3]) },
  { name: 'Float64Array', type: 'object', make: () => new Float64Array([NaN, -0]) },
  { name: 'ArrayBuffer', type: 'object', make: () => new ArrayBuffer(16) },
  { name: 'DataView', type: 'object', make: () => new DataView(new ArrayBuffer(4)) },
  { name: 'RegExp', type: 'object', make: () => /forged/gi },
  { name: 'Error', type: 'object', make: () => new TypeError('forged') },
  { name: 'boxed String', type: 'object', make: () => new String('hello') },
  { name: 'boxed Number', type: 'object', make: () => new Number(1) },
  { name: 'empty object', type: 'object', make: () => ({}) },
  { name: 'null-prototype object', type: 'object', make: () => Object.create(null) as object },
  {
    name: 'getter object',
    type: 'object',
    make: () => ({
      get t() {
        return 'ok';
      },
    }),
  },
  { name: 'own __proto__', type: 'object', make: () => JSON.parse('{"__proto__":{"polluted":true}}') as unknown },
  { name: 'constructor.prototype', type: 'object', make: () => ({ constructor: { prototype: { polluted: true } } }) },
  { name: 'empty array', type: 'array', make: () => [] },
  { name: 'sparse array', type: 'array', make: () => [1, , 3] }, // eslint-disable-line no-sparse-arrays
  { name: 'holey array', type: 'array', make: () => new Array(5) },
  { name: 'function', type: undefined, make: () => () => 1 },
  { name: 'Symbol', type: undefined, make: () => Symbol('forged') },
  { name: 'object with a method', type: undefined, make: () => ({ then() {} }) },
  {
    name: 'throwing getter',
    type: undefined,
    make: () => ({
      get t(): string {
        throw new Error('forged getter');
      },
    }),
  },
  { name: 'Proxy', type: undefined, make: () => new Proxy({ t: 'ok' }, {}) },
  { name: 'WeakMap', type: undefined, make: () => new WeakMap() },
];

/** Whether a field of `kind` accepts `value` of `type` once cloned. */
export function accepts(kind: FieldKind, type: CloneType | undefined, value: unknown): boolean {
  if (type === undefined) return false;
  if (typeof kind === 'object') return value === kind.exact;
  switch (kind) {
    case 'string':
      return type === 'string';
    case 'number':
      return type === 'finite';
    case 'unknown':
      return true;
    case 'object?':
      return type === 'object' || type === 'undefined';
    case 'error':
      return false;
  }
}
