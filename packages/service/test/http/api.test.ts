// The account / video / topic / generation lifecycle through the HTTP API, with ownership rules
// and the status stream.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccountToken } from '../../../../src/server/index.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  api,
  createAccount,
  login,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';

const service = await startTestService({
  jobMs: 80,
  partners: [
    { id: PARTNER, secret: SECRET, allowedOrigins: ['https://shop.example', 'http://localhost:*'] },
    { id: 'second-partner', secret: 'second-secret-0123456789abcdef0123456789' },
  ],
});
const source = await serve((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Acme Bikes</title>
    <meta name="description" content="Bikes &amp; parts since 1999">
    <meta property="og:image" content="/img/hero.jpg"></head>
    <body><img src="a.png"><img src="https://cdn.example/b.png"></body></html>`);
});

/** Runs a topic search to COMPLETE and returns its topicId. */
async function completedTopic(session: string): Promise<string> {
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  const { body } = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/shop` } });
  await statusesUntilFinal(stream, 'topic', (data) => data.id === body.topicId);
  stream.close();
  return body.topicId;
}

describe('accounts', () => {
  test('create returns the account and a session that reads it back', async () => {
    const { account, session } = await createAccount(service, {
      externalID: 'acc-1',
      firstName: 'Ada',
      city: 'London',
    });
    assert.match(account.id, /^acct_/);
    assert.equal(account.partnerID, undefined);
    assert.match(String(account.createdAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const read = await api(service, 'GET', '/api/account', { session });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.account, account);
  });

  test('update changes only the fields given', async () => {
    const { account, session } = await createAccount(service, { firstName: 'Ada', lastName: 'Byron', phone: '123' });
    const updated = await api(service, 'PATCH', '/api/account', {
      session,
      body: { lastName: 'Lovelace', emailAddress: 'ada@example.com' },
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(
      { ...updated.body.account, updatedAt: undefined },
      { ...account, lastName: 'Lovelace', emailAddress: 'ada@example.com', updatedAt: undefined },
    );
    assert.ok(updated.body.account.updatedAt >= String(account.createdAt));
    assert.deepEqual((await api(service, 'GET', '/api/account', { session })).body.account, updated.body.account);
  });

  test('update refuses unknown fields and wrong types, naming the field', async () => {
    const { session } = await createAccount(service);
    const unknown = await api(service, 'PATCH', '/api/account', { session, body: { externalID: 'x' } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'invalid_parameter');
    assert.equal(unknown.body.error.data.field, 'externalID');
    const wrongType = await api(service, 'PATCH', '/api/account', { session, body: { city: 5 } });
    assert.equal(wrongType.body.error.data.field, 'city');
    assert.match(wrongType.body.error.message, /"city" must be a string/);
  });

  test('an externalID already used by the partner cannot be created again', async () => {
    await createAccount(service, { externalID: 'dup' });
    const token = await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID: 'dup' } });
    const again = await api(service, 'POST', '/api/accounts', { body: { token } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'account_already_exists');
  });

  test('another partner may use the same externalID for its own account', async () => {
    const mine = await createAccount(service, { externalID: 'shared-id' });
    const theirs = await createAccount(
      service,
      { externalID: 'shared-id' },
      'second-partner',
      'second-secret-0123456789abcdef0123456789',
    );
    assert.notEqual(mine.account.id, theirs.account.id);
  });

  test('login with an unknown accountID or externalID: account_not_found', async () => {
    for (const by of [{ accountID: 'acct_missing' }, { externalID: 'nobody' }]) {
      const result = await login(service, by);
      assert.equal(result.status, 404);
      assert.equal(result.body.error.code, 'account_not_found');
    }
  });

  test("login by another partner's accountID: account_not_found", async () => {
    const theirs = await createAccount(service, {}, 'second-partner', 'second-secret-0123456789abcdef0123456789');
    assert.equal((await login(service, { accountID: theirs.account.id })).body.error.code, 'account_not_found');
  });

  test('logout ends the session, and repeating it is harmless', async () => {
    const { session } = await createAccount(service);
    assert.equal((await api(service, 'DELETE', '/api/sessions/current', { session })).status, 204);
    const after = await api(service, 'GET', '/api/account', { session });
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'not_authenticated');
    assert.equal((await api(service, 'DELETE', '/api/sessions/current', { session })).status, 204);
  });

  test('logout ends the status streams of that session', async () => {
    const { session } = await createAccount(service);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    await api(service, 'DELETE', '/api/sessions/current', { session });
    await stream.ended();
  });

  test('calls without a session are refused with not_authenticated', async () => {
    for (const path of ['/api/account', '/api/videos', '/api/topics', '/api/events']) {
      const result = await api(service, 'GET', path, { session: path === '/api/videos' ? 'forged-session' : '' });
      assert.equal(result.status, 401, path);
      assert.equal(result.body.error.code, 'not_authenticated', path);
    }
  });

  test('uncontrolled sign-in creates an account by email once, then signs in to it', async () => {
    const first = await api(service, 'POST', `/api/partners/${PARTNER}/sign-in`, {
      body: { emailAddress: 'Sam@Example.com', firstName: 'Sam' },
    });
    assert.equal(first.status, 201);
    const second = await api(service, 'POST', `/api/partners/${PARTNER}/sign-in`, {
      body: { emailAddress: 'sam@example.com' },
    });
    assert.equal(second.status, 200);
    assert.equal(second.body.account.id, first.body.account.id);
    assert.notEqual(second.body.session, first.body.session);
  });
});

describe('origin check', () => {
  test("answers whether an origin may embed the partner's plugin", async () => {
    const check = async (origin: string) =>
      (await api(service, 'GET', `/api/partners/${PARTNER}/origin-check?origin=${encodeURIComponent(origin)}`)).body
        .allowed;
    assert.equal(await check('https://shop.example'), true);
    assert.equal(await check('http://localhost:8000'), true);
    assert.equal(await check('http://shop.example'), false);
    assert.equal(await check('https://shop.example:8443'), false);
    assert.equal(await check('https://evil.example'), false);
    assert.equal(await check('null'), false);
  });

  test('a refused origin comes with the refusal the handshake hands on, word for word the one diagnose gives', async () => {
    const origin = 'https://evil.example';
    const checked = await api(
      service,
      'GET',
      `/api/partners/${PARTNER}/origin-check?origin=${encodeURIComponent(origin)}`,
    );
    assert.deepEqual(checked.body.refusal, {
      code: 'origin_not_allowed',
      message: `The page origin ${origin} is not allowed for partner ${PARTNER}. Add it to the partner's allowed origins (the local service: --allowed-origin ${origin}).`,
      data: { origin, partnerID: PARTNER },
    });
    const diagnosed = await api(
      service,
      'GET',
      `/api/diagnose?partnerID=${PARTNER}&origin=${encodeURIComponent(origin)}`,
    );
    assert.deepEqual(diagnosed.body.refusal, checked.body.refusal);
  });

  test('an unknown partner is partner_not_found, a missing origin invalid_parameter', async () => {
    const unknown = await api(service, 'GET', '/api/partners/nobody/origin-check?origin=https%3A%2F%2Fshop.example');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'partner_not_found');
    const missing = await api(service, 'GET', `/api/partners/${PARTNER}/origin-check`);
    assert.equal(missing.body.error.data.field, 'origin');
  });
});

