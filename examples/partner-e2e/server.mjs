// A partner's app, as small as it gets: one page that embeds the studio with <video-plugin>, and
// one back-end route that mints the service's tokens with video-plugin/server. In a real app the
// route would check who is signed in to *your* app before minting a token for them.
//
//   PORT=8310 VIDEO_PLUGIN_SERVICE_URL=http://127.0.0.1:8311 \
//   VIDEO_PLUGIN_PARTNER_ID=… VIDEO_PLUGIN_SECRET=… node server.mjs
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createAccountToken, loginAccountToken } from 'video-plugin/server';

const port = Number(process.env.PORT ?? 8310);
const serviceURL = process.env.VIDEO_PLUGIN_SERVICE_URL ?? 'http://127.0.0.1:8311';
const partnerID = process.env.VIDEO_PLUGIN_PARTNER_ID ?? 'example-partner';
const secret = process.env.VIDEO_PLUGIN_SECRET ?? 'example-partner-secret-0123456789abcdef';

// The CDN file of the installed package: your bundler or CDN would serve it in a real app.
const bundle = fileURLToPath(new URL('dist/cdn/video-plugin.min.js', import.meta.resolve('video-plugin/package.json')));
const publicDir = new URL('public/', import.meta.url);

const files = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/app.js': ['app.js', 'text/javascript; charset=utf-8'],
  '/business.html': ['business.html', 'text/html; charset=utf-8'],
};

async function readJSON(request) {
  let body = '';
  for await (const chunk of request) body += chunk;
  return JSON.parse(body || '{}');
}

const server = createServer(async (request, response) => {
  const { pathname } = new URL(request.url, 'http://localhost');
  try {
    if (request.method === 'POST' && pathname === '/api/video-plugin-token') {
      // Your session decides who this is; the example takes the account from the request.
      const { kind, accountID, externalID } = await readJSON(request);
      const token =
        kind === 'create'
          ? await createAccountToken({ partnerID, secret, account: externalID ? { externalID } : {} })
          : await loginAccountToken({ partnerID, secret, ...(accountID ? { accountID } : { externalID }) });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
      return;
    }
    if (pathname === '/config.json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ partnerID, serviceURL }));
      return;
    }
    if (pathname === '/video-plugin.min.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(await readFile(bundle));
      return;
    }
    const file = files[pathname];
    if (!file) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': file[1] }).end(await readFile(new URL(file[0], publicDir)));
  } catch (error) {
    response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  }
});

server.listen(port, 'localhost', () => console.log(`partner app on http://localhost:${port}`));
