// Partner metadata (issue 41, part 7): a generation's `metadata`, within Stripe's limits
// (METADATA_LIMITS: at most 20 keys, keys of 1 to 40 characters, string values of at most 500), is
// echoed exactly as given — same keys, same order, same code units — on the generation, its video
// (`getVideoData`), the status stream and the studio's status updates, the webhooks and the event
// log, and across a restart with a data file. Metadata outside the limits is refused with
// `invalid_parameter` naming the field (`metadata` or `metadata.<key>`) at every door (the
// `Plugin`'s schema, the studio page's, `POST /api/generations`), and nothing is saved.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { VideoPluginError } from '../../../../src/errors.js';
import { videoGenerationParamsSchema } from '../../../../src/options.js';
import { listEvents, verifyWebhook, type WebhookEvent } from '../../../../src/server/index.js';
import { parse } from '../../../../src/validate.js';
import { fullGenerationParamsSchema, metadataProblem } from '../../../../src/wire/metadata.js';
import { METADATA_LIMITS } from '../../../../src/wire/values.js';
import { renderPayload, statusPayload } from '../../src/pages/payloads.js';
import type { RunningService } from '../../src/server.js';
import {
  EventStream,
  PARTNER,
  WEBHOOK_SECRET,
  api,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';
import { webhookReceiver, webhookService } from '../support/webhooks.js';

const { keys: MAX_KEYS, keyLength: KEY_LENGTH, valueLength: VALUE_LENGTH } = METADATA_LIMITS;

const dir = mkdtempSync(join(tmpdir(), 'vp-metadata-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const source = await serve((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Acme Bikes</title>');
});

/**
 * Metadata at every limit, in text no normaliser would leave alone: exactly MAX_KEYS keys, one of
 * KEY_LENGTH characters, one value of VALUE_LENGTH characters ending in an astral emoji (2 code
 * units), a decomposed and a composed "é" (NFD vs NFC), a family emoji joined by ZWJ, right-to-left
 * text, U+2028, padding spaces, an empty value and keys that are not identifiers.
 */
const METADATA: Record<string, string> = {
  orderId: 'ord_6735',
  ['k'.repeat(KEY_LENGTH)]: 'key at the limit',
  long: `${'x'.repeat(VALUE_LENGTH - 2)}🎬`,
  nfd: 'Cafe\u0301',
  nfc: 'Caf\u00e9',
  family: '👩‍👩‍👧‍👦',
  rtl: 'مرحبا بالعالم',
  separator: 'line\u2028break',
  padded: '  spaced  ',
  empty: '',
  'clé 🔑': 'ключ',
  'with.dot': 'a.b',
  'with space': 'x y',
  zero: '0',
  quote: '"quoted" \\ back',
  tab: 'a\tb\nc',
  cjk: '東京',
  html: '<b>&amp;</b>',
  ü: 'umlaut',
  last: 'last',
};
assert.equal(Object.keys(METADATA).length, MAX_KEYS);
assert.equal(METADATA.long!.length, VALUE_LENGTH);
assert.equal(metadataProblem(METADATA), undefined);

/** The same object as given: the same keys in the same order, the same strings (JSON is a byte-exact comparison). */
function assertEcho(actual: unknown, where: string): void {
  assert.equal(JSON.stringify(actual), JSON.stringify(METADATA), where);
  assert.equal((actual as Record<string, string>).nfd, 'Cafe\u0301', `${where}: not normalised`);
}

/** An account with a COMPLETE topic, and its status stream. */
async function topicOf(service: RunningService) {
  const { session, account } = await createAccount(service, { externalID: `owner-${crypto.randomUUID()}` });
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
  await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
  return { session, account, stream, topicId: topicId as string };
}

const generationBody = (topicId: string, metadata: unknown) => ({
  topicId,
  aspectRatio: '16:9',
  duration: 5,
  metadata,
});

