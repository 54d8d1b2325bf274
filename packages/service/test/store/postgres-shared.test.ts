// Two services on one PostgreSQL database (A and B): each keeps the records in memory and reads the
// other's commits (store/postgres.ts). What one acknowledged, the other answers with; a status
// stream read from A shows B's stages in order; the event log reads the same from either; one
// Idempotency-Key sent to both at once starts one job and gets one answer; an externalID taken on
// one is refused on the other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { createAccountToken, listEvents, type EventPage, type WebhookEvent } from '../../../../src/server/index.js';
import type { RunningService } from '../../src/server.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  WEBHOOK_SECRET,
  api,
  backEnd,
  createAccount,
  login,
  serve,
  statusesUntilFinal,
  within,
} from '../support/helpers.js';
import { postgresMissing, startPostgres } from '../support/postgres.js';
import { runService } from '../support/child-service.js';
import { SWEEP_MS } from '../../src/jobs/queue.js';

const missing = postgresMissing();
// A time limit per test: a job that never ends fails its test instead of stalling the run.
const skip = missing ? { skip: missing } : { timeout: 120_000 };
const server = missing ? undefined : await startPostgres();
const source = await serve((req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Shared page</title>'),
);

/** Two services on a new database, sharing a media folder (the files are not what is tested here). */
async function pair(options = {}): Promise<[RunningService, RunningService]> {
  const { start } = await server!.place({
    partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }],
    ...options,
  });
  return [await start(), await start()];
}

async function events(service: RunningService): Promise<WebhookEvent[]> {
  const all: WebhookEvent[] = [];
  for await (const page of listEvents({ partnerID: PARTNER, secret: WEBHOOK_SECRET, serviceURL: service.url })) {
    all.push(...page.events);
  }
  return all;
}

test(
  'what one service acknowledged, the other answers with at once: accounts, sessions, records, logouts',
  skip,
  async () => {
    const [a, b] = await pair();
    const { session, account } = await createAccount(a, { externalID: 'both' });
    assert.equal((await api(b, 'GET', '/api/account', { session })).body.account.id, account.id);
    const taken = await api(b, 'POST', '/api/accounts', {
      body: {
        token: await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID: 'both' } }),
      },
    });
    assert.equal(taken.body.error?.code, 'account_already_exists', 'an externalID taken on A is refused on B');
    const { topicId } = (await api(b, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
    assert.equal((await api(a, 'GET', `/api/topics/${topicId}`, { session })).status, 200, 'B’s topic is on A');
    const renamed = await api(a, 'PATCH', '/api/account', { session, body: { city: 'Lyon' } });
    assert.equal(renamed.status, 200);
    assert.equal((await api(b, 'GET', '/api/account', { session })).body.account.city, 'Lyon');
    const other = (await login(b, { externalID: 'both' })).body.session as string;
    assert.equal((await api(a, 'DELETE', '/api/sessions/current', { session: other })).status, 204);
    assert.equal((await api(b, 'GET', '/api/account', { session: other })).status, 401, 'a logout on A holds on B');
  },
);

test('a logout on A ends, at once, the socket and the status stream the session has open on B', skip, async () => {
  const [a, b] = await pair();
  const { session } = await createAccount(a, { externalID: 'leaving' });
  const ws = new WebSocket(`${b.url.replace('http', 'ws')}/api/live`, { headers: { origin: b.origin } });
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  // The first answer, or the close that came instead.
  const answered = new Promise<{ cursor?: string; code?: number }>((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data))));
    void closed.then(resolve);
  });
  ws.once('open', () => ws.send(JSON.stringify({ session })));
  const first = await answered;
  assert.equal(typeof first.cursor, 'string', `the socket on B logged in (${JSON.stringify(first)})`);
  const stream = await EventStream.open(b, session);
  await stream.next((event) => event.event === 'ready');
  const loggedOut = Date.now();
  assert.equal((await api(a, 'DELETE', '/api/sessions/current', { session })).status, 204);
  // The session's limits are a day away: only the logout on A can end them.
  const [close] = await Promise.all([closed, stream.ended()]);
  assert.deepEqual(close, { code: 4401, reason: 'not_authenticated' });
  assert.ok(Date.now() - loggedOut < 10_000, `ended ${Date.now() - loggedOut} ms after the logout`);
});

