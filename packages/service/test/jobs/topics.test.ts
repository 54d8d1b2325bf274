// Topic searches really fetch their source page: what they read, and how each failure is reported.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import { readPage } from '../../src/media/source.js';
import type { RunningService } from '../../src/server.js';
import {
  EventStream,
  api,
  closedPort,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';
import { pageFixture, windows1252 } from '../support/page-fixtures.js';

/**
 * The service of the searches, with the default time limit for reading a source: a limit of 300 ms
 * failed searches of small pages with source_timeout on a busy machine (the 5 MB page's first
 * megabyte first, then any page whose fetch met a stall of the process).
 */
const service = await startTestService({ jobMs: 40 });
const { session } = await createAccount(service);
const stream = await EventStream.open(service, session);
await stream.next((event) => event.event === 'ready');
/** One whose source fetches time out after 300 ms, for the source that never answers alone. */
const hasty = await startTestService({ jobMs: 40, fetchTimeoutMs: 300 });
const hastySession = (await createAccount(hasty)).session;
const hastyStream = await EventStream.open(hasty, hastySession);
await hastyStream.next((event) => event.event === 'ready');

const hanging = new Set<() => void>();
const source = await serve((req, res) => {
  if (req.url?.startsWith('/pages/')) {
    const name = req.url.slice('/pages/'.length);
    // The windows-1252 page is sent in that encoding, declared only by its own <meta charset>.
    const body = name.includes('windows-1252') ? windows1252(pageFixture(name)) : pageFixture(name);
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    return;
  }
  switch (req.url) {
    case '/huge':
      void sendHugePage(res);
      return;
    case '/page':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><head>
        <meta property="og:title" content="Open Graph title">
        <title>Plain title</title>
        <meta property="og:description" content="About us">
        <base href="/assets/">
        </head><body>${Array.from({ length: 12 }, (_, i) => `<img src="img${i}.png">`).join('')}
        <!-- <img src="commented.png"> --><img src="javascript:alert(1)"><img src="data:image/png;base64,AA"></body></html>`);
      return;
    case '/redirect':
      res.writeHead(302, { location: '/page' }).end();
      return;
    case '/loop':
      res.writeHead(302, { location: '/loop' }).end();
      return;
    case '/json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"no"}');
      return;
    case '/untyped':
      res.end('<!DOCTYPE html><title>Untyped but HTML</title>');
      return;
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      return;
    case '/hang':
      // Never answers; released when the test file ends.
      hanging.add(() => res.end());
      return;
    default:
      res.writeHead(500).end();
  }
});

/** A 5 MB page: its head, an image, then paragraphs and scripts; a last image past the first megabyte. */
async function sendHugePage(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const closed = once(res, 'close');
  let sent = 0;
  const write = async (text: string) => {
    sent += Buffer.byteLength(text);
    if (!res.write(text)) await Promise.race([once(res, 'drain'), closed]);
  };
  await write('<!doctype html><html lang="en"><head><meta property="og:title" content="A very long page">');
  await write('</head><body><h1>Everything we bake</h1><img src="/first.jpg" alt="">');
  const block = `<p>Our bakers start at four in the morning, every day of the year. ${'Flour, water, salt and time. '.repeat(60)}</p><script>var x = "<img src='/in-script.jpg'>";</script>\n`;
  // Stops when the reader goes away (as it should, after its limit).
  while (sent < 5 * 1024 * 1024 && !res.destroyed) await write(block);
  res.end('<img src="/last.jpg" alt=""></body></html>');
}

/** An account on `target` and its status stream, ready: what {@link search} needs on another service. */
async function searcher(target: RunningService) {
  const { session: own } = await createAccount(target);
  const events = await EventStream.open(target, own);
  await events.next((event) => event.event === 'ready');
  return { service: target, session: own, stream: events };
}

/** Starts a search (on `service` unless told otherwise) and returns its statuses and the final topic. */
async function search(sourceURL: string, on = { service, session, stream }) {
  const started = await api(on.service, 'POST', '/api/topics', { session: on.session, body: { sourceURL } });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  const statuses = await statusesUntilFinal(on.stream, 'topic', (data) => data.id === started.body.topicId);
  const { topic } = (await api(on.service, 'GET', `/api/topics/${started.body.topicId}`, { session: on.session })).body;
  return { statuses, topic };
}

describe('topic search sources', () => {
  test("a page's og:title, og:description and first 8 images (absolute, http only) are read", async () => {
    const { statuses, topic } = await search(`${source}/page`);
    assert.deepEqual(statuses, ['PENDING', 'PROCESSING', 'COMPLETE']);
    assert.equal(topic.title, 'Open Graph title');
    assert.equal(topic.description, 'About us');
    assert.deepEqual(
      topic.images,
      Array.from({ length: 8 }, (_, i) => `${source}/assets/img${i}.png`),
    );
  });

  test('redirects are followed', async () => {
    const { topic } = await search(`${source}/redirect`);
    assert.equal(topic.status, 'COMPLETE');
    assert.equal(topic.title, 'Open Graph title');
  });

  test('a page without Content-Type that starts like HTML is read', async () => {
    assert.equal((await search(`${source}/untyped`)).topic.title, 'Untyped but HTML');
  });

  test('a closed port fails with source_unreachable', async () => {
    const { statuses, topic } = await search(`http://127.0.0.1:${await closedPort()}/`);
    assert.deepEqual(statuses, ['PENDING', 'PROCESSING', 'FAILED']);
    assert.equal(topic.error.code, 'source_unreachable');
    assert.match(topic.error.message, /could not be reached/);
  });

  test('a refused address, a closed port and the service itself give one answer (egress.ts): a search is no port scanner', async (t) => {
    t.mock.method(console, 'warn', () => {});
    const urls = [
      'http://169.254.169.254/',
      'http://10.0.0.1/',
      `http://127.0.0.1:${await closedPort()}/`,
      `${service.url}/plugin`,
    ];
    const messages = new Set<string>();
    for (const url of urls) {
      const { topic } = await search(url);
      assert.equal(topic.error.code, 'source_unreachable', url);
      messages.add(topic.error.message.replace(url, 'URL'));
    }
    assert.deepEqual([...messages], ['URL could not be reached. Check the address.']);
  });

  test('a site on this machine is searched only with allowLoopbackSources: without it, source_unreachable', async (t) => {
    const warnings: string[] = [];
    t.mock.method(console, 'warn', (line: unknown) => warnings.push(String(line)));
    const closed = await startTestService({ jobMs: 40, allowLoopbackSources: false });
    const on = await searcher(closed);
    for (const url of [
      `${source}/page`,
      `${source.replace('127.0.0.1', 'localhost')}/page`,
      `http://[::ffff:127.0.0.1]:${new URL(source).port}/page`,
    ]) {
      const { statuses, topic } = await search(url, on);
      assert.deepEqual(statuses, ['PENDING', 'PROCESSING', 'FAILED'], url);
      assert.equal(topic.error.code, 'source_unreachable', url);
      assert.equal(topic.error.message, `${new URL(url).href} could not be reached. Check the address.`);
    }
    assert.ok(
      warnings.some((line) => line.includes(`${source}/page`) && line.includes('--allow-loopback-sources')),
      'the log says what allows it',
    );
    // The same page with the option: read.
    assert.equal((await search(`${source}/page`)).topic.title, 'Open Graph title');
  });

  test('allowLoopbackSources with ports reads those ports only', async (t) => {
    t.mock.method(console, 'warn', () => {});
    const other = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Other port</title>'),
    );
    const some = await startTestService({ jobMs: 40, allowLoopbackSources: [Number(new URL(source).port)] });
    const on = await searcher(some);
    assert.equal((await search(`${source}/page`, on)).topic.title, 'Open Graph title');
    const { topic } = await search(`${other}/`, on);
    assert.equal(topic.error.code, 'source_unreachable');
    assert.equal(topic.error.message, `${other}/ could not be reached. Check the address.`);
  });

  test('a non-HTML response fails with source_not_html', async () => {
    const { topic } = await search(`${source}/json`);
    assert.equal(topic.status, 'FAILED');
    assert.equal(topic.error.code, 'source_not_html');
    assert.match(topic.error.message, /application\/json/);
  });

  test('an HTTP error status fails with source_http_error', async () => {
    const { topic } = await search(`${source}/missing`);
    assert.equal(topic.error.code, 'source_http_error');
    assert.match(topic.error.message, /HTTP 404/);
  });

  test('a redirect loop fails with source_http_error', async () => {
    const { topic } = await search(`${source}/loop`);
    assert.equal(topic.error.code, 'source_http_error');
    assert.match(topic.error.message, /redirected more than/);
  });

  test('a source that never answers fails with source_timeout', async () => {
    const { topic } = await search(`${source}/hang`, { service: hasty, session: hastySession, stream: hastyStream });
    for (const release of hanging) release();
    assert.equal(topic.error.code, 'source_timeout');
  });

  test('a windows-1252 page declared only by its <meta charset> is decoded in that encoding', async () => {
    const { topic } = await search(`${source}/pages/bakery-windows-1252.html`);
    assert.equal(topic.title, 'Bäckerei Müller – Brot, Brötchen & Kuchen');
    assert.equal(
      topic.description,
      'Handwerksbäckerei in Freiburg: Sauerteigbrot, Brezeln und „Schwarzwälder“ Kuchen seit 1962 – ab 2,50 €.',
    );
  });

  test("a title's and a description's named and numeric entities are all decoded", async () => {
    const { topic } = await search(`${source}/pages/entities.html`);
    assert.equal(topic.title, 'L’été au café… Rock’n’roll — Crème & Co');
    assert.equal(topic.description, 'Crème brûlée & café – dès 8\u00a0h…');
  });

  test('lazy-loaded images are found: data-src, the largest of srcset and data-srcset, <picture> sources', async () => {
    const { topic } = await search(`${source}/pages/lazy-images.html`);
    assert.deepEqual(
      topic.images,
      [
        'social/cover.jpg',
        'lazy/data-src.jpg',
        'lazy/large.jpg',
        'lazy/lazy-src.jpg',
        'photos/shop@2x.jpg',
        'photos/bread-1200.webp',
        'photos/wide.jpg',
        // The SVG logo last: the renderer cannot use it, the studio can still show it.
        'logo.svg',
      ].map((path) => `${source}/assets/${path}`),
    );
  });

  test("a Twitter card's title, description and image are read when there is no og: metadata", async () => {
    const { topic } = await search(`${source}/pages/twitter-card.html`);
    assert.equal(topic.title, 'Harbor Coffee Roasters');
    assert.equal(topic.description, 'Small-batch coffee, roasted by the harbor every morning.');
    assert.deepEqual(topic.images, ['https://images.harbor.example/card.jpg', `${source}/beans.jpg`]);
  });

  test('a page without images completes with none', async () => {
    const { statuses, topic } = await search(`${source}/pages/no-images.html`);
    assert.deepEqual(statuses, ['PENDING', 'PROCESSING', 'COMPLETE']);
    assert.equal(topic.title, 'Plain Text Bookbinding');
    assert.deepEqual(topic.images, []);
  });

  test('a 5 MB page is read up to the size limit within the time limit, and no further', async () => {
    const { topic } = await search(`${source}/huge`);
    assert.equal(topic.status, 'COMPLETE', JSON.stringify(topic.error));
    assert.equal(topic.title, 'A very long page');
    // Not the image inside a script, not the one after the first megabyte.
    assert.deepEqual(topic.images, [`${source}/first.jpg`]);
  });

  for (const sourceURL of ['ftp://example.com/', 'javascript:alert(1)', 'file:///etc/passwd', 'not a url', '']) {
    test(`"${sourceURL}" is refused at start with invalid_parameter`, async () => {
      const result = await api(service, 'POST', '/api/topics', { session, body: { sourceURL } });
      assert.equal(result.status, 400);
      assert.equal(result.body.error.code, 'invalid_parameter');
      assert.equal(result.body.error.data.field, 'sourceURL');
    });
  }
});

