// `npm run bench:sandboxes`: the example partner suite on sandboxes (issue 41's proof), as a
// team's CI runs it: Playwright Test with many workers, each test in a sandbox of its own on ONE
// shared service (examples/partner-e2e, tests/sandbox.spec.ts: the step clock, forced failures,
// the studio's element API in a real Chromium). Runs the suite `--runs` times in a row and reports
// each run's wall time and result, the machine's load, and writes bench/results/sandboxes.json.
// A run that fails is reported and makes the command exit 1: the proof is "N runs, no failure".
//
//   node bench/sandboxes.mjs                         16 workers, 4 repeats of each test, 3 runs
//   node bench/sandboxes.mjs --workers 4 --runs 1    a smoke run
//   node bench/sandboxes.mjs --service-per-worker    the same suite, each worker with a service
//                                                    of its own (the way sandboxes replace), to compare
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const argument = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const WORKERS = argument('--workers', 16);
const REPEAT = argument('--repeat-each', 4);
const RUNS = argument('--runs', 3);
const PER_WORKER = process.argv.includes('--service-per-worker');
const root = fileURLToPath(new URL('..', import.meta.url));
const resultFile = PER_WORKER ? 'sandboxes-per-worker.json' : 'sandboxes.json';

const runs = [];
for (let run = 1; run <= RUNS; run++) {
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [
      'node_modules/@playwright/test/cli.js',
      'test',
      '-c',
      'examples/partner-e2e/playwright.config.ts',
      'tests/sandbox.spec.ts',
      '--workers',
      String(WORKERS),
      '--repeat-each',
      String(REPEAT),
      // Every test on any free worker: without it Playwright keeps one file's tests (and each of
      // its repeats) on one worker, and 16 workers would run 4 at a time.
      '--fully-parallel',
      '--reporter',
      'line',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, VIDEO_PLUGIN_SERVICE_PER_WORKER: PER_WORKER ? '1' : '0' },
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const output = `${result.stdout}${result.stderr}`;
  const passed = Number(/(\d+) passed/.exec(output)?.[1] ?? 0);
  const failed = Number(/(\d+) failed/.exec(output)?.[1] ?? 0);
  // Playwright's own count of the workers it ran at once.
  const workersUsed = Number(/using (\d+) workers?/.exec(output)?.[1] ?? 0);
  const ok = result.status === 0 && failed === 0;
  runs.push({ run, seconds: Number(seconds.toFixed(1)), passed, failed, ok, workersUsed, load: loadavg()[0] });
  console.log(
    `bench:sandboxes: run ${run}/${RUNS}: ${passed} passed, ${failed} failed in ${seconds.toFixed(1)} s on ${workersUsed} workers (load ${loadavg()[0].toFixed(1)})`,
  );
  if (!ok) console.log(output.split('\n').slice(-60).join('\n'));
}

const report = {
  command: `node bench/sandboxes.mjs --workers ${WORKERS} --repeat-each ${REPEAT} --runs ${RUNS}${PER_WORKER ? ' --service-per-worker' : ''}`,
  services: PER_WORKER ? 'one per worker' : 'one, shared by every worker (a sandbox per test)',
  date: new Date().toISOString(),
  machine: { cores: cpus().length, memoryGB: Math.round(totalmem() / 1e9) },
  workers: WORKERS,
  testsPerRun: runs[0]?.passed + runs[0]?.failed,
  runs,
};
mkdirSync(new URL('results/', import.meta.url), { recursive: true });
writeFileSync(new URL(`results/${resultFile}`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
const failures = runs.filter((run) => !run.ok).length;
console.log(`bench:sandboxes: ${RUNS - failures} of ${RUNS} runs without a failure (bench/results/${resultFile})`);
process.exit(failures > 0 ? 1 : 0);
