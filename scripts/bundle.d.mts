// Types of scripts/bundle.mjs, for the TypeScript test that imports it (test/node/side-effects.test.ts).
import type { RenderedModule, RollupCache } from 'rollup';

export const TERSER: Record<string, unknown>;
export const LIT: RegExp;
export function rollupBundle(
  code: string,
  options?: { external?: RegExp; minify?: boolean; cache?: RollupCache },
): Promise<{ code: string; modules: Record<string, RenderedModule>; cache: RollupCache | undefined }>;
export function esbuildBundle(
  code: string,
  options?: { external?: RegExp },
): Promise<{ code: string; inputs: Record<string, number> }>;
