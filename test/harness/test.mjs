// The one test command (`npm test`, and what .ci/run runs): type check, lint, build, the packages
// (publint, attw), the Node suites (and some again on Node 22 and 24), the browser suites in every
// engine (those where storage decides also under each storage rule: test/harness/browsers.mjs), and the
// size budget.
// Prints a table of the steps (seconds, share of the run), then what failed and why, then
// `N passed, N failed[, N skipped]` last, and exits non-zero on any failure.
// VP_BROWSERS=chromium,firefox limits the engines (for a quick local run; CI runs them all).
//
// It leaves nothing behind: every step runs in a process group of its own, stopped whole when it
// ends, times out (STEP_TIMEOUT_MS) or the run is interrupted (SIGINT/SIGTERM); everything it
// starts carries the run's mark and writes its temporary files under the run's own TMPDIR; the
// last check lists what is still running or still on disk, stops and removes it, and fails the run
// (test/harness/leftovers.mjs).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES } from './browsers.mjs';
import { RUN_MARK, leftoverFiles, markedProcesses, removeLinksInto, stopGroup } from './leftovers.mjs';
import { VERSIONS as NODE_VERSIONS } from './node-versions.mjs';

/** The longest a step may take before it is stopped and counted as failed. */
const STEP_TIMEOUT_MS = 30 * 60_000;

const totals = { passed: 0, failed: 0, skipped: 0 };
/** The steps that failed, each with the lines of its output that say why (printed last). */
const failedSteps = [];
function failStep(name, output = '') {
  failedSteps.push({ name, why: why(output) });
}

/** Each step's name and seconds, in the order they ended: the table printed before the totals. */
const timings = [];
const runStarted = Date.now();

/**
 * Runs `work` as the step `name`: prints its heading (`name`, or a longer `heading`), times it for
 * the table at the end, and resolves to what `work` resolves to. A new step is one
 * `step(name, () => run(…))` call (or `check(…)`, below, for a step that counts as one test).
 */
async function step(name, work, heading = name) {
  console.log(`\n== ${heading}`);
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings.push({ name, seconds: (Date.now() - started) / 1000 });
  }
}

/**
 * The table of the steps: each step's seconds and its share of the run (the wall time from the
 * start of the run to the table).
 */
function timingTable() {
  const total = (Date.now() - runStarted) / 1000;
  const width = Math.max(...timings.map(({ name }) => name.length), 'step'.length);
  const row = (name, seconds, share) => `${name.padEnd(width)}  ${seconds.padStart(7)}  ${share.padStart(6)}`;
  return [
    row('step', 'seconds', 'share'),
    ...timings.map(({ name, seconds }) => row(name, seconds.toFixed(1), `${((100 * seconds) / total).toFixed(1)}%`)),
    row('the whole run', total.toFixed(1), '100.0%'),
  ].join('\n');
}

/**
 * The lines of a step's output that name a failing test or its error (the runners' ✘ ✖ ❌ marks,
 * Playwright's numbered failures, error lines), each with the three lines after it; at most 30. They
 * are printed again at the end, so that the tail of a long log says what failed and why.
 */
function why(output) {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').split('\n');
  const picked = new Set();
  lines.forEach((line, index) => {
    const passing = /[✓✔]/.test(line);
    if (!passing && /[✘✖❌]|^\s+\d+\) |\b\w*Error\b|Timed out|timed out|stopped after/.test(line)) {
      for (let next = index; next < Math.min(index + 4, lines.length); next++) picked.add(next);
    }
  });
  return [...picked]
    .filter((index) => lines[index].trim())
    .slice(0, 30)
    .map((index) => lines[index].trimEnd().slice(0, 240));
}

// The run's mark and temporary folder, inherited by every process it starts.
const mark = randomUUID();
const runTmp = mkdtempSync(join(tmpdir(), 'video-plugin-test-run-'));
process.env[RUN_MARK] = mark;
process.env.TMPDIR = runTmp;
// The framework apps' toolchains: no telemetry, no prompts (examples/frameworks).
process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.NG_CLI_ANALYTICS = 'false';

/** The steps running now (one, and the background preparation of Node 22 and 24 at the start). */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    console.log(`\n== ${signal}: stopping the running step`);
    await Promise.all([...running].map((child) => stopGroup(child, 10_000)));
    leftovers();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/**
 * Runs a command in its own process group, echoing its output (unless `echo` is false: then it is
 * only kept); resolves to {code, output}.
 */
