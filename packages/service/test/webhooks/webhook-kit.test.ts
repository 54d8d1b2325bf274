// The webhook kit (issue 41): a signed test event of a chosen type on request
// (`POST /api/partner/webhooks/test`), the resend of a logged event by its ID
// (`POST /api/partner/events/:id/resend`), both delivered to a real receiver through the outbox and
// read with verifyWebhook; each refusal; and that signWebhookForTest signs exactly as a delivery.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT, decodeJwt } from 'jose';
import { InvalidParameterError } from '../../../../src/errors.js';
import {
  EVENT_CLAIM,
  EventsError,
  KIND_CLAIM,
  SERVICE_DOMAIN,
  WEBHOOK_EVENT_TYPES,
  listEvents,
  resendEvent,
  sendTestWebhook,
  signWebhookForTest,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventInput,
} from '../../../../src/server/index.js';
import type { RunningService } from '../../src/server.js';
import { OTHER, OTHER_SECRET, PARTNER, SECRET, WEBHOOK_SECRET, api, createAccount } from '../support/helpers.js';
import { webhookReceiver, webhookService, type Received } from '../support/webhooks.js';

const OTHER_WEBHOOK_SECRET = 'other-partner-webhook-secret-0123456789abcdef';

/** Whether a post carries a redelivery. */
const redelivered = (post: Received) => (decodeJwt(post.body)[EVENT_CLAIM] as WebhookEvent).redelivery === true;

/**
 * One receiver for the file: `/fail-once/…` answers 500 to its first post then 204,
 * `/fail-redelivery/…` 500 to its first redelivery, every other path 204. A test uses paths of its
 * own.
 */
const { origin, received, arrived } = await webhookReceiver((post, res) => {
  const earlier = received.filter(({ path }) => path === post.path);
  const fail =
    (post.path.startsWith('/fail-once/') && earlier.length === 1) ||
    (post.path.startsWith('/fail-redelivery/') && redelivered(post) && earlier.filter(redelivered).length === 1);
  res.writeHead(fail ? 500 : 204).end();
});

/** Resolves with the first `count` posts to `path`, once they have arrived. */
async function posts(path: string, count = 1): Promise<Received[]> {
  const mine = () => received.filter((post) => post.path === path);
  await arrived(() => mine().length >= count);
  return mine().slice(0, count);
}

const verify = (post: Received, partnerID = PARTNER, secret = WEBHOOK_SECRET) =>
  verifyWebhook(post.body, { secret, partnerID });

/** An events token as listEvents signs it (the webhook kit's key too). */
function eventsToken(partnerID = PARTNER, secret = WEBHOOK_SECRET): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: partnerID, aud: SERVICE_DOMAIN, iat, exp: iat + 60, [KIND_CLAIM]: 'events' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

/** A webhook-kit call with the partner's events token (or `authorization` as given; `null`: none). */
async function kit(service: RunningService, path: string, body?: unknown, authorization?: string | null) {
  authorization = authorization === undefined ? `Bearer ${await eventsToken()}` : authorization;
  return api(service, 'POST', path, {
    ...(body !== undefined ? { body } : {}),
    ...(authorization !== null ? { headers: { authorization } } : {}),
  });
}

/** Every event of the partner's log. */
async function logged(service: RunningService): Promise<WebhookEvent[]> {
  const events: WebhookEvent[] = [];
  for await (const page of listEvents({ partnerID: PARTNER, secret: WEBHOOK_SECRET, serviceURL: service.url }))
    events.push(...page.events);
  return events;
}

