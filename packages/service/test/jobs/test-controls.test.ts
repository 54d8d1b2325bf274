// The test controls (issue 41, part 3): with --test-controls a partner's back end forces its next
// job's outcome through POST /api/test/outcomes (or service.testControls in-process): every
// documented failure code, a stall at a named stage, a given time. Without the flag every request
// is refused with 403 test_controls_off; bad requests name the field and the allowed values, and
// change nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseCommandLine, UsageError, USAGE } from '../../src/command-line.js';
import { LIMIT_NAMES } from '../../src/limit-values.js';
import { FAILURE_CODES, stallStages, TEST_JOBS } from '../../src/jobs/test-controls.js';
import type { RunningService, ServiceOptions } from '../../src/server.js';
import {
  EventStream,
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

/** A source page without images: a topic search reads it and is COMPLETE. */
const source = await serve((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><title>Acme Bikes</title><p>Bikes and parts for every road since 1999.</p>');
});

/** No budget gets in the way of the many jobs these tests start. */
const NO_LIMITS = Object.fromEntries(LIMIT_NAMES.map((name) => [name, false])) as ServiceOptions['limits'];

function controlled(options: ServiceOptions = {}): Promise<RunningService> {
  return startTestService({
    testControls: true,
    limits: NO_LIMITS,
    partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }],
    ...options,
  });
}

async function force(service: RunningService, body: unknown) {
  return api(service, 'POST', '/api/test/outcomes', { body, headers: await backEnd() });
}

/** One account, its status stream, and the steps of the three kinds of job. */
async function user(service: RunningService, account: Record<string, string> = {}) {
  const { session, account: created } = await createAccount(service, account);
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  const steps = {
    session,
    stream,
    account: created,
    async search(): Promise<string> {
      const { status, body } = await api(service, 'POST', '/api/topics', {
        session,
        body: { sourceURL: `${source}/shop` },
      });
      assert.equal(status, 202, JSON.stringify(body));
      return body.topicId;
    },
    async topic(): Promise<string> {
      const topicId = await steps.search();
      assert.deepEqual((await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId)).at(-1), 'COMPLETE');
      return topicId;
    },
    async generate(topicId: string): Promise<{ requestId: string; videoId: string }> {
      const { status, body } = await api(service, 'POST', '/api/generations', {
        session,
        body: { topicId, aspectRatio: '16:9', duration: 15 },
      });
      assert.equal(status, 202, JSON.stringify(body));
      return body;
    },
    async video(): Promise<string> {
      const { requestId, videoId } = await steps.generate(await steps.topic());
      const statuses = await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
      assert.equal(statuses.at(-1), 'COMPLETE');
      return videoId;
    },
    async complete(videoId: string): Promise<void> {
      const { status, body } = await api(service, 'POST', `/api/videos/${videoId}/complete`, { session });
      assert.equal(status, 200, JSON.stringify(body));
    },
    /** The render's final status, from the stream. */
    async rendered(videoId: string) {
      const { data } = await stream.next(
        (event) =>
          event.event === 'video' &&
          event.data.id === videoId &&
          ['COMPLETE', 'FAILED'].includes(event.data.renders[0]?.status),
      );
      return data.renders[0];
    },
  };
  return steps;
}

const service = await controlled();

