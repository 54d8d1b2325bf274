// Sandboxes (issue 41): partners the service makes at run time, in-process and over HTTP, each kept
// apart from the others; reset and expiry remove their records and files, stop their jobs and end
// their streams and sockets; their tokens are then refused with `sandbox_expired`; the limits
// answer 429 naming themselves; the door is closed without an operator key. The command line's
// `sandbox create` is tested in test/sandbox-command.test.ts, the records in the data file in
// test/store/sandbox-records.test.ts.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import sharp from 'sharp';
import { WebSocket } from 'ws';
import { KIND_CLAIM, SERVICE_DOMAIN, createAccountToken } from '../../../../src/server/index.js';
import { DEFAULT_SANDBOX_TTL_MS, DEMO_PARTNER_ID, DEMO_SECRET } from '../../src/config.js';
import type { RunningService, SandboxCredentials } from '../../src/server.js';
import {
  EventStream,
  SECRET,
  api,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';

const OPERATOR_KEY = 'sandbox-test-operator-key-0123456789abcdef';
const operator = { authorization: `Bearer ${OPERATOR_KEY}` };

const dir = await mkdtemp(join(tmpdir(), 'video-plugin-sandboxes-'));
after(() => rm(dir, { recursive: true, force: true }));

/** A source page with one picture, which a topic search keeps in the media folder. */
const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c03' } })
  .png()
  .toBuffer();
const source = await serve((req, res) => {
  if (req.url === '/picture.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(picture);
  res
    .writeHead(200, { 'content-type': 'text/html' })
    .end(`<title>Sandbox shop ${req.url}</title><body><img src="/picture.png"></body>`);
});

/** The demo partner (no partners option) beside the sandboxes, whose door is open. */
const mediaDir = join(dir, 'media');
const service = await startTestService({
  partners: undefined,
  mediaDir,
  sandboxes: { operatorKey: OPERATOR_KEY },
});

/** A sandbox made through the HTTP door. */
async function sandboxOverHttp(target: RunningService = service, body?: unknown): Promise<SandboxCredentials> {
  const made = await api(target, 'POST', '/api/sandboxes', { headers: operator, ...(body ? { body } : {}) });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body as SandboxCredentials;
}

/** An account of the sandbox, with its session. */
function accountOf(target: RunningService, sandbox: SandboxCredentials, externalID = 'same-user') {
  return createAccount(target, { externalID }, sandbox.partnerID, sandbox.secret);
}

/** An events token (as listEvents signs it) of the sandbox. */
async function eventsToken(sandbox: SandboxCredentials): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: sandbox.partnerID, aud: SERVICE_DOMAIN, iat, exp: iat + 60, [KIND_CLAIM]: 'events' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(sandbox.webhookSecret));
}

/** The sandbox's event log, read with its events token. */
async function eventLog(target: RunningService, sandbox: SandboxCredentials) {
  const headers = { authorization: `Bearer ${await eventsToken(sandbox)}` };
  return api(target, 'GET', '/api/partner/events', { headers });
}

