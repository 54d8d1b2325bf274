// `npm run size`: what each entry costs a partner's page, and a check against the budgets of
// DESIGN §6. Bundles the built ESM in dist/ with rollup + node-resolve + terser, exactly as
// rollup.config.mjs does for the CDN bundle, then measures minified, gzip (level 9) and brotli
// (quality 11) bytes. 1 kB = 1000 bytes. Exits 1 when a budget is exceeded or an entry is missing.
//
//   node scripts/size.mjs              table + budget check (run `npm run build` first)
//   node scripts/size.mjs --modules    also: which modules take the bytes of each bundle
//   node scripts/size.mjs --json FILE  also: write the figures as JSON
//   node scripts/size.mjs --dist DIR   measure another tsc output directory than dist/
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { minify } from 'terser';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const dist = resolve(root, option('--dist') ?? 'dist');
const showModules = args.includes('--modules');
const jsonFile = option('--json');

/** Budgets of DESIGN §6, in bytes of gzip (1 kB = 1000 bytes). */
const BUDGETS = { plugin: 12_000, cdn: 20_000 };
/** The same minifier settings as rollup.config.mjs. */
const TERSER = { ecma: 2022, module: true, compress: { passes: 2 }, format: { comments: false } };
/** What `video-plugin/element` leaves to the partner's own copy of Lit. */
const LIT = /^(lit|lit-html|lit-element|@lit\/[^/]+|@lit-labs\/[^/]+)(\/.*)?$/;

const VIRTUAL = '\0size-entry';

/**
 * Bundles `code` (an ESM entry that re-exports what a partner imports) the way rollup.config.mjs
 * does, and returns the minified code with the rendered size of each module before minification.
 */
