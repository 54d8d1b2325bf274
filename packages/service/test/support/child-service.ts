// The service as its own process (the `video-plugin-service` command, run from source), for the
// tests that kill it, start two on one data file, or read what it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MALLOC_ARENA_MAX } from '../../src/launcher.js';
import { PARTNER, SECRET, WEBHOOK_SECRET } from './helpers.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

export interface ChildService {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves once it has exited: its exit code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with its URL once it prints its banner; rejects if it exits first. */
  readonly listening: Promise<string>;
  /** Resolves with the first match of `pattern` in what it printed, as soon as it is printed. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
}

/**
 * Runs `video-plugin-service` with the test partner, placeholder media, any free port, searches of
 * the test sites on loopback allowed, and `args`. Killed after the test file if still running.
 */
export function runService(args: string[]): ChildService {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'packages/service/src/cli.ts',
      '--port',
      '0',
      '--partner',
      PARTNER,
      '--secret',
      SECRET,
      '--webhook-secret',
      WEBHOOK_SECRET,
      '--media',
      'placeholder',
      '--allow-loopback-sources',
      ...args,
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        VIDEO_PLUGIN_PORT: '',
        VIDEO_PLUGIN_PARTNER_ID: '',
        VIDEO_PLUGIN_SECRET: '',
        VIDEO_PLUGIN_WEBHOOK_SECRET: '',
        VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: '',
        // One process, as a launcher gives it (launcher.ts): a SIGKILL then kills the service itself.
        MALLOC_ARENA_MAX,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const { output, exited, listening, printed } = follow(child);
  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, pid: child.pid as number, output, exited, listening, printed };
}

/**
 * What a service command started as `child` (with piped stdout and stderr) prints, when it exits,
 * and its URL once its banner is out: `banner`'s first group, in a banner that ends with "Ctrl+C"
 * (the command) or "Ctrl-C" (`npm start`).
 */
export function follow(
  child: ChildProcess,
  banner = /listening on (http:\/\/\S+)/,
): Pick<ChildService, 'output' | 'exited' | 'listening' | 'printed'> {
  let output = '';
  const waiting = new Set<() => void>();
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve) => {
      const look = () => {
        const match = pattern.exec(output);
        if (!match) return;
        waiting.delete(look);
        resolve(match);
      };
      waiting.add(look);
      look();
    });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const listening = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      for (const look of [...waiting]) look();
      const url = banner.exec(output)?.[1];
      if (url && /Ctrl[+-]C/.test(output)) resolve(url);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(({ code, signal }) =>
      reject(new Error(`the service exited (${code ?? signal}) before listening:\n${output}`)),
    );
  });
  listening.catch(() => {}); // only the callers that wait for it care
  return { output: () => output, exited, listening, printed };
}
