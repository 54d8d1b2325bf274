// The quick loop while developing (`npm run test:changed`; docs/testing.md): the type check, lint
// of the changed files, and the test suites whose own file or any module it imports changed since
// main (the merge base with main, plus what is not committed yet), the browser ones in Chromium
// only. It does not replace `npm test`: no other engine or storage rule, no packages, docs site,
// framework apps or WordPress, and nothing a suite reaches other than by an import (a script it
// spawns, a page it loads by URL) selects it.
//
//   npm run test:changed                 # since the merge base with main
//   npm run test:changed -- <ref>        # since another commit
//   npm run test:changed -- --list       # only print what it would run
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the suites are: browser suites run by web-test-runner, Node suites by node --test. */
export const SUITE_FOLDERS = {
  browser: ['test/browser'],
  node: ['test/unit', 'test/node', 'packages/service/test'],
};

/**
 * Files that every browser suite depends on without importing them: the runner's configuration,
 * the engine table and the plugins it loads (the test service, the frame commands…), and the
 * studio's pages, which every suite loads from the built service. A change to one of them selects
 * every browser suite. (The rest of the service is selected by import: its Node suites test it.)
 */
export const BROWSER_HARNESS = [
  /^web-test-runner\.config\.mjs$/,
  /^test\/harness\/(browsers|webkit|leftovers)\.mjs$/,
  /^scripts\/chromium\.mjs$/,
  /^test\/harness\/wtr\/[^/]+\.mjs$/,
  /^packages\/service\/src\/pages\//,
];

/** Source files whose imports are followed. */
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

/** The relative specifiers a module imports: static and dynamic imports, re-exports. */
export function importsOf(code) {
  const specifiers = new Set();
  const patterns = [
    // At the start of a line (not an import written inside a string), possibly over several lines.
    /^\s*import\s+(?:type\s+)?[\w*{}\s,$]*?\s*from\s*['"]([^'"]+)['"]/gm,
    /^\s*export\s+(?:type\s+)?[\w*{}\s,$]*?\s*from\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    // Anywhere: import('…').
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const [, specifier] of code.matchAll(pattern)) specifiers.add(specifier);
  return [...specifiers].filter((specifier) => specifier.startsWith('.'));
}

/**
 * The file (relative to `root`) that `specifier`, imported from `from`, names, or undefined. A `.js`
 * specifier names the `.ts` source beside it, as TypeScript resolves it.
 */
export function resolveImport(root, from, specifier) {
  const base = resolve(root, dirname(from), specifier);
  const candidates = [base];
  if (/\.(m?js)$/.test(base))
    candidates.push(base.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts'), base.replace(/\.js$/, '.tsx'));
  else
    candidates.push(
      `${base}.ts`,
      `${base}.tsx`,
      `${base}.js`,
      `${base}.mjs`,
      join(base, 'index.ts'),
      join(base, 'index.js'),
    );
  const found = candidates.find((candidate) => existsSync(candidate) && SOURCE.test(candidate));
  return found ? relative(root, found) : undefined;
}

/** Every file `entry` reaches through its imports, itself included (paths relative to `root`). */
export function importGraph(root, entry, cache = new Map()) {
  const reached = new Set();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    if (!SOURCE.test(file) || file.includes('node_modules/')) continue;
    if (!cache.has(file)) {
      const code = readFileSync(join(root, file), 'utf8');
      cache.set(
        file,
        importsOf(code)
          .map((specifier) => resolveImport(root, file, specifier))
          .filter(Boolean),
      );
    }
    pending.push(...cache.get(file));
  }
  return reached;
}

/** The suites under `folders` (relative to `root`), sorted. */
export function suitesIn(root, folders) {
  return folders.flatMap((folder) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder), { recursive: true })
          .filter((name) => name.endsWith('.test.ts'))
          .sort()
          .map((name) => `${folder}/${name}`)
      : [],
  );
}

/**
 * The suites a change of `changed` (paths relative to `root`) selects: `{ browser, node }`, each a
 * sorted list of test files whose import graph holds a changed file (a browser-harness change
 * selects every browser suite).
 */