describe('metadata echoed as given', () => {
  test('on the generation, its video, the status stream, the studio status updates, the webhooks and the event log', async () => {
    const { origin, received, arrived } = await webhookReceiver((_post, res) => res.writeHead(204).end());
    const service = await webhookService([origin]);
    const { session, stream, topicId } = await topicOf(service);
    const started = await api(service, 'POST', '/api/generations', {
      session,
      body: generationBody(topicId, METADATA),
    });
    assert.equal(started.status, 202);
    const { requestId, videoId } = started.body;

    // The status stream: every update of the generation carries it.
    const generationUpdates: { status: string; metadata?: unknown }[] = [];
    for (;;) {
      const { data } = await stream.next((event) => event.event === 'generation' && event.data.requestId === requestId);
      generationUpdates.push(data);
      if (data.status === 'COMPLETE' || data.status === 'FAILED') break;
    }
    assert.equal(generationUpdates.at(-1)!.status, 'COMPLETE');
    for (const update of generationUpdates) assertEcho(update.metadata, `stream: generation ${update.status}`);

    // The API's generation and video (what getVideoData and getVideos answer), in the response's own bytes too.
    const generation = (await api(service, 'GET', `/api/generations/${requestId}`, { session })).body.generation;
    assertEcho(generation.metadata, 'GET /api/generations/:id');
    const raw = await (
      await fetch(`${service.url}/api/videos/${videoId}`, { headers: { authorization: `Bearer ${session}` } })
    ).text();
    assert.ok(raw.includes(JSON.stringify(METADATA)), 'GET /api/videos/:id: the same JSON text as sent');
    const video = JSON.parse(raw).video;
    assertEcho(video.metadata, 'GET /api/videos/:id');
    const { videos } = (await api(service, 'GET', '/api/videos', { session })).body;
    assertEcho(videos.find((one: { id: string }) => one.id === videoId).metadata, 'GET /api/videos');

    // The studio's status updates to the host (videoGenerationStatus, videoRender's), built from these records.
    assertEcho(statusPayload(generation).metadata, 'studio: video generation status update');
    assertEcho(renderPayload(video).metadata, 'studio: video render status update');

    // The webhooks and the event log, once the video is completed and rendered.
    assert.equal((await api(service, 'POST', `/api/videos/${videoId}/complete`, { session })).status, 200);
    const { data: rendered } = await stream.next(
      (event) => event.event === 'video' && event.data.id === videoId && event.data.renders[0]?.status === 'COMPLETE',
    );
    assertEcho(rendered.metadata, 'stream: video');
    assertEcho(renderPayload(rendered).metadata, 'studio: video render status update, COMPLETE');
    await arrived(() => received.length >= 3);
    const hooks = await Promise.all(
      received.map((post) => verifyWebhook(post.body, { secret: WEBHOOK_SECRET, partnerID: PARTNER })),
    );
    const videoHooks = hooks.filter((event) => event.type !== 'account.created');
    assert.deepEqual(videoHooks.map((event) => event.type).sort(), ['video.completed', 'video.rendered']);
    for (const event of videoHooks) {
      assertEcho(event.data.metadata, `webhook ${event.type}`);
    }
    const logged: WebhookEvent[] = [];
    for await (const page of listEvents({ partnerID: PARTNER, secret: WEBHOOK_SECRET, serviceURL: service.url })) {
      logged.push(...page.events);
    }
    const loggedVideo = logged.filter((event) => event.type !== 'account.created');
    assert.equal(loggedVideo.length, 2);
    for (const event of loggedVideo) {
      assertEcho(event.data.metadata, `event log ${event.type}`);
    }
    stream.close();
  });

  test('a generation without metadata has none anywhere, and {} is kept as {}', async () => {
    const service = await startTestService();
    const { session, topicId, stream } = await topicOf(service);
    const none = (await api(service, 'POST', '/api/generations', { session, body: generationBody(topicId, undefined) }))
      .body;
    const empty = (await api(service, 'POST', '/api/generations', { session, body: generationBody(topicId, {}) })).body;
    const video = (id: string) => api(service, 'GET', `/api/videos/${id}`, { session }).then((r) => r.body.video);
    const generation = (id: string) =>
      api(service, 'GET', `/api/generations/${id}`, { session }).then((r) => r.body.generation);
    assert.equal('metadata' in (await video(none.videoId)), false);
    assert.equal('metadata' in (await generation(none.requestId)), false);
    assert.equal('metadata' in statusPayload(await generation(none.requestId)), false);
    assert.deepEqual((await video(empty.videoId)).metadata, {});
    assert.deepEqual((await generation(empty.requestId)).metadata, {});
    stream.close();
  });

  test('a data file keeps it: the generation and its video read back the same after a restart', async () => {
    const dataFile = join(dir, 'metadata.db');
    const first = await startTestService({ dataFile });
    const { session, topicId, stream } = await topicOf(first);
    const { requestId, videoId } = (
      await api(first, 'POST', '/api/generations', { session, body: generationBody(topicId, METADATA) })
    ).body;
    await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
    stream.close();
    await first.close();

    const second = await startTestService({ dataFile });
    assertEcho(
      (await api(second, 'GET', `/api/videos/${videoId}`, { session })).body.video.metadata,
      'video after a restart',
    );
    assertEcho(
      (await api(second, 'GET', `/api/generations/${requestId}`, { session })).body.generation.metadata,
      'generation after a restart',
    );
  });

  test('an idempotency key replays the same metadata, and refuses other metadata with the same key', async () => {
    const service = await startTestService();
    const { session, topicId, stream } = await topicOf(service);
    const start = (metadata: unknown) =>
      api(service, 'POST', '/api/generations', {
        session,
        body: generationBody(topicId, metadata),
        headers: { 'idempotency-key': 'order-6735' },
      });
    const first = await start({ orderId: '6735' });
    assert.equal(first.status, 202);
    const again = await start({ orderId: '6735' });
    assert.equal(again.body.replayed, true);
    assert.equal(again.body.videoId, first.body.videoId);
    assert.equal((await start({ orderId: '6736' })).body.error.code, 'idempotency_key_reused');
    stream.close();
  });
});

