// Builds every deliverable: unbundled ESM + .d.ts (tsc), then the bundles (rollup): the CDN files,
// the service's pages and the `video-plugin-service` package (packages/service/dist).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

const started = Date.now();
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
rmSync(new URL('../packages/service/dist', import.meta.url), { recursive: true, force: true });
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
run(bin('rollup'), ['-c', '--silent']);
// The service package serves the built iframe pages from `public/` beside its code.
cpSync(
  new URL('../dist/service/public', import.meta.url),
  new URL('../packages/service/dist/public', import.meta.url),
  {
    recursive: true,
  },
);
run(bin('cem'), ['analyze', '--quiet', '--config', 'custom-elements-manifest.config.mjs']); // custom-elements.json
console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