export function selectSuites(root, changed, folders = SUITE_FOLDERS) {
  const changes = new Set(changed);
  const cache = new Map();
  const harness = changed.some((file) => BROWSER_HARNESS.some((pattern) => pattern.test(file)));
  const pick = (suites, always) =>
    suites.filter((suite) => always || [...importGraph(root, suite, cache)].some((file) => changes.has(file)));
  return {
    browser: pick(suitesIn(root, folders.browser), harness),
    node: pick(suitesIn(root, folders.node), false),
  };
}

/** Changes that need `npm run build` before the browser suites (they load dist/: the service, the CDN). */
export const NEEDS_BUILD = /^(src\/|packages\/service\/src\/|scripts\/build\.mjs$|rollup\.config\.mjs$)/;

function git(...args) {
  const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** The merge base with main (the local branch, else origin's); says what to do when there is neither. */
function mergeBase() {
  for (const main of ['main', 'origin/main']) {
    try {
      return git('merge-base', 'HEAD', main);
    } catch {
      // Not here: try the next.
    }
  }
  throw new Error(
    'test:changed: no main or origin/main to compare with: name a commit, `npm run test:changed -- <ref>`.',
  );
}

/** The files changed since `since` (default: the merge base with main), committed or not, that still exist. */
export function changedFiles(since) {
  const base = since ?? mergeBase();
  const listed = [
    ...git('diff', '--name-only', base).split('\n'),
    ...git('ls-files', '--others', '--exclude-standard').split('\n'),
  ];
  return { base, files: [...new Set(listed.filter(Boolean))].filter((file) => existsSync(join(ROOT, file))).sort() };
}

/** Runs a command in the foreground; resolves to whether it passed. */
function step(title, command, args, env = {}) {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`(${title}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result.status === 0;
}

async function main() {
  const args = process.argv.slice(2);
  const listOnly = args.includes('--list');
  const since = args.find((arg) => !arg.startsWith('--'));
  const { base, files } = changedFiles(since);
  const suites = selectSuites(ROOT, files);
  console.log(`changed since ${base.slice(0, 12)}: ${files.length ? files.join(' ') : 'nothing'}`);
  console.log(`browser suites (Chromium): ${suites.browser.join(' ') || 'none'}`);
  console.log(`node suites: ${suites.node.join(' ') || 'none'}`);
  if (listOnly) return;

  const started = Date.now();
  const results = [];
  const record = (title, passed) => results.push({ title, passed });
  const npx = (tool, ...rest) => ['npx', ['--no-install', tool, ...rest]];
  record('typecheck', step('typecheck', ...npx('tsc', '-p', 'tsconfig.json', '--noEmit')));
  const lintable = files.filter((file) => SOURCE.test(file) || /\.(json|md|css|html|ya?ml)$/.test(file));
  if (lintable.length) {
    const scripts = lintable.filter((file) => SOURCE.test(file));
    if (scripts.length)
      record('eslint', step('eslint (changed files)', ...npx('eslint', '--no-warn-ignored', ...scripts)));
    record(
      'prettier',
      step('prettier (changed files)', ...npx('prettier', '--check', '--ignore-unknown', ...lintable)),
    );
  }
  if (suites.node.length) {
    record(
      'node suites',
      step('node suites', 'node', ['--import', 'tsx', '--test', '--test-reporter=spec', ...suites.node]),
    );
  }
  if (suites.browser.length) {
    const stale =
      !existsSync(join(ROOT, 'dist', 'service', 'server.js')) || files.some((file) => NEEDS_BUILD.test(file));
    const built = stale ? step('build (the browser suites load dist/)', 'npm', ['run', '--silent', 'build']) : true;
    if (stale) record('build', built);
    if (built) {
      record(
        'browser suites in Chromium',
        step('browser suites in Chromium', 'npx', ['--no-install', 'web-test-runner'], {
          VP_BROWSER: 'chromium',
          VP_SUITES: suites.browser.join(','),
        }),
      );
    }
  }
  const failed = results.filter((result) => !result.passed).map((result) => result.title);
  console.log(
    `\ntest:changed: ${results.length - failed.length} passed, ${failed.length} failed` +
      `${failed.length ? ` (${failed.join(', ')})` : ''} in ${Math.round((Date.now() - started) / 1000)} s` +
      ' (not a replacement for npm test)',
  );
  process.exitCode = failed.length ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main().catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
