// The launchers' memory setting (launcher.ts): `video-plugin-service` started without
// MALLOC_ARENA_MAX serves from a second Node process that has it; an operator's value is kept; the
// launcher passes signals on, ends as its child ends, and its child does not outlive it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MALLOC_ARENA_MAX } from '../src/launcher.js';
import { follow } from './support/child-service.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The environment of process `pid`, from /proc. */
function environment(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(entries.map((entry) => entry.split(/=(.*)/s).slice(0, 2) as [string, string]));
}
/** The processes `pid` started that still run. */
function children(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}
const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** Runs `node [flags] script args` with MALLOC_ARENA_MAX as `arenas` (undefined: unset). */
function launch(script: string[], arenas: string | undefined, env: Record<string, string> = {}) {
  const { MALLOC_ARENA_MAX: _unset, ...inherited } = process.env;
  const child = spawn(process.execPath, script, {
    cwd: root,
    env: { ...inherited, ...(arenas === undefined ? {} : { MALLOC_ARENA_MAX: arenas }), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const banner = script[0] === 'scripts/start.mjs' ? /Local service +(http:\/\/\S+)/ : undefined;
  const { exited, listening, output } = follow(child, banner);
  after(() => {
    for (const pid of alive(child.pid!) ? children(child.pid!) : []) process.kill(pid, 'SIGKILL');
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, pid: child.pid!, exited, listening, output };
}
/** A hang detector, not a speed limit: a service starts in 1-5 s on a busy machine. */
const HANG = { timeout: 120_000 };
const cli = ['--import', 'tsx', 'packages/service/src/cli.ts', '--port', '0', '--media', 'placeholder'];

test(
  'without MALLOC_ARENA_MAX, the service runs in a second Node process with it set; SIGTERM stops both cleanly',
  HANG,
  async () => {
    const service = launch(cli, undefined);
    const url = await service.listening;
    const [server, ...more] = children(service.pid);
    assert.ok(server !== undefined && more.length === 0, `one child process, not ${more.length + 1}`);
    const env = environment(server);
    assert.equal(env.get('MALLOC_ARENA_MAX'), MALLOC_ARENA_MAX);
    assert.equal(MALLOC_ARENA_MAX, '2');
    // The same Node, flags and arguments (the script's path made absolute).
    assert.equal(
      readFileSync(`/proc/${server}/cmdline`, 'utf8'),
      [process.execPath, '--import', 'tsx', `${root}packages/service/src/cli.ts`, ...cli.slice(3), ''].join('\0'),
    );
    assert.equal(environment(service.pid).get('MALLOC_ARENA_MAX'), undefined);
    assert.equal((await fetch(`${url}/api/health`)).status, 200);
    service.child.kill('SIGTERM');
    assert.deepEqual(await service.exited, { code: 0, signal: null });
    assert.equal(alive(server), false);
    assert.match(service.output(), /listening on/);
  },
);

test('SIGINT from outside a terminal reaches the service, which stops cleanly (exit 0)', HANG, async () => {
  const service = launch(cli, undefined);
  await service.listening;
  const [server] = children(service.pid);
  service.child.kill('SIGINT');
  assert.deepEqual(await service.exited, { code: 0, signal: null });
  assert.equal(alive(server!), false);
});

/** util-linux's `script`, which runs a command on a terminal of its own (Debian: bsdutils). */
const script = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path));
test(
  'on a terminal, Ctrl+C is not passed on (the terminal sends it to both processes) and stops the service cleanly',
  { ...HANG, skip: script ? false : 'no `script` (util-linux) to give the command a terminal' },
  async () => {
    const { MALLOC_ARENA_MAX: _unset, ...inherited } = process.env;
    /**
     * Runs `command` on a terminal of its own; script -e ends with the command's exit status. script
     * runs it through $SHELL -c, and the shell execs it, as an interactive shell's job is the
     * terminal's foreground group alone: dash (Debian's sh, CI's $SHELL) does not exec a lone
     * command by itself, and would take the Ctrl+C meant for the command and end with 130.
     */
    const onTerminal = (command: string[]) => {
      const child = spawn(script!, ['-qefc', `exec ${command.join(' ')}`, '/dev/null'], {
        cwd: root,
        env: inherited,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      after(() => child.kill('SIGKILL'));
      return { child, ...follow(child) };
    };
    // The launcher's judgement, on a terminal and off it: once delivered by the terminal, a second
    // SIGINT passed on would be the service's "stop now" (exit 1), and which comes first is a race.
    const judge = [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      "const { terminalSignalsReachChild: reach } = await import('./packages/service/src/launcher.ts'); console.log('reach: ' + reach())",
    ];
    const judged = onTerminal([process.execPath, ...judge.slice(0, -1), `"${judge.at(-1)!}"`]);
    assert.deepEqual(await judged.exited, { code: 0, signal: null }, judged.output());
    assert.match(judged.output(), /reach: true/);
    const offTerminal = spawn(process.execPath, judge, { cwd: root });
    let off = '';
    offTerminal.stdout.on('data', (chunk: Buffer) => (off += chunk));
    await new Promise((resolve) => offTerminal.once('close', resolve));
    assert.match(off, /reach: false/);

    const service = onTerminal([process.execPath, ...cli]);
    await service.listening;
    service.child.stdin.write('\x03'); // the terminal's interrupt character: SIGINT to its foreground group
    const exit = await service.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, `ended with ${JSON.stringify(exit)}:\n${service.output()}`);
  },
);

test('an operator’s MALLOC_ARENA_MAX is kept, in one process, even an empty one', HANG, async () => {
  for (const value of ['8', '']) {
    const service = launch(cli, value);
    await service.listening;
    assert.deepEqual(children(service.pid), []);
    assert.equal(environment(service.pid).get('MALLOC_ARENA_MAX'), value);
    service.child.kill('SIGTERM');
    assert.deepEqual(await service.exited, { code: 0, signal: null });
  }
});

test('the launcher ends with its child’s exit code (a usage error: 2)', HANG, async () => {
  const service = launch(['--import', 'tsx', 'packages/service/src/cli.ts', '--port', 'eighty'], undefined);
  assert.deepEqual(await service.exited, { code: 2, signal: null });
  assert.match(service.output(), /--port/);
});

test(
  'SIGTERM to the whole process group (systemd, a test harness) stops the service cleanly, its temporary files gone',
  HANG,
  async () => {
    // The launcher passes SIGTERM on, so the service gets it twice: the second must not cut the stop
    // short (it did: exit 1, and the temporary media folder stayed behind).
    const tmp = mkdtempSync(join(tmpdir(), 'video-plugin-launcher-'));
    after(() => rmSync(tmp, { recursive: true, force: true }));
    const { MALLOC_ARENA_MAX: _unset, ...inherited } = process.env;
    const child = spawn(process.execPath, cli, {
      cwd: root,
      env: { ...inherited, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    after(() => void (alive(child.pid!) && process.kill(-child.pid!, 'SIGKILL')));
    const service = follow(child);
    await service.listening;
    assert.equal(children(child.pid!).length, 1);
    assert.ok(
      readdirSync(tmp).some((name) => name.startsWith('video-plugin-media-')),
      readdirSync(tmp).join(', '),
    );
    process.kill(-child.pid!, 'SIGTERM');
    assert.deepEqual(await service.exited, { code: 0, signal: null }, service.output());
    assert.deepEqual(
      readdirSync(tmp).filter((name) => name.startsWith('video-plugin-')),
      [],
    );
  },
);

test('a launcher killed outright (SIGKILL) does not leave its service running', HANG, async () => {
  const service = launch(cli, undefined);
  await service.listening;
  const [server] = children(service.pid);
  assert.ok(server !== undefined);
  // Not the launcher's child any more once it is killed: ended here if this test fails.
  after(() => void (alive(server) && process.kill(server, 'SIGKILL')));
  // The service writes to the launcher's stdout: the pipe closes once the service has ended too.
  const closed = new Promise((resolve) => service.child.stdout.once('close', resolve));
  service.child.kill('SIGKILL');
  assert.deepEqual(await service.exited, { code: null, signal: 'SIGKILL' });
  await closed;
});

const built = existsSync(new URL('../../../dist/service/launcher.js', import.meta.url));
test(
  '`npm start` (scripts/start.mjs) runs the service and the demo in a second process with MALLOC_ARENA_MAX',
  { ...HANG, skip: built ? false : 'dist/ is not built: run `npm run build` first (npm test does)' },
  async () => {
    const start = launch(['scripts/start.mjs'], undefined, { VIDEO_PLUGIN_PORT: '0', DEMO_PORT: '0' });
    await start.listening;
    const [server] = children(start.pid);
    assert.ok(server !== undefined);
    assert.equal(environment(server).get('MALLOC_ARENA_MAX'), MALLOC_ARENA_MAX);
    start.child.kill('SIGTERM');
    assert.deepEqual(await start.exited, { code: 0, signal: null });
  },
);
