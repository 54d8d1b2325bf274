/**
 * `startService()`: the local service in-process — used by the `video-plugin-service` command, by
 * `npm start`, and by the test runners. It wires the store, the jobs, the status streams and socket
 * and the routes into one `node:http` server. Every request is handled inside a try/catch, so a bad
 * request costs one error answer, never the process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotFoundError } from '../errors.js';
import { handleApi } from './api.js';
import { resolveConfig } from './config.js';
import { sendError } from './http.js';
import { Jobs } from './jobs.js';
import { Live } from './live.js';
import { serveAsset, serveMedia, servePluginPage } from './static.js';
import { Store } from './store.js';
import { Streams } from './stream.js';
export { DEMO_PARTNER_ID, DEMO_SECRET, DEFAULT_ALLOWED_ORIGINS } from './config.js';
/**
 * Starts the local service and resolves once it listens.
 *
 * @param options - see {@link ServiceOptions}; e.g. `{ port: 0, jobMs: 100 }` in tests.
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad option; or the listen error
 *   (e.g. `EADDRINUSE`).
 */
export async function startService(options = {}) {
  const config = resolveConfig(options);
  const store = await Store.open(config.dataFile);
  // Real media needs a folder: the configured one, or a temporary one that lives as long as this.
  const temporaryMedia = config.media === 'real' && !config.mediaDir;
  const mediaDir = temporaryMedia ? await mkdtemp(join(tmpdir(), 'video-plugin-media-')) : (config.mediaDir ?? '');
  const jobs = new Jobs(store, { ...config, mediaDir });
  let origin = '';
  const streams = new Streams(store, { heartbeatMs: config.heartbeatMs, baseURL: () => origin });
  const ctx = { config, store, jobs, streams, baseURL: () => origin, mediaDir };
  const live = new Live(config, store, streams, () => origin);
  const server = createServer((req, res) => {
    handle(req, res, ctx).catch((error) => sendError(res, error));
  });
  server.on('upgrade', (req, socket, head) => live.upgrade(req, socket, head));
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address();
  origin = `http://${displayHost(config.host)}:${port}`;
  jobs.resume();
  let closing;
  return {
    url: origin,
    origin,
    port,
    partners: [...config.partners.values()].map((partner) => ({
      id: partner.id,
      secret: partner.secret,
      allowedOrigins: partner.allowedOrigins.map((pattern) => pattern.source),
    })),
    jobMs: config.jobMs,
    dataFile: config.dataFile,
    stats: () => ({
      accounts: store.accounts.size,
      sessions: store.sessions.size,
      topics: store.topics.size,
      generations: store.generations.size,
      videos: store.videos.size,
      usedJtis: store.usedJtis.size,
      streams: streams.size + live.size,
      listeners: store.listenerCount,
      jobs: jobs.running,
      connections: sockets.size,
    }),
    close() {
      closing ??= (async () => {
        jobs.close();
        streams.endAll();
        await live.closeAll();
        const closed = new Promise((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await store.close();
        if (temporaryMedia) await rm(mediaDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
async function handle(req, res, ctx) {
  const url = new URL(req.url ?? '/', 'http://service.invalid');
  const path = url.pathname;
  if (path === '/api' || path.startsWith('/api/')) return handleApi(req, res, url, ctx);
  if (req.method === 'GET' || req.method === 'HEAD') {
    if (path === '/plugin') return servePluginPage(res, ctx.config);
    if (path === '/') {
      // For a person who opens the service's address in a browser.
      const text =
        'video-plugin local service\n\nPlugin page: /plugin (opened by the Plugin in its iframe)\nHealth: /api/health\nAPI: see docs/service.md in the video-plugin package\n';
      res
        .writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
        .end(text);
      return;
    }
    if (path.startsWith('/assets/')) return serveAsset(req, res, path, ctx.config);
    if (path.startsWith('/media/')) return serveMedia(req, res, path, ctx.store, ctx.mediaDir);
  }
  throw new NotFoundError('not_found', `Nothing is served at ${req.method} ${path}.`);
}
/** The host as it appears in a URL: a wildcard address is reached through loopback. */
function displayHost(host) {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
//# sourceMappingURL=server.js.map