describe('forced failures', () => {
  test('every job failure code documented in docs/service.md can be forced, on the job it belongs to', () => {
    const docs = readFileSync(new URL('../../../../docs/service.md', import.meta.url), 'utf8');
    // The table under "Status error codes", up to its end (the first blank line).
    const start = docs.indexOf('| Code', docs.indexOf('Status error codes'));
    const table = docs.slice(start, docs.indexOf('\n\n', start));
    const documented = new Set([...table.matchAll(/^\| `([a-z_]+)`/gm)].map(([, code]) => code));
    // Not a job's outcome: the one FAILED update a subscription to an unknown ID gets.
    documented.delete('topic_not_found');
    assert.ok(documented.size >= 7, [...documented].join());
    assert.deepEqual(new Set(Object.values(FAILURE_CODES).flat()), documented);
  });

  for (const job of TEST_JOBS) {
    for (const code of FAILURE_CODES[job]) {
      test(`a ${job} forced to fail with ${code} is FAILED with that code in the API`, async () => {
        const steps = await user(service);
        // Set up what the job needs before queueing: the outcome goes to the next job of its kind.
        const videoId = job === 'render' ? await steps.video() : undefined;
        const topicId = job === 'generation' ? await steps.topic() : undefined;
        const forced = await force(service, { job, outcome: { fail: code } });
        assert.equal(forced.status, 201, JSON.stringify(forced.body));
        assert.deepEqual(forced.body, { queued: { job, outcome: { fail: code } } });
        if (job === 'topicSearch') {
          const id = await steps.search();
          assert.deepEqual(await statusesUntilFinal(steps.stream, 'topic', (data) => data.id === id), [
            'PENDING',
            'PROCESSING',
            'FAILED',
          ]);
          const { topic } = (await api(service, 'GET', `/api/topics/${id}`, { session: steps.session })).body;
          assert.equal(topic.status, 'FAILED');
          assert.equal(topic.error.code, code);
          assert.match(topic.error.message, /^Forced by the test controls: /);
          assert.equal(topic.progress.stage, 'reading_page');
        } else if (job === 'generation') {
          const { requestId } = await steps.generate(topicId!);
          const statuses = await statusesUntilFinal(steps.stream, 'generation', (data) => data.requestId === requestId);
          assert.deepEqual(statuses, ['PENDING', 'PROCESSING', 'FAILED']);
          const { generation } = (
            await api(service, 'GET', `/api/generations/${requestId}`, { session: steps.session })
          ).body;
          assert.equal(generation.status, 'FAILED');
          assert.equal(generation.error.code, code);
          assert.equal(generation.progress.stage, 'writing_storyboard');
        } else {
          await steps.complete(videoId!);
          assert.equal((await steps.rendered(videoId!)).status, 'FAILED');
          const { video } = (await api(service, 'GET', `/api/videos/${videoId}`, { session: steps.session })).body;
          assert.equal(video.renders[0].status, 'FAILED');
          assert.equal(video.renders[0].error.code, code);
        }
      });
    }
  }

  test('an outcome is taken once, by the next job of its kind: the job after it runs as usual', async () => {
    const steps = await user(service);
    await force(service, { job: 'topicSearch', outcome: { fail: 'source_timeout' } });
    const failed = await steps.search();
    assert.equal((await statusesUntilFinal(steps.stream, 'topic', (data) => data.id === failed)).at(-1), 'FAILED');
    const next = await steps.search();
    assert.equal((await statusesUntilFinal(steps.stream, 'topic', (data) => data.id === next)).at(-1), 'COMPLETE');
  });

  test("an outcome for one account (its external ID) waits for that account's job; others' jobs pass it by", async () => {
    const other = await user(service, { externalID: 'other-user' });
    const target = await user(service, { externalID: 'target-user' });
    await force(service, { job: 'topicSearch', account: 'target-user', outcome: { fail: 'source_not_html' } });
    const passed = await other.search();
    assert.equal((await statusesUntilFinal(other.stream, 'topic', (data) => data.id === passed)).at(-1), 'COMPLETE');
    const hit = await target.search();
    assert.equal((await statusesUntilFinal(target.stream, 'topic', (data) => data.id === hit)).at(-1), 'FAILED');
    const { topic } = (await api(service, 'GET', `/api/topics/${hit}`, { session: target.session })).body;
    assert.equal(topic.error.code, 'source_not_html');
    // An account is also named by its ID (an account made by the studio's sign-in has no external ID).
    await force(service, { job: 'topicSearch', account: target.account.id, outcome: { fail: 'source_http_error' } });
    const byID = await target.search();
    assert.equal((await statusesUntilFinal(target.stream, 'topic', (data) => data.id === byID)).at(-1), 'FAILED');
    const { topic: again } = (await api(service, 'GET', `/api/topics/${byID}`, { session: target.session })).body;
    assert.equal(again.error.code, 'source_http_error');
  });

  test('the in-process twin queues the same outcomes: service.testControls.force', async () => {
    const steps = await user(service);
    const topicId = await steps.topic();
    service.testControls.force(PARTNER, { job: 'generation', outcome: { fail: 'storage_full' } });
    const { requestId } = await steps.generate(topicId);
    await statusesUntilFinal(steps.stream, 'generation', (data) => data.requestId === requestId);
    const { generation } = (await api(service, 'GET', `/api/generations/${requestId}`, { session: steps.session }))
      .body;
    assert.equal(generation.error.code, 'storage_full');
    assert.throws(
      () => service.testControls.force(PARTNER, { job: 'render', outcome: { fail: 'source_timeout' } } as never),
      (error: { code: string; data: { field: string; allowed: string[] } }) =>
        error.code === 'invalid_parameter' &&
        error.data.field === 'outcome.fail' &&
        error.data.allowed.join() === 'render_failed,storage_full,media_store_unavailable',
    );
  });
});

