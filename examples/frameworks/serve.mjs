// Serves the built single-page apps (examples/frameworks/*/dist), each on its port from apps.mjs,
// like any static host: the file asked for, else the app's index.html. One process for all five.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APPS } from './apps.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

for (const [name, app] of Object.entries(APPS)) {
  if (!app.static) continue;
  const root = join(here, app.static);
  createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, 'http://localhost').pathname));
    const file = join(root, path.endsWith('/') ? 'index.html' : path);
    try {
      const body = await readFile(file.startsWith(root) ? file : join(root, 'index.html'));
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      try {
        const index = await readFile(join(root, 'index.html'));
        response.writeHead(200, { 'content-type': TYPES['.html'] }).end(index);
      } catch {
        response.writeHead(500).end(`${name} is not built: npm run build -w examples/frameworks/${name}`);
      }
    }
  }).listen(app.port, 'localhost', () => console.log(`${app.label} on http://localhost:${app.port}`));
}
