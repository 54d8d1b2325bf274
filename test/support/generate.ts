/**
 * Seeded generators of wrong values, per kind of field, for the bad-input tests. A fixed seed makes
 * every failure reproducible: the label of each value names the seed and the draw.
 */
import { mulberry32 } from './random.js';

/** Random draws from one seeded stream. */
export class Random {
  readonly #next: () => number;
  constructor(readonly seed: number) {
    this.#next = mulberry32(seed);
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** A string of `length` characters from `alphabet`. */
  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_:. /?#%'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
  /** A plausible near miss of `word`: one letter dropped, doubled, swapped or its case changed. */
  typo(word: string): string {
    const i = this.int(word.length);
    switch (this.int(4)) {
      case 0:
        return word.slice(0, i) + word.slice(i + 1);
      case 1:
        return word.slice(0, i) + word[i] + word.slice(i);
      case 2:
        return word.slice(0, i) + (word[i + 1] ?? '') + word[i] + word.slice(i + 2);
      default:
        return word === word.toUpperCase() ? word.toLowerCase() : word.toUpperCase();
    }
  }
}

/** One megabyte of text: the "huge string" every string field must refuse without echoing it. */
export const HUGE = 'x'.repeat(1024 * 1024);

/** What a field accepts; the generator makes values that it does not. */
export type FieldSpec =
  /** `orFunction`: a function is right too (a token, or the function that returns one). */
  | { kind: 'string'; min: number; max: number; orFunction?: true }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'numberLiteral'; values: readonly number[] }
  | { kind: 'timeout'; max: number }
  | { kind: 'boolean' }
  | { kind: 'url' }
  | { kind: 'function' }
  | { kind: 'element' }
  | { kind: 'object'; keys: readonly string[] };

/** A wrong value and a short, reproducible description of it. */
export interface Wrong {
  label: string;
  value: unknown;
  /** For an unknown key: the key the message must name. */
  unknownKey?: string;
}

/** Values of the wrong type for anything that is not `except` (a `typeof` name). */
function wrongTypes(random: Random, except: string): Wrong[] {
  const n = random.int(1_000_000) - 500_000;
  const all: [string, string, unknown][] = [
    ['number', `number ${n}`, n],
    ['number', 'NaN', NaN],
    ['number', 'Infinity', Infinity],
    ['number', '-Infinity', -Infinity],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['null', 'null', null],
    ['array', 'an empty array', []],
    ['array', 'an array of one string', [random.string(8)]],
    ['object', 'an empty object', {}],
    ['object', 'a String object', new String(random.string(6))],
    ['function', 'a function', () => {}],
    ['symbol', 'a symbol', Symbol('bad')],
    ['bigint', 'a bigint', BigInt(n)],
    ['string', `string ${JSON.stringify(String(n))}`, String(n)],
  ];
  return all.filter(([type]) => type !== except).map(([, label, value]) => ({ label, value }));
}

/**
 * Wrong values for a field described by `spec`: wrong types, out-of-range values, near misses of
 * the allowed ones and random strings. `required` adds `undefined`; `nullable` leaves out `null`.
 */
