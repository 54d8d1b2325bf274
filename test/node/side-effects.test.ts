// A partner who imports one thing pays for that thing, in every bundler (issue 32). Rollup proves
// top-level calls pure and drops what is unused; esbuild (and the tools built on it) cannot, unless
// the call is annotated: a top-level side effect in a browser module — a zod schema built at the
// top level of a module the Plugin imports, say — then costs every esbuild partner its bytes
// (2.3 kB gzip once, from `wire/api.ts`). So: each export of `video-plugin`, alone, and each
// browser entry whole, bundled by esbuild `--minify` must hold no module that rollup's bundle of the
// same import leaves out, and no module may weigh much more there than in rollup's bundle.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { RollupCache } from 'rollup';
import { LIT, esbuildBundle, rollupBundle } from '../../scripts/bundle.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = `${root}dist/`;
const missing = !existsSync(`${dist}index.js`) ? 'dist/ is missing: run `npm run build` first (npm test does)' : false;

/** A module's name in both bundlers' reports: `dist/options.js`, `zod/v4/core/schemas.js`. */
const name = (path: string) => path.replace(/^.*node_modules\//, '').replace(root, '');

/** The modules esbuild --bundle --minify puts into the bundle of `code`, with their bytes (scripts/bundle.mjs, as `npm run size`). */
async function esbuildModules(code: string): Promise<Map<string, number>> {
  const { inputs } = await esbuildBundle(code, { external: LIT });
  return new Map(
    Object.entries(inputs)
      .filter(([, bytes]) => bytes > 0)
      .map(([path, bytes]) => [name(path), bytes]),
  );
}

/** The modules rollup keeps for `code` (node-resolve, tree shaking as rollup.config.mjs), with their rendered bytes. */
let rollupCache: RollupCache | undefined;
async function rollupModules(code: string): Promise<Map<string, number>> {
  // The modules parsed once for every import checked.
  const { modules, cache } = await rollupBundle(code, { external: LIT, cache: rollupCache });
  rollupCache = cache;
  return new Map(
    Object.entries(modules)
      .filter(([, info]) => info.renderedLength > 0)
      .map(([path, info]) => [name(path), info.renderedLength]),
  );
}

/** What esbuild keeps beyond rollup: modules rollup drops, and modules far bigger than rollup's (unminified!) rendering. */
async function extra(code: string): Promise<string[]> {
  const [esbuilt, rolled] = await Promise.all([esbuildModules(code), rollupModules(code)]);
  const problems: string[] = [];
  for (const [module, bytes] of esbuilt) {
    const kept = rolled.get(module);
    if (kept === undefined) problems.push(`${module} (${bytes} bytes minified; rollup drops it)`);
    else if (bytes > kept + 200) problems.push(`${module} (${bytes} bytes minified; rollup keeps ${kept} unminified)`);
  }
  return problems;
}

test(
  'each export of video-plugin, imported alone, costs an esbuild partner no module that rollup drops',
  { skip: missing, timeout: 120_000 },
  async () => {
    const index = (await import(`${dist}index.js`)) as Record<string, unknown>;
    const names = Object.keys(index);
    assert.ok(names.includes('Plugin') && names.includes('SERVICE_URLS') && names.length > 20, names.join());
    const failures: string[] = [];
    for (const exported of names) {
      const problems = await extra(`export { ${exported} } from ${JSON.stringify(`${dist}index.js`)};`);
      if (problems.length) failures.push(`export { ${exported} }: ${problems.join(', ')}`);
    }
    assert.deepEqual(
      failures,
      [],
      'a browser module has a top-level side effect esbuild cannot drop: annotate it (/* @__PURE__ */, ' +
        '/* @__NO_SIDE_EFFECTS__ */ on the function) or move it out of the modules the Plugin imports',
    );
  },
);

test('each browser entry, whole, costs an esbuild partner no module that rollup drops', { skip: missing }, async () => {
  for (const entry of ['index.js', 'element/index.js', 'diagnose/index.js']) {
    assert.deepEqual(await extra(`export * from ${JSON.stringify(`${dist}${entry}`)};`), [], entry);
  }
});

test(
  'the check can fail: a zod schema built at the top level of an imported module is caught',
  { skip: missing },
  async () => {
    // What wire/api.ts did until issue 32: zod/mini schemas beside the constants the Plugin imports.
    const problems = await extra(
      `import * as z from 'zod/mini'; const account = z.object({ id: z.string() }); export const A = 1;`,
    );
    assert.ok(
      problems.some((p) => p.startsWith('zod/')),
      problems.join(),
    );
  },
);