describe('a test event on request', () => {
  test('each documented type is delivered signed, marked test: true, to every webhook URL, and stays out of the event log', async () => {
    const urls = [`${origin}/test-types/a`, `${origin}/test-types/b`];
    const service = await webhookService(urls);
    for (const [index, type] of WEBHOOK_EVENT_TYPES.entries()) {
      const answer = await kit(service, '/api/partner/webhooks/test', { type });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.urls, urls);
      const sent = answer.body.event as WebhookEvent;
      assert.equal(sent.type, type);
      assert.equal(sent.test, true);
      assert.match(sent.id, /^evt_/);
      for (const path of ['/test-types/a', '/test-types/b']) {
        const post = (await posts(path, index + 1))[index]!;
        assert.equal(post.headers['content-type'], 'application/jwt');
        const event = await verify(post);
        assert.deepEqual(event, sent, `${type} at ${path}`);
        assert.equal(event.redelivery, undefined);
      }
    }
    assert.deepEqual(await logged(service), []);
    await service.webhooks.settled();
    assert.deepEqual(
      service.webhooks.deliveries.map(({ type, outcome }) => `${type} ${outcome}`),
      WEBHOOK_EVENT_TYPES.flatMap((type) => [`${type} delivered`, `${type} delivered`]),
    );
  });

  test('a test event goes through the outbox: a failed try is retried with the same event', async () => {
    const service = await webhookService([`${origin}/fail-once/test`]);
    const answer = await kit(service, '/api/partner/webhooks/test', { type: 'video.completed' });
    assert.equal(answer.status, 202);
    const [first, second] = await posts('/fail-once/test', 2);
    assert.deepEqual(await verify(second!), answer.body.event);
    assert.equal(decodeJwt(first!.body).jti, answer.body.event.id);
    await service.webhooks.settled();
    assert.deepEqual(
      service.webhooks.deliveries.map(({ attempt, status, outcome }) => ({ attempt, status, outcome })),
      [
        { attempt: 1, status: 500, outcome: 'retrying' },
        { attempt: 2, status: 204, outcome: 'delivered' },
      ],
    );
  });

  test('an unknown or missing type answers 400 naming the allowed types, and sends nothing', async () => {
    const service = await webhookService([`${origin}/test-refused/a`]);
    for (const body of [{ type: 'video.deleted' }, {}, { type: 'video.completed', extra: 1 }]) {
      const answer = await kit(service, '/api/partner/webhooks/test', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error.code, 'invalid_parameter');
      if ('extra' in body) assert.equal(answer.body.error.data.field, 'extra');
      else assert.equal(answer.body.error.data.field, 'type');
    }
    const unknown = await kit(service, '/api/partner/webhooks/test', { type: 'video.deleted' });
    assert.deepEqual(unknown.body.error.data.allowed, [...WEBHOOK_EVENT_TYPES]);
    assert.match(
      unknown.body.error.message,
      /"account.created", "video.completed", "video.rendered" \(got "video.deleted"\)/,
    );
    await service.webhooks.settled();
    assert.deepEqual(service.webhooks.deliveries, []);
    assert.equal(received.filter((post) => post.path === '/test-refused/a').length, 0);
  });

  test("only the partner back end may ask: no token, the token secret or a key not the partner's is refused with 401", async () => {
    const service = await webhookService([`${origin}/test-auth/a`]);
    const body = { type: 'account.created' };
    const none = await kit(service, '/api/partner/webhooks/test', body, null);
    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'not_authenticated');
    const tokenSecret = await kit(
      service,
      '/api/partner/webhooks/test',
      body,
      `Bearer ${await eventsToken(PARTNER, SECRET)}`,
    );
    assert.equal(tokenSecret.status, 401);
    assert.equal(tokenSecret.body.error.code, 'token_bad_signature');
    const otherKey = await kit(
      service,
      '/api/partner/webhooks/test',
      body,
      `Bearer ${await eventsToken(PARTNER, OTHER_WEBHOOK_SECRET)}`,
    );
    assert.equal(otherKey.status, 401);
    assert.equal(otherKey.body.error.code, 'token_bad_signature');
    await service.webhooks.settled();
    assert.deepEqual(service.webhooks.deliveries, []);
  });

  test('a partner without a webhook URL gets 409 saying where to configure one', async () => {
    const service = await webhookService([]);
    const answer = await kit(service, '/api/partner/webhooks/test', { type: 'account.created' });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.code, 'invalid_state');
    assert.equal(answer.body.error.data.field, 'webhookURLs');
    assert.match(answer.body.error.message, /no webhook URL.*--webhook-url/);
  });
});

