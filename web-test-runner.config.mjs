// Browser tests: test pages on http://localhost:PORT, frames on http://127.0.0.1:PORT (same dev
// server, another site) and the real local service on 127.0.0.1. One engine per run, chosen by
// $VP_BROWSER (test/harness/browsers.mjs: chromium, chromium-block-all, chromium-unpartitioned, firefox,
// webkit); `npm test` runs each, two at a time (test/harness/steps.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { testServicePlugin } from './test/harness/wtr/service-plugin.mjs';
import { frameCommandsPlugin } from './test/harness/wtr/frame-commands.mjs';
import { ELEMENT_SUITES, REAL_MEDIA_SUITES, selectedEngine } from './test/harness/browsers.mjs';
import { cspPlugin } from './test/harness/wtr/csp-plugin.mjs';
import { faultPlugin } from './test/harness/wtr/fault-plugin.mjs';
import { diagnosePlugin } from './test/harness/wtr/diagnose-plugin.mjs';
import { freePort } from './test/harness/free-port.mjs';

/**
 * Counts every test of every file and writes them where test/harness/test.mjs reads them; prints
 * each file's wall seconds (from INITIALIZING, the page opening, to FINISHED), slowest first, and
 * the slowest tests, so the day a suite grows shows up in the log.
 */
function countReporter() {
  const started = new Map();
  const seconds = new Map();
  const slowest = [];
  return {
    start({ sessions }) {
      // The first files start before the reporters do: they count from here.
      const runStarted = Date.now();
      sessions.on('session-status-updated', (session) => {
        if (session.status === 'INITIALIZING') started.set(session.id, Date.now());
        if (session.status === 'FINISHED') {
          if (!started.has(session.id)) started.set(session.id, runStarted);
          const name =
            session.group.name === classicGroup.name ? `${session.testFile} (classic CDN)` : session.testFile;
          seconds.set(name, (Date.now() - started.get(session.id)) / 1000);
        }
      });
    },
    stop() {
      const rows = [...seconds].sort((a, b) => b[1] - a[1]);
      if (rows.length === 0) return;
      console.log(
        `\nseconds per test file (${engine.id}; page opened to last test, the first file from the run's start):`,
      );
      for (const [file, s] of rows)
        console.log(`${s.toFixed(1).padStart(7)}  ${file.replace(`${process.cwd()}/`, '')}`);
      console.log(`slowest tests (${engine.id}):`);
      for (const { ms, file, name } of slowest
        .sort((a, b) => b.ms - a.ms)
        .slice(0, Number(process.env.VP_SLOWEST) || 10)) {
        console.log(`${(ms / 1000).toFixed(1).padStart(7)}  ${file.replace(/^.*\/test\/browser\//, '')}: ${name}`);
      }
    },
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      const walk = (suite, file) => {
        for (const test of suite.tests ?? []) {
          if (test.duration) slowest.push({ ms: test.duration, file, name: test.name });
          if (test.skipped) totals.skipped++;
          else if (test.passed) totals.passed++;
          else totals.failed++;
        }
        for (const child of suite.suites ?? []) walk(child, file);
      };
      for (const session of sessions) {
        if (session.testResults) walk(session.testResults, session.testFile);
        // A file that failed to load or threw outside a test counts as one failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.failed++;
      }
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(`.test-results/browser-${engine.id}.json`, JSON.stringify(totals));
    },
  };
}

const engine = selectedEngine();

/**
 * The test files: the engine's (test/harness/browsers.mjs), or those in $VP_SUITES (comma-separated,
 * what `npm run test:changed` picks).
 */
const files = process.env.VP_SUITES?.split(',').filter(Boolean) ?? engine.files;

/**
 * TypeScript for the tests; the built CDN files are served byte for byte, as a CDN serves them
 * (their `integrity` hashes are checked).
 */
function typescript() {
  const plugin = esbuildPlugin({ ts: true, target: 'es2022' });
  const transform = plugin.transform.bind(plugin);
  plugin.transform = (context) => (context.path.startsWith('/dist/cdn/') ? undefined : transform(context));
  return plugin;
}

/** Whether a file pattern of web-test-runner (a path, or a glob with `*` and `**`) matches `file`. */
function matches(pattern, file) {
  const source = pattern
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\/|\*/g, (glob) => (glob === '*' ? '[^/]*' : '(?:.*/)?'));
  return new RegExp(`^${source}$`).test(file);
}

/**
 * The element suites once more, against the classic CDN script: the test page loads it with a
 * plain `<script src>` before the suite, which then takes the element and the error classes from
 * `window.VideoPlugin` (test/support/element-api.ts). It runs the element suites this run runs:
 * those its patterns select and no `!` pattern leaves out (Chromium's other-suites part leaves
 * them all out).
 */
const classicGroup = {
  name: 'element-classic',
  files: ELEMENT_SUITES.filter(
    (file) =>
      files.some((pattern) => !pattern.startsWith('!') && matches(pattern, file)) &&
      !files.some((pattern) => pattern.startsWith('!') && matches(pattern.slice(1), file)),
  ),
  testRunnerHtml: (testFramework) =>
    `<!doctype html><html lang="en"><head><script src="/dist/cdn/video-plugin.min.js"></script></head>` +
    `<body><script type="module" src="${testFramework}"></script></body></html>`,
};

export default {
  files,
  groups: classicGroup.files.length > 0 ? [classicGroup] : [],
  nodeResolve: true,
  hostname: 'localhost',
  // A port the system picked, not web-test-runner's search from 8000: `npm test` runs two engines
  // at once, and two searches that start together can settle on the same port.
  port: await freePort(),
  // One test file at a time: a background tab gets no animation frames, and the frame commands
  // (real clicks inside the iframe) need a page that renders.
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 240000,
  browsers: [engine.launcher()],
  plugins: [
    typescript(),
    testServicePlugin({ realMediaSuites: engine.realMedia ? REAL_MEDIA_SUITES : [] }),
    frameCommandsPlugin(),
    cspPlugin(),
    faultPlugin(),
    diagnosePlugin(),
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countReporter()],
};
