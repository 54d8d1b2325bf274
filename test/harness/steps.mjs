// The steps of `npm test`, as data: test/harness/test.mjs reads this table and runs it. A new step
// is one row here; the runner gives it its heading, its row in the time table, its place in the
// totals and its lines in the closing summary.
//
// A row:
//   name      its row in the time table (and what `needs`/`after` name)
//   heading   a longer heading for the log (optional)
//   run       [command, ...args]; `env` extra environment
//   count     how its tests are counted: 'check' (the step is one test: it passed or failed),
//             'totals' (it prints `N passed, N failed`), 'node' (Node's spec reporter),
//             'playwright' (Playwright's list reporter), 'browser' (web-test-runner's counts in
//             .test-results/browser-<engine>.json, `engine` naming it)
//   needs     steps that must pass first (if one fails, this one is not run, and says why)
//   after     steps that must have ended first, whatever their result
//   alone     nothing else runs beside it (it changes what other steps read: `npm pack` with its
//             scripts rewrites package.json while it packs)
//   group     steps of one group never run at the same time (a name, or a list of them): 'examples',
//             the example apps' fixed ports; 'renders', the steps that make real media (ffmpeg on
//             both cores, with time limits for a render: two of them together starve each other);
//             GROUP_LIMITS lets a group hold more ('browsers': two browser configurations)
//   background  takes no slot: it runs beside everything from the start (downloads, then a build)
//   slots     the share of a slot it takes (default 1): 0.5 for a step that mostly waits (a browser
//             configuration without real media uses a fifth to a half of a core), so two of them
//             run where one busy step would; with VP_TEST_JOBS=1 every step takes a whole slot
//   missing   () => why it cannot run (a browser not installed): counted as a failure, not run
//
// The order of the rows is the order in which ready steps start: the long ones first, so that the
// short ones fill the gaps at the end. At most $VP_TEST_JOBS steps (default 2, the cores of the CI
// machine) run at once; docs/testing.md, "What runs beside what", says why these pairings are safe.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES } from './browsers.mjs';
import { VERSIONS as NODE_VERSIONS } from './node-versions.mjs';

const npx = (tool, ...args) => ['npx', '--no-install', tool, ...args];

/**
 * How many steps of a group may run at once (a group not named here: one). The browser
 * configurations without real media take half a slot each: two of them at most, beside one busy
 * step, not four crowding the Node renders.
 */
export const GROUP_LIMITS = { browsers: 2 };

/** The steps that must end before the browser engines and the Node suites start. */
const BUILT = ['build'];

/** Every Node test file: the SDK's in test/node/, the service's in its package (by glob: new files run). */
export function nodeTestFiles() {
  return ['test/node', 'packages/service/test'].flatMap((folder) =>
    readdirSync(folder, { recursive: true })
      .filter((name) => name.endsWith('.test.ts'))
      .sort()
      .map((name) => `${folder}/${name}`),
  );
}

/**
 * The SDK's unit suites (test/unit/, beside no other folder's globs): its modules on a fake port and
 * mock timers, without a build or a service.
 */
export function unitTestFiles() {
  return readdirSync('test/unit')
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `test/unit/${name}`);
}

/**
 * Node test files that measure time or crash a process on purpose (load, crash, live): they run
 * one file at a time, in a step of their own, never beside another Node file.
 */
export const TIMED_NODE_TESTS = [
  'packages/service/test/load.test.ts',
  'packages/service/test/store/crash.test.ts',
  'packages/service/test/http/live.test.ts',
];

/**
 * Node test files that render real media (ffmpeg on both cores, a time limit per render): every file
 * under packages/service/test/media/, the two that read a finished render's progress and files, and
 * the disk-full fault (a render on a small disk).
 * They run two files at a time (one at a time used 0.75 of a core on average: the files wait on
 * stall windows, queues and timers; two took 149 s idle instead of about 250 s), in one step that
 * never runs beside another step that renders.
 */
export const rendersMedia = (file) =>
  file.startsWith('packages/service/test/media/') ||
  [
    'packages/service/test/jobs/progress.test.ts',
    'packages/service/test/http/static.test.ts',
    'packages/service/test/faults/disk.test.ts',
  ].includes(file);

