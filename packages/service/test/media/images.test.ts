// A topic's images are decoded, checked and rewritten by sharp before the service keeps them
// (packages/service/src/media/images.ts): decompression bombs, truncated files, wrong extensions and
// non-images are refused with a log line each; animated images keep their first frame; EXIF
// orientation is applied; what is kept is a JPEG or PNG the service wrote, without metadata.
// Every fixture is made here, with sharp and zlib.
import { egressPolicy } from '../../src/egress.js';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import {
  downloadImage,
  MAX_IMAGE_PIXELS,
  MAX_KEPT_SIDE,
  normaliseImage,
  type NormalisedImage,
} from '../../src/media/images.js';
import { startService } from '../../src/server.js';
import { api, createAccount, EventStream, PARTNER, SECRET, serve, statusesUntilFinal } from '../support/helpers.js';

/** The policy of a service on loopback: the test sites on 127.0.0.1 can be fetched. */
const LOOPBACK_EGRESS = egressPolicy('127.0.0.1', false, () => 0);

const work = mkdtempSync(join(tmpdir(), 'video-plugin-images-'));
after(() => rmSync(work, { recursive: true, force: true }));

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

/** A PNG of `width` × `height` 1-bit pixels, all black: a few kB that decode to a huge picture. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4);
    // The CRC is not checked before the header is read; a real one would not change the outcome.
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The fixtures, made once. */
const fixtures = {} as Record<
  | 'photo'
  | 'large'
  | 'bomb'
  | 'truncated'
  | 'corrupt'
  | 'html'
  | 'svg'
  | 'transparentPng'
  | 'animatedGif'
  | 'animatedWebp'
  | 'rotated',
  Buffer
>;

