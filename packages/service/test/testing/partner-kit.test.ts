// video-plugin/testing (issue 41, part 5) against the real local service, as a partner's Node test
// suite uses it: a sandbox per test over HTTP (the operator key), users signed in with tokens the
// sandbox mints, a topic search and a generation followed on the status stream, forced failures
// that fail a wait at once with their code, the step clock with no sleep and no polling, and the
// refusals a partner's first mistakes meet.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidParameterError } from '../../../../src/errors.js';
import {
  createSandbox,
  EventsError,
  sandboxFixtures,
  StatusWaitError,
  waitForStatus,
  type TestSandbox,
} from '../../../../src/testing/index.js';
import { serve, startTestService } from '../support/helpers.js';

const OPERATOR_KEY = 'operator-key-of-the-partner-kit-test-0123456789';
const JOB_MS = 5000;

const source = await serve((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><title>Acme Bikes</title><p>Bikes and parts for every road since 1999.</p>');
});

/** One shared service for the file: sandboxes over HTTP, the test controls and the step clock. */
const service = await startTestService({
  jobMs: JOB_MS,
  clock: 'manual',
  testControls: true,
  allowPrivateSources: true,
  sandboxes: { operatorKey: OPERATOR_KEY },
});
const options = { serviceURL: service.url, operatorKey: OPERATOR_KEY };

/** Advances the sandbox's clock a job's time at a time until `done` settles. */
const drive = <T>(sandbox: TestSandbox, done: Promise<T>): Promise<T> => sandbox.advanceUntil(done, { stepMs: JOB_MS });

