// The step clock (issue 41, part 4) and the forced stalls and durations it makes testable without
// waiting: with --clock manual the jobs' timed steps move only when the test advances the clock
// (service.clock.advance, POST /api/test/clock/advance), each partner's time apart, and an advance
// resolves once the steps it released are saved. No test here sleeps or polls: each reads the
// records once, right after an advance.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LIMIT_NAMES } from '../../src/limit-values.js';
import { stallStages, TEST_JOBS, type TestJob } from '../../src/jobs/test-controls.js';
import type { ServiceOptions } from '../../src/server.js';
import {
  EventStream,
  OTHER,
  OTHER_SECRET,
  PARTNER,
  SECRET,
  WEBHOOK_SECRET,
  api,
  backEnd,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';

const OTHER_WEBHOOK_SECRET = 'other-partner-webhook-secret-0123456789abcdef';
const JOB_MS = 5000;

const source = await serve((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><title>Acme Bikes</title><p>Bikes and parts for every road since 1999.</p>');
});

const NO_LIMITS = Object.fromEntries(LIMIT_NAMES.map((name) => [name, false])) as ServiceOptions['limits'];

/** A service on the step clock with jobs of 5 s, the test controls on, and two partners. */
const service = await startTestService({
  clock: 'manual',
  testControls: true,
  jobMs: JOB_MS,
  limits: NO_LIMITS,
  partners: [
    { id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] },
    { id: OTHER, secret: OTHER_SECRET, webhookSecrets: [OTHER_WEBHOOK_SECRET] },
  ],
});

/** An account of `partnerID`'s and the calls a test makes with it, each read once. */
async function user(partnerID = PARTNER, secret = SECRET) {
  const { session } = await createAccount(service, {}, partnerID, secret);
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await api(service, method, path, { session, ...(body === undefined ? {} : { body }) });
    assert.ok(result.status < 300, `${method} ${path}: ${JSON.stringify(result.body)}`);
    return result.body;
  };
  const steps = {
    search: async (): Promise<string> => (await call('POST', '/api/topics', { sourceURL: `${source}/shop` })).topicId,
    topic: async (id: string) => (await call('GET', `/api/topics/${id}`)).topic,
    generate: async (topicId: string): Promise<{ requestId: string; videoId: string }> =>
      call('POST', '/api/generations', { topicId, aspectRatio: '16:9', duration: 15 }),
    generation: async (id: string) => (await call('GET', `/api/generations/${id}`)).generation,
    complete: async (videoId: string) => call('POST', `/api/videos/${videoId}/complete`),
    render: async (videoId: string) => (await call('GET', `/api/videos/${videoId}`)).video.renders[0],
    /** A COMPLETE topic, on the step clock. */
    async completeTopic(): Promise<string> {
      const id = await steps.search();
      await service.clock.advance(JOB_MS, { partnerID });
      assert.equal((await steps.topic(id)).status, 'COMPLETE');
      return id;
    },
    /** A video whose generation is COMPLETE, on the step clock. */
    async video(): Promise<string> {
      const { requestId, videoId } = await steps.generate(await steps.completeTopic());
      await service.clock.advance(JOB_MS, { partnerID });
      assert.equal((await steps.generation(requestId)).status, 'COMPLETE');
      return videoId;
    },
  };
  return steps;
}

