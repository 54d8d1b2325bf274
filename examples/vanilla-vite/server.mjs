// The partner's back end: mints the service's tokens with video-plugin/server (the partner secret
// never leaves this process), tells the page its partner ID and service URL, and serves the built
// page (dist/, from `npm run build`). Node's own http module, no framework.
//
//   PORT=3000 VIDEO_PLUGIN_PARTNER_ID=… VIDEO_PLUGIN_SECRET=… VIDEO_PLUGIN_SERVICE_URL=… node server.mjs
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loginOrCreateAccountToken } from 'video-plugin/server';

const port = Number(process.env.PORT ?? 3000);
// The partner ID and secret the service gave you (here: those `npm run service` starts with).
const partnerID = process.env.VIDEO_PLUGIN_PARTNER_ID ?? 'starter-partner';
const secret = process.env.VIDEO_PLUGIN_SECRET ?? 'starter-partner-secret-change-me-0123456789';
// The hosted service, or the local one (`npm run service` listens on http://127.0.0.1:8001).
const serviceURL = process.env.VIDEO_PLUGIN_SERVICE_URL ?? 'http://127.0.0.1:8001';

const dist = fileURLToPath(new URL('dist/', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The JSON body of a request (at most 10 kB). */
async function readJSON(request) {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 10_000) throw Object.assign(new Error('body too large'), { status: 413 });
  }
  return JSON.parse(body || '{}');
}

const json = (response, status, value) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

const server = createServer(async (request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  try {
    if (pathname === '/api/config') return json(response, 200, { partnerID, serviceURL });

    // Sign in or sign up: one token that logs the user in to their account, or creates it on their
    // first visit; the page redeems it with loginAccount(token).
    if (request.method === 'POST' && pathname === '/api/video-plugin-token') {
      // A real app takes the user from its own session (after its own login) instead of the body:
      // whoever may call this endpoint can act as that user in the studio.
      const { userID, name, email } = await readJSON(request);
      if (typeof userID !== 'string' || !userID) return json(response, 400, { error: 'userID is required' });
      const token = await loginOrCreateAccountToken({
        partnerID,
        secret,
        externalID: userID,
        account: { ...(name ? { firstName: String(name) } : {}), ...(email ? { emailAddress: String(email) } : {}) },
      });
      return json(response, 200, { token });
    }

    // The built page and its assets.
    const file = normalize(join(dist, pathname === '/' ? 'index.html' : pathname));
    if (!file.startsWith(dist)) return json(response, 404, { error: 'not found' });
    const body = await readFile(file).catch(() => undefined);
    if (!body) return json(response, 404, { error: 'not found' });
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch (error) {
    console.error(error);
    json(response, error.status ?? 500, { error: error.status ? error.message : 'server error' });
  }
});

server.listen(port, 'localhost', () => console.log(`starter app on http://localhost:${port}`));
