// A web-test-runner plugin that plays a bad network and a restarting service for the fault tests.
// It runs the real service as its own process (the `video-plugin-service` command, with --data),
// and in front of it a small HTTP proxy whose behaviour the tests switch:
//   POST /__faults/mode  {mode:'ok'|'down'|'500'|'slow', delayMs?, path?}
//     ok    forward everything
//     down  the network is gone: every open connection (WebSockets too) is cut, new ones are reset
//     500   every /api/ request and WebSocket upgrade is answered 500 by a gateway (an HTML body,
//           not the service's JSON); open WebSockets are cut. With `path`, only requests whose
//           path starts with it, and no WebSocket is touched
//     slow  answers to requests whose path starts with `path` (default /api/) wait delayMs first
//           (WebSockets pass as they are)
//   GET  /__faults/counts: {held, refused}: the answers `slow` holds back now; those `500` gave
//   POST /__faults/cut: cuts the open WebSockets (a dropped connection), the mode stays
//   POST /__faults/stop, /__faults/start, /__faults/restart: stop (SIGTERM) and start the service
//     process again on the same port with the same data file; `/__faults/restart {data:'fresh'}`
//     starts it on a new, empty data file (a service that lost its data: every session unknown),
//     `{data:'original'}` back on the first one, `{data:'no-sessions'}` on the same file with its
//     sessions deleted (the service ended every session but keeps the accounts)
//   GET  /__faults/config: {proxyURL, directURL (the service itself), closedURL (nothing listens), jobMs}
//   GET  /__faults/refusing: {serviceURL, partnerID, allowedOrigin} of another service process (started
//     at the first ask) whose one partner allows only http://localhost:4000: its plugin page's
//     frame-ancestors refuse every test page, as in issue 28's repro
// and the server command `fault-frame` {channel, action:'reload'|'navigate', url?}, which makes the
// service's iframe reload itself or go to another page, from inside, as its own script would.
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../free-port.mjs';
import { TEST_PARTNERS } from './service-plugin.mjs';

/** Job length of the faulty service: long enough to act while a generation is PENDING or PROCESSING. */
const JOB_MS = 3000;
const BIN = fileURLToPath(new URL('../../../packages/service/bin/video-plugin-service.js', import.meta.url));

/** The partner of the refusing service, and the only origin it allows (the repro of issue 28). */
const REFUSING = {
  id: 'mkt-platform',
  secret: 'mkt-platform-secret-0123456789abcdef',
  origin: 'http://localhost:4000',
};

/**
 * Starts the service command (the faulty service, or with `refusing` a service whose one partner
 * allows no test origin, so that its frame-ancestors stop the test page's frame); resolves with the
 * process and its port once it listens.
 */
function startProcess(port, dataFile, refusing = false) {
  const partner = refusing ? REFUSING : TEST_PARTNERS[0];
  const args = [
    BIN,
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--allow-loopback-sources',
    '--media',
    'placeholder',
  ];
  args.push('--partner', partner.id);
  args.push('--secret', partner.secret, '--job-ms', String(JOB_MS), '--data', dataFile);
  if (refusing) args.push('--allowed-origin', REFUSING.origin);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Ended with web-test-runner even when it exits without serverStop (Ctrl-C: found left running).
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`the faulty service exited (${code}) before listening:\n${output}`)));
  });
}