/** Each refused metadata, and the field the refusal names (below `metadata`'s container). */
const REFUSED: [what: string, metadata: unknown, field: string, message: RegExp][] = [
  [
    `${MAX_KEYS + 1} keys`,
    Object.fromEntries(Array.from({ length: MAX_KEYS + 1 }, (_, i) => [`key${i}`, 'v'])),
    'metadata',
    /has 21 keys, at most 20 are allowed: remove 1/,
  ],
  [
    `a key of ${KEY_LENGTH + 1} characters`,
    { ['k'.repeat(KEY_LENGTH + 1)]: 'v' },
    'metadata',
    /key "k{41}" of 41 characters; keys are 1 to 40 characters/,
  ],
  ['an empty key', { '': 'v' }, 'metadata', /key "" of 0 characters/],
  [
    `a value of ${VALUE_LENGTH + 1} characters`,
    { orderId: 'x'.repeat(VALUE_LENGTH + 1) },
    'metadata.orderId',
    /at most 500 characters \(it has 501\)/,
  ],
  [
    `an astral emoji past ${VALUE_LENGTH} code units`,
    { orderId: `${'x'.repeat(VALUE_LENGTH - 1)}🎬` },
    'metadata.orderId',
    /at most 500/,
  ],
  ['a number', { orderId: 6735 }, 'metadata.orderId', /must be a string .*String\(\)/],
  ['a boolean', { ok: 'yes', paid: true }, 'metadata.paid', /must be a string/],
  ['null as a value', { orderId: null }, 'metadata.orderId', /must be a string/],
  ['a nested object', { order: { id: '1' } }, 'metadata.order', /must be a string/],
  ['an array', ['ord_1'], 'metadata', /must be an object of string values/],
  ['a string', 'ord_1', 'metadata', /must be an object of string values/],
  ['null', null, 'metadata', /must be an object of string values/],
];