export function wrongValues(
  spec: FieldSpec,
  random: Random,
  { required = false, nullable = false }: { required?: boolean; nullable?: boolean } = {},
): Wrong[] {
  const out: Wrong[] = [];
  const add = (label: string, value: unknown, unknownKey?: string) =>
    out.push(unknownKey === undefined ? { label, value } : { label, value, unknownKey });
  switch (spec.kind) {
    case 'string': {
      out.push(...wrongTypes(random, 'string').filter(({ value }) => !spec.orFunction || typeof value !== 'function'));
      if (spec.min > 0) add('an empty string', '');
      const over = spec.max + 1 + random.int(spec.max);
      add(`a string of ${over} characters`, random.string(over));
      add('a 1 MB string', HUGE);
      break;
    }
    case 'enum': {
      out.push(...wrongTypes(random, 'string'));
      const word = random.pick(spec.values);
      const misses = [
        word.toUpperCase() === word ? word.toLowerCase() : word.toUpperCase(),
        ` ${word}`,
        `${word} `,
        random.typo(word),
        random.string(1 + random.int(12)),
        '',
        HUGE,
      ];
      for (const miss of misses) {
        if (!spec.values.includes(miss)) add(miss === HUGE ? 'a 1 MB string' : `string ${JSON.stringify(miss)}`, miss);
      }
      break;
    }
    case 'numberLiteral': {
      out.push(...wrongTypes(random, 'number').filter(({ value }) => typeof value !== 'string'));
      const value = random.pick(spec.values);
      const misses = [value - 1, value + 1, value + 0.5, -value, 0, value * 1000, NaN, Infinity, -Infinity];
      for (const miss of misses) if (!spec.values.includes(miss)) add(`number ${miss}`, miss);
      add(`string "${value}"`, String(value));
      add(`Number object ${value}`, new Number(value));
      break;
    }
    case 'timeout': {
      out.push(...wrongTypes(random, 'number'));
      const negative = -(1 + random.int(100_000));
      const tooBig = spec.max + 1 + random.int(1_000_000);
      for (const miss of [0, -0, -1, negative, tooBig, NaN, Infinity, -Infinity, -Number.MIN_VALUE]) {
        add(`number ${Object.is(miss, -0) ? '-0' : miss}`, miss);
      }
      add('string "1000"', '1000');
      break;
    }
    case 'boolean':
      out.push(...wrongTypes(random, 'boolean'));
      add('string "true"', 'true');
      add('string "false"', 'false');
      add('number 1', 1);
      add('number 0', 0);
      add('Boolean object', new Boolean(false));
      break;
    case 'url': {
      out.push(...wrongTypes(random, 'string'));
      const path = random.string(1 + random.int(20), 'abcdefghij0123456789/');
      const misses = [
        `javascript:alert(${random.int(100)})`,
        `data:text/html,${path}`,
        `${random.pick(['ftp', 'file', 'ws', 'mailto', 'blob'])}://example.test/${path}`,
        `/${path}`,
        `//example.test/${path}`,
        'http://',
        `not a url ${random.string(5)}`,
        '',
        `http://example.test/${HUGE}`,
      ];
      for (const miss of misses) add(miss.length > 100 ? 'a 1 MB http URL' : `string ${JSON.stringify(miss)}`, miss);
      break;
    }
    case 'function':
      out.push(...wrongTypes(random, 'function'));
      add('string "function () {}"', 'function () {}');
      add('an object with a call method', { call: () => {} });
      break;
    case 'element':
      out.push(...wrongTypes(random, 'object').filter(({ value }) => typeof value !== 'object' || value === null));
      add('a selector string', `#${random.string(6, 'abcdef')}`);
      add('a plain object', { tagName: 'DIV', appendChild: () => {} });
      add('the document', document);
      add('a text node', document.createTextNode('x'));
      add('an SVG element', document.createElementNS('http://www.w3.org/2000/svg', 'svg'));
      add('an array of one element', [document.createElement('div')]);
      break;
    case 'object': {
      out.push(...wrongTypes(random, 'object').filter(({ value }) => typeof value !== 'object' || value === null));
      add('an empty array', []);
      add('a string', random.string(10));
      // Unknown keys: random ones, near misses of the real ones, and prototype-shaped ones.
      const keys = [
        `x${random.string(1 + random.int(10), 'abcdefghijklmnopqrstuvwxyz')}`,
        ...(spec.keys.length ? [random.typo(random.pick(spec.keys)), random.typo(random.pick(spec.keys))] : []),
        'constructor',
        '__proto__',
      ].filter((key) => !spec.keys.includes(key));
      for (const key of new Set(keys)) {
        // JSON.parse makes "__proto__" an own key, the way data from a server would carry it.
        add(`an object with unknown key ${JSON.stringify(key)}`, JSON.parse(JSON.stringify({ [key]: 1 })), key);
      }
      break;
    }
  }
  if (required) add('undefined', undefined);
  return nullable ? out.filter(({ value }) => value !== null) : out;
}