/** A topic search and a generation of the account, both followed to COMPLETE; the IDs. */
async function topicAndVideo(target: RunningService, session: string) {
  const stream = await EventStream.open(target, session);
  await stream.next((event) => event.event === 'ready');
  const { topicId } = (await api(target, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/shop` } }))
    .body as { topicId: string };
  assert.deepEqual((await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId)).at(-1), 'COMPLETE');
  const started = await api(target, 'POST', '/api/generations', {
    session,
    body: { topicId, aspectRatio: '16:9', duration: 15 },
  });
  const { requestId, videoId } = started.body as { requestId: string; videoId: string };
  await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
  stream.close();
  return { topicId, videoId };
}

/** A status socket of the session, authenticated; resolves once it has its first answer. */
async function socketOf(target: RunningService, session: string) {
  const ws = new WebSocket(`${target.url.replace('http', 'ws')}/api/live`, { headers: { origin: target.origin } });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve) => ws.once('open', resolve));
  const first = new Promise((resolve) => ws.once('message', resolve));
  ws.send(JSON.stringify({ session }));
  await first;
  after(() => ws.terminate());
  return { ws, closed };
}

describe('making a sandbox', () => {
  test('createSandbox() in-process gives a partner ID, 32-byte random secrets and an expiry; the sandbox works', async () => {
    const before = Date.now();
    const sandbox = await service.createSandbox();
    assert.deepEqual(Object.keys(sandbox).sort(), ['expiresAt', 'partnerID', 'secret', 'webhookSecret']);
    assert.match(sandbox.partnerID, /^sandbox_[0-9a-f]{32}$/);
    for (const secret of [sandbox.secret, sandbox.webhookSecret]) {
      assert.ok(Buffer.from(secret, 'base64url').length >= 32, secret);
    }
    assert.notEqual(sandbox.secret, sandbox.webhookSecret);
    const expiresAt = Date.parse(sandbox.expiresAt);
    assert.ok(expiresAt >= before + DEFAULT_SANDBOX_TTL_MS && expiresAt <= Date.now() + DEFAULT_SANDBOX_TTL_MS);
    const { account } = await accountOf(service, sandbox);
    assert.equal(account.externalID, 'same-user');
    // Default origins as the demo partner's: any local port.
    const check = await api(
      service,
      'GET',
      `/api/partners/${sandbox.partnerID}/origin-check?origin=${encodeURIComponent('http://localhost:5173')}`,
    );
    assert.equal(check.body.allowed, true, JSON.stringify(check.body));
  });

  test('POST /api/sandboxes with the operator key makes one, with the origins and webhook URLs asked for', async () => {
    const sandbox = await sandboxOverHttp(service, {
      allowedOrigins: ['https://ci.example'],
      webhookURLs: ['http://127.0.0.1:9/hooks'],
    });
    assert.match(sandbox.partnerID, /^sandbox_/);
    const origin = (page: string) =>
      api(service, 'GET', `/api/partners/${sandbox.partnerID}/origin-check?origin=${encodeURIComponent(page)}`);
    assert.equal((await origin('https://ci.example')).body.allowed, true);
    assert.equal((await origin('http://localhost:5173')).body.allowed, false);
    const { account } = await accountOf(service, sandbox);
    assert.ok(account.id);
  });

  test('the two doors refuse bad fields, naming them, and make nothing', async () => {
    const count = service.stats().sandboxes;
    for (const [body, field] of [
      [{ allowedOrigins: ['not an origin'] }, 'allowedOrigins.0'],
      [{ allowedOrigins: [] }, 'allowedOrigins'],
      [{ webhookURLs: ['ftp://partner.example/hooks'] }, 'webhookURLs.0'],
      [{ authModes: ['password'] }, 'authModes.0'],
      [{ secret: 'my-own-secret-0123456789abcdef0123456789' }, 'secret'],
    ] as const) {
      const refused = await api(service, 'POST', '/api/sandboxes', { headers: operator, body });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'invalid_parameter');
      assert.equal(refused.body.error.data.field, field, refused.body.error.message);
      assert.match(refused.body.error.message, /POST \/api\/sandboxes/);
      await assert.rejects(service.createSandbox(body as never), (error: Error & { data?: { field?: string } }) => {
        assert.equal(error.data?.field, field);
        return true;
      });
    }
    assert.equal(service.stats().sandboxes, count);
  });

  test('the HTTP door needs the operator key: none or another is 401, and nothing is made', async () => {
    const count = service.stats().sandboxes;
    const none = await api(service, 'POST', '/api/sandboxes');
    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'not_authenticated');
    assert.match(none.body.error.message, /operator key/);
    const wrong = await api(service, 'POST', '/api/sandboxes', { headers: { authorization: `Bearer ${DEMO_SECRET}` } });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.error.message, /operator key is wrong/);
    const sandbox = await service.createSandbox();
    const reset = await api(service, 'DELETE', `/api/sandboxes/${sandbox.partnerID}`, {
      headers: { authorization: 'Bearer not-the-key' },
    });
    assert.equal(reset.status, 401);
    assert.ok((await accountOf(service, sandbox)).session, 'the sandbox was reset without the key');
    assert.equal(service.stats().sandboxes, count + 1);
  });

  test('without an operator key the door is closed: 403 sandboxes_disabled, saying how to open it', async () => {
    const closed = await startTestService();
    for (const [method, path] of [
      ['POST', '/api/sandboxes'],
      ['DELETE', '/api/sandboxes/sandbox_0123'],
    ] as const) {
      const refused = await api(closed, method, path, { headers: operator });
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'sandboxes_disabled');
      assert.match(refused.body.error.message, /--sandboxes/);
    }
    // In-process, the service's owner may still make one.
    assert.match((await closed.createSandbox()).partnerID, /^sandbox_/);
  });

  test("a configured partner may not take the sandboxes' prefix, nor their operator key a partner's secret", async () => {
    await assert.rejects(
      startTestService({ partners: [{ id: 'sandbox_mine', secret: DEMO_SECRET }] }),
      /partners\.0\.id.*sandbox_/s,
    );
    await assert.rejects(startTestService({ sandboxes: { operatorKey: SECRET } }), /sandboxes\.operatorKey/);
  });
});

describe('two sandboxes on one service', () => {
  test("neither sees the other's accounts, videos or events, through the API or the event log", async () => {
    const [one, two] = [await service.createSandbox(), await sandboxOverHttp()];
    // The same externalID in both: two accounts, one in each.
    const [a, b] = [await accountOf(service, one), await accountOf(service, two)];
    assert.notEqual(a.account.id, b.account.id);
    const mine = await topicAndVideo(service, a.session);
    const theirs = await topicAndVideo(service, b.session);

    const videos = await api(service, 'GET', '/api/videos', { session: a.session });
    assert.deepEqual(
      videos.body.videos.map((video: { id: string }) => video.id),
      [mine.videoId],
    );
    for (const path of [`/api/videos/${theirs.videoId}`, `/api/topics/${theirs.topicId}`]) {
      assert.equal((await api(service, 'GET', path, { session: a.session })).status, 404, path);
    }
    // A token of one sandbox's user, signed with the other's secret, is no token of either.
    const forged = await createAccountToken({ partnerID: one.partnerID, secret: two.secret, account: {} });
    const refused = await api(service, 'POST', '/api/accounts', { body: { token: forged } });
    assert.equal(refused.body.error.code, 'token_bad_signature');

    const logOne = (await eventLog(service, one)).body.events as { accountID: string }[];
    const logTwo = (await eventLog(service, two)).body.events as { accountID: string }[];
    assert.deepEqual(
      logOne.map((event) => event.accountID),
      [a.account.id],
    );
    assert.deepEqual(
      logTwo.map((event) => event.accountID),
      [b.account.id],
    );
    // One sandbox's events token, naming the other as its issuer, reads nothing.
    const iat = Math.floor(Date.now() / 1000);
    const crossed = await new SignJWT({
      iss: two.partnerID,
      aud: SERVICE_DOMAIN,
      iat,
      exp: iat + 60,
      [KIND_CLAIM]: 'events',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(one.webhookSecret));
    const denied = await api(service, 'GET', '/api/partner/events', {
      headers: { authorization: `Bearer ${crossed}` },
    });
    assert.equal(denied.status, 401);
  });

  test("the per-IP budgets are each sandbox's own: one that spends them does not starve another", async () => {
    const tight = await startTestService({
      sandboxes: {},
      limits: { 'topicSearches.ip': { burst: 1, perMinute: 1 }, 'topicSearches.account': false },
    });
    const [one, two] = [await tight.createSandbox(), await tight.createSandbox()];
    const [a, b] = [await accountOf(tight, one), await accountOf(tight, two)];
    const search = (session: string) =>
      api(tight, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/budget` } });
    assert.equal((await search(a.session)).status, 202);
    const spent = await search(a.session);
    assert.equal(spent.status, 429);
    assert.equal(spent.body.error.data.limit, 'topicSearches.ip');
    assert.equal((await search(b.session)).status, 202);
  });
});