test('a status stream read from A shows every stage of a job B runs, in order, with no gap', skip, async () => {
  const [a, b] = await pair({ jobMs: 400 });
  const { session } = await createAccount(a, { externalID: 'watcher' });
  const stream = await EventStream.open(a, session);
  await stream.next((event) => event.event === 'ready');
  const mirror = await EventStream.open(b, session);
  await mirror.next((event) => event.event === 'ready');
  const { topicId } = (await api(b, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
  const [seenOnA, seenOnB] = await Promise.all([
    statusesUntilFinal(stream, 'topic', (data) => data.id === topicId),
    statusesUntilFinal(mirror, 'topic', (data) => data.id === topicId),
  ]);
  assert.deepEqual(seenOnA, seenOnB);
  assert.equal(seenOnA.at(-1), 'COMPLETE');
  const { requestId } = (
    await api(a, 'POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration: 5 } })
  ).body;
  const generationOnB = await statusesUntilFinal(mirror, 'generation', (data) => data.requestId === requestId);
  assert.equal(generationOnB.at(-1), 'COMPLETE');
  stream.close();
  mirror.close();
});

test('one Idempotency-Key sent to both at once: one job, one answer', skip, async () => {
  const [a, b] = await pair();
  const { session } = await createAccount(a, { externalID: 'twice' });
  const send = (service: RunningService) =>
    api(service, 'POST', '/api/topics', {
      session,
      body: { sourceURL: source },
      headers: { 'idempotency-key': 'same-key-0001' },
    });
  const answers = await Promise.all([send(a), send(b), send(a), send(b)]);
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [202, 202, 202, 202],
  );
  assert.equal(
    new Set(answers.map((answer) => answer.body.topicId)).size,
    1,
    JSON.stringify(answers.map((x) => x.body)),
  );
  assert.equal(a.stats().topics, 1);
  assert.equal(b.stats().topics, 1);
});

test('the event log reads the same from either service, and a cursor from one goes on at the other', skip, async () => {
  const [a, b] = await pair();
  for (let index = 0; index < 6; index++) await createAccount(index % 2 ? a : b, { externalID: `logged-${index}` });
  const fromA = await events(a);
  const fromB = await events(b);
  assert.equal(fromA.length, 6);
  assert.deepEqual(fromA, fromB);
  const pages = listEvents({ partnerID: PARTNER, secret: WEBHOOK_SECRET, serviceURL: a.url, limit: 2 });
  const first = (await pages[Symbol.asyncIterator]().next()).value as EventPage | undefined;
  const rest = [];
  for await (const page of listEvents({
    partnerID: PARTNER,
    secret: WEBHOOK_SECRET,
    serviceURL: b.url,
    after: first!.cursor,
  })) {
    rest.push(...page.events);
  }
  assert.deepEqual([...first!.events, ...rest], fromA);
});

test(
  'a service killed (SIGKILL) while its job runs: another takes the job over within seconds and completes it',
  skip,
  async () => {
    const { database, mediaDir } = await server!.place();
    const args = ['--database', database, '--media-dir', mediaDir, '--job-ms', '1000'];
    // A stalls its search while it reads the page: however slowly B starts on a busy machine, the
    // job is still running on A when A is killed. The stall is spent by the run that began on A, so
    // B's run after the kill goes on as usual (B has no test controls to release it with).
    const a = runService([...args, '--test-controls']);
    const onA = { url: await a.listening } as RunningService;
    const forced = await api(onA, 'POST', '/api/test/outcomes', {
      body: { job: 'topicSearch', outcome: { stall: 'reading_page' } },
      headers: await backEnd(),
    });
    assert.equal(forced.status, 201, JSON.stringify(forced.body));
    const { session } = await createAccount(onA, { externalID: 'survivor' });
    const { topicId } = (await api(onA, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
    // A has claimed it (B is not running yet) and is part way through.
    const stream = await EventStream.open(onA, session);
    await stream.next(
      (event) => event.event === 'topic' && event.data.id === topicId && event.data.progress?.stage === 'reading_page',
    );
    stream.close();
    const b = runService(args);
    const onB = { url: await b.listening } as RunningService;
    a.child.kill('SIGKILL');
    assert.deepEqual(await a.exited, { code: null, signal: 'SIGKILL' });
    const killed = Date.now();
    const watch = await EventStream.open(onB, session, `topic=${topicId}`);
    const statuses = await within(
      statusesUntilFinal(watch, 'topic', (data) => data.id === topicId),
      60_000,
      'the job taken over by B',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; B printed:\n${b.output()}`);
    });
    const tookMs = Date.now() - killed;
    watch.close();
    assert.equal(statuses.at(-1), 'COMPLETE');
    // The sweep (1 s) and the claim's grace (3 s), plus the job's own 1 s and 5 s for this machine's load.
    assert.ok(tookMs < SWEEP_MS + 3000 + 1000 + 5000, `completed ${tookMs} ms after the kill`);
    assert.match(b.output(), /took over job .*, whose process ended while it ran/);
    assert.equal((await api(onB, 'GET', `/api/topics/${topicId}`, { session })).body.topic.title, 'Shared page');
    b.child.kill('SIGTERM');
    await b.exited;
  },
);
