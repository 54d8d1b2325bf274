// The one test command (`npm test`, and what .ci/run runs): runs the table of steps in
// test/harness/steps.mjs — type check, lint, build, the packages (publint, attw), the Node suites
// (and some again on Node 22 and 24), the browser suites in every engine (those where storage
// decides also under each storage rule: test/harness/browsers.mjs), the example apps, WordPress,
// the docs site and the size budget — at most $VP_TEST_JOBS (default 2) slots at a time (a
// browser configuration without real media takes half of one).
// Each step's output is kept and printed whole when it ends (steps run side by side, so their
// lines would mix). Prints a table of the steps (wall seconds, CPU seconds, share of the run), then
// what failed and why, then `N passed, N failed[, N skipped]` last, and exits non-zero on any
// failure.
// VP_BROWSERS=chromium,firefox limits the engines (for a quick local run; CI runs them all).
// VP_TEST_JOBS=1 runs one step at a time (as before issue 30).
// VP_TEST_STEPS=<file> runs another table of steps (test/node/harness.test.ts tests the runner so).
//
// It leaves nothing behind: every step runs in a process group of its own, stopped whole when it
// ends, times out (STEP_TIMEOUT_MS) or the run is interrupted (SIGINT/SIGTERM); everything it
// starts carries the run's mark and writes its temporary files under the run's own TMPDIR; the
// last check lists what is still running or still on disk, stops and removes it, and fails the run
// (test/harness/leftovers.mjs).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RUN_MARK, leftoverFiles, markedProcesses, removeLinksInto, stopGroup } from './leftovers.mjs';

/** The longest a step may take before it is stopped and counted as failed (a hang, not a pace). */
const STEP_TIMEOUT_MS = 30 * 60_000;
/** How many steps run at once (a background step takes no slot; an `alone` step takes them all). */
const JOBS = Math.max(1, Number(process.env.VP_TEST_JOBS) || 2);

const totals = { passed: 0, failed: 0, skipped: 0 };
/** The steps that failed, each with the lines of its output that say why (printed last). */
const failedSteps = [];
function failStep(name, output = '') {
  failedSteps.push({ name, why: why(output) });
}

/** Each step's name, wall seconds and CPU seconds, in the order they ended: the table at the end. */
const timings = [];
const runStarted = Date.now();
const since = (started) => (Date.now() - started) / 1000;

/**
 * The table of the steps: each step's wall seconds, the CPU seconds of its processes (user +
 * system, of every process the step waited for: a step that waits has few), and its share of the
 * run (the wall time from the start of the run to the table; steps overlap, so shares add up to
 * more than 100 %).
 */
function timingTable() {
  const total = since(runStarted);
  const width = Math.max(...timings.map(({ name }) => name.length), 'step'.length);
  const row = (name, seconds, cpu, share) =>
    `${name.padEnd(width)}  ${seconds.padStart(7)}  ${cpu.padStart(7)}  ${share.padStart(6)}`;
  const cpuTotal = timings.reduce((sum, { cpu }) => sum + (cpu ?? 0), 0);
  return [
    row('step', 'seconds', 'CPU s', 'share'),
    ...timings.map(({ name, seconds, cpu }) =>
      row(
        name,
        seconds.toFixed(1),
        cpu === undefined ? '-' : cpu.toFixed(1),
        `${((100 * seconds) / total).toFixed(1)}%`,
      ),
    ),
    row('the whole run', total.toFixed(1), cpuTotal.toFixed(1), '100.0%'),
  ].join('\n');
}

/**
 * The lines of a step's output that say why it failed, each with the three lines after it; at most
 * 30. The lines that name a failing test (the runners' ✘ ✖ ❌ marks, Playwright's numbered failures,
 * a step stopped or timed out) come first, and error lines only fill what is left: a suite whose
 * service logs the errors it is made to meet prints many of them before its one failing test. A
 * step with no such line gives its last ten lines. They are printed again at the end, so that the
 * tail of a long log says what failed and why.
 */
function why(output) {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').split('\n');
  const failing = (line) => /[✘✖❌]|^\s+\d+\) |Timed out|timed out|stopped after/.test(line);
  const erring = (line) => /\b\w*Error\b/.test(line);
  const picked = new Set();
  for (const test of [failing, erring]) {
    lines.forEach((line, index) => {
      if (picked.size >= 30 || /[✓✔]/.test(line) || !line.trim() || !test(line)) return;
      for (let next = index; next < Math.min(index + 4, lines.length); next++) {
        if (lines[next].trim()) picked.add(next);
      }
    });
  }
  // A step that names nothing (Prettier's `[warn] file`, a tool's own words): its last lines.
  const kept =
    picked.size > 0
      ? [...picked].slice(0, 30)
      : lines.flatMap((line, index) => (line.trim() ? [index] : [])).slice(-10);
  return kept.sort((a, b) => a - b).map((index) => lines[index].trimEnd().slice(0, 240));
}

