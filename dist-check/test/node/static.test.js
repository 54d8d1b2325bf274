// The plugin page, its assets and the media: content types, headers, and no way out of public/.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pluginPageHtml } from '../../src/service/page-html.js';
import { startTestService } from './helpers.js';
const root = await mkdtemp(join(tmpdir(), 'video-plugin-pages-'));
after(() => rm(root, { recursive: true, force: true }));
const publicDir = join(root, 'public');
await mkdir(join(publicDir, 'fonts'), { recursive: true });
await writeFile(join(publicDir, 'app.js'), 'export {};');
await writeFile(join(publicDir, 'app.css'), 'main{}');
await writeFile(join(publicDir, 'fonts', 'a.woff2'), 'font');
await writeFile(join(publicDir, '.secret'), 'HIDDEN-CONTENT');
await writeFile(join(root, 'outside.txt'), 'OUTSIDE-CONTENT');
const service = await startTestService({
  publicDir,
  partners: [
    { id: 'one', secret: 'one-secret', allowedOrigins: ['https://shop.example'] },
    { id: 'two', secret: 'two-secret', allowedOrigins: ['http://localhost:*', 'https://cms.example:8443'] },
  ],
});
/** Sends a raw request line, so that no client normalises the path first. */
function rawGet(path) {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1', () => {
      // write, not end: the server drops a half-closed connection before an async answer.
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
test('/plugin is the HTML shell with a strict CSP framable by every allowed origin, and no X-Frame-Options', async () => {
  const response = await fetch(`${service.url}/plugin?partner=one`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(response.headers.get('x-frame-options'), null);
  const csp = response.headers.get('content-security-policy') ?? '';
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: http: https:",
    "connect-src 'self'",
  ]) {
    assert.ok(csp.includes(directive), directive);
  }
  assert.match(csp, /frame-ancestors https:\/\/shop\.example http:\/\/localhost:\* https:\/\/cms\.example:8443(;|$)/);
  const html = await response.text();
  assert.match(html, /<script type="module" src="\/assets\/app\.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="\/assets\/app\.css">/);
  assert.match(html, /<main id="app"><\/main>/);
});
test('the shell links the stylesheet only when asked to', () => {
  assert.doesNotMatch(pluginPageHtml(), /app\.css/);
  assert.match(pluginPageHtml({ stylesheet: true }), /app\.css/);
});
test('assets are served with their content type', async () => {
  for (const [path, type, body] of [
    ['/assets/app.js', 'text/javascript; charset=utf-8', 'export {};'],
    ['/assets/app.css', 'text/css; charset=utf-8', 'main{}'],
    ['/assets/fonts/a.woff2', 'font/woff2', 'font'],
  ]) {
    const response = await fetch(`${service.url}${path}`);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get('content-type'), type);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await response.text(), body);
  }
});
test('nothing outside public/ and no hidden file can be reached', async () => {
  for (const path of [
    '/assets/../outside.txt',
    '/assets/%2e%2e/outside.txt',
    '/assets/%2E%2E%2Foutside.txt',
    '/assets/fonts/..%2F..%2Foutside.txt',
    '/assets/..%5Coutside.txt',
    '/assets/.secret',
    '/assets/fonts',
    '/assets/',
    '/assets/app.js%00.css',
  ]) {
    const answer = await rawGet(path);
    assert.match(answer, /^HTTP\/1\.1 404 /, path);
    assert.doesNotMatch(answer, /OUTSIDE-CONTENT|HIDDEN-CONTENT/, path);
  }
});
test('media of an unknown video is not found', async () => {
  assert.equal((await fetch(`${service.url}/media/videos/vid_nope/thumbnail.svg`)).status, 404);
  assert.equal((await fetch(`${service.url}/media/videos/vid_nope/other.svg`)).status, 404);
});
//# sourceMappingURL=static.test.js.map