describe('the resend of a logged event', () => {
  test('delivers the same event again, the same id and payload, marked redelivery: true; the log keeps it unmarked', async () => {
    const service = await webhookService([`${origin}/resend/a`]);
    await createAccount(service, { externalID: 'user-9', firstName: 'Grace' });
    const [original] = await posts('/resend/a');
    const event = await verify(original!);
    assert.equal(event.redelivery, undefined);

    const answer = await kit(service, `/api/partner/events/${event.id}/resend`);
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.urls, [`${origin}/resend/a`]);
    const again = await verify((await posts('/resend/a', 2))[1]!);
    assert.deepEqual(again, { ...event, redelivery: true });
    assert.deepEqual(answer.body.event, again);
    assert.equal(decodeJwt((await posts('/resend/a', 2))[1]!.body).jti, event.id);

    assert.deepEqual(await logged(service), [event]);
    await service.webhooks.settled();
    assert.deepEqual(
      service.webhooks.deliveries.map(({ eventID, outcome }) => ({ eventID, outcome })),
      [
        { eventID: event.id, outcome: 'delivered' },
        { eventID: event.id, outcome: 'delivered' },
      ],
    );
  });

  test('the retry window of a resend starts when it is asked for, not at the event', async (t) => {
    // Only Date is faked (the timers stay real): the event is made, then the clock jumps 10 minutes.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const service = await webhookService([`${origin}/fail-redelivery/a`], { webhookRetryForMs: 60_000 });
    await createAccount(service);
    const event = await verify((await posts('/fail-redelivery/a'))[0]!);
    await service.webhooks.settled();
    t.mock.timers.tick(10 * 60_000);

    assert.equal((await kit(service, `/api/partner/events/${event.id}/resend`)).status, 202);
    // Settled once the resend is over: delivered on its retry, or (were the window the event's) failed.
    await service.webhooks.settled();
    assert.deepEqual(
      service.webhooks.deliveries.map(({ attempt, outcome }) => `${attempt} ${outcome}`),
      ['1 delivered', '1 retrying', '2 delivered'],
    );
    const [, failed, retried] = await posts('/fail-redelivery/a', 3);
    assert.deepEqual([redelivered(failed!), redelivered(retried!)], [true, true]);
    assert.deepEqual(await verify(retried!), { ...event, redelivery: true });
  });

  test("an unknown ID or another partner's event answers 404, and sends nothing", async () => {
    const service = await webhookService([`${origin}/resend-404/a`], {
      partners: [
        { id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET], webhookURLs: [`${origin}/resend-404/a`] },
        {
          id: OTHER,
          secret: OTHER_SECRET,
          webhookSecrets: [OTHER_WEBHOOK_SECRET],
          webhookURLs: [`${origin}/resend-404/other`],
        },
      ],
    });
    await createAccount(service, {}, OTHER, OTHER_SECRET);
    const theirs = await verify((await posts('/resend-404/other'))[0]!, OTHER, OTHER_WEBHOOK_SECRET);
    await service.webhooks.settled();
    const before = service.webhooks.deliveries.length;

    for (const id of ['evt_nothing', theirs.id]) {
      const answer = await kit(service, `/api/partner/events/${id}/resend`);
      assert.equal(answer.status, 404, id);
      assert.equal(answer.body.error.code, 'not_found');
      assert.deepEqual(answer.body.error.data, { eventID: id });
      assert.match(answer.body.error.message, new RegExp(`no event "${id}" in its event log.*GET /api/partner/events`));
    }
    // A test event is not logged, so it cannot be resent either.
    const test = await kit(service, '/api/partner/webhooks/test', { type: 'account.created' });
    await posts('/resend-404/a');
    assert.equal((await kit(service, `/api/partner/events/${test.body.event.id}/resend`)).status, 404);

    await service.webhooks.settled();
    assert.equal(service.webhooks.deliveries.length, before + 1);
    assert.equal(received.filter((post) => post.path === '/resend-404/other').length, 1);
  });

  test('without a webhook URL it answers 409; without a key 401', async () => {
    const service = await webhookService([]);
    await createAccount(service);
    const [event] = await logged(service);
    assert.ok(event);
    const answer = await kit(service, `/api/partner/events/${event.id}/resend`);
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.code, 'invalid_state');
    assert.equal(answer.body.error.data.field, 'webhookURLs');
    const anonymous = await kit(service, `/api/partner/events/${event.id}/resend`, undefined, null);
    assert.equal(anonymous.status, 401);
  });
});