function stopProcess(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

/** The proxy in front of the service: it forwards, delays or fails, as `mode` says. */
function startProxy(target) {
  let mode = { mode: 'ok' };
  /** Answers the `slow` mode holds back now (the service has answered; the page has not been told). */
  let held = 0;
  /** Requests the `500` mode has answered so far. */
  let refused = 0;
  const sockets = new Set();
  const server = createServer((req, res) => {
    const current = mode;
    if (current.mode === 'down') {
      req.socket.destroy();
      return;
    }
    if (current.mode === '500' && req.url.startsWith(current.path ?? '/api/')) {
      refused++;
      res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>500 Internal Server Error</h1>');
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        const forward = () => {
          if (res.destroyed) return;
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
        };
        const delayed = current.mode === 'slow' && req.url.startsWith(current.path ?? '/api/');
        if (!delayed) return forward();
        held++;
        setTimeout(() => {
          held--;
          forward();
        }, current.delayMs);
      },
    );
    // The service is not there (stopped): the connection fails, as a refused one would.
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  // WebSockets (the page's status socket): the request head is written to the service as it came,
  // then bytes go both ways untouched. Either side closing closes the other.
  const upgraded = new Set();
  const cut = () => {
    for (const socket of upgraded) socket.destroy();
  };
  server.on('upgrade', (req, socket, head) => {
    const current = mode;
    if (current.mode === 'down') {
      socket.destroy();
      return;
    }
    if (current.mode === '500' && current.path === undefined && req.url.startsWith('/api/')) {
      const body = '<h1>500 Internal Server Error</h1>';
      socket.end(
        `HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/html\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const upstream = connect(target.port, '127.0.0.1', () => {
      let text = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) text += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      upstream.write(`${text}\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upgraded.add(socket);
    socket.once('close', () => {
      upgraded.delete(socket);
      upstream.destroy();
    });
    // The service is not there (stopped): the connection fails, as a refused one would.
    upstream.once('close', () => socket.destroy());
    upstream.on('error', () => {});
    socket.on('error', () => {});
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        counts: () => ({ held, refused }),
        setMode(next) {
          mode = next;
          if (next.mode === 'down') for (const socket of sockets) socket.destroy();
          if (next.mode === '500' && next.path === undefined) cut();
        },
        cut,
        close() {
          for (const socket of sockets) socket.destroy();
          return new Promise((done) => server.close(() => done()));
        },
      }),
    );
  });
}

export function faultPlugin() {
  let dir;
  let dataFile;
  let originalFile;
  let fresh = 0;
  let service;
  let target = { port: 0 };
  let proxy;
  let closedURL;
  /** The refusing service, started by the first test that asks for it. */
  let refusing;

  const start = async () => {
    if (service?.child.exitCode === null) return;
    service = await startProcess(target.port, dataFile);
    target.port = service.port;
  };
  const stop = async () => {
    await stopProcess(service?.child);
  };

  return {
    name: 'video-plugin-faults',
    async serverStart() {
      dir = await mkdtemp(join(tmpdir(), 'video-plugin-faults-'));
      const folder = dir;
      process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
      originalFile = dataFile = join(dir, 'state.db');
      await start();
      proxy = await startProxy(target);
      closedURL = `http://127.0.0.1:${await freePort()}`;
    },
    async serverStop() {
      await Promise.all([proxy?.close(), stop(), refusing?.then(({ child }) => stopProcess(child))]);
      if (dir) await rm(dir, { recursive: true, force: true });
    },
    async serve(context) {
      if (!context.path.startsWith('/__faults/')) return undefined;
      const json = (value) => ({ body: JSON.stringify(value), type: 'application/json' });
      if (context.path === '/__faults/config') {
        return json({
          proxyURL: `http://127.0.0.1:${proxy.port}`,
          directURL: `http://127.0.0.1:${target.port}`,
          closedURL,
          jobMs: JOB_MS,
        });
      }
      if (context.path === '/__faults/refusing') {
        refusing ??= startProcess(0, join(dir, 'refusing.db'), true);
        const { port } = await refusing;
        return json({ serviceURL: `http://127.0.0.1:${port}`, partnerID: REFUSING.id, allowedOrigin: REFUSING.origin });
      }
      if (context.path === '/__faults/counts') return json(proxy.counts());
      if (context.method !== 'POST') return undefined;
      if (context.path === '/__faults/mode') {
        proxy.setMode(await readBody(context.req));
        return json({ ok: true });
      }
      if (context.path === '/__faults/cut') proxy.cut();
      else if (context.path === '/__faults/stop') await stop();
      else if (context.path === '/__faults/start') await start();
      else if (context.path === '/__faults/restart') {
        const { data } = await readBody(context.req);
        await stop();
        if (data === 'fresh') dataFile = join(dir, `fresh-${++fresh}.db`);
        if (data === 'original') dataFile = originalFile;
        if (data === 'no-sessions') {
          const db = new Database(dataFile);
          db.exec('DELETE FROM sessions');
          db.close();
        }
        await start();
      } else return undefined;
      return json({ ok: true });
    },
  };
}