describe('reading a page', () => {
  const page = new URL('https://shop.example/products/');

  test('falls back to <title> and meta description, decoding entities', () => {
    const read = readPage(
      `<TITLE>\n Caf&#xE9; &amp; Bar &#8212; Home </TITLE><meta content='Fresh &quot;coffee&quot;' name=description>`,
      page,
    );
    assert.equal(read.title, 'Café & Bar — Home');
    assert.equal(read.description, 'Fresh "coffee"');
  });

  test('ignores tags inside scripts and comments, and repeated images', () => {
    const read = readPage(
      `<script>var s = '<img src="x.png">';</script><!-- <title>no</title> --><img src=a.png><img src="a.png">`,
      page,
    );
    assert.equal(read.title, undefined);
    assert.deepEqual(read.images, ['https://shop.example/products/a.png']);
  });
});

const restaurant = readFileSync(new URL('../fixtures/sites/restaurant-en.html', import.meta.url), 'utf8');
/** `/<lang>`: the restaurant's page (test/fixtures/sites) in that `<html lang>`. */
const restaurantSite = await serve((req, res) => {
  const lang = decodeURIComponent((req.url ?? '/').slice(1));
  res.writeHead(200, { 'content-type': 'text/html' }).end(restaurant.replace('lang="en-US"', `lang="${lang}"`));
});

describe("a video's language follows its page's", () => {
  /** The language of a video generated from the page in `lang`, with `language` given or not. */
  async function videoLanguage(lang: string, language?: string): Promise<string> {
    const { topic } = await search(`${restaurantSite}/${encodeURIComponent(lang)}`);
    assert.equal(topic.status, 'COMPLETE');
    const started = await api(service, 'POST', '/api/generations', {
      session,
      body: { topicId: topic.id, aspectRatio: '16:9', duration: 5, ...(language ? { language } : {}) },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { video } = (await api(service, 'GET', `/api/videos/${started.body.videoId}`, { session })).body;
    return video.language;
  }

  test('without a language from the partner, a French page gives a French video', async () => {
    assert.equal(await videoLanguage('fr'), 'fr');
    assert.equal(await videoLanguage('fr-CA'), 'fr');
    assert.equal(await videoLanguage('it'), 'it-IT');
  });

  test("the partner's language wins; a page in a language the service does not speak gets the default", async () => {
    assert.equal(await videoLanguage('fr', 'de'), 'de');
    assert.equal(await videoLanguage('ja'), 'en-US');
    assert.equal(await videoLanguage(''), 'en-US');
  });
});
