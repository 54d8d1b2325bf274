// How a topic search reads its source page: the bytes' encoding, the metadata, the images, the text.
// (topics.test.ts goes through the service; these call the reader directly for the finer cases.)
import { egressPolicy } from '../../src/egress.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fetchSourcePage, readPage } from '../../src/media/source.js';
import { PageDecoder } from '../../src/media/source/charset.js';
import { serve } from '../support/helpers.js';
import { WINDOWS_1252, pageFixture, utf16leWithBOM, utf8WithBOM, windows1252 } from '../support/page-fixtures.js';

/** The policy of a service on loopback: the test sites on 127.0.0.1 can be fetched. */
const LOOPBACK_EGRESS = egressPolicy('127.0.0.1', false, () => 0);

const BAKERY = pageFixture('bakery-windows-1252.html');
const BAKERY_TITLE = 'Bäckerei Müller – Brot, Brötchen & Kuchen';
/** The bakery page without its <meta charset>. */
const UNDECLARED = BAKERY.replace(/<meta charset="[^"]*" \/>/, '');

const pages = new Map<string, { type: string; body: Buffer }>([
  ['/header', { type: 'text/html; charset=windows-1252', body: windows1252(UNDECLARED) }],
  ['/bom-over-header', { type: 'text/html; charset=windows-1252', body: utf8WithBOM(BAKERY) }],
  ['/utf-16', { type: 'text/html', body: utf16leWithBOM(UNDECLARED) }],
  [
    '/http-equiv',
    {
      type: 'text/html',
      body: windows1252(
        UNDECLARED.replace('<head>', '<head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'),
      ),
    },
  ],
  ['/undeclared-utf-8', { type: 'text/html', body: Buffer.from(UNDECLARED) }],
  ['/undeclared-windows-1252', { type: 'text/html', body: windows1252(UNDECLARED) }],
]);
const origin = await serve((req, res) => {
  const page = pages.get(req.url ?? '');
  if (!page) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': page.type }).end(page.body);
});
const read = (path: string) => fetchSourcePage(`${origin}${path}`, { timeoutMs: 2000, egress: LOOPBACK_EGRESS });

describe("a page's encoding", () => {
  test('the HTTP header names it when the page does not', async () => {
    assert.equal((await read('/header')).title, BAKERY_TITLE);
  });

  test('a byte order mark outranks both the header and the <meta charset>', async () => {
    assert.equal((await read('/bom-over-header')).title, BAKERY_TITLE);
  });

  test('a UTF-16 page is read by its byte order mark', async () => {
    assert.equal((await read('/utf-16')).title, BAKERY_TITLE);
  });

  test('<meta http-equiv="Content-Type"> names it too', async () => {
    assert.equal((await read('/http-equiv')).title, BAKERY_TITLE);
  });

  test('a page that declares none is read as UTF-8 when its bytes are UTF-8', async () => {
    assert.equal((await read('/undeclared-utf-8')).title, BAKERY_TITLE);
  });

  test('a page that declares none and is not UTF-8 is read as windows-1252', async () => {
    assert.equal((await read('/undeclared-windows-1252')).title, BAKERY_TITLE);
  });
});