async function bundle(code, { external } = {}) {
  const build = await rollup({
    input: VIRTUAL,
    external: external ? (id) => external.test(id) : undefined,
    plugins: [
      {
        name: 'size-entry',
        resolveId: (id) => (id === VIRTUAL ? VIRTUAL : null),
        load: (id) => (id === VIRTUAL ? code : null),
      },
      nodeResolve({ browser: true, rootDir: root, modulePaths: [resolve(root, 'node_modules')] }),
    ],
    onwarn(warning, warn) {
      // zod's sources carry comments rollup cannot place; they change nothing in the output.
      if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  // One unminified pass to see each module's share, one minified pass for the figures.
  const plain = (await build.generate({ format: 'es' })).output[0];
  const min = (await build.generate({ format: 'es', plugins: [terser(TERSER)] })).output[0];
  await build.close();
  return { code: min.code, modules: plain.modules };
}

function measure(code) {
  const bytes = Buffer.from(code);
  return {
    min: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
}

/** Names a module for the breakdown: `zod/v4/core/schemas.js`, `src/plugin.js`… */
function moduleName(id) {
  const fromDist = relative(dist, id);
  if (!fromDist.startsWith('..')) return `src/${fromDist}`;
  const path = relative(root, id);
  const nm = path.lastIndexOf('node_modules/');
  return nm === -1 ? path : path.slice(nm + 'node_modules/'.length);
}

/**
 * Which modules take the bytes: each module's rendered code minified on its own (top-level names
 * kept, so the sum is a little above the bundle's) and its share of the bundle's gzip size.
 */
async function breakdown(modules, total) {
  const rows = [];
  for (const [id, info] of Object.entries(modules)) {
    if (!info.code) continue;
    const out = await minify(info.code, { ...TERSER, module: false, compress: { unused: false } });
    rows.push({ module: moduleName(id), rendered: info.renderedLength, min: out.code?.length ?? 0 });
  }
  const sum = rows.reduce((s, r) => s + r.min, 0) || 1;
  for (const row of rows) row.gzipShare = Math.round((row.min / sum) * total.gzip);
  rows.sort((a, b) => b.min - a.min);
  return rows;
}

const kB = (bytes) => (bytes === undefined ? '—' : `${(bytes / 1000).toFixed(2)} kB`);

const entries = [
  {
    name: 'video-plugin (Plugin)',
    what: 'import { Plugin } from "video-plugin": Plugin, validation, wire, zod/mini',
    budget: BUDGETS.plugin,
    file: 'index.js',
    entry: (file) => `export { Plugin } from ${JSON.stringify(file)};`,
  },
  {
    name: 'video-plugin (all exports)',
    what: 'import * from "video-plugin": the above + error classes + constants',
    file: 'index.js',
    entry: (file) => `export * from ${JSON.stringify(file)};`,
  },
  {
    name: 'video-plugin/element',
    what: 'the element and the Plugin, without Lit (the partner bundles Lit once)',
    file: 'element/index.js',
    entry: (file) => `export * from ${JSON.stringify(file)};`,
    external: LIT,
  },
  {
    name: 'video-plugin/diagnose',
    what: 'import { diagnose } from "video-plugin/diagnose": its own entry, loaded only where it is called',
    file: 'diagnose/index.js',
    entry: (file) => `export * from ${JSON.stringify(file)};`,
  },
  {
    name: 'CDN classic script',
    what: 'dist/cdn/video-plugin.min.js as built (IIFE): element + embed + Plugin + Lit + zod/mini',
    budget: BUDGETS.cdn,
    prebuilt: 'cdn/video-plugin.min.js',
  },
  {
    name: 'CDN ES module',
    what: 'dist/cdn/video-plugin.module.min.js as built: the same, with the exports',
    budget: BUDGETS.cdn,
    prebuilt: 'cdn/video-plugin.module.min.js',
  },
  {
    name: 'CDN diagnose module',
    what: 'dist/cdn/video-plugin-diagnose.module.min.js as built: diagnose() for pages without a build step',
    prebuilt: 'cdn/video-plugin-diagnose.module.min.js',
  },
];

const results = [];
let failed = false;
for (const entry of entries) {
  const path = resolve(dist, entry.prebuilt ?? entry.file);
  const result = { name: entry.name, what: entry.what, budgetGzip: entry.budget ?? null };
  results.push(result);
  if (!existsSync(path)) {
    result.missing = relative(root, path);
    if (entry.budget) failed = true;
    continue;
  }
  if (entry.prebuilt) {
    Object.assign(result, measure(readFileSync(path, 'utf8')));
  } else {
    const { code, modules } = await bundle(entry.entry(path), { external: entry.external });
    Object.assign(result, measure(code));
    if (showModules) result.modules = await breakdown(modules, result);
  }
  if (entry.budget && result.gzip > entry.budget) {
    result.over = result.gzip - entry.budget;
    failed = true;
  }
}

const header = ['entry', 'min', 'gzip', 'brotli', 'budget (gzip)', ''];
const rows = results.map((r) => [
  r.name,
  r.missing ? 'missing' : kB(r.min),
  r.missing ? '' : kB(r.gzip),
  r.missing ? '' : kB(r.brotli),
  r.budgetGzip ? `≤ ${kB(r.budgetGzip)}` : '',
  r.missing
    ? `${r.missing} not found${r.budgetGzip ? ' (FAIL)' : ''}`
    : r.over
      ? `FAIL: ${kB(r.over)} over`
      : r.budgetGzip
        ? 'ok'
        : '',
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) =>
  cells
    .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
    .join('  ')
    .trimEnd();
console.log(
  `size: rollup + node-resolve + terser (as rollup.config.mjs), gzip -9, brotli q11; 1 kB = 1000 bytes; from ${relative(root, dist) || '.'}/`,
);
console.log(line(header));
for (const row of rows) console.log(line(row));

if (showModules) {
  for (const r of results.filter((x) => x.modules)) {
    console.log(
      `\n${r.name}: minified bytes per module (each minified alone), and its share of the ${kB(r.gzip)} gzip`,
    );
    for (const m of r.modules) {
      console.log(`  ${String(m.min).padStart(7)}  ~${kB(m.gzipShare).padStart(9)} gzip  ${m.module}`);
    }
  }
}

if (jsonFile) {
  mkdirSync(dirname(resolve(jsonFile)), { recursive: true });
  writeFileSync(
    resolve(jsonFile),
    `${JSON.stringify({ date: new Date().toISOString(), unit: 'bytes', results }, null, 2)}\n`,
  );
}

if (results.some((r) => r.missing)) console.log('\nsize: an entry is missing; run `npm run build` first.');
if (failed) {
  console.log('size: FAIL — a budget of DESIGN §6 is exceeded or a budgeted entry is missing.');
  process.exit(1);
}
console.log('size: every budget holds.');
