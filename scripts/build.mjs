// Builds every deliverable: unbundled ESM + .d.ts (tsc), then the bundles (rollup).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

const started = Date.now();
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
run(bin('rollup'), ['-c', '--silent']);
run(bin('cem'), ['analyze', '--quiet', '--config', 'custom-elements-manifest.config.mjs']); // custom-elements.json
console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
