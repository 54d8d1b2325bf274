// The event log (issue 35) and the webhook keys (issue 29, finding 6): every webhook event is kept
// and listed in order from a cursor (`GET /api/partner/events`, `listEvents`), read with the
// webhook secret only; webhooks are signed with the newest webhook secret, never the token secret;
// retries follow a schedule that reaches hours and stop once delivered.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SignJWT, decodeJwt } from 'jose';
import { InvalidParameterError } from '../../../../src/errors.js';
import {
  EventsError,
  KIND_CLAIM,
  SERVICE_DOMAIN,
  createAccountToken,
  listEvents,
  loginAccountToken,
  verifyWebhook,
  type EventPage,
  type ListEventsOptions,
  type WebhookEvent,
} from '../../../../src/server/index.js';
import {
  DEFAULT_WEBHOOK_MAX_RETRY_MS,
  DEFAULT_WEBHOOK_RETRY_FOR_MS,
  DEFAULT_WEBHOOK_RETRY_MS,
} from '../../src/config.js';
import { DEMO_SECRET, DEMO_WEBHOOK_SECRET } from '../../src/config.js';
import { startService, type RunningService } from '../../src/server.js';
import { nextWait } from '../../src/webhooks/webhooks.js';
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
import { webhookReceiver, webhookService } from '../support/webhooks.js';

const dir = mkdtempSync(join(tmpdir(), 'vp-event-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A receiver that answers 503 while `down`, 204 once up; every post is kept, with its event. */
async function receiver() {
  const posts: { id: string; type: string; status: number }[] = [];
  const state = { down: true };
  const { origin, arrived } = await webhookReceiver(({ body }, res) => {
    const event = decodeJwt(body)['https://video-plugin.example/sdk/event'] as { id: string; type: string };
    const status = state.down ? 503 : 204;
    posts.push({ id: event.id, type: event.type, status });
    res.writeHead(status).end();
  });
  /** Resolves once posts of `count` distinct events have arrived. */
  const distinct = (count: number) => arrived(() => new Set(posts.map((post) => post.id)).size >= count);
  return { origin, posts, state, distinct };
}

const source = await serve((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Acme Bikes</title>');
});

/** Every event of the log from `after`, page by page. */
async function readAll(
  service: RunningService,
  options: Partial<ListEventsOptions> = {},
): Promise<{ events: WebhookEvent[]; pages: EventPage[] }> {
  const pages: EventPage[] = [];
  for await (const page of listEvents({
    partnerID: PARTNER,
    secret: WEBHOOK_SECRET,
    serviceURL: service.url,
    ...options,
  })) {
    pages.push(page);
  }
  return { events: pages.flatMap((page) => page.events), pages };
}

/** The events API called by hand, with `authorization` as given. */
async function eventsApi(service: RunningService, authorization?: string, query = '') {
  return api(service, 'GET', `/api/partner/events${query}`, authorization ? { headers: { authorization } } : {});
}

/** An events token as listEvents signs it, with `claims` changed. */
function eventsToken(secret: string, claims: Record<string, unknown> = {}, lifetime = 60): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: PARTNER, aud: SERVICE_DOMAIN, iat, exp: iat + lifetime, [KIND_CLAIM]: 'events', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

describe('a receiver that is down', () => {
  test('while 5 generations and 2 renders finish, every missed event comes back through the log in order, and the retries stop once delivered', async () => {
    const hooks = await receiver();
    // Shortened for the test: the default waits grow from 1 s to 1 hour, for 3 days.
    const service = await webhookService([hooks.origin], { webhookRetryMs: 20, webhookMaxRetryMs: 200 });
    const { session } = await createAccount(service, { externalID: 'log-owner' });
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
    await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);

    const generations = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const { body } = await api(service, 'POST', '/api/generations', {
          session,
          body: { topicId, aspectRatio: '16:9', duration: 5 },
        });
        return body as { requestId: string; videoId: string };
      }),
    );
    // One stream for all five: each final status is taken as it comes, in whatever order they finish.
    const running = new Set(generations.map((generation) => generation.requestId));
    while (running.size > 0) {
      const { data } = await stream.next(
        (event) =>
          event.event === 'generation' &&
          running.has(event.data.requestId) &&
          (event.data.status === 'COMPLETE' || event.data.status === 'FAILED'),
      );
      assert.equal(data.status, 'COMPLETE');
      running.delete(data.requestId);
    }
    for (const { videoId } of generations.slice(0, 2)) {
      assert.equal((await api(service, 'POST', `/api/videos/${videoId}/complete`, { session })).status, 200);
    }
    // account.created, then video.completed and video.rendered of each of the 2 renders: all tried, none taken.
    await hooks.distinct(5);
    assert.ok(hooks.posts.every((post) => post.status === 503));
    assert.ok(!service.webhooks.deliveries.some((attempt) => attempt.outcome === 'delivered'));

    // The log has them all, in the order they happened, with the webhooks' own IDs.
    const { events, pages } = await readAll(service);
    assert.equal(pages.length, 1);
    assert.deepEqual(new Set(events.map((event) => event.id)), new Set(hooks.posts.map((post) => post.id)));
    assert.equal(events.length, 5);
    assert.equal(events[0]!.type, 'account.created');
    for (const { videoId } of generations.slice(0, 2)) {
      const types = events.filter(
        (event) => 'data' in event && (event.data as { videoID?: string }).videoID === videoId,
      );
      assert.deepEqual(
        types.map((event) => event.type),
        ['video.completed', 'video.rendered'],
      );
    }
    const created = events.map((event) => event.createdAt);
    assert.deepEqual(created, [...created].sort());

    // Paged by 2: the same events, and a cursor gives the same following events every time.
    const paged = await readAll(service, { limit: 2 });
    assert.deepEqual(
      paged.pages.map((page) => [page.events.length, page.hasMore]),
      [
        [2, true],
        [2, true],
        [1, false],
      ],
    );
    assert.deepEqual(paged.events, events);
    const again = await readAll(service, { after: paged.pages[0]!.cursor });
    assert.deepEqual(again.events, events.slice(2));
    // From the last cursor: nothing new yet, and the same cursor back (stored as it is).
    const tail = await readAll(service, { after: paged.pages[2]!.cursor });
    assert.deepEqual(tail.pages, [{ events: [], cursor: paged.pages[2]!.cursor, hasMore: false }]);

    // The endpoint comes back: each event is delivered once more, and then nothing is tried again.
    hooks.state.down = false;
    await service.webhooks.settled();
    const delivered = hooks.posts.filter((post) => post.status === 204);
    assert.deepEqual(delivered.map((post) => post.id).sort(), events.map((event) => event.id).sort());
    for (const event of events) {
      const attempts = service.webhooks.deliveries.filter((attempt) => attempt.eventID === event.id);
      assert.equal(attempts.at(-1)!.outcome, 'delivered');
      assert.ok(attempts.slice(0, -1).every((attempt) => attempt.outcome === 'retrying'));
    }
    const posted = hooks.posts.length;
    // Nothing is left to retry: a new event is delivered at once, and no old one comes with it.
    await createAccount(service);
    await service.webhooks.settled();
    assert.deepEqual(
      hooks.posts.slice(posted).map((post) => [post.type, post.status]),
      [['account.created', 204]],
    );
    assert.equal((await readAll(service, { after: paged.pages[2]!.cursor })).events.length, 1);
  });
});

