// What a test run leaves behind, and how its steps are stopped so that they leave nothing.
//
// `npm test` (test/harness/test.mjs) marks its run: every process it starts, and everything those start
// (PHP's forked workers, the database server, the local service, browsers, their drivers, Xvfb),
// inherits `VIDEO_PLUGIN_TEST_RUN=<id>` in its environment, and `TMPDIR` pointing at a folder of
// the run's own. At the end, a process that still carries the mark, or anything left in that
// folder, is a leftover: listed, stopped or removed, and the run fails.
import { lstatSync, readFileSync, readdirSync, readlinkSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The environment variable that marks a run's processes. */
export const RUN_MARK = 'VIDEO_PLUGIN_TEST_RUN';

/** Processes (other than this one) whose environment carries `RUN_MARK=mark`: pid and command line. */
export function markedProcesses(mark) {
  const wanted = `${RUN_MARK}=${mark}`;
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(wanted)) continue;
      const command = readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0').join(' ').trim();
      // A zombie (exited, not yet reaped by its parent) holds nothing: not a leftover.
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${name}/status`, 'latin1'))?.[1];
      if (state !== 'Z') found.push({ pid: Number(name), command });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * What the tools of a run keep in its TMPDIR by design, removed with the folder: the compile caches
 * of tsx, Playwright and Node (module.enableCompileCache, Node 22 and later), and libpulse's runtime
 * folder (`pulse-*`: a browser's audio client makes it there when XDG_RUNTIME_DIR is unset, as on a
 * CI machine, and links it from ~/.config/pulse; see removeLinksInto).
 */
const BY_DESIGN = /^((tsx|playwright-transform-cache)-\d+|node-compile-cache|pulse-[A-Za-z0-9]+)$/;

/** The entries of a run's TMPDIR that are leftovers: everything but what is kept there by design. */
export function leftoverFiles(runTmp) {
  try {
    return readdirSync(runTmp).filter((name) => !BY_DESIGN.test(name));
  } catch {
    return []; // Removed already.
  }
}

/**
 * Removes the links in `folder` (default ~/.config/pulse, where libpulse links its runtime folder)
 * that point into `runTmp`: once the run's folder is gone they would dangle. Returns their paths.
 */
export function removeLinksInto(runTmp, folder = join(homedir(), '.config/pulse')) {
  const removed = [];
  let names;
  try {
    names = readdirSync(folder);
  } catch {
    return removed; // No such folder: nothing linked.
  }
  const inside = resolve(runTmp) + '/';
  for (const name of names) {
    const path = join(folder, name);
    try {
      if (!lstatSync(path).isSymbolicLink() || !resolve(folder, readlinkSync(path)).startsWith(inside)) continue;
      unlinkSync(path);
      removed.push(path);
    } catch {
      // Gone meanwhile.
    }
  }
  return removed;
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

/**
 * Stops a child started with `detached: true` (its own process group) and everything in its group:
 * SIGTERM to the group, then SIGKILL to whatever of the group is still there after `graceMs`.
 * Resolves when the child has exited.
 */
export async function stopGroup(child, graceMs = 5000) {
  if (!child?.pid) return;
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // The group is empty.
    }
  };
  const done = exited(child) ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
  signal('SIGTERM');
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, graceMs, 'late')));
  const outcome = await Promise.race([done, late]);
  clearTimeout(timer);
  // The group's other members (forked workers) may outlive the leader: SIGKILL what is left.
  signal('SIGKILL');
  if (outcome === 'late') await done;
}