describe('decoding bytes as they arrive', () => {
  /** Decodes `chunks` with a fresh decoder; returns the text and the encoding it settled on. */
  const decode = (chunks: Uint8Array[], charset?: string) => {
    const decoder = new PageDecoder(charset);
    const text = chunks.map((chunk) => decoder.write(chunk)).join('') + decoder.end();
    return { text, encoding: decoder.encoding };
  };
  // Past the 1024 bytes the sniffer reads before decoding starts.
  const padding = `<!--${'-'.repeat(1100)}-->`;

  test("windows-1252's bytes 0x80–0x9F are its characters, not C1 controls", () => {
    const bytes = Uint8Array.from({ length: 0x20 }, (_, i) => 0x80 + i);
    assert.equal(decode([bytes], 'windows-1252').text, WINDOWS_1252.slice(0x80, 0xa0));
  });

  test('a UTF-8 page split anywhere, even inside a character, decodes the same', () => {
    const bytes = Buffer.from(`${padding}<title>Bäckerei Müller – 2,50 € 🥨</title>`);
    for (let at = padding.length; at < bytes.length; at++) {
      assert.equal(decode([bytes.subarray(0, at), bytes.subarray(at)]).text, bytes.toString(), `split at ${at}`);
    }
    assert.equal(decode([...bytes].map((byte) => Uint8Array.of(byte))).text, bytes.toString());
  });

  test('an undeclared page turns to windows-1252 at its first byte that is not UTF-8', () => {
    const utf8 = Buffer.from(`${padding}Müller `);
    // 0xE4 ("ä" in windows-1252) begins a three-byte UTF-8 character, which the next chunk does not go on.
    const read = decode([utf8, Uint8Array.of(0xe4), windows1252('cker – fertig')]);
    assert.deepEqual(read, { text: `${padding}Müller äcker – fertig`, encoding: 'windows-1252' });
  });

  test('an undeclared UTF-8 page cut inside a character stays UTF-8', () => {
    const read = decode([Buffer.from(`${padding}Müller`), Uint8Array.of(0xc3)]);
    assert.deepEqual(read, { text: `${padding}Müller\ufffd`, encoding: 'utf-8' });
  });
});

describe("a page's title and description", () => {
  const page = new URL('https://shop.example/products/');

  test('og: comes before twitter:, twitter: before <title> and <meta name="description">', () => {
    const head = (tags: string) =>
      readPage(`<head>${tags}<title>Title</title><meta name=description content=Meta>`, page);
    const og = '<meta property="og:title" content="OG"><meta property="og:description" content="OG about">';
    const twitter = '<meta name="twitter:title" content="Card"><meta name="twitter:description" content="Card about">';
    assert.deepEqual([head(twitter + og).title, head(twitter + og).description], ['OG', 'OG about']);
    assert.deepEqual([head(twitter).title, head(twitter).description], ['Card', 'Card about']);
    assert.deepEqual([head('').title, head('').description], ['Title', 'Meta']);
  });

  test('an empty og:title falls back to the next source', () => {
    assert.equal(readPage('<meta property="og:title" content=" "><title>Shop</title>', page).title, 'Shop');
  });

  test('entities are decoded once, legacy ones without a semicolon included', () => {
    const read = readPage('<title>&copy 2024 Caf&eacute;s &amp;eacute; &lt;b&gt;</title>', page);
    assert.equal(read.title, '© 2024 Cafés &eacute; <b>');
  });

  test("an inline SVG's <title> is not the page's", () => {
    const read = readPage('<body><svg><title>Facebook icon</title></svg><h1>Shop</h1></body>', page);
    assert.equal(read.title, undefined);
    assert.deepEqual(read.headings, ['Shop']);
  });
});

