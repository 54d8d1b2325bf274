// Bundles built from tsc's output in dist/ (so rollup needs no TypeScript plugin):
// - the CDN scripts (element + Plugin + Lit + zod, one minified file each): a classic script (IIFE)
//   and an ES module, and `video-plugin/diagnose` as an ES module of its own,
// - the local service's iframe pages (loaded by the service, same origin as its API);
// - the `video-plugin-service` package (packages/service/dist): the service's Node code with the
//   modules it shares with the SDK (errors, wire, token rules) inlined, its npm dependencies left
//   external, and its declarations in one file.
// The service (tsc'd from packages/service/src into dist/service/) imports what it shares with the
// SDK as `video-plugin/internal`: every bundle here takes that from this build's dist/internal.js.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { dts } from 'rollup-plugin-dts';
import { TERSER } from './scripts/bundle.mjs';

const servicePackage = JSON.parse(readFileSync(new URL('./packages/service/package.json', import.meta.url), 'utf8'));
/** What the service package leaves to its own dependencies (and Node's built-in modules). */
const serviceExternal = (id) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  Object.keys(servicePackage.dependencies).some((name) => id === name || id.startsWith(`${name}/`));

/** Resolves `video-plugin/internal` to this build's dist/internal.js (.d.ts for declarations). */
const internal = (declarations = false) => ({
  name: 'video-plugin-internal',
  resolveId(id) {
    if (id !== 'video-plugin/internal') return null;
    const file = fileURLToPath(new URL(`./dist/internal.${declarations ? 'd.ts' : 'js'}`, import.meta.url));
    // Like every SDK module (package.json "sideEffects"): what a bundle does not use is left out.
    return { id: file, moduleSideEffects: false };
  },
});

/**
 * terser, keeping the names a module exports as its top-level names: the CDN ES module's export list
 * (`export{Plugin,…}`) then repeats its namespace object, the one `window.VideoPlugin` is made of,
 * and gzip stores the names once (0.05 kB gzip less). The exported classes keep their names too
 * (`Plugin.name`, what stack traces show). A chunk without exports (the classic script) is minified
 * as before.
 */
const minify = (options) => ({
  name: 'minify',
  renderChunk: (code, chunk, outputOptions) =>
    terser({ ...options, mangle: { reserved: chunk.exports } }).renderChunk(code, chunk, outputOptions),
});
const minifyModule = minify({ ...TERSER, module: true });
// A classic script runs in the page's global scope: terser must not treat it as a module.
const minifyClassic = minify({ ...TERSER, module: false });

const bundles = [
  {
    input: 'dist/cdn-classic.js',
    output: { file: 'dist/cdn/video-plugin.min.js', format: 'iife', sourcemap: true },
    minify: minifyClassic,
  },
  {
    input: 'dist/cdn.js',
    output: { file: 'dist/cdn/video-plugin.module.min.js', format: 'es', sourcemap: true },
  },
  {
    // video-plugin/diagnose for pages without a build step: import() it where you need it.
    input: 'dist/diagnose/index.js',
    output: { file: 'dist/cdn/video-plugin-diagnose.module.min.js', format: 'es', sourcemap: true },
  },
  {
    input: 'dist/service/pages/app.js',
    output: { file: 'dist/service/public/app.js', format: 'es', sourcemap: true },
  },
];

const service = existsSync('dist/service/server.js')
  ? [
      {
        // The PostgreSQL driver's worker thread is an entry of its own: store/postgres.ts starts it
        // from the file beside the chunk that holds the driver.
        input: {
          server: 'dist/service/server.js',
          cli: 'dist/service/cli.js',
          'postgres-worker': 'dist/service/store/postgres-worker.js',
        },
        // Shared code at the top of dist/, beside public/: the service finds its pages from there.
        output: { dir: 'packages/service/dist', format: 'es', chunkFileNames: 'shared-[hash].js' },
        external: serviceExternal,
        plugins: [internal()],
        onwarn(warning, warn) {
          if (warning.code === 'CIRCULAR_DEPENDENCY') throw new Error(warning.message);
          warn(warning);
        },
      },
      {
        input: 'dist/service/server.d.ts',
        output: { file: 'packages/service/dist/server.d.ts', format: 'es' },
        external: serviceExternal,
        plugins: [internal(true), dts()],
      },
    ]
  : [];

export default [
  ...bundles
    .filter((bundle) => existsSync(bundle.input))
    .map(({ minify = minifyModule, ...bundle }) => ({
      ...bundle,
      plugins: [internal(), nodeResolve({ browser: true }), minify],
      onwarn(warning, warn) {
        // Our own code must not be circular; dependencies (zod) are their authors' business.
        if (warning.code === 'CIRCULAR_DEPENDENCY' && !warning.ids?.some((id) => id.includes('node_modules'))) {
          throw new Error(warning.message);
        }
        if (warning.code === 'CIRCULAR_DEPENDENCY') return;
        warn(warning);
      },
    })),
  ...service,
];
