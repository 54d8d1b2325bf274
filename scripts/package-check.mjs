// The packages as npm would publish them (`npm run check:packages`, a step of `npm test`): packs
// video-plugin and video-plugin-service (`npm pack`, after `npm run build`) and checks each tarball
// with publint (package.json fields, exports, files) and @arethetypeswrong/cli (the types every
// entry resolves to). Four checks; prints `N passed, N failed` last and exits non-zero on a failure.
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
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
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
    // dist/ is built: pack without the build scripts (prepack and prepare build again otherwise).
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packs, ...args], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarball = join(packs, JSON.parse(out)[0].filename);
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
