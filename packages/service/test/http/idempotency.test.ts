// Safe retries: a start request with an `Idempotency-Key` runs once per key and account (kept 24
// hours); a repeat answers the first request's IDs, another body with the key is refused, and the
// keys survive a restart with --data.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { IDEMPOTENCY_KEY_SECONDS, Store, fingerprint } from '../../src/store/store.js';
import {
  EventStream,
  api,
  createAccount,
  login,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';
import type { RunningService } from '../../src/server.js';

const service = await startTestService();
const source = await serve((req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Retried page</title>'),
);
const dir = await mkdtemp(join(tmpdir(), 'video-plugin-idempotency-'));
after(() => rm(dir, { recursive: true, force: true }));

const key = (name: string) => ({ 'idempotency-key': `${name}-${crypto.randomUUID()}` });

function search(on: RunningService, session: string, headers: Record<string, string>, path = '/shop') {
  return api(on, 'POST', '/api/topics', { session, headers, body: { sourceURL: `${source}${path}` } });
}

/** A topic search run to COMPLETE, for the generations. */
async function completedTopic(on: RunningService, session: string): Promise<string> {
  const stream = await EventStream.open(on, session);
  await stream.next((event) => event.event === 'ready');
  const { topicId } = (await search(on, session, {})).body;
  await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
  stream.close();
  return topicId;
}

const generate = (on: RunningService, session: string, headers: Record<string, string>, body: object) =>
  api(on, 'POST', '/api/generations', { session, headers, body });

describe('topic searches', () => {
  test('the same key twice answers the same topic and starts one search', async () => {
    const { session } = await createAccount(service);
    const headers = key('search');
    const first = await search(service, session, headers);
    const second = await search(service, session, headers);
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    assert.equal(first.body.replayed, undefined);
    assert.deepEqual(second.body, { ...first.body, replayed: true });
    const { topics } = (await api(service, 'GET', '/api/topics', { session })).body;
    assert.deepEqual(
      topics.map((topic: { id: string }) => topic.id),
      [first.body.topicId],
    );
  });

  test('concurrent requests with one key make one search', async () => {
    const { session } = await createAccount(service);
    const headers = key('race');
    const answers = await Promise.all(Array.from({ length: 8 }, () => search(service, session, headers)));
    assert.deepEqual(new Set(answers.map((answer) => answer.body.topicId)).size, 1);
    assert.equal(answers.filter((answer) => !answer.body.replayed).length, 1);
    assert.equal((await api(service, 'GET', '/api/topics', { session })).body.topics.length, 1);
  });

  test('the same key with another URL is refused with idempotency_key_reused', async () => {
    const { session } = await createAccount(service);
    const headers = key('other-url');
    await search(service, session, headers, '/one');
    const refused = await search(service, session, headers, '/two');
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error.code, 'idempotency_key_reused');
    assert.equal(refused.body.error.data.field, 'options.idempotencyKey');
    assert.match(refused.body.error.message, /use a new key for a new request/);
    assert.equal((await api(service, 'GET', '/api/topics', { session })).body.topics.length, 1);
  });

  test('another account with the same key starts its own search', async () => {
    const one = await createAccount(service);
    const two = await createAccount(service);
    const headers = key('shared');
    const first = await search(service, one.session, headers);
    const second = await search(service, two.session, headers);
    assert.notEqual(second.body.topicId, first.body.topicId);
    assert.equal(second.body.replayed, undefined);
  });

  test('a malformed key is refused naming the field, and nothing starts', async () => {
    const { session } = await createAccount(service);
    for (const bad of ['', 'has space', 'x'.repeat(256)]) {
      const refused = await search(service, session, { 'idempotency-key': bad });
      assert.equal(refused.status, 400, JSON.stringify(bad));
      assert.equal(refused.body.error.code, 'invalid_parameter');
      assert.equal(refused.body.error.data.field, 'options.idempotencyKey');
    }
    assert.equal((await api(service, 'GET', '/api/topics', { session })).body.topics.length, 0);
  });
});

describe('video generations', () => {
  test('the same key twice answers the same generation and video, and makes one video', async () => {
    const { session } = await createAccount(service);
    const topicId = await completedTopic(service, session);
    const headers = key('generate');
    // The normalised body is compared: the default language given or not is the same request.
    const first = await generate(service, session, headers, { topicId, aspectRatio: '16:9', duration: 5 });
    const second = await generate(service, session, headers, {
      duration: 5,
      aspectRatio: '16:9',
      topicId,
      language: 'en-US',
    });
    assert.equal(first.status, 202);
    assert.deepEqual(second.body, { ...first.body, replayed: true });
    assert.deepEqual(Object.keys(first.body).sort(), ['requestId', 'topicId', 'videoId']);
    const { videos } = (await api(service, 'GET', '/api/videos', { session })).body;
    assert.deepEqual(
      videos.map((video: { id: string }) => video.id),
      [first.body.videoId],
    );
  });

  test('concurrent requests with one key make one generation', async () => {
    const { session } = await createAccount(service);
    const topicId = await completedTopic(service, session);
    const headers = key('generate-race');
    const body = { topicId, aspectRatio: '4:5', duration: 15 };
    const answers = await Promise.all(Array.from({ length: 6 }, () => generate(service, session, headers, body)));
    assert.equal(new Set(answers.map((answer) => answer.body.requestId)).size, 1);
    assert.equal((await api(service, 'GET', '/api/videos', { session })).body.videos.length, 1);
  });

  test('the same key with other parameters, or on the other route, is refused', async () => {
    const { session } = await createAccount(service);
    const topicId = await completedTopic(service, session);
    const headers = key('generate-other');
    await generate(service, session, headers, { topicId, aspectRatio: '16:9', duration: 5 });
    const other = await generate(service, session, headers, { topicId, aspectRatio: '16:9', duration: 15 });
    assert.equal(other.status, 422);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    const otherRoute = await search(service, session, headers);
    assert.equal(otherRoute.body.error.code, 'idempotency_key_reused');
    assert.equal((await api(service, 'GET', '/api/videos', { session })).body.videos.length, 1);
  });

  test('a request refused for its topic keeps no key: the retry once the topic is ready starts it', async () => {
    const { session } = await createAccount(service);
    const headers = key('not-ready');
    const refused = await generate(service, session, headers, {
      topicId: 'topic_missing',
      aspectRatio: '16:9',
      duration: 5,
    });
    assert.equal(refused.body.error.code, 'topic_not_found');
    const topicId = await completedTopic(service, session);
    const started = await generate(service, session, headers, { topicId, aspectRatio: '16:9', duration: 5 });
    assert.equal(started.status, 202);
    assert.equal(started.body.replayed, undefined);
  });
});

describe('the kept keys', () => {
  const owner = { partnerID: 'p', accountID: 'a' };

  test('a key is kept 24 hours, then forgotten: the same key starts a new request', async () => {
    const store = await Store.open();
    const now = 1_000_000;
    let runs = 0;
    const start = () => ({ id: ++runs });
    const print = fingerprint('topics', { sourceURL: 'https://shop.example/' });
    assert.deepEqual(store.idempotent(owner, 'k', print, start, now), { result: { id: 1 }, replayed: false });
    const almost = now + IDEMPOTENCY_KEY_SECONDS - 1;
    assert.deepEqual(store.idempotent(owner, 'k', print, start, almost), { result: { id: 1 }, replayed: true });
    const later = now + IDEMPOTENCY_KEY_SECONDS;
    assert.deepEqual(store.idempotent(owner, 'k', print, start, later), { result: { id: 2 }, replayed: false });
    assert.equal(IDEMPOTENCY_KEY_SECONDS, 86_400);
  });

  test('pruning forgets only the expired keys', async () => {
    const store = await Store.open();
    const print = fingerprint('topics', {});
    store.idempotent(owner, 'old', print, () => ({}), 0);
    store.idempotent(owner, 'new', print, () => ({}), 1000);
    assert.equal(store.pruneIdempotencyKeys(IDEMPOTENCY_KEY_SECONDS + 500), 1);
    assert.equal(store.idempotencyKeyCount, 1);
  });

  test('the fingerprint ignores the order of the fields and undefined ones', () => {
    assert.equal(
      fingerprint('generations', { topicId: 't', duration: 5, videoInstructions: undefined }),
      fingerprint('generations', { duration: 5, topicId: 't' }),
    );
    assert.notEqual(fingerprint('generations', { topicId: 't' }), fingerprint('topics', { topicId: 't' }));
  });

  test('keys survive a restart with --data; expired ones are pruned from the file', async () => {
    const dataFile = join(dir, 'keys.db');
    const first = await startTestService({ dataFile });
    const { session, account } = await createAccount(first);
    const headers = key('kept');
    const started = await search(first, session, headers);
    await first.close();

    const second = await startTestService({ dataFile });
    const { session: again } = (await login(second, { accountID: account.id })).body;
    const retried = await search(second, again, headers);
    assert.deepEqual(retried.body, { ...started.body, replayed: true });
    assert.equal((await search(second, again, headers, '/else')).body.error.code, 'idempotency_key_reused');
    await second.close();

    const store = await Store.open(dataFile);
    try {
      assert.equal(store.idempotencyKeyCount, 1);
      store.pruneIdempotencyKeys(Date.now() / 1000 + IDEMPOTENCY_KEY_SECONDS + 1);
    } finally {
      await store.close();
    }
    const reopened = await Store.open(dataFile);
    try {
      assert.equal(reopened.idempotencyKeyCount, 0);
    } finally {
      await reopened.close();
    }
  });
});