describe('the step clock', () => {
  test('search, generate and complete a video: each job moves only when the clock is advanced, with no sleep and no polling', async () => {
    const wall = Date.now();
    const steps = await user();
    const topicId = await steps.search();
    assert.equal((await steps.topic(topicId)).status, 'PENDING');
    assert.ok(service.clock.waiting(PARTNER) >= 1);
    await service.clock.advance(JOB_MS - 1, { partnerID: PARTNER });
    const reading = await steps.topic(topicId);
    assert.equal(reading.status, 'PROCESSING');
    assert.equal(reading.title, 'Acme Bikes');
    await service.clock.advance(1, { partnerID: PARTNER });
    assert.equal((await steps.topic(topicId)).status, 'COMPLETE');

    const { requestId, videoId } = await steps.generate(topicId);
    assert.equal((await steps.generation(requestId)).status, 'PENDING');
    // The HTTP twin, for tests out of process: the caller's partner's clock.
    const advanced = await api(service, 'POST', '/api/test/clock/advance', {
      body: { ms: JOB_MS - 1 },
      headers: await backEnd(),
    });
    assert.equal(advanced.status, 200, JSON.stringify(advanced.body));
    assert.ok(advanced.body.released > 0);
    assert.equal(advanced.body.waiting, 1);
    assert.equal((await steps.generation(requestId)).status, 'PROCESSING');
    const last = await api(service, 'POST', '/api/test/clock/advance', { body: { ms: 1 }, headers: await backEnd() });
    assert.deepEqual(last.body, { released: 1, waiting: 0 });
    assert.deepEqual((await steps.generation(requestId)).status, 'COMPLETE');

    await steps.complete(videoId);
    assert.equal((await steps.render(videoId)).status, 'PROCESSING');
    await service.clock.advance(JOB_MS, { partnerID: PARTNER });
    const render = await steps.render(videoId);
    assert.equal(render.status, 'COMPLETE');
    assert.equal(render.url, `${service.url}/media/videos/${videoId}/render.svg`);
    // 15 s of job time went by on the clock; the real clock would have taken all of it.
    assert.ok(Date.now() - wall < 3 * JOB_MS, `${Date.now() - wall} ms`);
  });

  test("each partner has its own time: advancing one partner's clock leaves another's jobs where they are", async () => {
    const mine = await user();
    const theirs = await user(OTHER, OTHER_SECRET);
    const [myTopic, theirTopic] = [await mine.search(), await theirs.search()];
    const { released } = await service.clock.advance(JOB_MS, { partnerID: PARTNER });
    assert.ok(released > 0);
    assert.equal((await mine.topic(myTopic)).status, 'COMPLETE');
    assert.equal((await theirs.topic(theirTopic)).status, 'PENDING');
    assert.equal(service.clock.waiting(OTHER), 1);
    // The other partner's back end advances its own clock only.
    const other = await api(service, 'POST', '/api/test/clock/advance', {
      body: { ms: JOB_MS },
      headers: await backEnd(OTHER, OTHER_WEBHOOK_SECRET),
    });
    assert.equal(other.body.waiting, 0);
    assert.equal((await theirs.topic(theirTopic)).status, 'COMPLETE');
    // Without a partner, every partner's clock moves.
    const [a, b] = [await mine.search(), await theirs.search()];
    await service.clock.advance(JOB_MS);
    assert.equal((await mine.topic(a)).status, 'COMPLETE');
    assert.equal((await theirs.topic(b)).status, 'COMPLETE');
  });

  test('a bad advance is refused, naming ms', async () => {
    for (const body of [{}, { ms: -1 }, { ms: '100' }, { ms: 1.5 }, { ms: 86_400_001 }]) {
      const refused = await api(service, 'POST', '/api/test/clock/advance', { body, headers: await backEnd() });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error.data.field, 'ms');
    }
    const extra = await api(service, 'POST', '/api/test/clock/advance', {
      body: { ms: 1, partnerID: OTHER },
      headers: await backEnd(),
    });
    assert.equal(extra.body.error.data.field, 'partnerID');
    await assert.rejects(service.clock.advance(-5), (error: { data: { field: string } }) => error.data.field === 'ms');
    await assert.rejects(
      service.clock.advance(5, { partnerID: 'nobody' }),
      (error: { code: string }) => error.code === 'partner_not_found',
    );
    const anonymous = await api(service, 'POST', '/api/test/clock/advance', { body: { ms: 1 } });
    assert.equal(anonymous.status, 401);
  });
});

