// The partner demo's own small web server — what a partner's site would run:
// - its pages (the demo page, and a sample "business website" that topic searches can read offline),
// - the CDN build of video-plugin, served from this site,
// - a token endpoint that mints account and login tokens with `video-plugin/server`, so that the
//   partner secret stays on the server and never reaches the browser.
//
// `npm start` runs it beside the local service (scripts/start.mjs). Alone:
//   VIDEO_PLUGIN_SERVICE_URL=http://127.0.0.1:8001 node demo/server.mjs
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createAccountToken, loginAccountToken } from 'video-plugin/server';

/** The `integrity` value (sha384) of a built file, as `npm run sri` prints it. */
async function integrityOf(file) {
  return `sha384-${createHash('sha384')
    .update(await readFile(file))
    .digest('base64')}`;
}

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** What each path serves: a file of the demo, or the built CDN bundle. */
const FILES = {
  '/': [here('./index.html'), 'text/html; charset=utf-8'],
  '/app.js': [here('./app.js'), 'text/javascript; charset=utf-8'],
  '/style.css': [here('./style.css'), 'text/css; charset=utf-8'],
  '/favicon.svg': [here('./favicon.svg'), 'image/svg+xml'],
  '/vendor/video-plugin.min.js': [here('../dist/cdn/video-plugin.min.js'), 'text/javascript; charset=utf-8'],
  '/vendor/video-plugin.min.js.map': [here('../dist/cdn/video-plugin.min.js.map'), 'application/json'],
  '/vendor/video-plugin.module.min.js': [
    here('../dist/cdn/video-plugin.module.min.js'),
    'text/javascript; charset=utf-8',
  ],
  '/vendor/video-plugin.module.min.js.map': [here('../dist/cdn/video-plugin.module.min.js.map'), 'application/json'],
  // video-plugin/diagnose, which the page imports only when its Diagnose button is clicked.
  '/vendor/video-plugin-diagnose.module.min.js': [
    here('../dist/cdn/video-plugin-diagnose.module.min.js'),
    'text/javascript; charset=utf-8',
  ],
  '/vendor/video-plugin-diagnose.module.min.js.map': [
    here('../dist/cdn/video-plugin-diagnose.module.min.js.map'),
    'application/json',
  ],
  '/business/': [here('./business/index.html'), 'text/html; charset=utf-8'],
  // Photos as a real site has them (JPEG): the local service puts them into the videos.
  '/business/storefront.jpg': [here('./business/storefront.jpg'), 'image/jpeg'],
  '/business/beans.jpg': [here('./business/beans.jpg'), 'image/jpeg'],
};

/** Largest JSON body the token endpoint reads. */
const MAX_BODY = 16 * 1024;

/** The hosted services' origins, allowed as frames when the page switches `environment`. */
const HOSTED_ORIGINS = ['https://app.video-plugin.example', 'https://demo.video-plugin.example'];

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function readJson(req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, `The body is larger than ${MAX_BODY} bytes.`);
    chunks.push(chunk);
  }
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
    return body;
  } catch {
    throw new HttpError(400, 'The body must be a JSON object.');
  }
}

