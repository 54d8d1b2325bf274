// The packages as npm would publish them (`npm run check:packages`, a step of `npm test`): packs
// video-plugin and video-plugin-service (`npm pack` with its scripts, after `npm run build`: the
// prepack finds dist/ fresh and writes the published package.json, scripts/pack.mjs) and checks
// each tarball: its package.json carries none of the repository's own fields (scripts, workspaces,
// allowScripts: nothing for `npm install-scripts` to flag), publint (package.json fields, exports,
// files) and @arethetypeswrong/cli (the types every entry resolves to). Six checks; prints
// `N passed, N failed` last and exits non-zero on a failure.
//
// What is not an error here, and why:
// - publint runs with --strict: its warnings fail too; only its suggestions are printed and pass.
// - attw runs with the profile `esm-only`: both packages are ES modules only by design
//   ("type": "module", no "require" condition), so it leaves out the resolution modes that read a
//   package as CommonJS — `node16-cjs` (Node ≥ 20.19 loads them with require() anyway) and
//   `node10` (TypeScript's old `moduleResolution: node`, which does not read `exports`). Every
//   ESM and bundler resolution of every entry must have correct types.
// - attw does not check `video-plugin/cdn/*`: a folder of browser bundles for <script> tags,
//   with no types by design (the same code has its types at `video-plugin`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { REPO_ONLY } = await import(pathToFileURL(join(root, 'scripts/pack.mjs')).href);
const bin = (name) => join(root, 'node_modules', '.bin', name);

for (const file of ['dist/index.js', 'packages/service/dist/server.js']) {
  if (!existsSync(join(root, file))) {
    console.error(`package-check: ${file} is missing: run \`npm run build\` first (npm test does).`);
    process.exit(1);
  }
}

const packs = mkdtempSync(join(tmpdir(), 'video-plugin-packs-'));
let passed = 0;
let failed = 0;
try {
  for (const [name, args] of [
    ['video-plugin', []],
    ['video-plugin-service', ['-w', 'video-plugin-service']],
  ]) {
    // With the scripts, as npm publish packs (they do not build a fresh dist/ again).
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', packs, ...args], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarball = join(packs, JSON.parse(out.slice(out.indexOf('[')))[0].filename);
    console.log(`\n-- published package.json of ${name}`);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    const kept = REPO_ONLY.filter((field) => field in manifest);
    if (kept.length === 0) {
      passed++;
      console.log(`no ${REPO_ONLY.join(', ')}`);
    } else {
      failed++;
      console.log(`FAILED: the published package.json of ${name} carries ${kept.join(', ')} (scripts/pack.mjs)`);
    }
    for (const [label, command, commandArgs] of [
      ['publint', bin('publint'), ['run', '--strict', tarball]],
      ['attw', bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color']],
    ]) {
      console.log(`\n-- ${label} ${name}`);
      const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
      if (result.status === 0) passed++;
      else {
        failed++;
        console.log(`FAILED: ${label} ${name} (${result.signal ?? `exit code ${result.status}`})`);
      }
    }
  }
} finally {
  rmSync(packs, { recursive: true, force: true });
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