function run(command, args, { env, echo: echoed = true } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
      detached: true,
    });
    running.add(child);
    let output = '';
    const echo = (stream) => (chunk) => {
      output += chunk;
      if (echoed) stream.write(chunk);
    };
    child.stdout.on('data', echo(process.stdout));
    child.stderr.on('data', echo(process.stderr));
    const timer = setTimeout(() => {
      output += `\n${command} ${args.join(' ')}: stopped after ${STEP_TIMEOUT_MS / 60_000} minutes\n`;
      console.log(`\n== ${command} ${args.join(' ')}: stopped after ${STEP_TIMEOUT_MS / 60_000} minutes`);
      void stopGroup(child);
    }, STEP_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      // What the step forked and left in its group (a worker whose parent is gone) goes with it.
      void stopGroup(child, 2000).then(() => {
        running.delete(child);
        resolve({ code: code ?? 1, output });
      });
    });
  });
}

/**
 * The last check: processes of this run still running, files left in its TMPDIR. Lists them,
 * stops and removes them; returns how many there were.
 */
function leftovers() {
  const processes = markedProcesses(mark);
  // What tools keep there by design (compile caches, libpulse's runtime folder) goes with the folder.
  const files = leftoverFiles(runTmp);
  for (const { pid, command } of processes) {
    console.log(`left running: pid ${pid}: ${command.slice(0, 200)}`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
  for (const file of files) console.log(`left on disk: ${join(runTmp, file)}`);
  rmSync(runTmp, { recursive: true, force: true });
  removeLinksInto(runTmp);
  return processes.length + files.length;
}

/** A check that is not a test suite counts as one test: it passed or it failed. */
async function check(name, command, args) {
  const { code, output } = await step(name, () => run(command, args));
  if (code === 0) totals.passed++;
  else {
    totals.failed++;
    failStep(name, output);
  }
  return code === 0;
}

const npx = (tool, ...args) => ['npx', ['--no-install', tool, ...args]];

// Node 22 and 24 get ready in the background from the start (test/harness/node-versions.mjs --prepare:
// three downloads, then better-sqlite3 built for each, about 60 s of both cores when not cached):
// the downloads and the compiler overlap the type check, lint, build, docs and package checks,
// which mostly wait or use one core. The Node suites start only once it is done, so that no test
// runs beside it; its output is printed then.
const NODES_READY = `Node ${NODE_VERSIONS.map((v) => v.major).join(' and ')} ready`;
const nodesPrepareStarted = Date.now();
const nodesPreparing = run('node', ['test/harness/node-versions.mjs', '--prepare'], { echo: false }).then((result) => {
  timings.push({
    name: `${NODES_READY} (in the background, beside the steps above)`,
    seconds: (Date.now() - nodesPrepareStarted) / 1000,
  });
  return result;
});

await check('typecheck', ...npx('tsc', '-p', 'tsconfig.json', '--noEmit'));
await check('lint', 'npm', ['run', '--silent', 'lint']);
const built = await check('build', 'npm', ['run', '--silent', 'build']);
if (built) await check('size budget (npm run size)', 'node', ['scripts/size.mjs']);
if (built)
  await check('integrity hashes of the snippets (npm run sri -- --check)', 'node', ['scripts/sri.mjs', '--check']);

// The docs site (npm run docs): TypeDoc, the element reference, VitePress (a dead link fails it)
// and the complete sample pages; its checks count like tests.
if (built) {
  const docs = await step('docs site (npm run docs)', () => run('node', ['scripts/docs.mjs']));
  const line = docs.output.match(/^docs: (\d+) passed, (\d+) failed$/m);
  totals.passed += Number(line?.[1] ?? 0);
  totals.failed += Number(line?.[2] ?? 0);
  if (docs.code !== 0) {
    if (!line || Number(line[2]) === 0) totals.failed++;
    failStep('docs site', docs.output);
  }
}

// Both packages as npm would publish them: publint and @arethetypeswrong/cli on their tarballs
// (test/harness/package-check.mjs), each check counted.
if (built) {
  const packages = await step('packages (npm run check:packages: publint, attw)', () =>
    run('node', ['test/harness/package-check.mjs']),
  );
  const line = packages.output.match(/^(\d+) passed, (\d+) failed$/m);
  totals.passed += Number(line?.[1] ?? 0);
  totals.failed += Number(line?.[2] ?? 0);
  if (packages.code !== 0) {
    if (!line || Number(line[2]) === 0) totals.failed++;
    failStep('packages (publint, attw)', packages.output);
  }
}

// Node 22 and 24 ready: the background preparation has ended (this step is the wait for it).
const perNode = [];
const prepared = await step(
  `${NODES_READY}: waiting for it`,
  async () => {
    const result = await nodesPreparing;
    process.stdout.write(result.output);
    return result;
  },
  `${NODES_READY} (node test/harness/node-versions.mjs --prepare, started with the run: the builds, better-sqlite3 for each)`,
);
perNode.push(
  `getting them ready: ${Math.round((Date.now() - nodesPrepareStarted) / 1000)} s from the start of the run`,
);
const nodesReady = prepared.code === 0;
if (nodesReady) totals.passed++;
else {
  totals.failed++;
  failStep(NODES_READY, prepared.output);
}

// Node 20's --test does not expand globs: list the files here. The SDK's Node tests are in
// test/node/, the service's in its package, in folders that mirror its source (http/, store/…).
const nodeTests = ['test/node', 'packages/service/test'].flatMap((folder) =>
  readdirSync(folder, { recursive: true })
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `${folder}/${name}`),
);
/** Adds the counts of a run of Node's test runner (spec reporter) to the totals. */
function countNodeTests(result, step) {
  const count = (label) => Number(result.output.match(new RegExp(`^ℹ ${label} (\\d+)`, 'm'))?.[1] ?? 0);
  totals.passed += count('pass');
  totals.failed += count('fail') + count('cancelled');
  totals.skipped += count('skipped') + count('todo');
  if (result.code !== 0 && count('fail') + count('cancelled') === 0) {
    totals.failed++;
    failStep(`${step} (runner failed)`, result.output);
  } else if (count('fail') + count('cancelled') > 0) failStep(step, result.output);
}
countNodeTests(
  await step('node tests', () => run('node', ['--import', 'tsx', '--test', '--test-reporter=spec', ...nodeTests])),
  'node tests',
);

// The server helpers, the service (its API, tokens, its --data store) and its package installed on
// its own, again on Node 22 and 24 (test/harness/node-versions.mjs: the Node builds are npm packages).
for (const { major } of nodesReady ? NODE_VERSIONS : []) {
  const started = Date.now();
  const result = await step(
    `node tests on Node ${major}`,
    () => run('node', ['test/harness/node-versions.mjs', String(major)]),
    `node tests on Node ${major} (node test/harness/node-versions.mjs ${major})`,
  );
  countNodeTests(result, `node tests on Node ${major}`);
  perNode.push(`Node ${major}: ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Runs a Playwright Test suite (an npm script) and counts its tests into the totals. */
async function playwright(name, script) {
  const suite = await step(`${name} (npm run ${script})`, () => run('npm', ['run', '--silent', script]));
  const tally = (label) => Number(suite.output.match(new RegExp(`^\\s+(\\d+) ${label}\\b`, 'm'))?.[1] ?? 0);
  totals.passed += tally('passed');
  totals.failed += tally('failed') + tally('flaky');
  totals.skipped += tally('skipped');
  if (suite.code !== 0 || tally('failed') + tally('flaky') > 0) {
    if (tally('failed') + tally('flaky') === 0) totals.failed++;
    failStep(name, suite.output);
  }
}

// The partner's own end-to-end test (examples/partner-e2e): Playwright Test with its defaults
// against video-plugin-service, as README "Test your integration" shows.
if (built) await playwright('partner integration example', 'test:example');

// The framework apps (examples/frameworks, npm workspaces): each built by its own toolchain (Vite,
// Angular CLI, Next.js), then all driven in Chromium by one Playwright suite.
if (built) {
  const apps = readdirSync('examples/frameworks', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join('examples/frameworks', entry.name, 'package.json')))
    .map((entry) => entry.name);
  let appsBuilt = apps.length > 0;
  for (const app of apps) {
    const workspace = `examples/frameworks/${app}`;
    appsBuilt = (await check(`build ${workspace}`, 'npm', ['run', '--silent', 'build', '-w', workspace])) && appsBuilt;
  }
  if (appsBuilt) await playwright('framework apps in Chromium', 'test:frameworks');
}

// The starter app (examples/vanilla-vite) as a partner gets it: both packages packed and installed
// into it from the tarballs, built by its own tsc and Vite, tested by its own Playwright suite.
if (built) await playwright('starter app from packed tarballs', 'test:starter');

// The README's CDN snippets through WordPress's sanitizer, as an Author and as an Administrator
// (test/harness/wordpress-check.mjs; it fails, saying why, where WordPress cannot run).
if (built) {
  const wordpress = await step('WordPress check (npm run test:wordpress)', () =>
    run('npm', ['run', '--silent', 'test:wordpress']),
  );
  const line = wordpress.output.match(/^(\d+) passed, (\d+) failed$/m);
  totals.passed += Number(line?.[1] ?? 0);
  totals.failed += Number(line?.[2] ?? 0);
  if (wordpress.code !== 0) {
    if (!line || Number(line[2]) === 0) totals.failed++;
    failStep('WordPress check', wordpress.output);
  }
}

/** Browser suites, once per engine and storage mode (test/harness/browsers.mjs); counts per engine. */
const perEngine = [];
if (built) {
  const only = process.env.VP_BROWSERS?.split(',').filter(Boolean);
  for (const [name, engine] of Object.entries(ENGINES)) {
    if (only && !only.includes(name)) continue;
    if (!engine.installed()) {
      console.log(`\n== browser tests: ${engine.label}`);
      // A missing engine is a failure, not a skip: .ci/run installs every one.
      console.log(`not installed: ${engine.install}`);
      totals.failed++;
      failStep(`browser tests in ${name} (not installed)`);
      perEngine.push(`${name}: not installed`);
      continue;
    }
    const results = `.test-results/browser-${name}.json`;
    rmSync(results, { force: true });
    const started = Date.now();
    const browser = await step(
      `browser tests: ${name}`,
      () => run('npx', ['--no-install', 'web-test-runner'], { env: { VP_BROWSER: name } }),
      `browser tests: ${engine.label}`,
    );
    let counted;
    try {
      counted = JSON.parse(readFileSync(results, 'utf8'));
    } catch {
      counted = undefined;
    }
    if (counted) {
      totals.passed += counted.passed;
      totals.failed += counted.failed;
      totals.skipped += counted.skipped;
    }
    // No counts at all (the runner ended before its reporter wrote them) is a failure too.
    if (!counted || (browser.code !== 0 && counted.failed === 0)) {
      totals.failed++;
      failStep(`browser tests in ${name} (runner failed)`, browser.output);
    } else if (counted?.failed) failStep(`browser tests in ${name}`, browser.output);
    const seconds = Math.round((Date.now() - started) / 1000);
    perEngine.push(
      counted
        ? `${name}: ${counted.passed} passed, ${counted.failed} failed${counted.skipped ? `, ${counted.skipped} skipped` : ''} (${seconds} s)`
        : `${name}: runner failed (${seconds} s)`,
    );
  }
}

if (perEngine.length) console.log(`\n== browser tests per engine\n${perEngine.join('\n')}`);
if (perNode.length) console.log(`\n== node tests on other Node versions\n${perNode.join('\n')}`);

console.log('\n== nothing left behind (processes of this run, its temporary files)');
// A process that is exiting gets a moment to finish.
for (let wait = 0; wait < 20 && markedProcesses(mark).length > 0; wait++) {
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const left = leftovers();
if (left === 0) {
  console.log('none');
  totals.passed++;
} else {
  totals.failed++;
  failStep(`leftovers (${left})`);
}
console.log(
  `\n== time per step (share: of the whole run's wall time; a background step overlaps the others)\n${timingTable()}\n`,
);
if (failedSteps.length) {
  console.log("== what failed, and why (from each step's output above)");
  for (const { name, why } of failedSteps) console.log([`${name}:`, ...why.map((line) => `  ${line}`)].join('\n'));
  console.log(`\nfailed: ${failedSteps.map((step) => step.name).join(', ')}`);
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed === 0 && failedSteps.length === 0 ? 0 : 1);
