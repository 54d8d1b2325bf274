// `npm run test:starter` and `npm run test:starter:react` (steps of `npm test`): a starter app as a
// partner would get it, the folder given as the argument (default examples/vanilla-vite; also
// examples/react-express). Packs both packages (`npm pack`, after `npm run build`), installs the two
// tarballs into the example with npm (no workspace, no link to this repository), builds it
// (`tsc` and `vite build`) and runs its own Playwright test (`npm test` in the example).
//
// better-sqlite3 is a native addon. A partner's install downloads its prebuilt binary from GitHub;
// this machine reaches only the npm registry, so the install would compile it from source (about
// 60 s on 2 cores, a tenth of a fresh run). The binary the repository's own `npm ci` built for this
// Node is handed to prebuild-install as the local prebuild it looks for first (its
// `<package>_local_prebuilds` setting), which is what the download would have given; another
// version or Node finds none there and compiles. The example keeps its node_modules between runs:
// only the two tarballs are installed again. Prints the example's Playwright summary (`N passed`)
// last; exits non-zero on a failure.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const example = resolve(root, process.argv[2] ?? 'examples/vanilla-vite');
if (!existsSync(join(example, 'package.json')) || relative(root, example).startsWith('..')) {
  console.error(
    `starter: ${process.argv[2]} is not an example folder of this repository (e.g. examples/react-express).`,
  );
  process.exit(1);
}
const name = relative(root, example);

for (const file of ['dist/index.js', 'packages/service/dist/server.js']) {
  if (!existsSync(join(root, file))) {
    console.error(`starter: ${file} is missing: run \`npm run build\` first (npm test does).`);
    process.exit(1);
  }
}

const step = (what, command, args, cwd, env = process.env) => {
  const started = Date.now();
  console.log(`starter (${name}): ${what}`);
  execFileSync(command, args, { cwd, env, stdio: 'inherit' });
  console.log(`starter (${name}): ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
};

/**
 * A folder holding the repository's better-sqlite3 binary under the name prebuild-install downloads
 * (`better-sqlite3-v<version>-node-v<ABI>-<platform>-<arch>.tar.gz`, the file `build/Release/…`).
 */
function localPrebuilds(folder) {
  const source = join(root, 'node_modules/better-sqlite3');
  const binary = 'build/Release/better_sqlite3.node';
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(source, binary))) return folder;
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(folder, name), '-C', source, binary]);
  return folder;
}

const packs = mkdtempSync(join(tmpdir(), 'video-plugin-starter-'));
try {
  const tarballs = [];
  for (const args of [[], ['-w', 'video-plugin-service']]) {
    // dist/ is built: pack without the build scripts (as test/harness/package-check.mjs does).
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packs, ...args], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    tarballs.push(join(packs, JSON.parse(out)[0].filename));
  }
  // The tarballs take the place of the registry's versions; --no-save keeps package.json as a
  // partner's would read ("video-plugin": "^0.1.0").
  step(
    'npm install of the packed tarballs',
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs],
    example,
    { ...process.env, npm_config_better_sqlite3_local_prebuilds: localPrebuilds(join(packs, 'prebuilds')) },
  );
} finally {
  rmSync(packs, { recursive: true, force: true });
}
step('npm run build (tsc, vite build)', 'npm', ['run', '--silent', 'build'], example);
try {
  step('npm test (Playwright)', 'npm', ['test', '--silent'], example);
} catch {
  process.exit(1);
}
