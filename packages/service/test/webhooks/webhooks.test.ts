// Webhooks: the service posts signed events to a real receiver (account.created, video.completed,
// video.rendered), retries with backoff a bounded number of times, records every attempt, never
// slows the API, and stops at close(); verifyWebhook reads them and refuses every kind of fake.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, type JWTPayload } from 'jose';
import { InvalidParameterError } from '../../../../src/errors.js';
import {
  EVENT_CLAIM,
  SERVICE_DOMAIN,
  loginOrCreateAccountToken,
  WebhookVerificationError,
  verifyWebhook,
  type WebhookErrorCode,
  type WebhookEvent,
} from '../../../../src/server/index.js';
import { resolveConfig } from '../../src/config.js';
import { startService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { Webhooks } from '../../src/webhooks/webhooks.js';
import type { RunningService } from '../../src/server.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  WEBHOOK_SECRET,
  api,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';
import { webhookReceiver, webhookService, type Received } from '../support/webhooks.js';

/**
 * One receiver for the whole file. Its paths behave differently: `/ok/…` answers 204, `/flaky/…`
 * answers 500 to the first two posts of that path then 200, `/broken/…` always 500, `/hang/…` never
 * answers. A test uses a path of its own and waits for posts with {@link posts}.
 */
const {
  origin: receiver,
  received,
  arrived,
} = await webhookReceiver(({ path }, res) => {
  const earlier = received.filter((post) => post.path === path).length;
  if (path.startsWith('/ok/')) res.writeHead(204).end();
  else if (path.startsWith('/flaky/')) res.writeHead(earlier <= 2 ? 500 : 200).end();
  else if (path.startsWith('/broken/')) res.writeHead(500).end('broken');
  // '/hang/': no answer at all.
});

/** Resolves with the first `count` posts to `path`, once they have arrived. */
async function posts(path: string, count = 1): Promise<Received[]> {
  const mine = () => received.filter((post) => post.path === path);
  await arrived(() => mine().length >= count);
  return mine().slice(0, count);
}

/** The receiver's URLs for one test: `url('ok', 'accounts')` → `http://127.0.0.1:N/ok/accounts`. */
const url = (behaviour: 'ok' | 'flaky' | 'broken' | 'hang', name: string) => `${receiver}/${behaviour}/${name}`;

const verify = (post: Received) => verifyWebhook(post.body, { secret: WEBHOOK_SECRET, partnerID: PARTNER });

describe('events', () => {
  test('createAccount posts account.created as an HS256 JWT that verifyWebhook accepts', async () => {
    const service = await webhookService([url('ok', 'create')]);
    const { account } = await createAccount(service, { externalID: 'user-7', firstName: 'Ada' });
    const [post] = await posts('/ok/create');
    assert.equal(post!.headers['content-type'], 'application/jwt');
    assert.deepEqual(decodeProtectedHeader(post!.body), { alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(post!.body);
    assert.equal(claims.iss, SERVICE_DOMAIN);
    assert.equal(claims.aud, PARTNER);
    assert.equal(claims.exp! - claims.iat!, 300);

    const event = await verify(post!);
    assert.equal(event.type, 'account.created');
    assert.equal(event.id, claims.jti);
    assert.match(event.id, /^evt_/);
    assert.equal(event.accountID, account.id);
    assert.equal(event.externalID, 'user-7');
    assert.ok(Math.abs(Date.parse(event.createdAt) - Date.now()) < 60_000);
    assert.deepEqual(event.type === 'account.created' && event.data, { via: 'token', account: { firstName: 'Ada' } });

    await service.webhooks.settled();
    assert.deepEqual(
      service.webhooks.deliveries.map(({ eventID, type, url, attempt, status, outcome }) => ({
        eventID,
        type,
        url,
        attempt,
        status,
        outcome,
      })),
      [
        {
          eventID: event.id,
          type: 'account.created',
          url: url('ok', 'create'),
          attempt: 1,
          status: 204,
          outcome: 'delivered',
        },
      ],
    );
  });

  test('the uncontrolled sign-in posts account.created (via sign-in) when it creates the account, not when it signs in again', async () => {
    const service = await webhookService([url('ok', 'sign-in')]);
    const path = `/api/partners/${PARTNER}/sign-in`;
    const first = await api(service, 'POST', path, { body: { emailAddress: 'sam@example.com', firstName: 'Sam' } });
    assert.equal(first.status, 201);
    const event = await verify((await posts('/ok/sign-in'))[0]!);
    assert.equal(event.accountID, first.body.account.id);
    assert.equal(event.externalID, undefined);
    assert.deepEqual(event.type === 'account.created' && event.data, {
      via: 'sign-in',
      account: { emailAddress: 'sam@example.com', firstName: 'Sam' },
    });
    assert.equal((await api(service, 'POST', path, { body: { emailAddress: 'sam@example.com' } })).status, 200);
    await service.webhooks.settled();
    assert.equal(service.webhooks.deliveries.length, 1);
  });

  test('a sign-in-or-sign-up token posts account.created (via token) when it creates the account, not when it logs in', async () => {
    const service = await webhookService([url('ok', 'login-or-create')]);
    const mint = () =>
      loginOrCreateAccountToken({
        partnerID: PARTNER,
        secret: SECRET,
        externalID: 'user-either',
        account: { firstName: 'Eve' },
      });
    const first = await api(service, 'POST', '/api/sessions', { body: { token: await mint() } });
    assert.equal(first.status, 201);
    const event = await verify((await posts('/ok/login-or-create'))[0]!);
    assert.equal(event.accountID, first.body.account.id);
    assert.equal(event.externalID, 'user-either');
    assert.deepEqual(event.type === 'account.created' && event.data, { via: 'token', account: { firstName: 'Eve' } });
    const second = await api(service, 'POST', '/api/sessions', { body: { token: await mint() } });
    assert.equal(second.status, 200);
    assert.equal(second.body.account.id, first.body.account.id);
    await service.webhooks.settled();
    assert.equal(service.webhooks.deliveries.length, 1);
  });

  test('completing a video posts video.completed, then video.rendered with the render URL', async () => {
    const service = await webhookService([url('ok', 'video')]);
    const source = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Acme Bikes</title>');
    });
    const { session, account } = await createAccount(service, { externalID: 'video-owner' });
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
    await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    const generation = await api(service, 'POST', '/api/generations', {
      session,
      body: { topicId, aspectRatio: '4:5', duration: 15 },
    });
    const { requestId, videoId } = generation.body;
    await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);

    assert.equal((await api(service, 'POST', `/api/videos/${videoId}/complete`, { session })).status, 200);
    // The account's event, then the video's two, in whatever order they arrive.
    const events = await Promise.all((await posts('/ok/video', 3)).map(verify));
    const completed = events.find((event) => event.type === 'video.completed')!;
    const rendered = events.find((event) => event.type === 'video.rendered')!;
    const data = { videoID: videoId, name: 'Acme Bikes', aspectRatio: '4:5', duration: 15, language: 'en-US' };
    assert.equal(completed.type, 'video.completed');
    assert.deepEqual(completed.data, data);
    assert.equal(completed.accountID, account.id);
    assert.equal(completed.externalID, 'video-owner');

    assert.equal(rendered.type, 'video.rendered');
    assert.notEqual(rendered.id, completed.id);
    assert.ok(rendered.createdAt >= completed.createdAt);
    const video = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video;
    assert.equal(video.renders[0].status, 'COMPLETE');
    assert.deepEqual(rendered.data, {
      ...data,
      renders: [
        {
          format: 'svg',
          url: video.renders[0].url,
          renderedAt: video.renders[0].renderedAt,
          files: video.renders[0].files,
          altText: video.renders[0].altText,
        },
      ],
    });
    assert.equal((await fetch(video.renders[0].url)).status, 200);
  });

  test('every URL of the partner gets the event, and other partners get nothing', async () => {
    const service = await startTestService({
      partners: [
        {
          id: PARTNER,
          secret: SECRET,
          webhookSecrets: [WEBHOOK_SECRET],
          webhookURLs: [url('ok', 'first'), url('ok', 'second')],
        },
        { id: 'quiet-partner', secret: 'quiet-secret-0123456789abcdef0123456789' },
      ],
    });
    await createAccount(service, {}, 'quiet-partner', 'quiet-secret-0123456789abcdef0123456789');
    await createAccount(service);
    const [[first], [second]] = await Promise.all([posts('/ok/first'), posts('/ok/second')]);
    assert.equal((await verify(first!)).id, (await verify(second!)).id);
    await service.webhooks.settled();
    assert.equal(service.webhooks.deliveries.length, 2);
  });

  test('a receiver on this machine gets its events without allowLoopbackSources (that option is for searches)', async () => {
    const service = await webhookService([url('ok', 'loopback-receiver')], { allowLoopbackSources: false });
    await createAccount(service);
    const [post] = await posts('/ok/loopback-receiver');
    assert.equal((await verify(post!)).type, 'account.created');
    await service.webhooks.settled();
    assert.equal(service.webhooks.deliveries[0]?.outcome, 'delivered');
  });

  test('a service without webhook URLs posts nothing', async () => {
    const service = await startTestService();
    await createAccount(service);
    await service.webhooks.settled();
    assert.deepEqual(service.webhooks.deliveries, []);
  });
});

