// The runner of `npm test` (test/harness/test.mjs) on a small table of its own (VP_TEST_STEPS): two
// steps at a time, an `alone` step with nothing beside it, a group whose steps never meet, a step
// whose need failed not run, every step's row (wall and CPU seconds) in the time table, the failures
// in the closing summary, and the closing line last.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'video-plugin-harness-'));
after(() => rmSync(work, { recursive: true, force: true }));
const log = join(work, 'log');

/**
 * A step's process: notes its start and end in the log. `meet` names the steps that must be running
 * at the same time: each writes a file and waits for the others' (a hang here means they never met).
 */
function stepRun(
  name: string,
  { meet, code = 0, say = '' }: { meet?: string | string[]; code?: number; say?: string } = {},
) {
  const script = `
    const fs = require('node:fs');
    const note = (what) => fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ name: ${JSON.stringify(name)}, what, at: process.hrtime.bigint().toString() }) + '\\n');
    note('start');
    const done = () => { note('end'); ${say ? `console.log(${JSON.stringify(say)});` : ''} process.exit(${code}); };
    const meet = ${JSON.stringify(meet ?? null)};
    if (!meet) setTimeout(done, 200);
    else {
      fs.writeFileSync(${JSON.stringify(work)} + '/here-' + ${JSON.stringify(name)}, '');
      const wait = setInterval(() => {
        if ([meet].flat().every((other) => fs.existsSync(${JSON.stringify(work)} + '/here-' + other))) { clearInterval(wait); setTimeout(done, 100); }
      }, 20);
    }`;
  return ['node', '-e', script];
}

const loggedErrors = Array.from({ length: 40 }, (_, index) => `ServiceError: logged on purpose (${index})`);
const table = join(work, 'steps.mjs');
writeFileSync(
  table,
  `export const steps = () => ${JSON.stringify([
    // Two half-slot steps (steps that mostly wait) and a whole one: three at once in two slots.
    { name: 'half-a', run: stepRun('half-a', { meet: ['half-b', 'whole'] }), count: 'check', slots: 0.5 },
    { name: 'half-b', run: stepRun('half-b', { meet: ['half-a', 'whole'] }), count: 'check', slots: 0.5 },
    { name: 'whole', run: stepRun('whole', { meet: ['half-a', 'half-b'] }), count: 'check' },
    { name: 'one', run: stepRun('one', { meet: 'two' }), count: 'check' },
    { name: 'two', run: stepRun('two', { meet: 'one' }), count: 'check' },
    { name: 'three', run: stepRun('three'), count: 'check' },
    { name: 'alone', run: stepRun('alone'), count: 'check', needs: ['one'], alone: true },
    { name: 'x1', run: stepRun('x1'), count: 'check', group: 'x' },
    { name: 'x2', run: stepRun('x2'), count: 'check', group: ['other', 'x'] },
    // A failing step whose service logged 40 errors on purpose before the test that failed.
    {
      name: 'fails',
      run: stepRun('fails', {
        code: 1,
        say: [...loggedErrors, '✖ the test that broke', '  Error: it broke'].join('\n'),
      }),
      count: 'check',
    },
    // A failing step whose output names nothing a runner would (Prettier's words).
    { name: 'quiet', run: stepRun('quiet', { code: 2, say: '[warn] some-file.mjs' }), count: 'check' },
    { name: 'needs what failed', run: stepRun('never'), count: 'check', needs: ['fails'] },
    { name: 'counts', run: stepRun('counts', { say: '3 passed, 1 failed' }), count: 'totals', after: ['three'] },
    // A group that may hold two steps (GROUP_LIMITS): g1 and g2 meet, g3 runs beside neither.
    { name: 'g1', run: stepRun('g1', { meet: 'g2' }), count: 'check', group: 'pair', slots: 0.25, after: ['counts'] },
    { name: 'g2', run: stepRun('g2', { meet: 'g1' }), count: 'check', group: 'pair', slots: 0.25, after: ['counts'] },
    { name: 'g3', run: stepRun('g3'), count: 'check', group: 'pair', slots: 0.25, after: ['counts'] },
  ])};\nexport const GROUP_LIMITS = { pair: 2 };\n`,
);

test(
  'npm test runs its table two steps at a time, alone and grouped steps apart, and ends with the totals',
  { timeout: 60_000 },
  async () => {
    const child = spawn(process.execPath, [join(root, 'test/harness/test.mjs')], {
      cwd: root,
      env: { ...process.env, VP_TEST_STEPS: table, VP_TEST_JOBS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));

    // Twelve checks and the leftover check pass; three of four counted by 'totals'; `fails` and `quiet`
    // fail, and so does the fourth of 'counts'.
    const lines = output.trimEnd().split('\n');
    assert.equal(lines.at(-1), '16 passed, 3 failed', output);
    assert.equal(code, 1);
    assert.match(output, /needs what failed: not run \(fails did not pass\)/);
    // The summary names the failing test first, however many error lines its step printed before it.
    const summary = output.slice(output.indexOf('== what failed, and why'));
    assert.match(
      summary,
      /fails:\n(( {2}ServiceError: logged on purpose \(\d+\)\n)+) {2}✖ the test that broke\n {4}Error: it broke\n/,
    );
    assert.ok(summary.split('\n').length < 45, summary);
    assert.match(summary, /quiet:\n {2}\[warn\] some-file\.mjs\n/);
    // Every step that ran has its row: wall seconds, CPU seconds, share.
    assert.match(output, /^step +seconds +CPU s +share$/m);
    for (const name of [
      'half-a',
      'half-b',
      'whole',
      'one',
      'two',
      'three',
      'alone',
      'x1',
      'x2',
      'fails',
      'counts',
      'g1',
      'g2',
      'g3',
    ])
      assert.match(output, new RegExp(`^${name} +\\d+\\.\\d +\\d+\\.\\d +\\d+\\.\\d%$`, 'm'), name);
    assert.doesNotMatch(output, /^needs what failed +\d/m);

    // The runs, from the steps' own notes: never more than two slots' worth at once (a half-slot step
    // counts half), `alone` with nothing beside it, x1 and x2 never together.
    const notes = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; what: string; at: string });
    const spans = new Map<string, [bigint, bigint]>();
    for (const { name, what, at } of notes) {
      const span = spans.get(name) ?? [0n, 0n];
      span[what === 'start' ? 0 : 1] = BigInt(at);
      spans.set(name, span);
    }
    assert.equal(spans.has('never'), false);
    const overlap = (a: string, b: string) => {
      const [startA, endA] = spans.get(a)!;
      const [startB, endB] = spans.get(b)!;
      return startA < endB && startB < endA;
    };
    const names = [...spans.keys()];
    for (const name of names.filter((other) => other !== 'alone'))
      assert.equal(overlap('alone', name), false, `alone ran beside ${name}`);
    assert.equal(overlap('x1', 'x2'), false, 'x1 and x2 ran together');
    assert.equal(overlap('g3', 'g1') || overlap('g3', 'g2'), false, 'three steps of a group of two ran together');
    for (const [at] of spans.values()) {
      const runningThen = names.filter((name) => spans.get(name)![0] <= at && at < spans.get(name)![1]);
      const share = (name: string) => (name.startsWith('half-') ? 0.5 : /^g\d$/.test(name) ? 0.25 : 1);
      const slots = runningThen.reduce((sum, name) => sum + share(name), 0);
      assert.ok(slots <= 2, `${runningThen.join(', ')} ran at once`);
    }
  },
);
