// The test controls on a shared PostgreSQL database (services A and B on one database): a forced
// outcome is a record of the database, queued on either and taken by the partner's (or the
// account's) next job of its kind, queued on either, once and in the order they were queued; it
// travels with the job to whichever process runs it. A release on either clears that queue and
// lets go of the stalled jobs of both. A process without --test-controls refuses the routes but
// its jobs take the shared outcomes. A database at the previous schema is upgraded.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import type { RunningService, ServiceOptions } from '../../src/server.js';
import { LIMIT_NAMES } from '../../src/limit-values.js';
import { SCHEMA_VERSION } from '../../src/store/postgres.js';
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

const missing = postgresMissing();
// A time limit per test: a job that never ends fails its test instead of stalling the run.
const skip = missing ? { skip: missing } : { timeout: 120_000 };
const server = missing ? undefined : await startPostgres();
const source = await serve((_req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Forced page</title><p>Bikes.</p>'),
);
const psql = promisify(execFile);

/** No budget gets in the way of the jobs these tests start. */
const NO_LIMITS = Object.fromEntries(LIMIT_NAMES.map((name) => [name, false])) as ServiceOptions['limits'];

/** A new database, and a starter of services on it with the test controls (unless told otherwise). */
async function place() {
  return server!.place({
    testControls: true,
    limits: NO_LIMITS,
    jobMs: 300,
    partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }],
  });
}

/** Two services with the test controls on a new database. */
async function pair(options: ServiceOptions = {}): Promise<[RunningService, RunningService, string]> {
  const { database, start } = await place();
  return [await start(options), await start(options), database];
}

async function sql(url: string, statement: string): Promise<string> {
  return (await psql('psql', [url, '-Atqc', statement])).stdout.trim();
}

async function force(service: RunningService, body: unknown) {
  const answer = await api(service, 'POST', '/api/test/outcomes', { body, headers: await backEnd() });
  assert.equal(answer.status, 201, `${service.url}: ${JSON.stringify(answer.body)}`);
  return answer;
}

async function release(service: RunningService) {
  const answer = await api(service, 'DELETE', '/api/test/outcomes', { headers: await backEnd() });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as { cleared: number; released: number };
}