describe('the event log', () => {
  test('is kept in the data file: after a restart the same cursor gives the same events, and new ones follow', async () => {
    const dataFile = join(dir, 'events.db');
    const options = { dataFile, partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }] };
    const first = await startService({ port: 0, allowLoopbackSources: true, media: 'placeholder', ...options });
    await createAccount(first, { externalID: 'a' });
    await createAccount(first, { externalID: 'b' });
    const before = await readAll(first);
    await first.close();

    const second = await startTestService(options);
    assert.deepEqual((await readAll(second)).events, before.events);
    await createAccount(second, { externalID: 'c' });
    const next = await readAll(second, { after: before.pages.at(-1)!.cursor });
    assert.deepEqual(
      next.events.map((event) => event.externalID),
      ['c'],
    );
  });

  test("is kept for a partner without webhook URLs too, and shows one partner's events only", async () => {
    const OTHER_WEBHOOK_SECRET = 'other-partner-webhook-secret-0123456789abcdef';
    const OTHER_SECRET = 'other-partner-secret-0123456789abcdef';
    const service = await startTestService({
      partners: [
        { id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] },
        { id: 'other', secret: OTHER_SECRET, webhookSecrets: [OTHER_WEBHOOK_SECRET] },
      ],
    });
    await createAccount(service, { externalID: 'mine' });
    await createAccount(service, { externalID: 'theirs' }, 'other', OTHER_SECRET);
    assert.deepEqual(
      (await readAll(service)).events.map((event) => event.externalID),
      ['mine'],
    );
    const theirs = await readAll(service, { partnerID: 'other', secret: OTHER_WEBHOOK_SECRET });
    assert.deepEqual(
      theirs.events.map((event) => event.externalID),
      ['theirs'],
    );
    // Another partner's webhook secret does not read this partner's log.
    await assert.rejects(readAll(service, { secret: OTHER_WEBHOOK_SECRET }), { code: 'token_bad_signature' });
  });

  test('a bad cursor or limit is refused naming the field', async () => {
    const service = await startTestService({
      partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }],
    });
    const key = `Bearer ${await eventsToken(WEBHOOK_SECRET)}`;
    for (const [query, field] of [
      ['?after=evt_1', 'after'],
      ['?after=-1', 'after'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
    ]) {
      const result = await eventsApi(service, key, query);
      assert.equal(result.status, 400, query);
      assert.equal(result.body.error.code, 'invalid_parameter');
      assert.equal(result.body.error.data.field, field);
    }
    await assert.rejects(readAll(service, { after: 'evt_1' }), (error: unknown) => {
      assert.ok(error instanceof EventsError);
      assert.equal(error.code, 'invalid_parameter');
      assert.equal(error.status, 400);
      return true;
    });
    assert.equal((await eventsApi(service, key, '?limit=100&after=0')).status, 200);
  });

  test('listEvents says when the service cannot be reached, or is not the service', async () => {
    const closed = await startTestService();
    const url = closed.url;
    await closed.close();
    await assert.rejects(readAll(closed, { serviceURL: url }), { name: 'EventsError', code: 'service_unreachable' });
    const elsewhere = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hello</p>'),
    );
    await assert.rejects(readAll(closed, { serviceURL: elsewhere }), {
      name: 'EventsError',
      code: 'service_bad_answer',
    });
    await assert.rejects(readAll(closed, { serviceURL: 'ftp://x' }), (error: unknown) => {
      assert.ok(error instanceof InvalidParameterError);
      assert.deepEqual(error.data, { field: 'serviceURL' });
      return true;
    });
  });
});