// The run's mark and temporary folder, inherited by every process it starts.
const mark = randomUUID();
const runTmp = mkdtempSync(join(tmpdir(), 'video-plugin-test-run-'));
process.env[RUN_MARK] = mark;
process.env.TMPDIR = runTmp;
// The framework apps' toolchains: no telemetry, no prompts (examples/frameworks).
process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.NG_CLI_ANALYTICS = 'false';

/** The steps running now. */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    console.log(`\n== ${signal}: stopping the running steps`);
    await Promise.all([...running].map((child) => stopGroup(child, 10_000)));
    leftovers();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/**
 * Runs a command in its own process group and keeps its output; resolves to {code, output, cpu}.
 * The command runs under bash, whose `times` reports the user and system CPU seconds of what it
 * waited for (the command and every process that one waited for) on a pipe of its own.
 */
function run(command, args, { env } = {}) {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', '"$@" 3>&-; code=$?; times >&3; exit $code', 'bash', command, ...args], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
      detached: true,
    });
    running.add(child);
    let output = '';
    let times = '';
    const keep = (chunk) => (output += chunk);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.stdio[3].on('data', (chunk) => (times += chunk));
    const timer = setTimeout(() => {
      output += `\n${command} ${args.join(' ')}: stopped after ${STEP_TIMEOUT_MS / 60_000} minutes\n`;
      console.log(`\n== ${command} ${args.join(' ')}: stopped after ${STEP_TIMEOUT_MS / 60_000} minutes`);
      void stopGroup(child);
    }, STEP_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      // `times`' second line: the children's user and system time, as `1m2.345s 0m0.678s`.
      const seconds = (times.split('\n')[1] ?? '').match(/(\d+)m([\d.]+)s/g)?.map((part) => {
        const [, minutes, rest] = part.match(/(\d+)m([\d.]+)s/);
        return Number(minutes) * 60 + Number(rest);
      });
      const cpu = seconds?.length === 2 ? seconds[0] + seconds[1] : undefined;
      // What the step forked and left in its group (a worker whose parent is gone) goes with it.
      void stopGroup(child, 2000).then(() => {
        running.delete(child);
        resolve({ code: code ?? 1, output, cpu });
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

/** What each engine and each Node version counted, printed before the table. */
const perEngine = [];
const perNode = [];

/**
 * Adds a finished step's tests to the totals, the way its `count` says; a step whose runner failed
 * without a failing test counts as one failure. Returns whether the step passed.
 */
function count(step, { code, output }, seconds) {
  let counted;
  if (step.count === 'check') counted = code === 0 ? { passed: 1, failed: 0, skipped: 0 } : undefined;
  else if (step.count === 'totals') {
    const line = output.match(/^(?:\w+: )?(\d+) passed, (\d+) failed$/m);
    counted = line && { passed: Number(line[1]), failed: Number(line[2]), skipped: 0 };
  } else if (step.count === 'node') {
    const tally = (label) => Number(output.match(new RegExp(`^ℹ ${label} (\\d+)`, 'm'))?.[1] ?? 0);
    if (/^ℹ tests \d+/m.test(output))
      counted = {
        passed: tally('pass'),
        failed: tally('fail') + tally('cancelled'),
        skipped: tally('skipped') + tally('todo'),
      };
  } else if (step.count === 'playwright') {
    const tally = (label) => Number(output.match(new RegExp(`^\\s+(\\d+) ${label}\\b`, 'm'))?.[1] ?? 0);
    if (/^\s+\d+ (passed|failed|flaky|skipped)\b/m.test(output))
      counted = { passed: tally('passed'), failed: tally('failed') + tally('flaky'), skipped: tally('skipped') };
  } else if (step.count === 'browser') {
    try {
      counted = JSON.parse(readFileSync(`.test-results/browser-${step.engine}.json`, 'utf8'));
    } catch {
      counted = undefined;
    }
    const rounded = Math.round(seconds);
    perEngine.push(
      counted
        ? `${step.engine}: ${counted.passed} passed, ${counted.failed} failed${counted.skipped ? `, ${counted.skipped} skipped` : ''} (${rounded} s)`
        : `${step.engine}: runner failed (${rounded} s)`,
    );
  }
  if (counted) {
    totals.passed += counted.passed;
    totals.failed += counted.failed;
    totals.skipped += counted.skipped;
  }
  // No counts at all (the runner ended before it reported) is a failure too.
  if (!counted || (code !== 0 && counted.failed === 0)) {
    totals.failed++;
    failStep(step.count === 'check' ? step.name : `${step.name} (runner failed)`, output);
    return false;
  }
  if (counted.failed > 0) {
    failStep(step.name, output);
    return false;
  }
  return true;
}

/** One step, start to end: runs it, prints its output whole, times and counts it. */
async function runStep(step) {
  if (step.count === 'browser') rmSync(`.test-results/browser-${step.engine}.json`, { force: true });
  console.log(`\n-> ${step.name}: started${step.background ? ' (in the background)' : ''}`);
  const started = Date.now();
  const [command, ...args] = step.run;
  const result = await run(command, args, { env: step.env });
  const seconds = since(started);
  timings.push({ name: step.background ? `${step.name} (in the background)` : step.name, seconds, cpu: result.cpu });
  console.log(`\n== ${step.heading ?? step.name} (${seconds.toFixed(1)} s)`);
  process.stdout.write(result.output.endsWith('\n') || !result.output ? result.output : `${result.output}\n`);
  const passed = count(step, result, seconds);
  if (step.name.startsWith('node tests on Node ')) perNode.push(`${step.name.slice(11)}: ${Math.round(seconds)} s`);
  return passed;
}

// ---- The scheduler: starts every step whose `needs` passed and whose `after` ended, in the
// table's order, while slots are free and none of its groups is full (a group holds one step at a
// time, or as many as the table's GROUP_LIMITS says). A ready `alone` step that cannot start
// yet holds back the steps after it, so that it is not starved.
const only = process.env.VP_BROWSERS?.split(',').filter(Boolean);
const tableModule = process.env.VP_TEST_STEPS ? pathToFileURL(resolve(process.env.VP_TEST_STEPS)).href : './steps.mjs';
const tableExports = await import(tableModule);
const table = tableExports.steps({ engines: only });
/** group → how many of its steps may run at once (GROUP_LIMITS in the table; default 1). */
const groupLimits = tableExports.GROUP_LIMITS ?? {};
/** name → 'passed' | 'failed' | 'not run' for the steps that ended. */
const ended = new Map();
const active = new Map();
let used = 0;

function schedule() {
  for (const step of table) {
    if (ended.has(step.name) || active.has(step.name)) continue;
    const blockedBy = (step.needs ?? []).find((name) => ended.has(name) && ended.get(name) !== 'passed');
    if (blockedBy) {
      console.log(`\n== ${step.name}: not run (${blockedBy} did not pass)`);
      ended.set(step.name, 'not run');
      continue;
    }
    const missing = step.missing?.();
    if (missing) {
      // A missing engine is a failure, not a skip: .ci/run installs every one.
      console.log(`\n== ${step.heading ?? step.name}\n${missing}`);
      totals.failed++;
      failStep(`${step.name} (${missing})`);
      if (step.engine) perEngine.push(`${step.engine}: ${missing}`);
      ended.set(step.name, 'failed');
      continue;
    }
    const ready = [...(step.needs ?? []), ...(step.after ?? [])].every((name) => ended.has(name));
    if (!ready) continue;
    const slots = step.background ? 0 : step.alone ? JOBS : JOBS === 1 ? 1 : (step.slots ?? 1);
    const groups = [step.group ?? []].flat();
    const groupBusy = groups.some(
      (group) =>
        [...active.values()].filter((other) => [other.group ?? []].flat().includes(group)).length >=
        (groupLimits[group] ?? 1),
    );
    if (used + slots > JOBS || groupBusy) {
      if (step.alone) break;
      continue;
    }
    used += slots;
    active.set(
      step.name,
      Object.assign(step, {
        slots,
        done: runStep(step).then((passed) => {
          used -= slots;
          active.delete(step.name);
          ended.set(step.name, passed ? 'passed' : 'failed');
        }),
      }),
    );
  }
}

// A step's name is what `needs` and `after` refer to: a name that no step has is a mistake in the table.
const names = new Set(table.map((step) => step.name));
for (const step of table)
  for (const name of [...(step.needs ?? []), ...(step.after ?? [])])
    if (!names.has(name))
      throw new Error(`test/harness/steps.mjs: "${step.name}" waits for "${name}", which no step is`);

schedule();
while (active.size > 0) {
  await Promise.race([...active.values()].map((step) => step.done));
  schedule();
}
for (const step of table.filter((step) => !ended.has(step.name))) {
  totals.failed++;
  failStep(`${step.name} (never started: what it waits for never ended)`);
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
  `\n== time per step, in the order they ended (${JOBS} slots at a time; CPU s: user + system of the step's processes; share: of the whole run's wall time, and steps overlap)\n${timingTable()}\n`,
);
if (failedSteps.length) {
  console.log("== what failed, and why (from each step's output above)");
  for (const { name, why } of failedSteps) console.log([`${name}:`, ...why.map((line) => `  ${line}`)].join('\n'));
  console.log(`\nfailed: ${failedSteps.map((step) => step.name).join(', ')}`);
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed === 0 && failedSteps.length === 0 ? 0 : 1);