describe('forced stalls', () => {
  /** Starts a job of `job` (what it needs made first), and reads its record. */
  async function start(steps: Awaited<ReturnType<typeof user>>, job: TestJob) {
    if (job === 'topicSearch') {
      const id = await steps.search();
      return () => steps.topic(id);
    }
    if (job === 'generation') {
      const topicId = await steps.completeTopic();
      const { requestId } = await steps.generate(topicId);
      return () => steps.generation(requestId);
    }
    const videoId = await steps.video();
    await steps.complete(videoId);
    return () => steps.render(videoId);
  }

  for (const job of TEST_JOBS) {
    for (const stage of stallStages(job, 'placeholder')) {
      test(`a ${job} stalled at ${stage} stays there however far the clock goes, until the test releases it`, async () => {
        const steps = await user();
        // Outcomes are queued per kind of job: the topic search and generation a render needs
        // first do not take a render's stall.
        const forced = await api(service, 'POST', '/api/test/outcomes', {
          body: { job, outcome: { stall: stage } },
          headers: await backEnd(),
        });
        assert.equal(forced.status, 201, JSON.stringify(forced.body));
        const read = await start(steps, job);
        await service.clock.advance(10 * JOB_MS, { partnerID: PARTNER });
        const stalled = await read();
        assert.equal(stalled.progress.stage, stage);
        assert.equal(stalled.status, stage === 'queued' && job !== 'render' ? 'PENDING' : 'PROCESSING');
        assert.equal(service.clock.waiting(PARTNER), 0);

        const released = await api(service, 'DELETE', '/api/test/outcomes', { headers: await backEnd() });
        assert.deepEqual(released.body, { cleared: 0, released: 1 });
        await service.clock.advance(JOB_MS, { partnerID: PARTNER });
        const done = await read();
        assert.equal(done.status, 'COMPLETE');
        assert.deepEqual(done.progress, { stage: 'finishing', fraction: 1 });
      });
    }
  }

  test("stalls hold no fetch slot: the account's other searches go on", { timeout: 30_000 }, async () => {
    const steps = await user();
    // Two slots per account (the default): two searches stalled in them would hold up a third
    // for ever, and this advance would never resolve.
    service.testControls.force(PARTNER, { job: 'topicSearch', outcome: { stall: 'reading_page' } });
    service.testControls.force(PARTNER, { job: 'topicSearch', outcome: { stall: 'reading_page' } });
    const stalled = [await steps.search(), await steps.search()];
    const other = await steps.search();
    await service.clock.advance(JOB_MS, { partnerID: PARTNER });
    assert.equal((await steps.topic(other)).status, 'COMPLETE');
    for (const id of stalled) assert.equal((await steps.topic(id)).progress.stage, 'reading_page');
    assert.deepEqual(await service.testControls.release(PARTNER), { cleared: 0, released: 2 });
    await service.clock.advance(JOB_MS, { partnerID: PARTNER });
    for (const id of stalled) assert.equal((await steps.topic(id)).status, 'COMPLETE');
  });
});

describe('forced durations', () => {
  test('takeMs gives the next job of its kind that time instead of jobMs, on the step clock', async () => {
    const steps = await user();
    const topicId = await steps.completeTopic();
    service.testControls.force(PARTNER, { job: 'generation', outcome: { takeMs: 4 * JOB_MS } });
    const slow = await steps.generate(topicId);
    await service.clock.advance(JOB_MS, { partnerID: PARTNER });
    assert.equal((await steps.generation(slow.requestId)).status, 'PROCESSING');
    await service.clock.advance(3 * JOB_MS - 1, { partnerID: PARTNER });
    assert.equal((await steps.generation(slow.requestId)).status, 'PROCESSING');
    await service.clock.advance(1, { partnerID: PARTNER });
    assert.equal((await steps.generation(slow.requestId)).status, 'COMPLETE');

    service.testControls.force(PARTNER, { job: 'generation', outcome: { takeMs: 0 } });
    const instant = await steps.generate(topicId);
    await service.clock.advance(0, { partnerID: PARTNER });
    assert.equal((await steps.generation(instant.requestId)).status, 'COMPLETE');
  });

  test('and on the real clock: a search of a service whose jobs take 10 minutes ends in 50 ms', async () => {
    const real = await startTestService({
      testControls: true,
      jobMs: 600_000,
      partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }],
    });
    const { session } = await createAccount(real);
    const stream = await EventStream.open(real, session);
    await stream.next((event) => event.event === 'ready');
    real.testControls.force(PARTNER, { job: 'topicSearch', outcome: { takeMs: 50 } });
    const { body } = await api(real, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/shop` } });
    assert.deepEqual(await statusesUntilFinal(stream, 'topic', (data) => data.id === body.topicId), [
      'PENDING',
      'PROCESSING',
      'COMPLETE',
    ]);
  });
});
