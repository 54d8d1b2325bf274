// How a partner's bundler builds an import of video-plugin, in one place for the two that ask:
// `npm run size` (scripts/size.mjs: what each entry costs, against the budgets) and the side-effect
// check (test/node/side-effects.test.ts: esbuild keeps no module that rollup drops). Both bundle a
// one-line ESM entry given as code (`export { Plugin } from "…/dist/index.js";`), so both measure
// the same build:
// - rollup + node-resolve (browser field), as rollup.config.mjs does; terser with its settings when
//   `minify` is set;
// - esbuild `--bundle --minify --format=esm --platform=browser`.
// `external`: a RegExp of imports left to the partner (Lit, for `video-plugin/element`).
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The minifier settings of the CDN files (rollup.config.mjs takes them from here). No `sequences`:
 * statements joined by commas gzip worse than the statements themselves (0.03 kB gzip of the CDN
 * ES module with a third pass, 0.02 of the classic script).
 */
export const TERSER = {
  ecma: 2022,
  module: true,
  compress: { passes: 3, sequences: false },
  format: { comments: false },
};
/** What `video-plugin/element` leaves to the partner's own copy of Lit. */
export const LIT = /^(lit|lit-html|lit-element|@lit\/[^/]+|@lit-labs\/[^/]+)(\/.*)?$/;

let entries = 0;

/**
 * Bundles `code` with rollup the way rollup.config.mjs does. Returns the code (minified by terser
 * with `minify`), each module's rendered code and length before minification, and rollup's cache
 * (pass it back as `cache` to parse the modules once for many entries).
 *
 * @param {string} code an ESM entry
 * @param {{ external?: RegExp, minify?: boolean, cache?: import('rollup').RollupCache }} [options]
 * @returns {Promise<{ code: string, modules: Record<string, import('rollup').RenderedModule>, cache: import('rollup').RollupCache | undefined }>}
 */
export async function rollupBundle(code, { external, minify = false, cache } = {}) {
  // A new id per entry: rollup's cache must never hold an entry.
  const entry = `\0bundle-entry-${entries++}`;
  const bundle = await rollup({
    input: entry,
    cache,
    external: external ? (id) => external.test(id) : undefined,
    plugins: [
      { name: 'entry', resolveId: (id) => (id === entry ? id : null), load: (id) => (id === entry ? code : null) },
      nodeResolve({ browser: true, rootDir: root, modulePaths: [resolve(root, 'node_modules')] }),
    ],
    onwarn(warning, warn) {
      // zod's sources carry comments rollup cannot place; they change nothing in the output.
      if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  try {
    const plain = (await bundle.generate({ format: 'es' })).output[0];
    const modules = Object.fromEntries(Object.entries(plain.modules).filter(([id]) => id !== entry));
    const out = minify
      ? (await bundle.generate({ format: 'es', plugins: [terser(TERSER)] })).output[0].code
      : plain.code;
    return { code: out, modules, cache: bundle.cache };
  } finally {
    await bundle.close();
  }
}

/**
 * esbuild `--bundle --minify --format=esm` of `code`. Returns the code and, from esbuild's
 * metafile, the minified bytes each input file (`<stdin>` excluded) takes in it.
 *
 * @param {string} code an ESM entry
 * @param {{ external?: RegExp }} [options]
 * @returns {Promise<{ code: string, inputs: Record<string, number> }>}
 */
export async function esbuildBundle(code, { external } = {}) {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    nodePaths: [resolve(root, 'node_modules')],
    plugins: external
      ? [
          {
            name: 'external',
            setup: (b) => b.onResolve({ filter: external }, (a) => ({ path: a.path, external: true })),
          },
        ]
      : [],
  });
  const inputs = Object.values(result.metafile.outputs)[0].inputs;
  return {
    code: result.outputFiles[0].text,
    inputs: Object.fromEntries(
      Object.entries(inputs)
        .filter(([path]) => path !== '<stdin>')
        .map(([path, input]) => [path, input.bytesInOutput]),
    ),
  };
}
