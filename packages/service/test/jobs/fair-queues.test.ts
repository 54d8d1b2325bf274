// Fair queues (issue 41): topic searches are given their fetch slots fairly across partners and
// accounts, so one IP's accounts queuing searches of a site that never answers delay another
// user's search by at most one slot's time (it was 14.4 s instead of 0.2 s, first come first
// served); and an account's waiting jobs are capped, a refusal answering 429 naming the limit and
// changing nothing.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import { resolveConfig } from '../../src/config.js';
import { parseCommandLine } from '../../src/command-line.js';
import { DEFAULT_MAX_WAITING_JOBS, DEFAULT_SEARCH_SLOTS, WAITING_JOBS_LIMIT } from '../../src/limit-values.js';
import {
  EventStream,
  OTHER,
  OTHER_SECRET,
  TWO_PARTNERS,
  api,
  createAccount,
  serve,
  startTestService,
} from '../support/helpers.js';

/** How long a hanging fetch holds its slot: the service's fetch time limit, one slot's time. */
const SLOT_MS = 2000;
/** Room on top of one slot's time for a busy machine (first come first served took ~20 slot times). */
const SLACK_MS = 2000;

/**
 * A site whose `/hang` never answers (until the test answers it) and whose other paths answer a
 * small page at once; `hangs(count)` resolves once `count` requests of `/hang` have arrived in all.
 */
async function site(): Promise<{
  origin: string;
  hanging: Set<ServerResponse>;
  hangs: (count: number) => Promise<void>;
}> {
  const hanging = new Set<ServerResponse>();
  let arrivals = 0;
  let wake = () => {};
  const origin = await serve((req, res) => {
    if (req.url?.startsWith('/hang')) {
      arrivals++;
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      wake();
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Quick page</title>');
    }
  });
  const hangs = async (count: number) => {
    while (arrivals < count) await new Promise<void>((resolve) => (wake = resolve));
  };
  return { origin, hanging, hangs };
}

describe('fair topic search slots', () => {
  test(
    "six accounts' 180 searches of a site that never answers delay another account's search, and another partner's, by at most one slot's time",
    { timeout: 120_000 },
    async (t) => {
      const service = await startTestService({ jobMs: 0, fetchTimeoutMs: SLOT_MS, partners: TWO_PARTNERS });
      const { origin, hangs } = await site();
      const crowd = await Promise.all(
        Array.from(
          { length: 6 },
          async (_, index) => (await createAccount(service, { externalID: `crowd-${index}` })).session,
        ),
      );
      // The review's case: one IP, six accounts, 180 searches at once (30 each: the account budget's burst).
      const queued = await Promise.all(
        Array.from({ length: 180 }, (_, index) =>
          api(service, 'POST', '/api/topics', {
            session: crowd[index % 6],
            body: { sourceURL: `${origin}/hang/${index}` },
          }),
        ),
      );
      assert.deepEqual(
        queued.map((answer) => answer.status),
        Array(180).fill(202),
      );
      // Every slot is held by a fetch that will not be answered, and the rest of the crowd waits.
      await hangs(DEFAULT_SEARCH_SLOTS.total);
      const waiting = service.stats().searchesWaiting;
      assert.ok(waiting >= 180 - 2 * DEFAULT_SEARCH_SLOTS.total, `only ${waiting} searches waited`);

      // Another user of the same partner, and one of another partner (a sandbox is one too).
      const searchers = [
        await createAccount(service, { externalID: 'other-user' }),
        await createAccount(service, { externalID: 'other-partner-user' }, OTHER, OTHER_SECRET),
      ];
      const delays = await Promise.all(
        searchers.map(async ({ session }) => {
          const stream = await EventStream.open(service, session);
          await stream.next((event) => event.event === 'ready');
          const asked = Date.now();
          const { body } = await api(service, 'POST', '/api/topics', {
            session,
            body: { sourceURL: `${origin}/page` },
          });
          const reached = (status: string) =>
            stream.next(
              (event) => event.event === 'topic' && event.data.id === body.topicId && event.data.status === status,
            );
          await reached('PROCESSING');
          const slot = Date.now() - asked;
          await reached('COMPLETE');
          return { slot, complete: Date.now() - asked };
        }),
      );
      for (const [index, { slot, complete }] of delays.entries()) {
        const who = ['the other account', 'the other partner'][index];
        t.diagnostic(`${who}: its slot after ${slot} ms, COMPLETE after ${complete} ms (one slot: ${SLOT_MS} ms)`);
        assert.ok(
          slot <= SLOT_MS + SLACK_MS,
          `${who}'s search waited ${slot} ms for its slot (one slot: ${SLOT_MS} ms)`,
        );
        assert.ok(complete <= SLOT_MS + SLACK_MS, `${who}'s search was COMPLETE after ${complete} ms`);
      }
      // The crowd's searches were still queued while the others were served.
      assert.ok(service.stats().searchesWaiting > 100, `${service.stats().searchesWaiting} left waiting`);
    },
  );
});