before(async () => {
  fixtures.photo = await solid(640, 480, '#3366cc')
    .jpeg()
    .withExif({ IFD0: { Copyright: 'Somebody', Artist: 'A camera owner' } })
    .toBuffer();
  fixtures.large = await solid(4000, 3000, '#808080').jpeg().toBuffer();
  fixtures.bomb = pngBomb(20_000, 20_000);
  const noisy = await sharp({
    create: {
      width: 640,
      height: 480,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();
  fixtures.truncated = noisy.subarray(0, Math.floor(noisy.length * 0.6));
  fixtures.corrupt = Buffer.concat([noisy.subarray(0, 200), Buffer.alloc(400, 0x5a)]);
  fixtures.html = Buffer.from('<!doctype html><title>Not found</title><p>This is a page, not a picture.</p>');
  fixtures.svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600"/>');
  fixtures.transparentPng = await sharp({
    create: { width: 64, height: 48, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } },
  })
    .png()
    .toBuffer();
  const frames = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map((c) => solid(48, 32, c).png().toBuffer()));
  fixtures.animatedGif = await sharp(frames, { join: { animated: true } })
    .gif({ delay: [100, 100, 100] })
    .toBuffer();
  fixtures.animatedWebp = await sharp(frames, { join: { animated: true } })
    .webp({ delay: [100, 100, 100] })
    .toBuffer();
  // Stored 80×40, left half red, right half blue; EXIF orientation 6: shown turned 90° clockwise.
  fixtures.rotated = await solid(80, 40, '#0000ff')
    .composite([{ input: await solid(40, 40, '#ff0000').png().toBuffer(), left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
});

const kept = (result: NormalisedImage) => {
  assert.ok('data' in result, `kept, not refused: ${'refused' in result ? result.refused : ''}`);
  return result;
};
/** The RGB of the pixel at (`x`, `y`) of an encoded image. */
async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}
const near = (rgb: number[], expected: number[]) => rgb.every((value, i) => Math.abs(value - expected[i]!) < 40);

describe('image intake', () => {
  test('a normal photo is kept as a JPEG of the same size, without its metadata', async () => {
    assert.ok((await sharp(fixtures.photo).metadata()).exif, 'the fixture carries EXIF');
    const image = kept(await normaliseImage(fixtures.photo));
    assert.deepEqual([image.type, image.width, image.height], ['jpg', 640, 480]);
    const meta = await sharp(image.data).metadata();
    assert.deepEqual([meta.format, meta.exif, meta.icc, meta.orientation], ['jpeg', undefined, undefined, undefined]);
  });

  test(`a picture larger than ${MAX_KEPT_SIDE} px a side is scaled down to it`, async () => {
    const image = kept(await normaliseImage(fixtures.large));
    assert.deepEqual([image.width, image.height], [MAX_KEPT_SIDE, MAX_KEPT_SIDE * 0.75]);
  });

  test('a decompression bomb is refused from its header, before it is decoded', async () => {
    assert.ok(fixtures.bomb.length < 200_000, `a small file: ${fixtures.bomb.length} bytes`);
    const started = performance.now();
    const result = await normaliseImage(fixtures.bomb);
    assert.deepEqual(result, {
      refused: `20000×20000 pixels is too large (at most 12000 a side and ${MAX_IMAGE_PIXELS} in all)`,
    });
    // Decoding 400 million pixels would take seconds and 400 MB; reading a header takes none.
    assert.ok(performance.now() - started < 1000, `${performance.now() - started} ms`);
  });

  test('a truncated JPEG and a corrupt one are refused: they do not decode', async () => {
    const truncated = await normaliseImage(fixtures.truncated);
    assert.ok('refused' in truncated && /^a JPEG that does not decode \(.*premature end/i.test(truncated.refused));
    const corrupt = await normaliseImage(fixtures.corrupt);
    assert.ok('refused' in corrupt && /^a JPEG whose header is unreadable|does not decode/.test(corrupt.refused));
  });

  test('what is not a JPEG, PNG, GIF or WebP is refused by its bytes, whatever it is called', async () => {
    for (const bytes of [fixtures.html, fixtures.svg, Buffer.from('GIF')]) {
      assert.deepEqual(await normaliseImage(bytes), { refused: 'not a JPEG, PNG, GIF or WebP image' });
    }
  });

  test('an animated GIF or WebP keeps its first frame, as a still', async () => {
    for (const animated of [fixtures.animatedGif, fixtures.animatedWebp]) {
      assert.equal((await sharp(animated, { pages: -1 }).metadata()).pages, 3, 'the fixture has 3 frames');
      const image = kept(await normaliseImage(animated));
      const meta = await sharp(image.data, { pages: -1 }).metadata();
      assert.deepEqual([meta.format, meta.pages ?? 1, meta.width, meta.height], ['jpeg', 1, 48, 32]);
      assert.ok(near(await pixel(image.data, 24, 16), [255, 0, 0]), 'the first frame (red)');
    }
  });

  test('an EXIF-rotated JPEG is turned upright and loses its orientation tag', async () => {
    assert.equal((await sharp(fixtures.rotated).metadata()).orientation, 6);
    const image = kept(await normaliseImage(fixtures.rotated));
    assert.deepEqual([image.width, image.height], [40, 80]);
    assert.equal((await sharp(image.data).metadata()).orientation, undefined);
    // Turned clockwise, the stored left half (red) is on top.
    assert.ok(near(await pixel(image.data, 20, 10), [255, 0, 0]), 'top is red');
    assert.ok(near(await pixel(image.data, 20, 70), [0, 0, 255]), 'bottom is blue');
  });

  test('a picture with transparency is kept as a PNG', async () => {
    const image = kept(await normaliseImage(fixtures.transparentPng));
    assert.equal(image.type, 'png');
    assert.equal((await sharp(image.data).metadata()).hasAlpha, true);
  });
});

describe('image downloads', () => {
  let server: Server;
  let base: string;
  const files: Record<string, [string, () => Buffer]> = {
    '/photo.jpg': ['image/jpeg', () => fixtures.photo],
    // A PNG called .jpg, a JPEG called .png, a page called .png.
    '/logo.jpg': ['image/jpeg', () => fixtures.transparentPng],
    '/photo.png': ['image/png', () => fixtures.photo],
    '/page.png': ['image/png', () => fixtures.html],
    '/bomb.png': ['image/png', () => fixtures.bomb],
  };
  before(async () => {
    server = createServer((req, res) => {
      const file = files[req.url ?? ''];
      if (!file) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': file[0] }).end(file[1]());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  test('kept images are named by what they are, not by their URL', async () => {
    const dir = join(work, 'named');
    const limits = { timeoutMs: 2000, egress: LOOPBACK_EGRESS };
    assert.deepEqual(await downloadImage(`${base}/photo.jpg`, dir, 0, limits), {
      file: join(dir, '0.jpg'),
      width: 640,
      height: 480,
    });
    assert.equal(
      ((await downloadImage(`${base}/logo.jpg`, dir, 1, limits)) as { file: string }).file,
      join(dir, '1.png'),
    );
    assert.equal(
      ((await downloadImage(`${base}/photo.png`, dir, 2, limits)) as { file: string }).file,
      join(dir, '2.jpg'),
    );
    assert.deepEqual(readdirSync(dir).sort(), ['0.jpg', '1.png', '2.jpg']);
    assert.equal((await sharp(readFileSync(join(dir, '1.png'))).metadata()).format, 'png');
  });

  test('each skipped image is one log line naming the URL and the reason', async (t: TestContext) => {
    const warn = t.mock.method(console, 'warn', () => {});
    const dir = join(work, 'skipped');
    const limits = { timeoutMs: 2000, egress: LOOPBACK_EGRESS };
    assert.deepEqual(await downloadImage(`${base}/page.png`, dir, 0, limits), {
      skipped: 'not a JPEG, PNG, GIF or WebP image',
    });
    assert.deepEqual(await downloadImage(`${base}/missing.png`, dir, 1, limits), { skipped: 'HTTP 404' });
    assert.deepEqual(
      warn.mock.calls.map((call) => call.arguments[0]),
      [
        `video-plugin-service: image skipped, not a JPEG, PNG, GIF or WebP image: ${base}/page.png`,
        `video-plugin-service: image skipped, HTTP 404: ${base}/missing.png`,
      ],
    );
  });
});

describe('a topic with bad images', () => {
  test('completes, keeping the good images only, with a log line for each refused one', async (t: TestContext) => {
    const served: Record<string, Buffer> = {
      '/photo.jpg': fixtures.photo,
      '/bomb.png': fixtures.bomb,
      '/cut.jpg': fixtures.truncated,
      '/page.png': fixtures.html,
      '/logo.jpg': fixtures.transparentPng,
      '/anim.gif': fixtures.animatedGif,
      '/turned.jpg': fixtures.rotated,
      '/vector.png': fixtures.svg,
    };
    const source = await serve((req, res) => {
      const bytes = served[req.url ?? ''];
      if (bytes) return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Bäckerei</title><h1>Brot</h1><p>Frisches Brot jeden Morgen aus dem Ofen.</p>` +
          Object.keys(served)
            .map((path) => `<img src="${path}">`)
            .join(''),
      );
    });
    const warn = t.mock.method(console, 'warn', () => {});
    const mediaDir = join(work, 'service-media');
    const service = await startService({
      port: 0,
      allowLoopbackSources: true,
      jobMs: 40,
      mediaDir,
      partners: [{ id: PARTNER, secret: SECRET }],
    });
    try {
      const { session } = await createAccount(service);
      const stream = await EventStream.open(service, session);
      await stream.next((event) => event.event === 'ready');
      const { body } = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } });
      assert.deepEqual(await statusesUntilFinal(stream, 'topic', (data) => data.id === body.topicId), [
        'PENDING',
        'PROCESSING',
        'COMPLETE',
      ]);
      stream.close();
      const topic = (await api(service, 'GET', `/api/topics/${body.topicId}`, { session })).body.topic;
      assert.equal(topic.images.length, 8, 'the topic still lists every image of the page');
      const keptFiles = readdirSync(join(mediaDir, 'topics', body.topicId)).sort();
      const order = Object.keys(served);
      const name = (path: string, type: string) => `${order.indexOf(path)}.${type}`;
      assert.deepEqual(
        keptFiles,
        [
          name('/photo.jpg', 'jpg'),
          name('/logo.jpg', 'png'),
          name('/anim.gif', 'jpg'),
          name('/turned.jpg', 'jpg'),
        ].sort(),
      );
      // What the studio shows: the kept copies only, in page order, on the service's own origin.
      assert.deepEqual(
        topic.pictures,
        [...keptFiles].sort((a, b) => parseInt(a) - parseInt(b)).map((file) => `/media/topics/${body.topicId}/${file}`),
      );
      const lines = warn.mock.calls
        .map((call) => String(call.arguments[0]))
        .filter((line) => line.startsWith('video-plugin-service: image skipped'));
      assert.equal(lines.length, 4, lines.join('\n'));
      for (const [path, reason] of [
        ['/bomb.png', /20000×20000 pixels is too large/],
        ['/cut.jpg', /a JPEG that does not decode/],
        ['/page.png', /not a JPEG, PNG, GIF or WebP image/],
        ['/vector.png', /not a JPEG, PNG, GIF or WebP image/],
      ] as const) {
        assert.ok(
          lines.some((line) => line.endsWith(`${source}${path}`) && reason.test(line)),
          `${path}: ${lines.join('\n')}`,
        );
      }
    } finally {
      await service.close();
    }
  });
});

describe("a topic's pictures", () => {
  test("are the service's own checked copies with placeholder media too, served from its origin", async (t: TestContext) => {
    const source = await serve((req, res) => {
      if (req.url === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(fixtures.photo);
      if (req.url === '/vector.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(fixtures.svg);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Shop</title><h1>Shop</h1><img src="/vector.svg"><img src="/photo.jpg">');
    });
    t.mock.method(console, 'warn', () => {});
    // No media folder given: a temporary one, as with real media, removed when the service stops.
    const service = await startService({
      port: 0,
      allowLoopbackSources: true,
      jobMs: 40,
      media: 'placeholder',
      partners: [{ id: PARTNER, secret: SECRET }],
    });
    try {
      const { session } = await createAccount(service);
      const stream = await EventStream.open(service, session);
      await stream.next((event) => event.event === 'ready');
      const { body } = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } });
      await statusesUntilFinal(stream, 'topic', (data) => data.id === body.topicId);
      stream.close();
      const topic = (await api(service, 'GET', `/api/topics/${body.topicId}`, { session })).body.topic;
      assert.deepEqual([...topic.images].sort(), [`${source}/photo.jpg`, `${source}/vector.svg`]);
      // The SVG is refused (never decoded, never shown); the photo keeps its index in `images`.
      const index = topic.images.indexOf(`${source}/photo.jpg`);
      assert.deepEqual(topic.pictures, [`/media/topics/${body.topicId}/${index}.jpg`]);
      const picture = await fetch(`${service.url}${topic.pictures[0]}`);
      assert.equal(picture.status, 200);
      assert.equal(picture.headers.get('content-type'), 'image/jpeg');
      assert.deepEqual([...new Uint8Array(await picture.arrayBuffer()).subarray(0, 3)], [0xff, 0xd8, 0xff]);
    } finally {
      await service.close();
    }
  });
});
