// bench/load.mjs's service: the `video-plugin-service` command as its own process, on 127.0.0.1,
// with its inspector on loopback, and what the bench reads of it: /proc/<pid> (open files,
// resident memory) and the JavaScript heap after a full garbage collection.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const BIN = fileURLToPath(new URL('../../packages/service/bin/video-plugin-service.js', import.meta.url));

/**
 * Starts the service with a SQLite --data file in `work`, the one partner, and `env` over this
 * process's environment; returns the child at once, so that the caller can kill it whatever
 * happens next (`connectService` waits for it to listen).
 */
export function spawnService({ work, partner, secret, mallocArenaMax, env }) {
  const dataFile = join(work, 'service.db');
  return spawn(
    process.execPath,
    [
      '--inspect=127.0.0.1:0',
      BIN,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      // The searched site runs on this machine.
      '--allow-loopback-sources',
      '--partner',
      partner,
      '--secret',
      secret,
      '--data',
      dataFile,
      '--job-ms',
      '1000',
    ],
    // MALLOC_ARENA_MAX as the command's launcher sets it, here given: the service is then this one
    // process (its /proc and its inspector), not a launcher and its child (launcher.ts).
    { stdio: ['ignore', 'pipe', 'pipe'], env: { MALLOC_ARENA_MAX: mallocArenaMax, ...process.env, ...env } },
  );
}

/**
 * Waits for the service `child` to listen and connects to its inspector; resolves with its URL and
 * the readings of its resources.
 */
export async function connectService(child) {
  let serviceLog = '';
  child.stderr.on('data', (chunk) => (serviceLog += chunk));
  const base = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}):\n${output}${serviceLog}`)));
  });

  /** The service's inspector session: `send(method, params)` resolves with the result. */
  const inspector = await new Promise((resolve, reject) => {
    const find = () => {
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(serviceLog);
      if (!match) return setTimeout(find, 50);
      const socket = new WebSocket(match[1]);
      let id = 0;
      const waiting = new Map();
      socket.addEventListener('message', (event) => {
        const message = JSON.parse(event.data);
        waiting.get(message.id)?.(message.result);
        waiting.delete(message.id);
      });
      socket.addEventListener('error', reject);
      socket.addEventListener('open', () =>
        resolve({
          send: (method, params = {}) =>
            new Promise((done) => {
              waiting.set(++id, done);
              socket.send(JSON.stringify({ id, method, params }));
            }),
          close: () => socket.close(),
        }),
      );
    };
    find();
  });

  /** The service's JavaScript heap in use after a full garbage collection, in MB. */
  async function heapAfterGC() {
    await inspector.send('HeapProfiler.collectGarbage');
    const { result } = await inspector.send('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed' });
    return Math.round(result.value / 1048576);
  }

  /**
   * The service's memory split: RSS, the JavaScript heap in use after a full collection, and the
   * native memory (RSS less the V8 heap's own pages: libvips, SQLite, WebAssembly memories, buffers,
   * the allocator's arenas), in MB.
   */
  async function memorySplit() {
    await inspector.send('HeapProfiler.collectGarbage');
    const { result } = await inspector.send('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
    });
    const usage = JSON.parse(result.value);
    const MB = (bytes) => Math.round(bytes / 1048576);
    return {
      rssMB: MB(usage.rss),
      heapAfterGCMB: MB(usage.heapUsed),
      nativeMB: MB(usage.rss - usage.heapTotal),
      externalMB: MB(usage.external),
    };
  }

  /** Open files and resident memory of the service process. */
  function serviceResources() {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kB = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { openFiles: readdirSync(`/proc/${child.pid}/fd`).length, rssMB: Math.round(kB('VmRSS') / 1024) };
  }

  /**
   * The service's open files and memory once it is idle: its running jobs done (the soak's renders)
   * and idle keep-alive connections closed (the server closes them after 5 s). Unchanged for 6 s, at
   * most 5 minutes.
   */
  async function settledResources() {
    let last = serviceResources();
    let steady = 0;
    for (let i = 0; i < 600 && steady < 12; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = serviceResources();
      steady = now.openFiles === last.openFiles ? steady + 1 : 0;
      last = now;
    }
    return { ...last, heapAfterGCMB: await heapAfterGC() };
  }
  return { base, inspector, heapAfterGC, memorySplit, serviceResources, settledResources };
}
