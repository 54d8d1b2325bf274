// `prepack` and `postpack` of video-plugin-service (`node scripts/prepack.mjs [postpack]`).
//
// prepack: `npm pack` and `npm publish` build the package's dist/ first when it is missing or
// older than its sources (scripts/pack.mjs at the root says which), so a tarball never goes out
// without its code or with code older than its sources, and a fresh dist/ is not built again.
// dist/ is built by the repository's build (scripts/build.mjs at the root: tsc + rollup), so this
// runs only inside a checkout of the repository with its devDependencies installed; anywhere else
// it fails, saying what to do, and nothing is packed. Then it writes the published package.json,
// without the repository's scripts (see scripts/pack.mjs); postpack puts the repository's back.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const service = fileURLToPath(new URL('..', import.meta.url));
const root = join(service, '..', '..');

/** Stops `npm pack` with a message that says what went wrong and what to do. */
function fail(message) {
  console.error(`video-plugin-service prepack: ${message}\nNothing was packed.`);
  process.exit(1);
}

let rootPackage;
try {
  rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
} catch {
  rootPackage = undefined;
}
if (rootPackage?.name !== 'video-plugin' || !rootPackage.workspaces?.includes('packages/service')) {
  fail(
    `${service} is not packages/service of a video-plugin checkout (no video-plugin package.json two folders up). ` +
      'Its dist/ is built by the repository: pack it from a clone, `npm pack -w video-plugin-service` at the root.',
  );
}
const pack = join(root, 'scripts', 'pack.mjs');
if (!existsSync(pack)) fail(`${pack} is missing: the repository checkout is incomplete.`);
const { staleness, writePublished, restore } = await import(pathToFileURL(pack).href);
if (process.argv[2] === 'postpack') {
  restore(service);
  process.exit(0);
}
restore(service); // an unfinished pack's published package.json must not count as a change

const reason = staleness(root);
if (reason) build(reason);
else
  console.log(
    'video-plugin-service prepack: dist/ is fresh (no source changed since the last build): not building it again',
  );
const missing = ['dist/server.js', 'dist/cli.js', 'dist/server.d.ts', 'dist/public/app.js'].filter(
  (file) => !existsSync(join(service, file)),
);
if (missing.length) fail(`the build succeeded but left out ${missing.join(', ')}.`);
writePublished(service);

function build(reason) {
  const build = join(root, 'scripts', 'build.mjs');
  if (!existsSync(build)) fail(`${build} is missing: the repository checkout is incomplete.`);
  for (const tool of ['tsc', 'rollup']) {
    if (!existsSync(join(root, 'node_modules', '.bin', tool))) {
      fail(`the build needs ${tool} (node_modules/.bin/${tool} is missing): run \`npm ci\` at ${root} first.`);
    }
  }

  console.log(
    `video-plugin-service prepack: building dist/ (${reason}; node scripts/build.mjs at the repository root)`,
  );
  const result = spawnSync(process.execPath, [build], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    fail(
      `the build failed (${result.signal ?? `exit code ${result.status}`}; its output is above): fix it and pack again.`,
    );
  }
}