describe('a reset', () => {
  test("removes the sandbox's records and files, ends its stream and socket; the other sandbox and the demo partner go on", async () => {
    const [gone, kept] = [await service.createSandbox(), await service.createSandbox()];
    const demo = await createAccount(service, { externalID: 'demo-user' }, DEMO_PARTNER_ID, DEMO_SECRET);
    const a = await accountOf(service, gone);
    const b = await accountOf(service, kept);
    const mine = await topicAndVideo(service, a.session);
    const theirs = await topicAndVideo(service, b.session);
    // The kept picture of each topic is in the media folder.
    const pictures = (topicId: string) => join(mediaDir, 'topics', topicId);
    assert.ok((await readdir(pictures(mine.topicId))).length > 0);
    assert.ok((await readdir(pictures(theirs.topicId))).length > 0);
    const stream = await EventStream.open(service, a.session);
    await stream.next((event) => event.event === 'ready');
    const socket = await socketOf(service, a.session);
    const before = service.stats();

    const reset = await api(service, 'DELETE', `/api/sandboxes/${gone.partnerID}`, { headers: operator });
    assert.equal(reset.status, 204, JSON.stringify(reset.body));
    await stream.ended();
    assert.equal((await socket.closed).code, 4401);

    const now = service.stats();
    assert.equal(now.accounts, before.accounts - 1);
    assert.equal(now.sessions, before.sessions - 1);
    assert.equal(now.topics, before.topics - 1);
    assert.equal(now.generations, before.generations - 1);
    assert.equal(now.videos, before.videos - 1);
    assert.equal(now.sandboxes, before.sandboxes - 1);
    assert.equal(existsSync(pictures(mine.topicId)), false, 'its pictures are left');
    assert.ok((await readdir(pictures(theirs.topicId))).length > 0, "the other sandbox's pictures are gone");

    // Its session, its tokens and its events token: 401 sandbox_expired, naming the reset.
    for (const refused of [
      await api(service, 'GET', '/api/account', { session: a.session }),
      await api(service, 'POST', '/api/accounts', {
        body: { token: await createAccountToken({ partnerID: gone.partnerID, secret: gone.secret, account: {} }) },
      }),
      await eventLog(service, gone),
      await api(service, 'GET', `/api/partners/${gone.partnerID}/origin-check?origin=http://localhost:1`),
    ]) {
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'sandbox_expired');
      assert.equal(refused.body.error.data.reason, 'reset');
    }
    // Its socket, opened again, is closed saying so.
    const again = new WebSocket(`${service.url.replace('http', 'ws')}/api/live`, {
      headers: { origin: service.origin },
    });
    again.once('open', () => again.send(JSON.stringify({ session: a.session })));
    const [code, reason] = (await once(again, 'close')) as [number, Buffer];
    assert.deepEqual([code, String(reason)], [4401, 'sandbox_expired']);
    // A second reset finds nothing.
    const twice = await api(service, 'DELETE', `/api/sandboxes/${gone.partnerID}`, { headers: operator });
    assert.equal(twice.status, 404);
    assert.equal(twice.body.error.code, 'sandbox_not_found');

    // The other sandbox and the demo partner are untouched.
    const video = await api(service, 'GET', `/api/videos/${theirs.videoId}`, { session: b.session });
    assert.equal(video.status, 200);
    assert.equal((await eventLog(service, kept)).body.events.length, 1);
    assert.equal((await api(service, 'GET', '/api/account', { session: demo.session })).status, 200);
  });

  test("stops the sandbox's running jobs, which then write nothing", async () => {
    const slow = await startTestService({ jobMs: 60_000, sandboxes: {} });
    const sandbox = await slow.createSandbox();
    const { session } = await accountOf(slow, sandbox);
    const started = await api(slow, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/slow` } });
    assert.equal(started.status, 202);
    assert.equal(slow.stats().jobs, 1);
    await slow.resetSandbox(sandbox.partnerID);
    assert.equal(slow.stats().jobs, 0);
    assert.equal(slow.stats().topics, 0);
  });

  test(
    "stops the sandbox's webhook deliveries: a retry waiting an hour no longer holds settled()",
    { timeout: 20_000 },
    async () => {
      let posts = 0;
      const receiver = await serve((_req, res) => {
        posts++;
        res.writeHead(500).end();
      });
      const hooked = await startTestService({ sandboxes: {}, webhookRetryMs: 3_600_000 });
      const sandbox = await hooked.createSandbox({ webhookURLs: [`${receiver}/hooks`] });
      await accountOf(hooked, sandbox);
      // The first try failed and the delivery waits an hour for its next one.
      while (!hooked.webhooks.deliveries.some((attempt) => attempt.outcome === 'retrying')) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      await hooked.resetSandbox(sandbox.partnerID);
      await hooked.webhooks.settled();
      assert.equal(posts, 1);
      assert.deepEqual(
        hooked.webhooks.deliveries.map((attempt) => attempt.outcome),
        ['retrying'],
      );
    },
  );

  test('an unknown sandbox, or a configured partner, is not one to reset: 404 sandbox_not_found', async () => {
    for (const id of ['sandbox_nothing', DEMO_PARTNER_ID]) {
      const refused = await api(service, 'DELETE', `/api/sandboxes/${id}`, { headers: operator });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error.code, 'sandbox_not_found');
    }
    assert.ok((await createAccount(service, {}, DEMO_PARTNER_ID, DEMO_SECRET)).session);
  });

  test('the service names only its configured partners, never a sandbox', async () => {
    const sandbox = await service.createSandbox();
    const health = await api(service, 'GET', '/api/health');
    assert.deepEqual(health.body.partners, [DEMO_PARTNER_ID]);
    const unknown = await api(service, 'POST', '/api/partners/nobody/sign-in', { body: { emailAddress: 'a@b.c' } });
    assert.equal(unknown.body.error.code, 'partner_not_found');
    assert.ok(!JSON.stringify(unknown.body).includes(sandbox.partnerID));
    assert.deepEqual(
      service.partners.map((partner) => partner.id),
      [DEMO_PARTNER_ID],
    );
  });
});

describe('expiry', () => {
  test('a sandbox whose time is over is reset: its stream ends, its records go, its tokens say sandbox_expired', async () => {
    const brief = await startTestService({ sandboxes: { ttlMs: 3000 } });
    const sandbox = await brief.createSandbox();
    const { session } = await accountOf(brief, sandbox);
    const stream = await EventStream.open(brief, session);
    await stream.next((event) => event.event === 'ready');
    assert.equal(brief.stats().accounts, 1);
    await stream.ended();
    assert.ok(Date.now() >= Date.parse(sandbox.expiresAt) - 50, 'ended before its expiry');
    assert.equal(brief.stats().accounts, 0);
    assert.equal(brief.stats().sessions, 0);
    assert.equal(brief.stats().sandboxes, 0);
    for (const refused of [await api(brief, 'GET', '/api/account', { session }), await eventLog(brief, sandbox)]) {
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error.code, 'sandbox_expired');
      assert.equal(refused.body.error.data.reason, 'expired');
    }
  });
});

describe('limits', () => {
  test('more sandboxes than sandboxes.max at once: 429 sandbox_limit_reached; a reset frees a place', async () => {
    const small = await startTestService({ sandboxes: { operatorKey: OPERATOR_KEY, max: 2 } });
    const first = await small.createSandbox();
    await sandboxOverHttp(small);
    const refused = await api(small, 'POST', '/api/sandboxes', { headers: operator });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'sandbox_limit_reached');
    assert.deepEqual(refused.body.error.data, { limit: 'sandboxes.max', max: 2 });
    await assert.rejects(small.createSandbox(), { code: 'sandbox_limit_reached' });
    assert.equal(small.stats().sandboxes, 2);
    await small.resetSandbox(first.partnerID);
    await sandboxOverHttp(small);
  });

  test('more jobs in a sandbox than sandboxes.jobsPerSandbox at once: 429 sandbox_job_limit_reached, nothing started', async () => {
    const busy = await startTestService({ jobMs: 60_000, sandboxes: { jobsPerSandbox: 2 } });
    const sandbox = await busy.createSandbox();
    const { session } = await accountOf(busy, sandbox);
    const search = () => api(busy, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/busy` } });
    assert.equal((await search()).status, 202);
    assert.equal((await search()).status, 202);
    const refused = await search();
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'sandbox_job_limit_reached');
    assert.deepEqual(refused.body.error.data, { limit: 'sandboxes.jobsPerSandbox', max: 2 });
    assert.equal(busy.stats().topics, 2);
    // Another sandbox has its own count.
    const other = await busy.createSandbox();
    const b = await accountOf(busy, other);
    const theirs = await api(busy, 'POST', '/api/topics', { session: b.session, body: { sourceURL: `${source}/b` } });
    assert.equal(theirs.status, 202);
  });
});