describe('keys', () => {
  test('the event log takes only a short-lived events token signed with a webhook secret, never the token secret', async () => {
    const service = await startTestService({
      partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }],
    });
    await createAccount(service);
    const refused = async (authorization: string | undefined, code: string, status = 401) => {
      const result = await eventsApi(service, authorization);
      assert.equal(result.status, status, JSON.stringify(result.body));
      assert.equal(result.body.error.code, code);
      assert.equal(result.body.events, undefined);
    };
    await refused(undefined, 'not_authenticated');
    await refused(`Bearer ${WEBHOOK_SECRET}`, 'token_malformed'); // the secret itself is never sent
    await refused(`Bearer ${await eventsToken(SECRET)}`, 'token_bad_signature');
    await refused(`Bearer ${await createAccountToken({ partnerID: PARTNER, secret: SECRET })}`, 'token_bad_signature');
    await refused(`Bearer ${await eventsToken(WEBHOOK_SECRET, { [KIND_CLAIM]: 'login' })}`, 'token_malformed');
    await refused(`Bearer ${await eventsToken(WEBHOOK_SECRET, { aud: 'elsewhere' })}`, 'token_wrong_audience');
    await refused(`Bearer ${await eventsToken(WEBHOOK_SECRET, { iss: 'nobody' })}`, 'token_unknown_issuer');
    await refused(`Bearer ${await eventsToken(WEBHOOK_SECRET, {}, 3600)}`, 'token_lifetime_too_long');
    const old = Math.floor(Date.now() / 1000) - 600;
    await refused(`Bearer ${await eventsToken(WEBHOOK_SECRET, { iat: old, exp: old + 60 })}`, 'token_expired');
    assert.equal((await eventsApi(service, `Bearer ${await eventsToken(WEBHOOK_SECRET)}`)).status, 200);
    // listEvents given the token secret by mistake: the service's code, named.
    await assert.rejects(readAll(service, { secret: SECRET }), (error: unknown) => {
      assert.ok(error instanceof EventsError);
      assert.equal(error.code, 'token_bad_signature');
      assert.equal(error.status, 401);
      assert.match(error.message, /webhook secret/);
      return true;
    });
  });

  test('a token signed with the webhook secret cannot create an account or log in', async () => {
    const service = await startTestService({
      partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }],
    });
    const { account } = await createAccount(service);
    const create = await api(service, 'POST', '/api/accounts', {
      body: { token: await createAccountToken({ partnerID: PARTNER, secret: WEBHOOK_SECRET }) },
    });
    assert.equal(create.status, 401);
    assert.equal(create.body.error.code, 'token_bad_signature');
    const login = await api(service, 'POST', '/api/sessions', {
      body: { token: await loginAccountToken({ partnerID: PARTNER, secret: WEBHOOK_SECRET, accountID: account.id }) },
    });
    assert.equal(login.status, 401);
    assert.equal(login.body.error.code, 'token_bad_signature');
    assert.equal(login.body.session, undefined);
  });

  test('during a roll the service signs with the newest webhook secret and reads the log with any; verifyWebhook accepts a list', async () => {
    const NEW = 'the-new-webhook-secret-0123456789abcdef';
    const bodies: string[] = [];
    const keep = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
    });
    const service = await startTestService({
      partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [NEW, WEBHOOK_SECRET], webhookURLs: [keep] }],
    });
    await createAccount(service);
    await service.webhooks.settled();
    const [body] = bodies;
    // The receiver that accepts both (deployed first) and the one already on the new secret accept it;
    // one still on the old secret alone does not: roll the receivers before the service.
    assert.equal(
      (await verifyWebhook(body!, { secret: [WEBHOOK_SECRET, NEW], partnerID: PARTNER })).type,
      'account.created',
    );
    assert.equal((await verifyWebhook(body!, { secret: NEW, partnerID: PARTNER })).type, 'account.created');
    await assert.rejects(verifyWebhook(body!, { secret: WEBHOOK_SECRET, partnerID: PARTNER }), {
      code: 'webhook_signature_invalid',
    });
    await assert.rejects(verifyWebhook(body!, { secret: SECRET, partnerID: PARTNER }), {
      code: 'webhook_signature_invalid',
    });
    // The log reads with either secret of the roll.
    assert.equal((await readAll(service, { secret: NEW })).events.length, 1);
    assert.equal((await readAll(service, { secret: WEBHOOK_SECRET })).events.length, 1);
  });

  test('the service refuses short secrets, a webhook secret equal to the token secret, and webhook URLs without a webhook secret', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ id: PARTNER, secret: '0123456789abcdef' }, 'partners.0.secret', /at least 32 bytes \(it has 16; RFC 7518/],
      [{ id: PARTNER, secret: SECRET, webhookSecrets: ['short'] }, 'partners.0.webhookSecrets.0', /at least 32 bytes/],
      [
        { id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET, SECRET] },
        'partners.0.webhookSecrets.1',
        /must differ/,
      ],
      [
        { id: PARTNER, secret: SECRET, webhookURLs: ['https://partner.example/hooks'] },
        'partners.0.webhookSecrets',
        /required with webhookURLs/,
      ],
    ];
    for (const [partner, field, message] of cases) {
      await assert.rejects(startService({ port: 0, partners: [partner as never] }), (error: unknown) => {
        assert.ok(error instanceof InvalidParameterError, String(error));
        assert.deepEqual(error.data, { field });
        assert.match(error.message, message);
        assert.ok(!error.message.includes(SECRET) && !error.message.includes('0123456789abcdef"'), error.message);
        return true;
      });
    }
  });

  test('the demo partner gets the public demo webhook secret, distinct from the demo token secret', async () => {
    const service = await startTestService({ partners: [{ id: 'demo', secret: DEMO_SECRET }] });
    assert.deepEqual(service.partners[0]!.webhookSecrets, [DEMO_WEBHOOK_SECRET]);
    assert.notEqual(DEMO_WEBHOOK_SECRET, DEMO_SECRET);
  });
});