describe('the cap on waiting jobs (waitingJobs.account)', () => {
  test('a search past the cap answers 429 naming the limit, saves nothing and spends no budget', async () => {
    const service = await startTestService({
      jobMs: 0,
      maxWaitingJobs: 3,
      searchSlots: { perAccount: 1, total: 1 },
      // Five searches in all, and none more for the rest of the test.
      limits: { 'topicSearches.account': { burst: 5, perMinute: 0.001 } },
    });
    const { origin, hanging, hangs } = await site();
    const { session } = await createAccount(service, { externalID: 'queuer' });
    const search = (headers: Record<string, string> = {}) =>
      api(service, 'POST', '/api/topics', { session, headers, body: { sourceURL: `${origin}/hang` } });
    // The first search takes the one slot (and no longer waits); three more wait.
    assert.equal((await search()).status, 202);
    await hangs(1);
    for (let index = 0; index < 3; index++) assert.equal((await search()).status, 202);

    const counts = () => {
      const { topics, generations, videos, jobs, searchesWaiting } = service.stats();
      return { topics, generations, videos, jobs, searchesWaiting };
    };
    const before = counts();
    const refused = await search({ 'idempotency-key': 'refused-once' });
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'rate_limited');
    const { limit, max, waiting, retryAfterMs } = refused.body.error.data;
    assert.deepEqual(
      { limit, max, waiting, retryAfterMs },
      { limit: WAITING_JOBS_LIMIT, max: 3, waiting: 3, retryAfterMs: 5000 },
    );
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.match(refused.body.error.message, /waitingJobs\.account allows 3/);
    assert.match(refused.body.error.message, /--max-waiting-jobs/);
    // Nothing saved: no topic, no job, nothing more waiting.
    assert.deepEqual(counts(), before);
    assert.equal((await api(service, 'GET', '/api/topics', { session })).body.topics.length, 4);
    // A generation of the account is refused by the cap before anything else is looked at.
    const generation = await api(service, 'POST', '/api/generations', {
      session,
      body: { topicId: 'topic_none', aspectRatio: '16:9', duration: 5 },
    });
    assert.equal(generation.body.error?.data?.limit, WAITING_JOBS_LIMIT);
    // Another account has its own cap.
    const other = await createAccount(service, { externalID: 'neighbour' });
    assert.equal(
      (await api(service, 'POST', '/api/topics', { session: other.session, body: { sourceURL: `${origin}/page` } }))
        .status,
      202,
    );

    // Once the search holding the slot ends, one waiting search starts and there is room for one
    // more: the fifth of the budget, which the refused call did not spend (the same idempotency key
    // now starts a search: the refusal kept no answer under it).
    for (const res of hanging) res.writeHead(200, { 'content-type': 'text/html' }).end('<title>At last</title>');
    await hangs(2);
    const accepted = await search({ 'idempotency-key': 'refused-once' });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    assert.equal(accepted.body.replayed, undefined);
  });

  test('maxWaitingJobs and --max-waiting-jobs set the cap; 0 and non-numbers are refused naming the option', () => {
    assert.equal(resolveConfig({}).maxWaitingJobs, DEFAULT_MAX_WAITING_JOBS);
    assert.equal(resolveConfig({ maxWaitingJobs: 7 }).maxWaitingJobs, 7);
    assert.throws(() => resolveConfig({ maxWaitingJobs: 0 }), { code: 'invalid_parameter', message: /maxWaitingJobs/ });
    const line = parseCommandLine(['--max-waiting-jobs', '12']);
    assert.equal(line.help ? undefined : line.options.maxWaitingJobs, 12);
    assert.throws(() => parseCommandLine(['--max-waiting-jobs', '0']), /--max-waiting-jobs must be at least 1/);
    assert.throws(() => parseCommandLine(['--max-waiting-jobs', 'lots']), /--max-waiting-jobs must be a whole number/);
  });
});
