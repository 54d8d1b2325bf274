// How a topic search reads its source page: the bytes' encoding.
// (topics.test.ts goes through the service; these call the reader directly for the finer cases.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fetchSourcePage } from '../../src/service/source.js';
import { PageDecoder } from '../../src/service/source/charset.js';
import { serve } from './helpers.js';
import { WINDOWS_1252, pageFixture, utf16leWithBOM, utf8WithBOM, windows1252 } from './page-fixtures.js';

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
const read = (path: string) => fetchSourcePage(`${origin}${path}`, { timeoutMs: 2000 });

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
