// The plugin page, its assets and the media: content types, headers, and no way out of public/.
// Real media files: ranges, conditional requests, HEAD, and no open file left by a client that goes.
import assert from 'node:assert/strict';
import fs, { readdirSync, readFileSync, readlinkSync, truncateSync, utimesSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { videoFile } from '../../src/media/files.js';
import { pluginPageHtml } from '../../src/http/page-html.js';
import { picture } from '../support/media-helpers.js';
import { EventStream, api, createAccount, serve, startTestService, statusesUntilFinal } from '../support/helpers.js';

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
    { id: 'one', secret: 'one-secret-0123456789abcdef0123456789', allowedOrigins: ['https://shop.example'] },
    {
      id: 'two',
      secret: 'two-secret-0123456789abcdef0123456789',
      allowedOrigins: ['http://localhost:*', 'https://cms.example:8443'],
    },
  ],
});

/** Sends a raw request line, so that no client normalises the path first. */
function rawGet(path: string): Promise<string> {
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

test("/plugin is the HTML shell with a strict CSP and sandbox, framable by its partner's allowed origins, and no X-Frame-Options", async () => {
  const response = await fetch(`${service.url}/plugin?partner=one`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(response.headers.get('x-frame-options'), null);
  const csp = response.headers.get('content-security-policy') ?? '';
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self';",
    "connect-src 'self'",
    "require-trusted-types-for 'script'",
    'trusted-types lit-html;',
  ]) {
    assert.ok(csp.includes(directive), directive);
  }
  // Partner one's origins only: no other partner's are named.
  assert.match(csp, /frame-ancestors https:\/\/shop\.example(;|$)/);
  // The studio's sandbox: exactly the five keywords it needs (SECURITY.md, "The studio's sandbox");
  // no top navigation, modals, downloads or pointer lock.
  assert.deepEqual(/(?:^|; )sandbox ([^;]*)/.exec(csp)?.[1]?.split(' ').sort(), [
    'allow-forms',
    'allow-popups',
    'allow-popups-to-escape-sandbox',
    'allow-same-origin',
    'allow-scripts',
  ]);
  const html = await response.text();
  assert.match(html, /<script type="module" src="\/assets\/app\.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="\/assets\/app\.css">/);
  assert.match(html, /<main id="app"><\/main>/);
});

test("each partner's page names its own origins in frame-ancestors; an unknown or missing partner gets 'none'", async () => {
  const ancestors = async (query: string) =>
    /frame-ancestors ([^;]*)/.exec(
      (await fetch(`${service.url}/plugin${query}`)).headers.get('content-security-policy') ?? '',
    )?.[1];
  assert.equal(await ancestors('?partner=two'), 'http://localhost:* https://cms.example:8443');
  assert.equal(await ancestors('?partner=nobody'), "'none'");
  assert.equal(await ancestors(''), "'none'");
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

describe('a real preview MP4', async () => {
  const mediaDir = join(root, 'media');
  const media = await startTestService({ media: 'real', mediaDir, jobMs: 40 });
  const png = readFileSync(picture(root, 'red.png', 'red', '640x480'));
  const source = await serve((req, res) => {
    if (req.url === '/red.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Harbor Lane Coffee</title><h1>Roasted at dawn</h1><img src="/red.png">');
  });
  const { session } = await createAccount(media);
  const stream = await EventStream.open(media, session);
  await stream.next((event) => event.event === 'ready');
  const { body: topic } = await api(media, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } });
  await statusesUntilFinal(stream, 'topic', (data) => data.id === topic.topicId);
  const { body: generation } = await api(media, 'POST', '/api/generations', {
    session,
    body: { topicId: topic.topicId, aspectRatio: '16:9', duration: 5 },
  });
  const statuses = await statusesUntilFinal(stream, 'generation', (data) => data.requestId === generation.requestId);
  stream.close();
  assert.equal(statuses.at(-1), 'COMPLETE');
  const url = `${media.url}/media/videos/${generation.videoId}/preview.mp4`;
  const file = videoFile(mediaDir, generation.videoId, 'preview', 'mp4');
  // A long video's size: far more than the socket buffers hold, so that a download is still under
  // way when its client goes (a 5 s solid-colour preview is a few hundred kB). Same file, zero-padded.
  const SIZE = 32 * 1024 * 1024;
  truncateSync(file, SIZE);
  const bytes = readFileSync(file);

  /** Open files of this process (the service runs in it). */
  const openFiles = () => readdirSync('/proc/self/fd').length;
  /** Descriptors open on the preview file itself: those only the service's downloads hold. */
  const onPreview = () =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === file;
      } catch {
        return false; // closed since the listing
      }
    }).length;
  /** Polls `count` until it is at most `limit` or 5 s have passed; returns the last count. */
  async function settles(count: () => number, limit: number): Promise<number> {
    const deadline = Date.now() + 5000;
    let value = count();
    while (value > limit && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      value = count();
    }
    return value;
  }

  test('a full GET: 200 with length, type, validators and the cross-origin headers', async () => {
    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'video/mp4');
    assert.equal(Number(response.headers.get('content-length')), SIZE);
    assert.equal(response.headers.get('accept-ranges'), 'bytes');
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.ok(response.headers.get('etag'));
    assert.ok(response.headers.get('last-modified'));
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes));
  });

  test('ranges: 206 with the part asked for (a-b, a-, -n); 416 beyond the end', async () => {
    for (const [range, start, end] of [
      ['bytes=100-199', 100, 199],
      [`bytes=${SIZE - 5}-`, SIZE - 5, SIZE - 1],
      ['bytes=-10', SIZE - 10, SIZE - 1],
      [`bytes=0-${SIZE + 100}`, 0, SIZE - 1],
    ] as const) {
      const part = await fetch(url, { headers: { range } });
      assert.equal(part.status, 206, range);
      assert.equal(part.headers.get('content-range'), `bytes ${start}-${end}/${SIZE}`, range);
      assert.equal(Number(part.headers.get('content-length')), end - start + 1, range);
      assert.equal(part.headers.get('content-type'), 'video/mp4', range);
      assert.ok(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(start, end + 1)), range);
    }
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 10}-${SIZE + 20}`]) {
      const beyond = await fetch(url, { headers: { range } });
      assert.equal(beyond.status, 416, range);
      assert.equal(beyond.headers.get('content-range'), `bytes */${SIZE}`, range);
      assert.equal(await beyond.text(), '');
    }
  });

  test('If-Range: the part while the validator matches, the whole file once it does not', async () => {
    const head = await fetch(url, { method: 'HEAD' });
    const etag = head.headers.get('etag') ?? '';
    const modified = head.headers.get('last-modified') ?? '';
    for (const ifRange of [etag, modified]) {
      const part = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': ifRange } });
      assert.equal(part.status, 206, ifRange);
      assert.ok(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 10)));
    }
    for (const ifRange of ['"another-version"', new Date(Date.parse(modified) - 60_000).toUTCString()]) {
      const whole = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': ifRange } });
      assert.equal(whole.status, 200, ifRange);
      assert.equal(Number(whole.headers.get('content-length')), SIZE);
      await whole.body?.cancel();
    }
  });

  test('ETag and Last-Modified: 304 without a body while they hold; 200 once the file changed', async () => {
    const first = await fetch(url, { method: 'HEAD' });
    const etag = first.headers.get('etag') ?? '';
    const modified = first.headers.get('last-modified') ?? '';
    // As a browser revalidates (fetch() itself would add `cache-control: no-cache`, which asks for the file).
    const revalidations: Record<string, string>[] = [
      { 'if-none-match': etag, 'cache-control': 'max-age=0' },
      { 'if-modified-since': modified, 'cache-control': 'max-age=0' },
    ];
    for (const headers of revalidations) {
      const again = await fetch(url, { headers });
      assert.equal(again.status, 304, JSON.stringify(headers));
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(again.headers.get('cache-control'), 'no-cache');
      assert.equal(await again.text(), '');
    }
    const other = await fetch(url, { headers: { 'if-none-match': '"another-version"', 'cache-control': 'max-age=0' } });
    assert.equal(other.status, 200);
    await other.body?.cancel();
    // A re-rendered preview (the editor's "save") is another version: the old validators no longer hold.
    const later = new Date(Date.parse(modified) + 120_000);
    utimesSync(file, later, later);
    const changed = await fetch(url, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
    await changed.body?.cancel();
  });

  test('HEAD: the headers of a GET, no body', async () => {
    const requests: Record<string, string>[] = [{}, { range: 'bytes=10-19' }];
    for (const headers of requests) {
      const response = await fetch(url, { method: 'HEAD', headers });
      assert.equal(response.status, 'range' in headers ? 206 : 200);
      assert.equal(response.headers.get('content-type'), 'video/mp4');
      assert.equal(Number(response.headers.get('content-length')), 'range' in headers ? 10 : SIZE);
      assert.ok(response.headers.get('etag'));
      assert.equal(await response.text(), '');
    }
  });

  test('media of an unknown video and a missing file stay JSON 404s', async () => {
    const unknown = await fetch(`${media.url}/media/videos/vid_nope/preview.mp4`);
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error.code, 'not_found');
    const render = await fetch(`${media.url}/media/videos/${generation.videoId}/render.mp4`);
    assert.equal(render.status, 404);
    assert.equal((await render.json()).error.code, 'not_found');
  });

  test('aborted downloads leave no file open in the service', { timeout: 30_000 }, async (t) => {
    /** Starts a download, reads its first bytes and goes, as a player that seeks does. */
    const abort = () =>
      new Promise<void>((resolve, reject) => {
        const socket: Socket = connect(media.port, '127.0.0.1', () =>
          socket.write(`GET ${new URL(url).pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
        );
        socket.once('data', () => {
          socket.destroy();
          socket.once('close', () => resolve());
        });
        socket.once('error', reject);
      });
    const baseline = openFiles();
    const previewBefore = onPreview();
    for (let i = 0; i < 30; i++) await abort();
    // The service notices each client going on its own schedule: wait for the count to settle.
    // (Idle keep-alive connections of the tests above may close meanwhile: the count may go lower.)
    const preview = await settles(onPreview, 0);
    const open = await settles(openFiles, baseline + 2);
    const counts = `${open} files open after 30 aborted downloads (${preview} on the preview), ${baseline} before (${previewBefore})`;
    t.diagnostic(counts);
    assert.ok(open <= baseline + 2, counts);
    assert.equal(preview, 0, counts);
  });

  test('a read error in the middle of a file cuts that response and closes the file; the service goes on', async (t) => {
    // A disk that fails under the service: the preview's read stream errs after its first chunk.
    const realCreateReadStream = fs.createReadStream;
    let failed = 0;
    fs.createReadStream = ((...args: Parameters<typeof fs.createReadStream>) => {
      const stream = realCreateReadStream(...args);
      if (args[0] === file) {
        stream.once('data', () => {
          failed++;
          stream.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
        });
      }
      return stream;
    }) as typeof fs.createReadStream;
    syncBuiltinESMExports();
    const logged = t.mock.method(console, 'error', () => {});
    try {
      const response = await fetch(url);
      assert.equal(response.status, 200);
      await assert.rejects(response.arrayBuffer());
      assert.equal(failed, 1);
      assert.equal(logged.mock.callCount(), 1);
      assert.match(String(logged.mock.calls[0]?.arguments[1]), /EIO/);
    } finally {
      fs.createReadStream = realCreateReadStream;
      syncBuiltinESMExports();
    }
    assert.equal(await settles(onPreview, 0), 0);
    const again = await fetch(url, { headers: { range: 'bytes=0-9' } });
    assert.equal(again.status, 206);
    assert.ok(Buffer.from(await again.arrayBuffer()).equals(bytes.subarray(0, 10)));
  });
});