describe('video-plugin/testing', () => {
  test('a sandbox per test: a user signs in, searches and generates, each step followed on the status stream', async () => {
    const sandbox = await createSandbox(options);
    try {
      assert.match(sandbox.partnerID, /^sandbox_/);
      const user = await sandbox.signIn('user-1');
      const { topicId } = await user.api<{ topicId: string }>('POST', '/api/topics', { sourceURL: source });
      const topic = await drive(sandbox, user.waitForStatus('topic', topicId, 'COMPLETE'));
      assert.equal(topic.status, 'COMPLETE');
      const { requestId, videoId } = await user.api<{ requestId: string; videoId: string }>(
        'POST',
        '/api/generations',
        {
          topicId,
          aspectRatio: '16:9',
          duration: 15,
          language: 'en-US',
          metadata: { orderId: 'ord-1' },
        },
      );
      await drive(sandbox, user.waitForStatus('generation', requestId, 'COMPLETE'));
      await user.api('POST', `/api/videos/${videoId}/complete`);
      await drive(sandbox, user.waitForStatus('render', videoId, 'COMPLETE'));
      const video = await user.api<{ video: { metadata?: unknown } }>('GET', `/api/videos/${videoId}`);
      assert.deepEqual(video.video.metadata, { orderId: 'ord-1' });
    } finally {
      await sandbox.reset();
    }
  });

  test('a forced failure fails the wait at once with the job error, and a stall holds until released', async () => {
    const sandbox = await createSandbox(options);
    try {
      const user = await sandbox.signIn('user-2');
      await sandbox.forceOutcome({ job: 'topicSearch', outcome: { fail: 'source_unreachable' } });
      const { topicId } = await user.api<{ topicId: string }>('POST', '/api/topics', { sourceURL: source });
      const failed = await drive(sandbox, user.waitForStatus('topic', topicId, 'COMPLETE')).catch(
        (error: unknown) => error,
      );
      assert.ok(failed instanceof StatusWaitError, String(failed));
      assert.equal(failed.last?.status, 'FAILED');
      assert.equal(failed.last?.error?.code, 'source_unreachable');
      assert.match(failed.message, /ended FAILED \(source_unreachable/);

      await sandbox.forceOutcome({ job: 'topicSearch', outcome: { stall: 'finishing' } });
      const stalled = await user.api<{ topicId: string }>('POST', '/api/topics', { sourceURL: source });
      const done = user.waitForStatus('topic', stalled.topicId, 'COMPLETE');
      for (let step = 0; step < 5; step++) await sandbox.advanceClock(JOB_MS);
      const held = await user.api<{ topic: { status: string } }>('GET', `/api/topics/${stalled.topicId}`);
      assert.equal(held.topic.status, 'PROCESSING');
      await sandbox.releaseOutcomes();
      assert.equal((await drive(sandbox, done)).status, 'COMPLETE');
    } finally {
      await sandbox.reset();
    }
  });

  test('two sandboxes are apart, and a reset one refuses its tokens with sandbox_expired', async () => {
    const first = await createSandbox(options);
    const second = await createSandbox(options);
    try {
      const one = await first.signIn('same-user');
      const other = await second.signIn('same-user');
      assert.notEqual(one.accountID, other.accountID);
      const { topicId } = await one.api<{ topicId: string }>('POST', '/api/topics', { sourceURL: source });
      const foreign = await other.api('GET', `/api/topics/${topicId}`).catch((error: unknown) => error);
      assert.ok(foreign instanceof EventsError && foreign.status === 404, String(foreign));
      await first.reset();
      const after = await one.api('GET', '/api/videos').catch((error: unknown) => error);
      assert.ok(after instanceof EventsError, String(after));
      assert.equal(after.code, 'sandbox_expired');
      await first.reset(); // ending it again is not an error
      assert.equal((await other.api<{ videos: unknown[] }>('GET', '/api/videos')).videos.length, 0);
    } finally {
      await second.reset();
    }
  });

  test('sandboxFixtures gives Playwright a sandbox per test and resets it after, even when the test fails', async () => {
    const fixtures = sandboxFixtures(options);
    let seen: TestSandbox | undefined;
    const failure = await fixtures
      .sandbox({}, async (sandbox) => {
        seen = sandbox;
        await sandbox.signIn('fixture-user');
        throw new Error('the test failed');
      })
      .catch((error: unknown) => error);
    assert.equal((failure as Error).message, 'the test failed');
    assert.ok(seen);
    const ended = await seen.signIn('fixture-user').catch((error: unknown) => error);
    assert.ok(ended instanceof EventsError && ended.code === 'sandbox_expired', String(ended));
  });

  test('waitForStatus takes any status iterator (the SDK’s own) and says why it stopped', async () => {
    async function* updates(...statuses: { status: string; error?: { code: string; message: string } }[]) {
      yield* statuses;
    }
    assert.equal(
      (await waitForStatus(updates({ status: 'PENDING' }, { status: 'COMPLETE' }), 'COMPLETE')).status,
      'COMPLETE',
    );
    assert.equal(
      (await waitForStatus(updates({ status: 'PROCESSING' }), ['PROCESSING', 'COMPLETE'])).status,
      'PROCESSING',
    );
    await assert.rejects(waitForStatus(updates({ status: 'PENDING' }), 'COMPLETE', 'the search'), {
      name: 'StatusWaitError',
      message: 'the status updates of the search ended at PENDING, before COMPLETE.',
    });
    await assert.rejects(waitForStatus(updates({ status: 'COMPLETE' }), 'FAILED'), {
      message: /ended COMPLETE, not FAILED/,
    });
  });

  test('mistakes are named: bad options, a wrong operator key, unknown outcomes', async () => {
    await assert.rejects(createSandbox({ ...options, serviceURL: 'ftp://x' }), (error: unknown) => {
      assert.ok(error instanceof InvalidParameterError);
      assert.match(error.message, /serviceURL/);
      return true;
    });
    await assert.rejects(createSandbox({ ...options, operatorKey: 'not-the-operator-key-0123456789abcdef' }), {
      name: 'EventsError',
      code: 'not_authenticated',
    });
    await assert.rejects(createSandbox({ ...options, webhookURLs: ['not a url'] }), {
      code: 'invalid_parameter',
    });
    const sandbox = await createSandbox(options);
    try {
      await assert.rejects(
        sandbox.forceOutcome({ job: 'topicSearch', outcome: { fail: 'no_such_code' } }),
        (error: unknown) => {
          assert.ok(error instanceof EventsError && error.code === 'invalid_parameter');
          assert.match(error.message, /source_unreachable/); // the allowed codes are named
          return true;
        },
      );
    } finally {
      await sandbox.reset();
    }
  });

  test('a service without sandboxes or test controls says so', async () => {
    const plain = await startTestService({});
    await assert.rejects(createSandbox({ serviceURL: plain.url, operatorKey: OPERATOR_KEY }), {
      code: 'sandboxes_disabled',
    });
    const unreachable = await createSandbox({ serviceURL: 'http://127.0.0.1:9', operatorKey: OPERATOR_KEY }).catch(
      (error: unknown) => error,
    );
    assert.ok(unreachable instanceof EventsError && unreachable.code === 'service_unreachable', String(unreachable));
  });
});