/** A user on `service` (its stream open), who starts searches there. */
async function user(service: RunningService, externalID: string) {
  const { session } = await createAccount(service, { externalID });
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  return {
    session,
    stream,
    async search(on = service): Promise<string> {
      const started = await api(on, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/shop` } });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      return started.body.topicId as string;
    },
    /** The search's last status and error code, once it has ended. */
    async ended(topicId: string): Promise<{ status: string; code: string | undefined }> {
      await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
      const { body } = await api(service, 'GET', `/api/topics/${topicId}`, { session });
      return { status: body.topic.status, code: body.topic.error?.code };
    },
  };
}

test('an outcome queued on A is taken by the job requested on B, wherever that job runs', skip, async () => {
  const [a, b, database] = await pair();
  const ana = await user(b, 'ana');
  // Several rounds: each job is claimed by A or B, whichever asks first; every one is forced.
  for (const code of ['source_unreachable', 'source_timeout', 'source_not_html']) {
    await force(a, { job: 'topicSearch', outcome: { fail: code } });
    assert.deepEqual(await ana.ended(await ana.search()), { status: 'FAILED', code });
  }
  assert.equal(await sql(database, 'SELECT count(*) FROM video_plugin.test_outcomes'), '0', 'each one taken');
  // The next job, nothing queued, is not forced.
  assert.deepEqual(await ana.ended(await ana.search()), { status: 'COMPLETE', code: undefined });
});

test(
  "a generation's and a render's outcomes queued on one process are taken by the jobs requested on the other",
  skip,
  async () => {
    const [a, b] = await pair();
    const ana = await user(a, 'ana');
    const topicId = await ana.search();
    assert.deepEqual(await ana.ended(topicId), { status: 'COMPLETE', code: undefined });
    /** A generation requested on `on`: its video, and how it ended. */
    const generate = async (on: RunningService) => {
      const started = await api(on, 'POST', '/api/generations', {
        session: ana.session,
        body: { topicId, aspectRatio: '16:9', duration: 15 },
      });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      const { requestId, videoId } = started.body as { requestId: string; videoId: string };
      await statusesUntilFinal(ana.stream, 'generation', (data) => data.requestId === requestId);
      const { body } = await api(a, 'GET', `/api/generations/${requestId}`, { session: ana.session });
      return { videoId, ended: { status: body.generation.status, code: body.generation.error?.code } };
    };
    await force(a, { job: 'generation', outcome: { fail: 'generation_failed' } });
    assert.deepEqual((await generate(b)).ended, { status: 'FAILED', code: 'generation_failed' });
    const { videoId, ended } = await generate(b);
    assert.deepEqual(ended, { status: 'COMPLETE', code: undefined });
    await force(b, { job: 'render', outcome: { fail: 'storage_full' } });
    const completed = await api(a, 'POST', `/api/videos/${videoId}/complete`, { session: ana.session });
    assert.equal(completed.status, 200, JSON.stringify(completed.body));
    const { data } = await ana.stream.next(
      (event) =>
        event.event === 'video' &&
        event.data.id === videoId &&
        ['COMPLETE', 'FAILED'].includes(event.data.renders[0]?.status),
    );
    assert.equal(data.renders[0].status, 'FAILED');
    assert.equal(data.renders[0].error.code, 'storage_full');
  },
);

test('outcomes queued on A then on B are taken in that order by the next two jobs', skip, async () => {
  const [a, b] = await pair();
  await force(a, { job: 'topicSearch', outcome: { fail: 'source_unreachable' } });
  await force(b, { job: 'topicSearch', outcome: { fail: 'source_timeout' } });
  // A generation's outcome waits for a generation: a search does not take it.
  await force(b, { job: 'generation', outcome: { fail: 'generation_failed' } });
  const ana = await user(a, 'ana');
  const first = await ana.search(b);
  assert.deepEqual(await ana.ended(first), { status: 'FAILED', code: 'source_unreachable' });
  const second = await ana.search(a);
  assert.deepEqual(await ana.ended(second), { status: 'FAILED', code: 'source_timeout' });
  assert.deepEqual(await ana.ended(await ana.search(b)), { status: 'COMPLETE', code: undefined });
  // Cleared: only the generation's was left.
  assert.deepEqual(await release(a), { cleared: 1, released: 0 });
});

test("an account's outcome is taken by that account's job only, on any process", skip, async () => {
  const [a, b] = await pair();
  const ana = await user(a, 'ana');
  const bob = await user(b, 'bob');
  await force(a, { job: 'topicSearch', account: 'ana', outcome: { fail: 'source_http_error' } });
  assert.deepEqual(await bob.ended(await bob.search()), { status: 'COMPLETE', code: undefined });
  assert.deepEqual(await ana.ended(await ana.search(b)), { status: 'FAILED', code: 'source_http_error' });
  assert.deepEqual(await ana.ended(await ana.search(a)), { status: 'COMPLETE', code: undefined });
});

/**
 * Forces a stall of the next search at `reading_page` on `via`, starts one, and resolves once it
 * holds there (a search started after it has completed meanwhile): the process that runs it, and
 * the other.
 */
async function stalled(
  a: RunningService,
  b: RunningService,
  via: RunningService,
  ana: Awaited<ReturnType<typeof user>>,
) {
  await force(via, { job: 'topicSearch', outcome: { stall: 'reading_page' } });
  const held = await ana.search(b);
  await within(
    ana.stream.next(
      (event) => event.event === 'topic' && event.data.id === held && event.data.progress.stage === 'reading_page',
    ),
    30_000,
    'the search at reading_page',
  );
  // A search started after it runs to its end, while it still holds.
  assert.deepEqual(await ana.ended(await ana.search(a)), { status: 'COMPLETE', code: undefined });
  const { body } = await api(a, 'GET', `/api/topics/${held}`, { session: ana.session });
  assert.equal(body.topic.status, 'PROCESSING');
  assert.equal(body.topic.progress.stage, 'reading_page');
  const running = [a, b].filter((service) => service.stats().jobs === 1);
  assert.equal(running.length, 1, 'it runs on one of them');
  return { held, running: running[0]!, other: a === running[0] ? b : a };
}

test(
  'a stall forced via A holds on whichever process runs it; a release there or on the other lets it go on',
  skip,
  async () => {
    const [a, b] = await pair();
    const ana = await user(a, 'ana');
    // Released by the other process: its answer counts its own jobs (none), and the job goes on.
    const first = await stalled(a, b, a, ana);
    assert.deepEqual(await release(first.other), { cleared: 0, released: 0 });
    assert.deepEqual(await ana.ended(first.held), { status: 'COMPLETE', code: undefined });
    // Released by the process that runs it: counted, and answered once the job has gone on.
    const second = await stalled(a, b, b, ana);
    assert.deepEqual(await release(second.running), { cleared: 0, released: 1 });
    assert.deepEqual(await ana.ended(second.held), { status: 'COMPLETE', code: undefined });
  },
);

test('a release on B clears what was queued on A: the next job is not forced', skip, async () => {
  const [a, b, database] = await pair();
  await force(a, { job: 'topicSearch', outcome: { fail: 'source_unreachable' } });
  await force(a, { job: 'topicSearch', account: 'ana', outcome: { stall: 'reading_page' } });
  assert.deepEqual(await release(b), { cleared: 2, released: 0 });
  assert.equal(await sql(database, 'SELECT count(*) FROM video_plugin.test_outcomes'), '0');
  const ana = await user(a, 'ana');
  assert.deepEqual(await ana.ended(await ana.search(a)), { status: 'COMPLETE', code: undefined });
  assert.deepEqual(await ana.ended(await ana.search(b)), { status: 'COMPLETE', code: undefined });
  // In-process, every partner's at once, the same way.
  a.testControls.force(PARTNER, { job: 'topicSearch', outcome: { fail: 'source_unreachable' } });
  assert.deepEqual(await b.testControls.release(), { cleared: 1, released: 0 });
  assert.deepEqual(await ana.ended(await ana.search(b)), { status: 'COMPLETE', code: undefined });
});

test(
  'a process without --test-controls refuses the routes, and its jobs take the shared outcomes like any other',
  skip,
  async () => {
    const { start } = await place();
    const a = await start();
    const b = await start({ testControls: false });
    const refused = await api(b, 'POST', '/api/test/outcomes', {
      body: { job: 'topicSearch', outcome: { fail: 'source_unreachable' } },
      headers: await backEnd(),
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'test_controls_off');
    // Bad input is refused on a process with them as with one process: the field named, nothing queued.
    const bad = await api(a, 'POST', '/api/test/outcomes', {
      body: { job: 'topicSearch', outcome: { fail: 'render_failed' } },
      headers: await backEnd(),
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.data.field, 'outcome.fail');
    await force(a, { job: 'topicSearch', outcome: { fail: 'source_timeout' } });
    const ana = await user(b, 'ana');
    assert.deepEqual(await ana.ended(await ana.search()), { status: 'FAILED', code: 'source_timeout' });
  },
);

test('a sandbox reset on B removes the outcomes its tests queued on A', skip, async () => {
  const operatorKey = 'controls-pg-test-operator-key-0123456789abcdef';
  const [a, b, database] = await pair({ sandboxes: { operatorKey } });
  const sandbox = await a.createSandbox();
  const answer = await api(a, 'POST', '/api/test/outcomes', {
    body: { job: 'generation', outcome: { fail: 'generation_failed' } },
    headers: await backEnd(sandbox.partnerID, sandbox.webhookSecret),
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  assert.equal(await sql(database, 'SELECT count(*) FROM video_plugin.test_outcomes'), '1');
  await b.resetSandbox(sandbox.partnerID);
  assert.equal(await sql(database, 'SELECT count(*) FROM video_plugin.test_outcomes'), '0');
});

test(
  'a database at the previous schema (4) is upgraded: its records are kept, and outcomes are shared',
  skip,
  async () => {
    const { database, start } = await place();
    const before = await start();
    await createAccount(before, { externalID: 'kept' });
    await before.close();
    // What a service of schema 4 left: no table of outcomes.
    await sql(database, 'DROP TABLE video_plugin.test_outcomes; UPDATE video_plugin.schema_version SET version = 4');
    assert.equal(SCHEMA_VERSION, 5);
    const [a, b] = [await start(), await start()];
    assert.equal(await sql(database, 'SELECT version FROM video_plugin.schema_version'), '5');
    assert.equal((await login(b, { externalID: 'kept' })).status, 200);
    await force(a, { job: 'topicSearch', outcome: { fail: 'source_unreachable' } });
    const kept = await user(b, 'again');
    assert.deepEqual(await kept.ended(await kept.search()), { status: 'FAILED', code: 'source_unreachable' });
  },
);