function send(res, status, body, headers = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

/**
 * Starts the demo site.
 * @param {object} options
 * @param {number} [options.port] - default 8000; 0 picks a free port.
 * @param {string} options.serviceURL - the local service, e.g. http://127.0.0.1:8001.
 * @param {string} options.partnerID - the partner the tokens are for.
 * @param {string} options.secret - that partner's secret (stays in this process).
 * @returns {Promise<{ url: string, port: number, close(): Promise<void> }>}
 */
export async function startDemo({ port = 8000, serviceURL, partnerID, secret }) {
  if (!serviceURL || !partnerID || !secret) throw new Error('startDemo needs serviceURL, partnerID and secret.');
  const serviceOrigin = new URL(serviceURL).origin;
  // The page's Content-Security-Policy shows what a partner page needs for video-plugin:
  // frame-src (and img-src, for thumbnails) must allow the service's origin.
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: ${serviceOrigin} ${HOSTED_ORIGINS.join(' ')}`,
    `frame-src ${serviceOrigin} ${HOSTED_ORIGINS.join(' ')}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
  // A real partner would take the claims from its own signed-in user; the demo lets the page choose.
  const routes = {
    'GET /api/config': async () => ({
      partnerID,
      serviceURL,
      sampleSourceURL: `${origin}/business/`,
      // What the embed-code panel needs for a pinned <script src> with Subresource Integrity.
      cdn: {
        url: `${origin}/vendor/video-plugin.min.js`,
        integrity: await integrityOf(FILES['/vendor/video-plugin.min.js'][0]),
      },
    }),
    'POST /api/tokens/create': async (req) => {
      const { account = {} } = await readJson(req);
      return { token: await createAccountToken({ partnerID, secret, account: withoutBlanks(account) }) };
    },
    'POST /api/tokens/login': async (req) => {
      const { accountID, externalID } = await readJson(req);
      return { token: await loginAccountToken({ partnerID, secret, ...withoutBlanks({ accountID, externalID }) }) };
    },
  };

  async function handle(req, res) {
    const path = new URL(req.url ?? '/', 'http://demo.invalid').pathname;
    const route = routes[`${req.method} ${path}`];
    if (route) return send(res, 200, await route(req));
    const file = FILES[path === '/index.html' ? '/' : path];
    if (file && (req.method === 'GET' || req.method === 'HEAD')) {
      const [name, type] = file;
      const body = await readFile(name).catch(() => {
        throw new HttpError(404, `${path} is missing; run \`npm run build\` first.`);
      });
      res.writeHead(200, {
        'content-type': type,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        ...(path === '/' ? { 'content-security-policy': csp } : {}),
        // Like a CDN: any page may load the bundle (module scripts are fetched with CORS).
        ...(path.startsWith('/vendor/') ? { 'access-control-allow-origin': '*' } : {}),
      });
      return res.end(req.method === 'HEAD' ? undefined : body);
    }
    throw new HttpError(404, `Nothing is served at ${req.method} ${path}.`);
  }

  const listener = (req, res) => {
    handle(req, res).catch((error) => {
      // Token helpers throw an InvalidParameterError naming the bad field: a 400, not a crash.
      const status = error.status ?? (error.code === 'invalid_parameter' ? 400 : 500);
      if (!res.headersSent) send(res, status, { error: { code: error.code ?? 'error', message: error.message } });
      else res.destroy();
    });
  };

  // localhost is 127.0.0.1 for some clients and ::1 for others: listen on both loopbacks.
  const servers = [];
  const first = createServer(listener);
  await listen(first, port, '127.0.0.1');
  servers.push(first);
  const chosen = first.address().port;
  const second = createServer(listener);
  await listen(second, chosen, '::1').then(
    () => servers.push(second),
    () => {}, // no IPv6 loopback here: 127.0.0.1 serves localhost
  );
  const origin = `http://localhost:${chosen}`;
  return {
    url: `${origin}/`,
    port: chosen,
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      ).then(() => {}),
  };
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Drops empty form fields, so that an untouched input does not become an empty claim. */
function withoutBlanks(object) {
  if (typeof object !== 'object' || object === null) return object;
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== '' && value !== undefined && value !== null),
  );
}

// Run directly: `node demo/server.mjs` (the service must be running; scripts/start.mjs does both).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const demo = await startDemo({
    port: Number(process.env.DEMO_PORT ?? 8000),
    serviceURL: process.env.VIDEO_PLUGIN_SERVICE_URL ?? 'http://127.0.0.1:8001',
    partnerID: process.env.VIDEO_PLUGIN_PARTNER_ID ?? 'demo-partner',
    secret: process.env.VIDEO_PLUGIN_SECRET ?? (await import('../dist/service/server.js')).DEMO_SECRET,
  });
  console.log(`partner demo: ${demo.url}`);
}