describe('delivery', () => {
  test('a receiver that answers 500 twice gets the event a third time, with the same jti, and it is delivered', async () => {
    const service = await webhookService([url('flaky', 'retry')], { webhookTries: 5 });
    await createAccount(service);
    const tries = await posts('/flaky/retry', 3);
    const ids = tries.map((post) => decodeJwt(post.body).jti);
    assert.equal(new Set(ids).size, 1);
    for (const post of tries) assert.equal((await verify(post)).id, ids[0]);
    await service.webhooks.settled();
    assert.deepEqual(
      service.webhooks.deliveries.map(({ attempt, status, outcome, eventID }) => ({
        attempt,
        status,
        outcome,
        eventID,
      })),
      [
        { attempt: 1, status: 500, outcome: 'retrying', eventID: ids[0] },
        { attempt: 2, status: 500, outcome: 'retrying', eventID: ids[0] },
        { attempt: 3, status: 200, outcome: 'delivered', eventID: ids[0] },
      ],
    );
    // The backoff doubles: 10 ms, then 20 ms.
    const starts = service.webhooks.deliveries.map((attempt) => Date.parse(attempt.startedAt));
    assert.ok(starts[1]! - starts[0]! >= 10 && starts[2]! - starts[1]! >= 20, String(starts));
  });

  test('a receiver that always answers 500 gets exactly webhookTries posts, and the delivery is recorded failed', async () => {
    const service = await webhookService([url('broken', 'always')], { webhookTries: 3 });
    await createAccount(service);
    await service.webhooks.settled();
    assert.equal(received.filter((post) => post.path === '/broken/always').length, 3);
    assert.deepEqual(
      service.webhooks.deliveries.map(({ attempt, status, outcome }) => ({ attempt, status, outcome })),
      [
        { attempt: 1, status: 500, outcome: 'retrying' },
        { attempt: 2, status: 500, outcome: 'retrying' },
        { attempt: 3, status: 500, outcome: 'failed' },
      ],
    );
  });

  test('a receiver that never answers times out and is retried, without holding up other receivers or the API', async () => {
    const service = await webhookService([url('hang', 'slow'), url('broken', 'beside'), url('ok', 'beside')], {
      webhookTries: 2,
      // Long enough that the checks below, which must end inside the hanging receiver's first try,
      // do not depend on a busy machine's pace (1.5 s once left them one second of stalls).
      webhookTimeoutMs: 3000,
    });
    const started = performance.now();
    const { session } = await createAccount(service);
    for (let call = 0; call < 5; call++)
      assert.equal((await api(service, 'GET', '/api/account', { session })).status, 200);
    const apiMs = performance.now() - started;
    // Well under one try's time limit: the API never waits for a delivery.
    assert.ok(apiMs < 2500, `the API answered in ${apiMs} ms while a receiver hangs`);

    // The other receivers are done while the hanging one's first try is still waiting.
    await posts('/ok/beside');
    await posts('/broken/beside', 2);
    await posts('/hang/slow');
    assert.ok(
      !service.webhooks.deliveries.some((attempt) => attempt.url === url('hang', 'slow')),
      'the hanging try is still open',
    );

    await service.webhooks.settled();
    const hung = service.webhooks.deliveries.filter((attempt) => attempt.url === url('hang', 'slow'));
    assert.deepEqual(
      hung.map(({ attempt, error, outcome }) => ({ attempt, error, outcome })),
      [
        { attempt: 1, error: 'timeout after 3000 ms', outcome: 'retrying' },
        { attempt: 2, error: 'timeout after 3000 ms', outcome: 'failed' },
      ],
    );
    for (const attempt of hung) assert.ok(attempt.durationMs >= 1490, String(attempt.durationMs));
    const others = service.webhooks.deliveries.filter((attempt) => attempt.url !== url('hang', 'slow'));
    assert.deepEqual(others.map((attempt) => attempt.outcome).sort(), ['delivered', 'failed', 'retrying']);
  });

  test('close() returns promptly with a try in flight and a retry waiting, and leaves them abandoned', async () => {
    const service: RunningService = await startService({
      port: 0,
      jobMs: 60,
      media: 'placeholder',
      webhookRetryMs: 60_000,
      webhookTimeoutMs: 60_000,
      partners: [
        {
          id: PARTNER,
          secret: SECRET,
          webhookSecrets: [WEBHOOK_SECRET],
          webhookURLs: [url('hang', 'closing'), url('broken', 'closing')],
        },
      ],
    });
    after(() => service.close()); // should an assertion fail before the close() under test
    await createAccount(service);
    await Promise.all([posts('/hang/closing'), posts('/broken/closing')]);
    // The broken receiver's first try is recorded before its 60 s wait starts.
    while (service.webhooks.deliveries.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    await service.close();
    const closeMs = performance.now() - started;
    // Waiting would take the 60 s of the try or the retry: 10 s tells them apart on a busy machine too.
    assert.ok(closeMs < 10_000, `close() took ${closeMs} ms`);
    await service.webhooks.settled();
    assert.deepEqual(
      service.webhooks.deliveries
        .map(({ url, attempt, outcome, error }) => ({ url, attempt, outcome, error }))
        .sort((a, b) => a.url.localeCompare(b.url)),
      [
        { url: url('broken', 'closing'), attempt: 1, outcome: 'abandoned', error: undefined },
        { url: url('hang', 'closing'), attempt: 1, outcome: 'abandoned', error: 'the service closed' },
      ],
    );
  });

  test('a delivery left for a URL the partner no longer has is dropped, logged without the URL’s secrets', async (t) => {
    const store = await Store.open();
    after(() => store.close());
    const config = resolveConfig({ partners: [{ id: PARTNER, secret: SECRET }] });
    const left = 'http://hook-user:hook-password@127.0.0.1:9/hooks/kept?token=query-secret#fragment-secret';
    store.saveDelivery({
      id: 'dlv_left',
      partnerID: PARTNER,
      url: left,
      event: {
        type: 'account.created',
        id: 'evt_left',
        createdAt: new Date().toISOString(),
        accountID: 'acc_left',
        data: { via: 'token', account: {} },
      },
      attempts: 1,
      createdAt: new Date().toISOString(),
    });
    const warnings: string[] = [];
    t.mock.method(console, 'warn', (line: string) => warnings.push(line));
    new Webhooks(config, store, () => 'http://127.0.0.1:0').resume();
    assert.equal(warnings.length, 1);
    const [line] = warnings as [string];
    assert.match(line, /evt_left → http:\/\/127\.0\.0\.1:9\/hooks\/… \(the rest not shown\): dropped/);
    // The path after its first segment may be the secret itself (Slack-style hook URLs).
    for (const secret of ['hook-user', 'hook-password', 'kept', 'query-secret', 'fragment-secret']) {
      assert.ok(!line.includes(secret), `${secret} is not in the line`);
    }
    assert.equal(store.deliveries().length, 0, 'and it is gone from the outbox');
  });
});

describe('configuration', () => {
  test('a webhook URL that is not http or https is refused, naming the field', async () => {
    for (const bad of ['ftp://partner.example/hooks', 'partner.example/hooks', 'javascript:alert(1)']) {
      await assert.rejects(
        startService({
          port: 0,
          partners: [
            { id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET], webhookURLs: ['https://ok.example', bad] },
          ],
        }),
        (error: unknown) => {
          assert.ok(error instanceof InvalidParameterError, String(error));
          assert.deepEqual(error.data, { field: 'partners.0.webhookURLs.1' });
          assert.match(error.message, /"partners\.0\.webhookURLs\.1" must be an absolute http or https URL/);
          return true;
        },
      );
    }
  });

  test('webhookTries, webhookRetryMs, webhookMaxRetryMs, webhookRetryForMs and webhookTimeoutMs are bounded', async () => {
    for (const [field, value] of [
      ['webhookTries', 0],
      ['webhookTries', 1001],
      ['webhookRetryMs', -1],
      ['webhookRetryMs', 86_400_001],
      ['webhookMaxRetryMs', 86_400_001],
      // Never retried longer than the event log keeps the event (30 days).
      ['webhookRetryForMs', 30 * 86_400_000 + 1],
      ['webhookTimeoutMs', 0],
      ['webhookTimeoutMs', 1.5],
    ] as const) {
      await assert.rejects(startService({ port: 0, [field]: value }), (error: unknown) => {
        assert.ok(error instanceof InvalidParameterError);
        assert.deepEqual(error.data, { field });
        return true;
      });
    }
  });
});