/** Node test files that pack the repository with its scripts (package.json is rewritten meanwhile). */
export const PACKING_NODE_TESTS = ['test/node/publish.test.ts'];

/** The framework apps (examples/frameworks, npm workspaces), each built by its own toolchain. */
function frameworkApps() {
  return readdirSync('examples/frameworks', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join('examples/frameworks', entry.name, 'package.json')))
    .map((entry) => entry.name);
}

const NODES_READY = `Node ${NODE_VERSIONS.map((v) => v.major).join(' and ')} ready`;

/** The table. `engines` limits the browser engines (VP_BROWSERS). */
export function steps({ engines } = {}) {
  const nodeFiles = nodeTestFiles();
  const apart = new Set([...TIMED_NODE_TESTS, ...PACKING_NODE_TESTS]);
  const apps = frameworkApps();
  const engineNames = Object.keys(ENGINES).filter((name) => !engines || engines.includes(name));
  const engineStep = (name, part) => ({
    name: `browser tests: ${name}${part ? ` (${part})` : ''}`,
    heading: `browser tests: ${ENGINES[name].label}${part ? `, ${part}` : ''}`,
    run: npx('web-test-runner'),
    env: { VP_BROWSER: name, ...(part ? { VP_PART: part } : {}) },
    count: 'browser',
    engine: part ? `${name}.${part}` : name,
    needs: BUILT,
    // Only the part that makes real media is in the group 'renders'. The others use SVG stand-ins
    // and mostly wait (CPU a fifth to a half of their wall time): half a slot each, at most two at
    // once (the group 'browsers', GROUP_LIMITS), so that two of them and one busy step share the two
    // cores. Four at once beside the Node renders made the run CPU-bound (docs/testing.md, "What
    // runs beside what").
    ...(ENGINES[name].realMedia && (!part || part === 'real-media')
      ? { group: 'renders' }
      : { group: 'browsers', slots: 0.5 }),
    missing: () => (ENGINES[name].installed() ? undefined : `not installed: ${ENGINES[name].install}`),
  });
  // Chromium in its two parts (CHROMIUM_PARTS in browsers.mjs): the real-media suites in the
  // 'renders' group, the others free to run beside the Node suites' renders.
  const engine = (name) =>
    ENGINES[name].parts ? Object.keys(ENGINES[name].parts).map((part) => engineStep(name, part)) : [engineStep(name)];
  const nodeTests = (name, files, extra = []) => ({
    name,
    run: ['node', '--import', 'tsx', '--test', '--test-reporter=spec', ...extra, ...files],
    count: 'node',
    after: BUILT,
    // One Node step at a time: the timed files never run beside another Node file.
    group: 'node',
  });
  const later = (names) => engineNames.filter((name) => names.includes(name)).flatMap(engine);
  return [
    // Node 22 and 24 (test/harness/node-versions.mjs --prepare: three downloads, then better-sqlite3
    // built for each) get ready in the background from the start.
    {
      name: NODES_READY,
      heading: `${NODES_READY} (node test/harness/node-versions.mjs --prepare: the builds, better-sqlite3 for each)`,
      run: ['node', 'test/harness/node-versions.mjs', '--prepare'],
      count: 'check',
      background: true,
    },
    { name: 'build', run: ['npm', 'run', '--silent', 'build'], count: 'check' },
    { name: 'typecheck', run: npx('tsc', '-p', 'tsconfig.json', '--noEmit'), count: 'check' },
    { name: 'lint', run: ['npm', 'run', '--silent', 'lint'], count: 'check' },
    // Both packages as npm would publish them: publint and attw on their tarballs.
    {
      name: 'packages (npm run check:packages: publint, attw)',
      run: ['node', 'test/harness/package-check.mjs'],
      count: 'totals',
      needs: BUILT,
      after: ['typecheck', 'lint'],
      alone: true,
    },
    { ...nodeTests('node tests: packing (publish)', PACKING_NODE_TESTS), alone: true },
    // The Node suites that render real media; like the rest, two files at a time.
    {
      ...nodeTests(
        'node tests: real media (two files at a time)',
        nodeFiles.filter((file) => !apart.has(file) && rendersMedia(file)),
        ['--test-concurrency=2'],
      ),
      group: ['node', 'renders'],
    },
    // Before the Node suites without renders: Chromium's real-media part starts as soon as the Node
    // renders end (the 'renders' steps, one after another, are the run's longest chain).
    ...later(['chromium', 'firefox', 'webkit']),
    nodeTests(
      'node tests',
      nodeFiles.filter((file) => !apart.has(file) && !rendersMedia(file)),
      ['--test-concurrency=2'],
    ),
    // The starter app (examples/vanilla-vite) from packed tarballs: its own tsc, Vite, Playwright.
    {
      name: 'starter app from packed tarballs (npm run test:starter)',
      run: ['node', 'test/harness/starter.mjs'],
      count: 'playwright',
      needs: BUILT,
      group: ['examples', 'renders'],
    },
    // The React starter (examples/react-express) the same way: React 19, a router, an Express back end.
    {
      name: 'React starter app from packed tarballs (npm run test:starter:react)',
      run: ['node', 'test/harness/starter.mjs', 'examples/react-express'],
      count: 'playwright',
      needs: BUILT,
      group: ['examples', 'renders'],
    },
    ...apps.map((app) => ({
      name: `build examples/frameworks/${app}`,
      run: ['npm', 'run', '--silent', 'build', '-w', `examples/frameworks/${app}`],
      count: 'check',
      needs: BUILT,
    })),
    {
      name: 'framework apps in Chromium (npm run test:frameworks)',
      run: npx('playwright', 'test', '-c', 'examples/frameworks/playwright.config.ts'),
      count: 'playwright',
      needs: apps.map((app) => `build examples/frameworks/${app}`),
      group: 'examples',
    },
    ...later(['chromium-block-all', 'chromium-unpartitioned']),
    {
      ...nodeTests('node tests: load, crash, live (one file at a time)', TIMED_NODE_TESTS),
      group: ['node', 'renders'],
    },
    // The server helpers, the service and its package installed on its own, on Node 22 and 24, and
    // two fixed renders compared with this Node's bytes (so: with the steps that render). Before the
    // short steps below, so that they follow the other renders at once instead of ending the run.
    ...NODE_VERSIONS.map(({ major }) => ({
      name: `node tests on Node ${major}`,
      heading: `node tests on Node ${major} (node test/harness/node-versions.mjs ${major})`,
      run: ['node', 'test/harness/node-versions.mjs', String(major)],
      count: 'node',
      needs: [NODES_READY],
      after: BUILT,
      group: 'renders',
    })),
    // Seconds long and needing no build: among the short steps that fill the gaps at the end. In the
    // group 'node' like the other Node steps, so that the timed files still run beside no Node file.
    { ...nodeTests('unit tests (npm run test:unit)', unitTestFiles()), after: [] },
    {
      name: 'docs site (npm run docs)',
      run: ['node', 'scripts/docs.mjs'],
      count: 'totals',
      needs: BUILT,
      // It writes docs/api/ and the VitePress build, which Prettier's check must not meet half-written.
      after: ['lint'],
    },
    { name: 'size budget (npm run size)', run: ['node', 'scripts/size.mjs'], count: 'check', needs: BUILT },
    // The partner's own end-to-end test (examples/partner-e2e) against video-plugin-service.
    {
      name: 'partner integration example (npm run test:example)',
      run: npx('playwright', 'test', '-c', 'examples/partner-e2e/playwright.config.ts'),
      count: 'playwright',
      needs: BUILT,
      // Its snapshot test renders real media (tests/snapshot.spec.ts).
      group: ['examples', 'renders'],
    },
    // The README's CDN snippets through WordPress's sanitizer, as an Author and an Administrator.
    {
      name: 'WordPress check (npm run test:wordpress)',
      run: ['node', 'test/harness/wordpress-check.mjs'],
      count: 'totals',
      needs: BUILT,
      // It writes WordPress's one site configuration (/etc/wordpress/config-127.0.0.1.php), and so
      // does leftovers.test.ts, a Node suite: never both at once.
      after: ['node tests'],
    },
    {
      name: 'integrity hashes of the snippets (npm run sri -- --check)',
      run: ['node', 'scripts/sri.mjs', '--check'],
      count: 'check',
      needs: BUILT,
    },
  ];
}