describe('metadata outside the limits', () => {
  test('is refused by POST /api/generations naming the field, and nothing is saved or sent', async () => {
    const { origin, received } = await webhookReceiver((_post, res) => res.writeHead(204).end());
    const service = await webhookService([origin]);
    const { session, topicId, stream } = await topicOf(service);
    await service.webhooks.settled();
    const counts = () => {
      const { generations, videos, jobs } = service.stats();
      return { generations, videos, jobs };
    };
    const before = counts();
    const posts = received.length;
    for (const [what, metadata, field, message] of REFUSED) {
      const { status, body } = await api(service, 'POST', '/api/generations', {
        session,
        body: generationBody(topicId, metadata),
      });
      assert.equal(status, 400, what);
      assert.equal(body.error.code, 'invalid_parameter', what);
      assert.equal(body.error.data.field, field, what);
      assert.match(body.error.message, message, what);
      assert.match(
        body.error.message,
        new RegExp(`^POST /api/generations: body: "${field.replace('.', '\\.')}"`),
        what,
      );
    }
    assert.deepEqual(counts(), before, 'no generation or video saved, no job started');
    assert.deepEqual((await api(service, 'GET', '/api/videos', { session })).body.videos, []);
    await service.webhooks.settled();
    assert.equal(received.length, posts, 'no webhook sent');
    // The same generation with metadata at the limits is then accepted: the refusals were the metadata's.
    const accepted = await api(service, 'POST', '/api/generations', {
      session,
      body: generationBody(topicId, METADATA),
    });
    assert.equal(accepted.status, 202);
    stream.close();
  });

  test('is refused by the studio page naming the same field, and the Plugin refuses what is not a plain object', () => {
    const field = (run: () => unknown): string | undefined => {
      try {
        run();
        return undefined;
      } catch (error) {
        assert.ok(error instanceof VideoPluginError && error.code === 'invalid_parameter');
        return String(error.data?.field);
      }
    };
    const params = (metadata: unknown) => generationBody('topic_1', metadata);
    for (const [what, metadata, expected, message] of REFUSED) {
      // The studio page parses the host's params with this schema (pages/host-methods.ts).
      const page = () => parse(fullGenerationParamsSchema, params(metadata), 'videoGenerationParams');
      assert.equal(field(page), `videoGenerationParams.${expected}`, `studio page: ${what}`);
      assert.throws(page, message, `studio page: ${what}`);
      // The Plugin: only the shape (a plain object), which costs its bundle almost nothing.
      const plugin = field(() => parse(videoGenerationParamsSchema, params(metadata), 'videoGenerationParams'));
      const plain = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata);
      assert.equal(plugin, plain ? undefined : 'videoGenerationParams.metadata', `Plugin: ${what}`);
    }
    // What passes keeps the caller's object: nothing copied, sorted or normalised.
    assert.equal(
      parse(fullGenerationParamsSchema, params(METADATA), 'videoGenerationParams').metadata,
      METADATA,
      'the page keeps the object',
    );
    assert.equal(
      parse(videoGenerationParamsSchema, params(METADATA), 'videoGenerationParams').metadata,
      METADATA,
      'the Plugin keeps the object',
    );
  });
});

test('the docs state the limits of METADATA_LIMITS', () => {
  const docs = (path: string, heading: RegExp) => {
    const text = readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');
    const start = text.search(heading);
    assert.ok(start >= 0, `${path}: ${heading}`);
    return text.slice(start, text.indexOf('\n#', start + 1));
  };
  const service = docs('docs/service.md', /^### Partner metadata/m);
  assert.match(service, new RegExp(`\\| keys +\\| at most ${MAX_KEYS} +\\|`));
  assert.match(service, new RegExp(`\\| a key +\\| 1 to ${KEY_LENGTH} characters +\\|`));
  assert.match(service, new RegExp(`\\| values +\\| strings only .*at most ${VALUE_LENGTH} characters +\\|`));
  const plugin = docs('docs/plugin-api.md', /^\*\*Partner metadata/m).replace(/\s+/g, ' ');
  assert.ok(
    plugin.includes(
      `at most ${MAX_KEYS} keys, each 1 to ${KEY_LENGTH} characters, each value a string of at most ${VALUE_LENGTH} characters`,
    ),
    'docs/plugin-api.md, "Partner metadata"',
  );
});
