// `npm run size`: what each entry costs a partner's page, and a check against the budgets below
// (the goals are in BENCHMARKS.md, "Sizes"). Bundles the built ESM in dist/ for production the way partners' bundlers do, each with
// its defaults (issue 32):
// - rollup + node-resolve + terser, exactly as rollup.config.mjs does for the CDN bundle;
// - esbuild `--bundle --minify --format=esm` (esbuild-based tools and many dev servers);
// - webpack 5, `mode: 'production'` (its terser, its tree shaking, package.json `sideEffects`);
// - Vite's production build (`vite build`, rolldown and its minifier).
// rollup and esbuild bundle a one-line re-export (`export { Plugin } from "…"`); webpack and Vite
// build an app, as a partner does, whose one line hands the import to the page
// (`import { Plugin } from "…"; window.VideoPlugin = { Plugin };`): their app builds drop an
// entry's exports. Then it measures minified, gzip (level 9) and brotli (quality 11) bytes; a budget
// applies to the worst bundler. 1 kB = 1000 bytes. Exits 1 when a budget is exceeded or an entry is
// missing. The CDN files are measured as built.
//
//   node scripts/size.mjs              table + budget check (run `npm run build` first)
//   node scripts/size.mjs --modules    also: which modules take the bytes of each rollup bundle
//   node scripts/size.mjs --json FILE  also: write the figures as JSON
//   node scripts/size.mjs --dist DIR   measure another tsc output directory than dist/
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { minify } from 'terser';
import webpack from 'webpack';
import { build as vite } from 'vite';
import { LIT, TERSER, esbuildBundle, rollupBundle } from './bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const dist = resolve(root, option('--dist') ?? 'dist');
const showModules = args.includes('--modules');
const jsonFile = option('--json');

/**
 * Budgets, in bytes of gzip (1 kB = 1000 bytes), for the worst bundler. Issue 32 took
 * the Plugin from 11.76 kB (rollup; esbuild 14.50) to 10.25, then the features of issues 28 and 29
 * cost about 0.55 kB (Plugin) and 1.2 kB (CDN). Its fourth pass (the element's sheet without Lit's
 * css tag) and issue 31's default error codes leave the Plugin at 10.89 kB (rollup) and 11.33
 * (esbuild, the worst), the CDN ES module at 19.65 and the classic script at 19.55 (BENCHMARKS.md,
 * "Sizes"). The targets (Plugin 10.5 kB in every bundler, CDN 18.7 kB) are not met and what is
 * left is behaviour, not waste: a budget at the target would fail every run. So the budgets follow
 * the sizes down, less than 0.1 kB above them.
 */
const BUDGETS = { plugin: 11_400, cdn: 19_700 };
/** A folder for the entries webpack and Vite build from files; removed at the end. */
const scratch = mkdtempSync(join(tmpdir(), 'video-plugin-size-'));
let entryCount = 0;

/** The app a partner writes, as a file: its one line, the import handed to the page. */
function appEntry(file, names) {
  const path = join(scratch, `entry-${entryCount++}.js`);
  const from = JSON.stringify(file);
  writeFileSync(
    path,
    names
      ? `import { ${names} } from ${from};\nwindow.VideoPlugin = { ${names} };\n`
      : `import * as all from ${from};\nwindow.VideoPlugin = all;\n`,
  );
  return path;
}

/** webpack 5 in production mode, its defaults otherwise, of the partner's app. */
function webpackBundle(file, { external } = {}) {
  return new Promise((done, fail) => {
    webpack(
      {
        mode: 'production',
        context: scratch,
        entry: file,
        output: {
          path: join(scratch, 'webpack'),
          filename: `${relative(scratch, file)}.out.js`,
          // With Lit left to the partner, an ES module that imports it.
          ...(external && { module: true }),
        },
        ...(external && {
          experiments: { outputModule: true },
          externalsType: 'module',
          externals: [({ request }, callback) => callback(null, external.test(request) ? request : undefined)],
        }),
        resolve: { modules: ['node_modules', resolve(root, 'node_modules')] },
        performance: { hints: false },
        infrastructureLogging: { level: 'error' },
      },
      (error, stats) => {
        if (error || stats.hasErrors()) return fail(error ?? new Error(stats.toString('errors-only')));
        const out = join(scratch, 'webpack', `${relative(scratch, file)}.out.js`);
        done(readFileSync(out, 'utf8'));
      },
    );
  });
}