describe('the retry schedule', () => {
  const defaults = {
    webhookRetryMs: DEFAULT_WEBHOOK_RETRY_MS,
    webhookMaxRetryMs: DEFAULT_WEBHOOK_MAX_RETRY_MS,
    webhookRetryForMs: DEFAULT_WEBHOOK_RETRY_FOR_MS,
    webhookTries: undefined,
  };

  /** The waits of a delivery that never succeeds, each try starting when the wait before it ends. */
  function schedule(config: typeof defaults | (Omit<typeof defaults, 'webhookTries'> & { webhookTries: number })) {
    const waits: number[] = [];
    let now = 0;
    for (let attempt = 1; ; attempt++) {
      const wait = nextWait(config, attempt, 0, now);
      if (wait === undefined) return waits;
      waits.push(wait);
      now += wait;
    }
  }

  test('by default it doubles from 1 s to 1 hour and goes on for 3 days', () => {
    const waits = schedule(defaults);
    assert.deepEqual(waits.slice(0, 4), [1000, 2000, 4000, 8000]);
    assert.equal(Math.max(...waits), 3_600_000);
    const total = waits.reduce((sum, wait) => sum + wait, 0);
    assert.ok(total <= 3 * 86_400_000 && total > 3 * 86_400_000 - 3_600_000, String(total));
    assert.equal(waits.length + 1, 83); // tries in all: 13 while the waits double, then hourly
  });

  test('a test (or --webhook-retry-*) can shorten it, and webhookTries caps the count', () => {
    assert.deepEqual(
      schedule({ webhookRetryMs: 10, webhookMaxRetryMs: 40, webhookRetryForMs: 200, webhookTries: undefined }),
      [10, 20, 40, 40, 40, 40],
    );
    assert.deepEqual(schedule({ ...defaults, webhookTries: 3 }), [1000, 2000]);
  });
});