describe("a page's images", () => {
  const page = new URL('https://shop.example/products/');
  const images = (html: string) => readPage(html, page).images;

  test('the largest srcset candidate is taken, width descriptors before densities, commas inside URLs kept', () => {
    assert.deepEqual(
      images(
        `<img srcset="https://res.example/w_300,h_200/a.jpg 300w, https://res.example/w_900,h_600/a.jpg 900w" sizes="50vw">` +
          `<img srcset="b.jpg, b-3x.jpg 3x, b-2x.jpg 2x">` +
          `<img src="c.jpg" srcset="c-640.jpg 640w, c-2x.jpg 2x">`,
      ),
      ['https://res.example/w_900,h_600/a.jpg', `${page}b-3x.jpg`, `${page}c-640.jpg`],
    );
  });

  test('a lazy image is taken from its data- attributes, not from its placeholder src', () => {
    assert.deepEqual(
      images(
        `<img src="blank.gif" data-src="real.jpg"><img src="blank.gif" data-lazy-src="lazy.jpg">` +
          `<img src="blank.gif" data-lazy-srcset="lazy-400.jpg 400w, lazy-800.jpg 800w">`,
      ),
      [`${page}real.jpg`, `${page}lazy.jpg`, `${page}lazy-800.jpg`],
    );
  });

  test("a <picture>'s sources in a type the renderer cannot use are passed over", () => {
    assert.deepEqual(images(`<picture><source type="image/avif" srcset="a.avif 2000w"><img src="a.jpg"></picture>`), [
      `${page}a.jpg`,
    ]);
  });

  test('tracking pixels, data: URLs and images inside <template> or <script> are left out', () => {
    assert.deepEqual(
      images(
        `<img src="pixel.gif" width="1" height="1"><img src="zero.gif" width=0><img src="data:image/png;base64,AA">` +
          `<template><img src="t.jpg"></template><script>document.write('<img src="s.jpg">')</script><img src="ok.jpg">`,
      ),
      [`${page}ok.jpg`],
    );
  });

  test('every URL is resolved against <base href>, even an og:image written before it', () => {
    assert.deepEqual(
      images(`<meta property="og:image" content="og.jpg"><base href="https://cdn.example/shop/"><img src="img.jpg">`),
      ['https://cdn.example/shop/og.jpg', 'https://cdn.example/shop/img.jpg'],
    );
  });

  test('at most 8 are kept, SVGs only in the places left after the pictures', () => {
    const svgs = Array.from({ length: 3 }, (_, i) => `<img src="icon${i}.svg">`).join('');
    const jpegs = Array.from({ length: 7 }, (_, i) => `<img src="photo${i}.jpg">`).join('');
    assert.deepEqual(images(svgs + jpegs), [
      ...Array.from({ length: 7 }, (_, i) => `${page}photo${i}.jpg`),
      `${page}icon0.svg`,
    ]);
  });
});

describe("a page's text", () => {
  const page = new URL('https://shop.example/');

  test('headings are h1–h3, without scripts, styles, noscript, templates or SVG, whitespace collapsed', () => {
    const read = readPage(
      `<h1>  Fresh\n\t<em>bread</em><script>var a = 1;</script><style>h1{}</style> daily </h1>` +
        `<h2>Open<br>every day<noscript>Enable JavaScript</noscript><svg><text>icon</text></svg></h2>` +
        `<h3><template>Hidden</template>Visit&nbsp;us</h3><h4>Not a heading here</h4><h2>Fresh <b>bread</b> daily</h2>`,
      page,
    );
    assert.deepEqual(read.headings, ['Fresh bread daily', 'Open every day', 'Visit\u00a0us']);
  });

  test('sentences are split in the page language: abbreviations, decimals and ordinals do not end one', () => {
    const read = readPage(pageFixture('sentences-de.html'), page);
    assert.deepEqual(read.sentences, [
      'Dr. Müller kam um 9.30 Uhr.',
      'Er kaufte z. B. zwei Brezeln für 3,50 €.',
      'Am 3. Oktober bleibt die Bäckerei geschlossen.',
      'Kommen Sie bald wieder!',
    ]);
  });

  test('English abbreviations and initials do not end a sentence either', () => {
    const read = readPage(
      `<html lang="en-US"><p>Mr. J. R. Smith opened the shop in 1998, e.g. on Main St. near the station. It sells 2.5 kg loaves.</p>`,
      page,
    );
    assert.deepEqual(read.sentences, [
      'Mr. J. R. Smith opened the shop in 1998, e.g. on Main St. near the station.',
      'It sells 2.5 kg loaves.',
    ]);
  });

  test('sentences without spaces between words are split and kept (Japanese)', () => {
    const read = readPage('<html lang="ja"><p>私たちは毎朝パンを焼いています。お店は駅の近くにあります。</p>', page);
    assert.deepEqual(read.sentences, ['私たちは毎朝パンを焼いています。', 'お店は駅の近くにあります。']);
  });

  test('a malformed lang is ignored, not fatal', () => {
    const read = readPage('<html lang="en_US!"><p>We bake bread every single morning.</p>', page);
    assert.deepEqual(read.sentences, ['We bake bread every single morning.']);
  });
});
