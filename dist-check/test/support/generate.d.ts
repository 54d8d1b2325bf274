/** Random draws from one seeded stream. */
export declare class Random {
  #private;
  readonly seed: number;
  constructor(seed: number);
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  /** A string of `length` characters from `alphabet`. */
  string(length: number, alphabet?: string): string;
  /** A plausible near miss of `word`: one letter dropped, doubled, swapped or its case changed. */
  typo(word: string): string;
}
/** One megabyte of text: the "huge string" every string field must refuse without echoing it. */
export declare const HUGE: string;
/** What a field accepts; the generator makes values that it does not. */
export type FieldSpec =
  | {
      kind: 'string';
      min: number;
      max: number;
    }
  | {
      kind: 'enum';
      values: readonly string[];
    }
  | {
      kind: 'numberLiteral';
      values: readonly number[];
    }
  | {
      kind: 'timeout';
      max: number;
    }
  | {
      kind: 'boolean';
    }
  | {
      kind: 'url';
    }
  | {
      kind: 'function';
    }
  | {
      kind: 'element';
    }
  | {
      kind: 'object';
      keys: readonly string[];
    };
/** A wrong value and a short, reproducible description of it. */
export interface Wrong {
  label: string;
  value: unknown;
  /** For an unknown key: the key the message must name. */
  unknownKey?: string;
}
/**
 * Wrong values for a field described by `spec`: wrong types, out-of-range values, near misses of
 * the allowed ones and random strings. `required` adds `undefined`; `nullable` leaves out `null`.
 */
export declare function wrongValues(
  spec: FieldSpec,
  random: Random,
  {
    required,
    nullable,
  }?: {
    required?: boolean;
    nullable?: boolean;
  },
): Wrong[];
//# sourceMappingURL=generate.d.ts.map