/** Vite's production build (`vite build`) of the partner's app. */
async function viteBundle(file, { external } = {}) {
  const output = await vite({
    configFile: false,
    logLevel: 'silent',
    root: scratch,
    resolve: { preserveSymlinks: false },
    build: {
      write: false,
      emptyOutDir: false,
      rollupOptions: { input: file, external: external ? (id) => external.test(id) : undefined },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  return chunks.map((c) => c.code).join('');
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
    what: 'import { Plugin } from "video-plugin": Plugin, validation, wire, zod core',
    budget: BUDGETS.plugin,
    file: 'index.js',
    names: 'Plugin',
  },
  {
    name: 'video-plugin (all exports)',
    what: 'import * from "video-plugin": the above + error classes + constants',
    file: 'index.js',
  },
  {
    name: 'video-plugin/element',
    what: 'the element and the Plugin, without Lit (the partner bundles Lit once)',
    file: 'element/index.js',
    external: LIT,
  },
  {
    name: 'video-plugin/diagnose',
    what: 'import { diagnose } from "video-plugin/diagnose": its own entry, loaded only where it is called',
    file: 'diagnose/index.js',
  },
  {
    name: 'CDN classic script',
    what: 'dist/cdn/video-plugin.min.js as built (IIFE): element + embed + Plugin + Lit + zod core',
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

/** The bundlers, each building an entry for production with its defaults. */
const BUNDLERS = {
  rollup: (entry, file) => rollupBundle(reexport(entry, file), { external: entry.external, minify: true }),
  esbuild: (entry, file) => esbuildBundle(reexport(entry, file), { external: entry.external }),
  webpack: async (entry, file) => ({
    code: await webpackBundle(appEntry(file, entry.names), { external: entry.external }),
  }),
  vite: async (entry, file) => ({ code: await viteBundle(appEntry(file, entry.names), { external: entry.external }) }),
};
/** `export { Plugin } from "…"`, or `export * from "…"`. */
function reexport(entry, file) {
  return entry.names
    ? `export { ${entry.names} } from ${JSON.stringify(file)};`
    : `export * from ${JSON.stringify(file)};`;
}

const started = Date.now();
const results = [];
let failed = false;
try {
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
      // The figures of the worst bundler (by gzip), and each bundler's.
      result.bundlers = {};
      for (const [name, build] of Object.entries(BUNDLERS)) {
        const { code, modules } = await build(entry, path);
        result.bundlers[name] = measure(code);
        if (modules && showModules) result.modules = await breakdown(modules, result.bundlers[name]);
      }
      const [worst, figures] = Object.entries(result.bundlers).sort(([, a], [, b]) => b.gzip - a.gzip)[0];
      Object.assign(result, figures, { worst });
    }
    if (entry.budget && result.gzip > entry.budget) {
      result.over = result.gzip - entry.budget;
      failed = true;
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const header = ['entry', 'bundler', 'min', 'gzip', 'brotli', 'budget (gzip)', ''];
const verdict = (r) =>
  r.missing
    ? `${r.missing} not found${r.budgetGzip ? ' (FAIL)' : ''}`
    : r.over
      ? `FAIL: ${kB(r.over)} over`
      : r.budgetGzip
        ? 'ok'
        : '';
const rows = results.flatMap((r) => {
  if (r.missing || !r.bundlers) {
    return [
      [
        r.name,
        r.missing ? '' : 'as built',
        r.missing ? 'missing' : kB(r.min),
        r.missing ? '' : kB(r.gzip),
        r.missing ? '' : kB(r.brotli),
        r.budgetGzip ? `≤ ${kB(r.budgetGzip)}` : '',
        verdict(r),
      ],
    ];
  }
  return Object.entries(r.bundlers).map(([name, f], i) => [
    i === 0 ? r.name : '',
    name === r.worst ? `${name} (worst)` : name,
    kB(f.min),
    kB(f.gzip),
    kB(f.brotli),
    i === 0 && r.budgetGzip ? `≤ ${kB(r.budgetGzip)}` : '',
    i === 0 ? verdict(r) : '',
  ]);
});
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) =>
  cells
    .map((c, i) => (i <= 1 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
    .join('  ')
    .trimEnd();
console.log(
  `size: rollup + terser (as rollup.config.mjs), esbuild --minify, webpack production, Vite build; gzip -9, brotli q11; 1 kB = 1000 bytes; from ${relative(root, dist) || '.'}/`,
);
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log(
  `size: measured in ${((Date.now() - started) / 1000).toFixed(1)} s; a budget applies to the worst bundler.`,
);

if (showModules) {
  for (const r of results.filter((x) => x.modules)) {
    console.log(
      `\n${r.name}: minified bytes per module (each minified alone), and its share of rollup's ${kB(r.bundlers.rollup.gzip)} gzip`,
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
  console.log('size: FAIL — a size budget is exceeded or a budgeted entry is missing.');
  process.exit(1);
}
console.log('size: every budget holds.');
