// The one test command (`npm test`, and what .ci/run runs): type check, lint, build, the Node
// suites, the browser suites and the size budget. Prints `N passed, N failed[, N skipped]` last
// and exits non-zero on any failure.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

/** Runs a command, echoing its output; resolves to {code, output}. */
function run(command, args, { env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let output = '';
    const echo = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', echo(process.stdout));
    child.stderr.on('data', echo(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** A check that is not a test suite counts as one test: it passed or it failed. */
async function check(name, command, args) {
  console.log(`\n== ${name}`);
  const { code } = await run(command, args);
  if (code === 0) totals.passed++;
  else {
    totals.failed++;
    failedSteps.push(name);
  }
  return code === 0;
}

const npx = (tool, ...args) => ['npx', ['--no-install', tool, ...args]];

await check('typecheck', ...npx('tsc', '-p', 'tsconfig.json', '--noEmit'));
await check('lint', 'npm', ['run', '--silent', 'lint']);
const built = await check('build', 'npm', ['run', '--silent', 'build']);
if (built) await check('size budget (npm run size)', 'node', ['scripts/size.mjs']);

console.log('\n== node tests');
// Node 20's --test does not expand globs: list the files here.
const nodeTests = readdirSync('test/node')
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/node/${name}`);
const node = await run('node', ['--import', 'tsx', '--test', '--test-reporter=spec', ...nodeTests]);
const count = (label) => Number(node.output.match(new RegExp(`^ℹ ${label} (\\d+)`, 'm'))?.[1] ?? 0);
totals.passed += count('pass');
totals.failed += count('fail') + count('cancelled');
totals.skipped += count('skipped') + count('todo');
if (node.code !== 0 && count('fail') + count('cancelled') === 0) {
  totals.failed++;
  failedSteps.push('node tests (runner failed)');
} else if (count('fail') + count('cancelled') > 0) failedSteps.push('node tests');

if (built) {
  console.log('\n== browser tests');
  rmSync('.test-results/browser.json', { force: true });
  const browser = await run('npx', ['--no-install', 'web-test-runner']);
  let counted;
  try {
    counted = JSON.parse(readFileSync('.test-results/browser.json', 'utf8'));
  } catch {
    counted = undefined;
  }
  if (counted) {
    totals.passed += counted.passed;
    totals.failed += counted.failed;
    totals.skipped += counted.skipped;
  }
  if (browser.code !== 0 && (!counted || counted.failed === 0)) {
    totals.failed++;
    failedSteps.push('browser tests (runner failed)');
  } else if (counted?.failed) failedSteps.push('browser tests');
}

console.log('');
if (failedSteps.length) console.log(`failed: ${failedSteps.join(', ')}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed === 0 && failedSteps.length === 0 ? 0 : 1);