describe('refusals', () => {
  test('without --test-controls every test route and the in-process twin answer test_controls_off, before any authentication', async () => {
    const off = await startTestService({
      partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] }],
    });
    assert.equal(off.testControls.enabled, false);
    for (const [method, path, body] of [
      ['POST', '/api/test/outcomes', { job: 'topicSearch', outcome: { fail: 'source_timeout' } }],
      ['DELETE', '/api/test/outcomes', undefined],
      ['POST', '/api/test/clock/advance', { ms: 100 }],
    ] as const) {
      for (const headers of [await backEnd(), {}]) {
        const refused = await api(off, method, path, { body, headers });
        assert.equal(refused.status, 403, `${method} ${path}`);
        assert.equal(refused.body.error.code, 'test_controls_off');
        assert.match(refused.body.error.message, path.includes('clock') ? /--clock manual/ : /--test-controls/);
      }
    }
    assert.throws(
      () => off.testControls.force(PARTNER, { job: 'topicSearch', outcome: { takeMs: 1 } }),
      (error: { code: string }) => error.code === 'test_controls_off',
    );
    await assert.rejects(off.clock.advance(10), (error: { code: string }) => error.code === 'test_controls_off');
    // And nothing was forced: the next search reads its page.
    const steps = await user(off);
    const topicId = await steps.search();
    assert.equal((await statusesUntilFinal(steps.stream, 'topic', (data) => data.id === topicId)).at(-1), 'COMPLETE');
  });

  test('an unknown failure code or stage answers 400 naming the allowed ones for that job', async () => {
    for (const job of TEST_JOBS) {
      const code = await force(service, { job, outcome: { fail: 'disk_on_fire' } });
      assert.equal(code.status, 400);
      assert.equal(code.body.error.code, 'invalid_parameter');
      assert.equal(code.body.error.data.field, 'outcome.fail');
      assert.deepEqual(code.body.error.data.allowed, [...FAILURE_CODES[job]]);
      for (const allowed of FAILURE_CODES[job]) assert.ok(code.body.error.message.includes(allowed));

      const stage = await force(service, { job, outcome: { stall: 'sleeping' } });
      assert.equal(stage.status, 400);
      assert.equal(stage.body.error.data.field, 'outcome.stall');
      assert.deepEqual(stage.body.error.data.allowed, [...stallStages(job, 'placeholder')]);
      assert.match(stage.body.error.message, /"sleeping"/);
    }
    // A code of another job is refused for this one.
    const misplaced = await force(service, { job: 'topicSearch', outcome: { fail: 'storage_full' } });
    assert.equal(misplaced.body.error.data.field, 'outcome.fail');
  });

  test('bad body fields are named, and nothing is queued', async () => {
    const cases: [body: unknown, field: string][] = [
      [{ job: 'upload', outcome: { fail: 'render_failed' } }, 'job'],
      [{ outcome: { fail: 'render_failed' } }, 'job'],
      [{ job: 'render' }, 'outcome'],
      [{ job: 'render', outcome: {} }, 'outcome'],
      [{ job: 'render', outcome: { fail: 'render_failed', takeMs: 10 } }, 'outcome'],
      [{ job: 'render', outcome: { explode: true } }, 'outcome.explode'],
      [{ job: 'render', outcome: { takeMs: -1 } }, 'outcome.takeMs'],
      [{ job: 'render', outcome: { takeMs: 1.5 } }, 'outcome.takeMs'],
      [{ job: 'render', outcome: { takeMs: 600_001 } }, 'outcome.takeMs'],
      [{ job: 'render', account: '', outcome: { takeMs: 10 } }, 'account'],
      [{ job: 'render', outcome: { takeMs: 10 }, partnerID: 'other' }, 'partnerID'],
    ];
    for (const [body, field] of cases) {
      const refused = await force(service, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error.code, 'invalid_parameter');
      assert.equal(refused.body.error.data.field, field, `${JSON.stringify(body)}: ${refused.body.error.message}`);
    }
    assert.deepEqual((await api(service, 'DELETE', '/api/test/outcomes', { headers: await backEnd() })).body, {
      cleared: 0,
      released: 0,
    });
  });

  test('the test channel needs the partner back end: no token, the partner secret or another partner is refused', async () => {
    const body = { job: 'topicSearch', outcome: { fail: 'source_timeout' } };
    const none = await api(service, 'POST', '/api/test/outcomes', { body });
    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'not_authenticated');
    const tokenSecret = await api(service, 'POST', '/api/test/outcomes', {
      body,
      headers: await backEnd(PARTNER, SECRET),
    });
    assert.equal(tokenSecret.body.error.code, 'token_bad_signature');
    const unknown = await api(service, 'POST', '/api/test/outcomes', { body, headers: await backEnd('nobody') });
    assert.equal(unknown.body.error.code, 'token_unknown_issuer');
  });
});

describe('the command line', () => {
  test('--test-controls and --clock manual become the options; another clock is refused', () => {
    assert.deepEqual(
      (parseCommandLine(['--test-controls', '--clock', 'manual']) as { options: ServiceOptions }).options,
      {
        partners: [
          {
            id: 'demo-partner',
            secret: (parseCommandLine([]) as { options: ServiceOptions }).options.partners![0]!.secret,
          },
        ],
        testControls: true,
        clock: 'manual',
      },
    );
    assert.equal((parseCommandLine([]) as { options: ServiceOptions }).options.testControls, undefined);
    assert.throws(
      () => parseCommandLine(['--clock', 'fast']),
      (error) => error instanceof UsageError && /--clock must be real or manual/.test(error.message),
    );
    assert.match(USAGE, /--test-controls/);
    assert.match(USAGE, /--clock real\|manual/);
  });
});
