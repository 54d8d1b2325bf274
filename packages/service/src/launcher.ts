/**
 * The launchers' memory setting (`video-plugin-service`, `npm start`, `npm run bench:render`): on
 * Linux with glibc, Node runs once more, as a child process, with `MALLOC_ARENA_MAX` set, when it
 * is unset. glibc gives each thread that allocates its own malloc arena, up to 8 per core, and
 * keeps their freed memory (sharp/libvips, pango, the eSpeak worker, libuv's pool): two arenas
 * bring Node's peak during 20 generations at once under the 400 MB target (298–380 MB against
 * 395–421 MB with glibc's default; BENCHMARKS.md, "The local service's renderer", the run of
 * 2026-11-27 on branch `mem`). glibc reads the variable only when a process starts, hence the
 * second process. What a partner sees: docs/service.md, "Memory".
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';

/** glibc's malloc arenas for the service's process (`MALLOC_ARENA_MAX`), unless the environment sets it. */
export const MALLOC_ARENA_MAX = '2';

/** Set in the child's environment (and removed from it there): it runs under a launcher. */
const LAUNCHED = 'VIDEO_PLUGIN_LAUNCHED';

/** Whether this process runs on glibc, which reads `MALLOC_ARENA_MAX` (musl and other systems do not). */
function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return Boolean(report.header?.glibcVersionRuntime);
}

/**
 * Whether a terminal's Ctrl+C (SIGINT) or hang-up (SIGHUP) reaches the child by itself: this
 * process reads a terminal and is in its foreground process group, which the child shares. Then
 * passing the signal on would deliver it twice, and the command takes a second Ctrl+C as "stop
 * now, without waiting".
 */
export function terminalSignalsReachChild(): boolean {
  if (!isatty(0)) return false;
  try {
    // /proc/self/stat after the command's name: state, ppid, pgrp, session, tty_nr, tpgid.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return fields[2] === fields[5];
  } catch {
    return false;
  }
}

/**
 * Runs this same command again (the same Node, flags and arguments) in a child process with
 * `MALLOC_ARENA_MAX` set, when glibc reads it and `env` does not set it (any value the operator
 * sets, even an empty one, is kept and nothing is started again). Returns true when it did: the
 * caller must then do nothing more; this process passes SIGTERM (and SIGINT, SIGHUP when they
 * did not come from the terminal) on to the child and ends as the child ends, with its exit code
 * or signal; if it is killed, the child stops as on SIGTERM. Returns false when the caller should
 * go on in this process (and in the child, which is how it knows it is one).
 */
export function relaunchWithArenaLimit(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[LAUNCHED] !== undefined) {
    // The child: whatever ends the launcher (even SIGKILL) closes their channel; stop as on SIGTERM
    // then, rather than serve on alone with nobody to stop it.
    delete env[LAUNCHED];
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
    process.channel?.unref();
    return false;
  }
  if (env.MALLOC_ARENA_MAX !== undefined || !onGlibc()) return false;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...env, MALLOC_ARENA_MAX, [LAUNCHED]: '1' },
  });
  const fromTerminal = terminalSignalsReachChild();
  const pass = (signal: NodeJS.Signals): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const handlers = {
    SIGTERM: () => pass('SIGTERM'),
    SIGINT: () => fromTerminal || pass('SIGINT'),
    SIGHUP: () => fromTerminal || pass('SIGHUP'),
  };
  for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
  child.on('error', (error) => {
    console.error(
      `${process.argv[1]}: could not start Node again with MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX}: ${error.message}. Set MALLOC_ARENA_MAX yourself (e.g. MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX}) to run in one process.`,
    );
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ended by a signal: end the same way, so that whoever started this process sees it.
    for (const [name, handler] of Object.entries(handlers)) process.off(name, handler);
    process.kill(process.pid, signal);
  });
  return true;
}