describe('topics, generations and videos', () => {
  test('the whole lifecycle, streamed in order', async () => {
    const { session } = await createAccount(service);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');

    // Topic search: PENDING → PROCESSING → COMPLETE, with the page's data.
    const started = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/shop` } });
    assert.equal(started.status, 202);
    const { topicId, requestId: searchId } = started.body;
    assert.match(topicId, /^topic_/);
    assert.match(searchId, /^search_/);
    assert.deepEqual(await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId), [
      'PENDING',
      'PROCESSING',
      'COMPLETE',
    ]);
    const { topic } = (await api(service, 'GET', `/api/topics/${topicId}`, { session })).body;
    assert.deepEqual(topic, {
      id: topicId,
      requestId: searchId,
      sourceURL: `${source}/shop`,
      status: 'COMPLETE',
      title: 'Acme Bikes',
      description: 'Bikes & parts since 1999',
      images: [`${source}/img/hero.jpg`, `${source}/a.png`, 'https://cdn.example/b.png'],
      // The page's images are not pictures (the test site serves none), so the studio shows none.
      pictures: [],
      progress: { stage: 'finishing', fraction: 1 },
    });
    assert.deepEqual((await api(service, 'GET', '/api/topics', { session })).body.topics, [topic]);

    // Generation: the video exists at once; PENDING → PROCESSING → COMPLETE; then a thumbnail.
    const generation = await api(service, 'POST', '/api/generations', {
      session,
      body: { topicId, aspectRatio: '4:5', duration: 15, videoInstructions: 'Upbeat' },
    });
    assert.equal(generation.status, 202);
    const { requestId, videoId } = generation.body;
    assert.equal(generation.body.topicId, topicId);
    const created = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video;
    assert.equal(created.name, 'Acme Bikes');
    assert.equal(created.language, 'en-US');
    assert.equal(created.isCompleted, false);
    assert.deepEqual(await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId), [
      'PENDING',
      'PROCESSING',
      'COMPLETE',
    ]);
    // The video as it was made (its first state on the stream, however late the GET above ran on a
    // busy machine): no thumbnail before its generation has completed.
    const made = stream.events.find((event) => event.event === 'video' && event.data.id === videoId);
    assert.ok(made, 'the new video was streamed');
    assert.equal(made.data.thumbnailURL, undefined);
    const generated = (await api(service, 'GET', `/api/generations/${requestId}`, { session })).body.generation;
    assert.deepEqual(generated, {
      requestId,
      videoId,
      topicId,
      status: 'COMPLETE',
      progress: { stage: 'finishing', fraction: 1 },
    });

    const video = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video;
    assert.deepEqual(
      { ...video, createdAt: undefined, updatedAt: undefined },
      {
        id: videoId,
        name: 'Acme Bikes',
        topicId,
        aspectRatio: '4:5',
        duration: 15,
        language: 'en-US',
        isCompleted: false,
        thumbnailURL: `${service.url}/media/videos/${videoId}/thumbnail.svg`,
        renders: [],
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    const thumbnail = await fetch(video.thumbnailURL);
    assert.equal(thumbnail.headers.get('content-type'), 'image/svg+xml');
    assert.match(await thumbnail.text(), /<svg[^>]*width="400" height="500"[\s\S]*Acme Bikes/);
    assert.deepEqual((await api(service, 'GET', '/api/videos', { session })).body.videos, [video]);

    // Rename, then complete: the render goes PROCESSING → COMPLETE with a URL.
    const renamed = await api(service, 'PATCH', `/api/videos/${videoId}`, {
      session,
      body: { name: '  Spring sale  ' },
    });
    assert.equal(renamed.body.video.name, 'Spring sale');
    assert.equal(
      (
        await stream.next(
          (event) => event.event === 'video' && event.data.id === videoId && event.data.name === 'Spring sale',
        )
      ).data.name,
      'Spring sale',
    );
    const completed = await api(service, 'POST', `/api/videos/${videoId}/complete`, { session });
    assert.equal(completed.body.video.isCompleted, true);
    // The render is PROCESSING; it may have started already (its job runs once the answer is
    // committed), so its progress is queued at 0 or a little further, never done.
    const [processing] = completed.body.video.renders;
    assert.equal(completed.body.video.renders.length, 1);
    assert.deepEqual({ format: processing.format, status: processing.status }, { format: 'svg', status: 'PROCESSING' });
    assert.ok(['queued', 'rendering'].includes(processing.progress.stage), processing.progress.stage);
    assert.ok(
      processing.progress.fraction >= 0 && processing.progress.fraction < 1,
      String(processing.progress.fraction),
    );
    const rendered = await stream.next(
      (event) => event.event === 'video' && event.data.renders[0]?.status === 'COMPLETE',
    );
    const [render] = rendered.data.renders;
    assert.equal(render.url, `${service.url}/media/videos/${videoId}/render.svg`);
    assert.ok(Date.parse(render.renderedAt) > 0);
    assert.match(await (await fetch(render.url)).text(), /<animate /);
    const twice = await api(service, 'POST', `/api/videos/${videoId}/complete`, { session });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error.code, 'invalid_state');
  });

  test('a stream narrowed to IDs starts with their current state', async () => {
    const { session } = await createAccount(service);
    const topicId = await completedTopic(session);
    const stream = await EventStream.open(service, session, `topic=${topicId}`);
    const first = await stream.next();
    assert.equal(first.event, 'topic');
    assert.equal(first.data.status, 'COMPLETE');
    assert.equal((await stream.next()).event, 'ready');
  });

  test('a session in the URL (?session=) is refused: 401, the header only (issue 29, finding 6)', async () => {
    const { session } = await createAccount(service);
    const answer = await api(service, 'GET', `/api/events?session=${encodeURIComponent(session)}`);
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error.code, 'not_authenticated');
  });

  test('an idle stream sends heartbeat comments', async () => {
    const quiet = await startTestService({ heartbeatMs: 20 });
    const { session } = await createAccount(quiet);
    const stream = await EventStream.open(quiet, session);
    await stream.next((event) => event.event === 'ready');
    assert.equal(await stream.nextComment(), ': heartbeat');
    assert.equal(await stream.nextComment(), ': heartbeat');
    assert.equal(stream.events.length, 1, 'heartbeats are comments, not events');
  });

  test('a stream for an unknown or foreign ID is refused before it starts', async () => {
    const owner = await createAccount(service);
    const other = await createAccount(service);
    const topicId = await completedTopic(owner.session);
    await assert.rejects(
      EventStream.open(service, other.session, `topic=${topicId}`),
      (error: { status: number; body: { error: { code: string } } }) => {
        assert.equal(error.status, 404);
        assert.equal(error.body.error.code, 'topic_not_found');
        return true;
      },
    );
  });

  test("another account's video, topic and generation are not found, and never streamed", async () => {
    const owner = await createAccount(service);
    const other = await createAccount(service);
    const otherStream = await EventStream.open(service, other.session);
    await otherStream.next((event) => event.event === 'ready');
    const topicId = await completedTopic(owner.session);
    const { requestId, videoId } = (
      await api(service, 'POST', '/api/generations', {
        session: owner.session,
        body: { topicId, aspectRatio: '16:9', duration: 5 },
      })
    ).body;

    const as = (method: string, path: string, body?: unknown) =>
      api(service, method, path, { session: other.session, ...(body ? { body } : {}) });
    assert.equal((await as('GET', `/api/videos/${videoId}`)).body.error.code, 'video_not_found');
    assert.equal(
      (await as('PATCH', `/api/videos/${videoId}`, { name: 'mine now' })).body.error.code,
      'video_not_found',
    );
    assert.equal((await as('POST', `/api/videos/${videoId}/complete`)).body.error.code, 'video_not_found');
    assert.equal((await as('GET', `/api/topics/${topicId}`)).body.error.code, 'topic_not_found');
    assert.equal((await as('GET', `/api/generations/${requestId}`)).body.error.code, 'generation_not_found');
    const foreignTopic = await as('POST', '/api/generations', { topicId, aspectRatio: '16:9', duration: 5 });
    assert.equal(foreignTopic.status, 404);
    assert.equal(foreignTopic.body.error.code, 'topic_not_found');
    assert.deepEqual((await as('GET', '/api/videos')).body.videos, []);
    assert.equal(
      (await api(service, 'GET', `/api/videos/${videoId}`, { session: owner.session })).body.video.name,
      'Acme Bikes',
    );

    // The other account's own change reaches its stream after all of the owner's changes were sent.
    await as('POST', '/api/topics', { sourceURL: `${source}/mine` });
    await otherStream.next((event) => event.event === 'topic');
    const foreignIDs = new Set([topicId, requestId, videoId]);
    assert.ok(
      otherStream.events.every((event) => !foreignIDs.has(event.data.id) && !foreignIDs.has(event.data.requestId)),
    );
  });

  test('a generation needs a COMPLETE topic, and says which status it found', async () => {
    const { session } = await createAccount(service);
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/slow` } }))
      .body;
    const early = await api(service, 'POST', '/api/generations', {
      session,
      body: { topicId, aspectRatio: '16:9', duration: 5 },
    });
    assert.equal(early.status, 409);
    assert.equal(early.body.error.code, 'invalid_state');
    assert.match(early.body.error.message, new RegExp(`is ${early.body.error.data.status};`));
    assert.ok(['PENDING', 'PROCESSING'].includes(early.body.error.data.status));
  });

  test('generation parameters are validated, naming the field', async () => {
    const { session } = await createAccount(service);
    const topicId = await completedTopic(session);
    const valid = { topicId, aspectRatio: '16:9', duration: 30 };
    for (const [patch, field] of [
      [{ aspectRatio: '1:1' }, 'aspectRatio'],
      [{ duration: 10 }, 'duration'],
      [{ duration: '5' }, 'duration'],
      [{ language: 'en' }, 'language'],
      [{ videoInstructions: 'x'.repeat(2001) }, 'videoInstructions'],
      [{ topicId: '' }, 'topicId'],
      [{ extra: true }, 'extra'],
    ] as const) {
      const result = await api(service, 'POST', '/api/generations', { session, body: { ...valid, ...patch } });
      assert.equal(result.status, 400, JSON.stringify(patch));
      assert.equal(result.body.error.code, 'invalid_parameter');
      assert.equal(result.body.error.data.field, field);
    }
    const unknown = await api(service, 'POST', '/api/generations', {
      session,
      body: { ...valid, topicId: 'topic_nope' },
    });
    assert.equal(unknown.body.error.code, 'topic_not_found');
    const accepted = await api(service, 'POST', '/api/generations', { session, body: { ...valid, language: 'it-IT' } });
    assert.equal(
      (await api(service, 'GET', `/api/videos/${accepted.body.videoId}`, { session })).body.video.language,
      'it-IT',
    );
  });

  test('a generation asked to fail ends FAILED with generation_failed, and its video cannot be completed', async () => {
    const { session } = await createAccount(service);
    const topicId = await completedTopic(session);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { requestId, videoId } = (
      await api(service, 'POST', '/api/generations', {
        session,
        body: { topicId, aspectRatio: '16:9', duration: 5, videoInstructions: 'please [fail]' },
      })
    ).body;
    assert.deepEqual(await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId), [
      'PENDING',
      'PROCESSING',
      'FAILED',
    ]);
    const { generation } = (await api(service, 'GET', `/api/generations/${requestId}`, { session })).body;
    assert.equal(generation.error.code, 'generation_failed');
    const complete = await api(service, 'POST', `/api/videos/${videoId}/complete`, { session });
    assert.equal(complete.body.error.code, 'invalid_state');
    assert.equal(complete.body.error.data.status, 'FAILED');
  });

  test('a rename to an empty name is refused', async () => {
    const { session } = await createAccount(service);
    const topicId = await completedTopic(session);
    const { videoId } = (
      await api(service, 'POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration: 5 } })
    ).body;
    const result = await api(service, 'PATCH', `/api/videos/${videoId}`, { session, body: { name: '   ' } });
    assert.equal(result.body.error.data.field, 'name');
  });
});
