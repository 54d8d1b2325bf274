/**
 * A generation's `metadata` checked in full against {@link METADATA_LIMITS}, with an error that names
 * the key at fault, and the generation params as the service side checks them: the studio page
 * (`startVideoGeneration` of the host) and `POST /api/generations` parse with
 * {@link fullGenerationParamsSchema}, so both doors refuse alike. The `Plugin` checks only that
 * `metadata` is a plain object (options.ts): these checks and their messages stay out of every
 * partner's page, the way the idempotency key's form does. No browser module of the SDK imports
 * this one; the service and the page reach it through `video-plugin/internal`.
 */
import * as core from 'zod/v4/core';
import { videoGenerationParamsSchema } from '../options.js';
import { optional, strictObject, type Schema } from '../schema.js';
import { METADATA_LIMITS, type Metadata } from './values.js';

/** What is wrong with some metadata: the key it is at (`[]`: the whole), what to do, and the value at fault. */
export interface MetadataProblem {
  path: string[];
  message: string;
  input: unknown;
}

/** A key in a message: quoted, and cut when long. */
const quote = (key: string) => JSON.stringify(key.length > 50 ? `${key.slice(0, 47)}...` : key);

/**
 * The first thing wrong with `value` as metadata, or `undefined` when it is within
 * {@link METADATA_LIMITS}: a plain object of at most 20 keys of 1 to 40 characters, each value a
 * string of at most 500 characters. Nothing is trimmed or normalised: what passes is echoed as given.
 */
export function metadataProblem(value: unknown): MetadataProblem | undefined {
  const { keys: maxKeys, keyLength, valueLength } = METADATA_LIMITS;
  const proto = typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    return { path: [], message: 'must be an object of string values, e.g. { "orderId": "6735" }', input: value };
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > maxKeys) {
    const extra = keys.length - maxKeys;
    return {
      path: [],
      message: `has ${keys.length} keys, at most ${maxKeys} are allowed: remove ${extra} of them`,
      input: value,
    };
  }
  for (const key of keys) {
    if (key.length < 1 || key.length > keyLength) {
      return {
        path: [],
        message: `has the key ${quote(key)} of ${key.length} characters; keys are 1 to ${keyLength} characters: shorten it`,
        input: value,
      };
    }
    const entry = record[key];
    if (typeof entry !== 'string') {
      return {
        path: [key],
        message: 'must be a string (metadata values are strings: convert numbers and booleans with String())',
        input: entry,
      };
    }
    if (entry.length > valueLength) {
      return {
        path: [key],
        message: `must be a string of at most ${valueLength} characters (it has ${entry.length})`,
        input: entry,
      };
    }
  }
  return undefined;
}

/**
 * A zod type (zod core's `$constructor`, as src/schema.ts builds the SDK's own) that raises
 * {@link metadataProblem}'s problem as one issue at its key: the containing object prefixes its own
 * key, so the error names `…metadata.orderId`. Passes the object through as it is.
 */
const $VideoPluginMetadata = /* @__PURE__ */ core.$constructor<core.$ZodType, core.$ZodTypeDef>(
  '$VideoPluginMetadata',
  (inst, def) => {
    (core.$ZodType.init as (inst: core.$ZodType, def: core.$ZodTypeDef) => void)(inst, def);
    inst._zod.parse = (payload) => {
      const problem = metadataProblem(payload.value);
      if (problem) payload.issues.push({ code: 'custom', ...problem, inst });
      return payload;
    };
  },
);

/** Metadata within {@link METADATA_LIMITS}; the issue names the key at fault. */
export const metadataSchema: Schema<Metadata> = /* @__PURE__ */ new $VideoPluginMetadata({ type: 'custom' }) as never;

/**
 * The params of `startVideoGeneration` as the studio page and `POST /api/generations` check them:
 * the `Plugin`'s schema, with `metadata` checked in full.
 */
export const fullGenerationParamsSchema = /* @__PURE__ */ strictObject({
  ...videoGenerationParamsSchema._zod.def.shape,
  metadata: optional(metadataSchema),
});