describe('the kit from video-plugin/server', () => {
  test('sendTestWebhook and resendEvent call the routes with the webhook secret, and answer what was queued', async () => {
    const service = await webhookService([`${origin}/helpers/a`]);
    const keys = { partnerID: PARTNER, secret: WEBHOOK_SECRET, serviceURL: service.url };
    const test = await sendTestWebhook({ ...keys, type: 'video.rendered' });
    assert.deepEqual(test.urls, [`${origin}/helpers/a`]);
    assert.equal(test.event.test, true);
    assert.deepEqual(await verify((await posts('/helpers/a'))[0]!), test.event);

    await createAccount(service);
    const [event] = await logged(service);
    const again = await resendEvent({ ...keys, eventID: event!.id });
    assert.deepEqual(again.event, { ...event, redelivery: true });
    assert.deepEqual(await verify((await posts('/helpers/a', 3))[2]!), again.event);
  });

  test("their refusals: bad options name the option; the service's own codes come back as EventsError", async () => {
    const service = await webhookService([]);
    const keys = { partnerID: PARTNER, secret: WEBHOOK_SECRET, serviceURL: service.url };
    await assert.rejects(
      sendTestWebhook({ ...keys, type: 'video.deleted' as 'video.rendered' }),
      (error: unknown) => error instanceof InvalidParameterError && error.data?.field === 'type',
    );
    await assert.rejects(
      resendEvent({ ...keys, eventID: '' }),
      (error: unknown) => error instanceof InvalidParameterError && error.data?.field === 'eventID',
    );
    const refusal = (code: string, status: number) => (error: unknown) => {
      assert.ok(error instanceof EventsError, String(error));
      assert.deepEqual([error.code, error.status], [code, status]);
      return true;
    };
    await assert.rejects(sendTestWebhook({ ...keys, type: 'account.created' }), refusal('invalid_state', 409));
    await assert.rejects(resendEvent({ ...keys, eventID: 'evt_nothing' }), refusal('not_found', 404));
    await assert.rejects(
      sendTestWebhook({ ...keys, secret: SECRET, type: 'account.created' }),
      refusal('token_bad_signature', 401),
    );
  });
});

describe('one signing scheme', () => {
  test('signWebhookForTest gives byte for byte the body the service delivered for the same event and second', async () => {
    const service = await webhookService([`${origin}/same-bytes/a`]);
    await createAccount(service, { externalID: 'user-3' });
    const [post] = await posts('/same-bytes/a');
    const { iat, [EVENT_CLAIM]: event } = decodeJwt(post!.body);
    const signed = await signWebhookForTest(event as WebhookEventInput, WEBHOOK_SECRET, {
      partnerID: PARTNER,
      issuedAt: iat! * 1000,
    });
    assert.deepEqual(signed.event, await verify(post!));
    assert.equal(signed.body, post!.body);
    for (const [name, value] of Object.entries(signed.headers)) assert.equal(post!.headers[name], value, name);
  });
});