// --- verifyWebhook, on tokens made here ---

const PARTNER_KEY = new TextEncoder().encode(WEBHOOK_SECRET);
const now = () => Math.floor(Date.now() / 1000);

function sampleEvent(id = 'evt_1'): WebhookEvent {
  return {
    type: 'video.completed',
    id,
    createdAt: '2026-05-04T10:20:30.000Z',
    accountID: 'acct_1',
    data: { videoID: 'vid_1', name: 'Spring sale', aspectRatio: '16:9', duration: 15, language: 'en-US' },
  };
}

/** A webhook as the service signs it, with `change` applied to the claims. */
async function webhook(
  change: Partial<JWTPayload> = {},
  { key = PARTNER_KEY, header = { alg: 'HS256', typ: 'JWT' } as { alg: string; typ?: string } } = {},
): Promise<string> {
  const iat = now();
  const claims: JWTPayload = {
    iss: SERVICE_DOMAIN,
    aud: PARTNER,
    jti: 'evt_1',
    iat,
    exp: iat + 300,
    [EVENT_CLAIM]: sampleEvent(),
    ...change,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return new SignJWT(claims).setProtectedHeader(header).sign(key);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function refused(body: string | Uint8Array | Promise<string>, code: WebhookErrorCode, message?: RegExp) {
  await assert.rejects(verifyWebhook(await body, { secret: WEBHOOK_SECRET, partnerID: PARTNER }), (error: unknown) => {
    assert.ok(error instanceof WebhookVerificationError, String(error));
    assert.equal(error.name, 'WebhookVerificationError');
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe('verifyWebhook', () => {
  test('returns the typed event of a genuine webhook, from a string or from bytes', async () => {
    const token = await webhook();
    assert.deepEqual(await verifyWebhook(token, { secret: WEBHOOK_SECRET, partnerID: PARTNER }), sampleEvent());
    const bytes = new TextEncoder().encode(`${token}\n`);
    assert.equal((await verifyWebhook(bytes, { secret: WEBHOOK_SECRET, partnerID: PARTNER })).id, 'evt_1');
  });

  test('fields a later service adds are dropped, not refused', async () => {
    const event = { ...sampleEvent(), later: 1, data: { ...sampleEvent().data, later: 2 } };
    assert.deepEqual(
      await verifyWebhook(await webhook({ [EVENT_CLAIM]: event }), { secret: WEBHOOK_SECRET, partnerID: PARTNER }),
      sampleEvent(),
    );
  });

  test('a forged signature: webhook_signature_invalid', async () => {
    const [header, payload, signature] = (await webhook()).split('.');
    const forged = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    await refused(forged, 'webhook_signature_invalid', /does not match the webhook secret/);
  });

  test('signed with another secret: webhook_signature_invalid', async () => {
    await refused(webhook({}, { key: new TextEncoder().encode('someone-elses-secret') }), 'webhook_signature_invalid');
  });

  test('a payload changed after signing: webhook_signature_invalid', async () => {
    const [header, , signature] = (await webhook()).split('.');
    const payload = decodeJwt(await webhook());
    const tampered = { ...payload, [EVENT_CLAIM]: { ...sampleEvent(), accountID: 'acct_victim' } };
    await refused(`${header}.${b64(tampered)}.${signature}`, 'webhook_signature_invalid');
  });

  test('for another partner: webhook_wrong_audience', async () => {
    await refused(webhook({ aud: 'other-partner' }), 'webhook_wrong_audience', /not to partner "test-partner"/);
  });

  test('not issued by the service: webhook_wrong_issuer', async () => {
    await refused(webhook({ iss: 'evil.example' }), 'webhook_wrong_issuer');
    await refused(webhook({ iss: undefined }), 'webhook_wrong_issuer');
  });

  test('past its exp: webhook_expired', async () => {
    await refused(webhook({ iat: now() - 600, exp: now() - 300 }), 'webhook_expired');
  });

  test('older than maxAgeSeconds: webhook_expired', async () => {
    const token = await webhook({ iat: now() - 200 });
    await assert.rejects(verifyWebhook(token, { secret: WEBHOOK_SECRET, partnerID: PARTNER, maxAgeSeconds: 60 }), {
      code: 'webhook_expired',
    });
    assert.equal(
      (await verifyWebhook(token, { secret: WEBHOOK_SECRET, partnerID: PARTNER, maxAgeSeconds: 300 })).id,
      'evt_1',
    );
  });

  test('issued in the future: webhook_not_yet_valid; within 30 s of clock skew: accepted', async () => {
    await refused(webhook({ iat: now() + 120, exp: now() + 420 }), 'webhook_not_yet_valid');
    assert.equal(
      (await verifyWebhook(await webhook({ iat: now() + 20 }), { secret: WEBHOOK_SECRET, partnerID: PARTNER })).id,
      'evt_1',
    );
  });

  test('alg none: webhook_algorithm_not_allowed', async () => {
    const payload = decodeJwt(await webhook());
    await refused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`, 'webhook_algorithm_not_allowed');
    await refused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.c2ln`, 'webhook_algorithm_not_allowed');
  });

  test('an RS256 header: webhook_algorithm_not_allowed', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT(decodeJwt(await webhook())).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    await refused(token, 'webhook_algorithm_not_allowed', /only with HS256/);
  });

  test('a body that is not a token: webhook_malformed', async () => {
    for (const body of ['', 'garbage', '{"type":"account.created"}', 'a.b', 'a.b.c.d', '!!.??.##', 'eyJ.eyJ.sig']) {
      await refused(body, 'webhook_malformed', /raw request body/);
    }
    await refused(new Uint8Array([0xff, 0xfe, 0x2e]), 'webhook_malformed');
  });

  test('missing jti, iat or exp: webhook_malformed', async () => {
    for (const claim of ['jti', 'iat', 'exp'])
      await refused(webhook({ [claim]: undefined }), 'webhook_malformed', new RegExp(claim));
  });

  test('an event of an unknown type, or one that does not match its jti: webhook_bad_event', async () => {
    await refused(
      webhook({ [EVENT_CLAIM]: { ...sampleEvent(), type: 'video.deleted' } }),
      'webhook_bad_event',
      /Update video-plugin/,
    );
    await refused(webhook({ [EVENT_CLAIM]: undefined }), 'webhook_bad_event');
    await refused(
      webhook({ [EVENT_CLAIM]: sampleEvent('evt_2') }),
      'webhook_bad_event',
      /differs from the webhook's jti/,
    );
  });

  test('bad options: invalid_parameter naming the option', async () => {
    const token = await webhook();
    for (const [options, field] of [
      [{ secret: '', partnerID: PARTNER }, 'secret'],
      [{ secret: [WEBHOOK_SECRET, 'short'], partnerID: PARTNER }, 'secret.1'],
      [{ secret: [], partnerID: PARTNER }, 'secret'],
      [{ secret: WEBHOOK_SECRET, partnerID: '' }, 'partnerID'],
      [{ secret: WEBHOOK_SECRET, partnerID: PARTNER, maxAgeSeconds: 0 }, 'maxAgeSeconds'],
      [{ secret: WEBHOOK_SECRET, partnerID: PARTNER, audience: 'x' }, 'audience'],
    ] as const) {
      await assert.rejects(verifyWebhook(token, options as never), (error: unknown) => {
        assert.ok(error instanceof InvalidParameterError);
        assert.deepEqual(error.data, { field });
        return true;
      });
    }
  });
});
