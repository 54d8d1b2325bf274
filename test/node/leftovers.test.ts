// The WordPress check, interrupted while WordPress, its database and the service run, leaves
// nothing behind: no process of its run (PHP's forked workers included), no temporary folder, no
// WordPress configuration file (issue 24). The same marks that npm test's last check looks for.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- a script of the repository, JavaScript without declarations
import { RUN_MARK, leftoverFiles, markedProcesses, removeLinksInto } from '../harness/leftovers.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = '/etc/wordpress/config-127.0.0.1.php';
const missing = !existsSync('/usr/share/wordpress/wp-load.php')
  ? 'WordPress is not installed (apt-get install -y wordpress mariadb-server php-cli php-mysql; .ci/run does)'
  : !existsSync(join(root, 'dist/cdn/video-plugin.min.js'))
    ? 'dist/ is missing: run `npm run build` first (npm test does)'
    : false;

type Marked = { pid: number; command: string }[];

test(
  'the WordPress check, interrupted (SIGINT and SIGTERM), stops every process it started and removes its files',
  { skip: missing, timeout: 120_000 },
  async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const mark = randomUUID();
      const tmp = mkdtempSync(join(tmpdir(), 'video-plugin-leftovers-'));
      after(() => rmSync(tmp, { recursive: true, force: true }));
      const check = spawn(process.execPath, [join(root, 'test/harness/wordpress-check.mjs')], {
        env: { ...process.env, [RUN_MARK]: mark, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      check.stdout.on('data', (chunk: Buffer) => (output += chunk));
      check.stderr.on('data', (chunk: Buffer) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => check.once('exit', (code) => resolve(code)));
      // Running: PHP's server with its workers and the database (polled: they are other processes).
      const deadline = Date.now() + 60_000;
      let running: Marked = [];
      while (Date.now() < deadline) {
        running = markedProcesses(mark) as Marked;
        if (
          running.filter((p) => p.command.startsWith('php -S')).length >= 2 &&
          running.some((p) => /mariadbd/.test(p.command))
        )
          break;
        if (check.exitCode !== null) assert.fail(`the check ended before WordPress ran:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.ok(
        running.some((p) => p.command.startsWith('php -S')),
        `PHP's server runs (${signal})`,
      );
      check.kill(signal);
      assert.equal(await exited, signal === 'SIGINT' ? 130 : 143, output);
      assert.deepEqual(markedProcesses(mark), [], `nothing of the run is left running after ${signal}`);
      assert.deepEqual(readdirSync(tmp), [], `nothing is left in its TMPDIR after ${signal}`);
      assert.equal(existsSync(CONFIG), false, 'the WordPress configuration file is removed');
    }
  },
);

test("what tools keep in a run's TMPDIR by design is no leftover; anything else is, and the links into it go", () => {
  const base = mkdtempSync(join(tmpdir(), 'leftovers-check-'));
  try {
    const runTmp = join(base, 'run');
    mkdirSync(runTmp);
    // Kept by design: compile caches, and libpulse's runtime folder (a browser's audio client).
    for (const name of ['tsx-0', 'playwright-transform-cache-0', 'node-compile-cache', 'pulse-PKdhtXMmr18n']) {
      mkdirSync(join(runTmp, name));
    }
    // Leftovers: a step's temporary folder and file, and names that only look like the above.
    for (const name of ['video-plugin-wordpress-abc', 'pulse-', 'tsx-cache']) mkdirSync(join(runTmp, name));
    writeFileSync(join(runTmp, 'upload.tmp'), 'x');
    assert.deepEqual(leftoverFiles(runTmp).sort(), ['pulse-', 'tsx-cache', 'upload.tmp', 'video-plugin-wordpress-abc']);
    assert.deepEqual(leftoverFiles(join(base, 'gone')), [], 'a folder removed already lists nothing');

    // ~/.config/pulse: libpulse's link into the run's folder goes; other links and files stay.
    const pulse = join(base, 'home/.config/pulse');
    mkdirSync(pulse, { recursive: true });
    symlinkSync(join(runTmp, 'pulse-PKdhtXMmr18n'), join(pulse, 'machine-runtime'));
    symlinkSync(join(base, 'elsewhere'), join(pulse, 'other-runtime'));
    writeFileSync(join(pulse, 'cookie'), 'x');
    assert.deepEqual(removeLinksInto(runTmp, pulse), [join(pulse, 'machine-runtime')]);
    assert.deepEqual(readdirSync(pulse).sort(), ['cookie', 'other-runtime']);
    assert.deepEqual(removeLinksInto(runTmp, join(base, 'no-such-folder')), []);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
