// Bundles built from tsc's output in dist/ (so rollup needs no TypeScript plugin):
// - the CDN scripts (element + Plugin + Lit + zod, one minified file each): a classic script (IIFE)
//   and an ES module,
// - the local service's iframe pages (loaded by the service, same origin as its API).
import { existsSync } from 'node:fs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

const minifyModule = terser({ ecma: 2022, module: true, format: { comments: false } });
// A classic script runs in the page's global scope: terser must not treat it as a module.
const minifyClassic = terser({ ecma: 2022, module: false, format: { comments: false } });

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
    input: 'dist/service/pages/app.js',
    output: { file: 'dist/service/public/app.js', format: 'es', sourcemap: true },
  },
];

export default bundles
  .filter((bundle) => existsSync(bundle.input))
  .map(({ minify = minifyModule, ...bundle }) => ({
    ...bundle,
    plugins: [nodeResolve({ browser: true }), minify],
    onwarn(warning, warn) {
      // Our own code must not be circular; dependencies (zod) are their authors' business.
      if (warning.code === 'CIRCULAR_DEPENDENCY' && !warning.ids?.some((id) => id.includes('node_modules'))) {
        throw new Error(warning.message);
      }
      if (warning.code === 'CIRCULAR_DEPENDENCY') return;
      warn(warning);
    },
  }));
