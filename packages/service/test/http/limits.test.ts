// Every caller is bounded (issue 29, finding 5): budgets per IP, account and partner answer 429
// `rate_limited` with Retry-After and change nothing; topic searches fetch only so many at once,
// the others waiting PENDING.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccountToken } from '../../../../src/server/index.js';
import { Budgets } from '../../src/http/limits.js';
import { DEFAULT_LIMITS, LIMIT_NAMES } from '../../src/limit-values.js';
import { Slots } from '../../src/jobs/slots.js';
import { resolveConfig } from '../../src/config.js';
import { parseCommandLine, UsageError } from '../../src/command-line.js';
import { errorText } from '../../src/pages/i18n.js';
import { api, createAccount, PARTNER, SECRET, serve, startTestService } from '../support/helpers.js';

describe('Budgets (token buckets on a driven clock)', () => {
  test('a budget admits its burst, refuses the next call with the time to wait, and refills at its rate', () => {
    let now = 1_000_000;
    const budgets = new Budgets({ 'topicSearches.account': { burst: 3, perMinute: 6 } }, () => now);
    for (let call = 0; call < 3; call++) budgets.spend('topicSearches', { account: 'a' });
    const refused = (() => {
      try {
        budgets.spend('topicSearches', { account: 'a' });
      } catch (error) {
        return error as { status: number; code: string; data: { limit: string; retryAfterMs: number } };
      }
      return undefined;
    })();
    assert.equal(refused?.status, 429);
    assert.equal(refused?.code, 'rate_limited');
    assert.deepEqual(refused?.data, { limit: 'topicSearches.account', retryAfterMs: 10_000 });
    // Another account has its own budget.
    budgets.spend('topicSearches', { account: 'b' });
    // One call comes back every 10 s (6 a minute), not before.
    now += 9_999;
    assert.throws(() => budgets.spend('topicSearches', { account: 'a' }), { code: 'rate_limited' });
    now += 1;
    budgets.spend('topicSearches', { account: 'a' });
    assert.throws(() => budgets.spend('topicSearches', { account: 'a' }), { code: 'rate_limited' });
  });

  test('a call refused by one budget spends nothing from the others', () => {
    const budgets = new Budgets(
      { 'generations.account': { burst: 5, perMinute: 1 }, 'generations.ip': { burst: 1, perMinute: 1 } },
      () => 0,
    );
    budgets.spend('generations', { account: 'a', ip: '1' });
    assert.throws(() => budgets.spend('generations', { account: 'a', ip: '1' }), {
      data: { limit: 'generations.ip', retryAfterMs: 60_000 },
    });
    // The account's budget still holds 4: another IP spends them, and the 5th is refused.
    for (let call = 0; call < 4; call++) budgets.spend('generations', { account: 'a', ip: `other-${call}` });
    assert.throws(() => budgets.spend('generations', { account: 'a', ip: 'more' }), {
      data: { limit: 'generations.account', retryAfterMs: 60_000 },
    });
  });

  test('false lifts a default budget; unnamed budgets keep their defaults', () => {
    const budgets = new Budgets({ 'signIn.ip': false });
    assert.equal(budgets.limits['signIn.ip'], undefined);
    assert.deepEqual(budgets.limits['signIn.partner'], DEFAULT_LIMITS['signIn.partner']);
    for (const name of Object.keys(DEFAULT_LIMITS)) assert.ok(LIMIT_NAMES.includes(name as never), name);
  });
});

describe('Slots (topic searches fetching at once)', () => {
  test('never more than perAccount per key nor total in all; every task runs in turn', async () => {
    const slots = new Slots({ perAccount: 2, total: 3 });
    const running = new Map<string, number>();
    let most = 0;
    let mostOfOne = 0;
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 12 }, (_, index) => {
      const account = `account-${index % 2}`;
      return slots.run({ partnerID: 'partner', accountID: account }, async () => {
        running.set(account, (running.get(account) ?? 0) + 1);
        most = Math.max(
          most,
          [...running.values()].reduce((a, b) => a + b, 0),
        );
        mostOfOne = Math.max(mostOfOne, running.get(account)!);
        await new Promise<void>((resolve) => releases.push(resolve));
        running.set(account, running.get(account)! - 1);
        return index;
      });
    });
    // Release one task at a time, as each one starts.
    for (let released = 0; released < 12; released++) {
      while (releases.length === 0) await new Promise((resolve) => setImmediate(resolve));
      releases.shift()!();
    }
    assert.deepEqual(await Promise.all(tasks), [...Array(12).keys()]);
    assert.equal(most, 3);
    assert.equal(mostOfOne, 2);
    assert.deepEqual(slots.counts, { running: 0, waiting: 0 });
  });
});

describe('budgets through the API', () => {
  test('a topic search over the account budget answers 429 with Retry-After and starts nothing', async () => {
    const service = await startTestService({ limits: { 'topicSearches.account': { burst: 2, perMinute: 1 } } });
    const source = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Shop</title>'),
    );
    const { session } = await createAccount(service, { externalID: 'busy' });
    for (let call = 0; call < 2; call++) {
      assert.equal((await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } })).status, 202);
    }
    const topics = service.stats().topics;
    const refused = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal(refused.body.error.code, 'rate_limited');
    const { limit, retryAfterMs } = refused.body.error.data;
    assert.equal(limit, 'topicSearches.account');
    // The bucket refills while the test runs: a little under a minute is left.
    assert.ok(retryAfterMs > 50_000 && retryAfterMs <= 60_000, String(retryAfterMs));
    assert.match(refused.body.error.message, /topicSearches\.account.*Retry after 60 s/);
    assert.equal(service.stats().topics, topics, 'the refused search made no topic');
    // Another account of the same partner, from the same IP, still searches.
    const { session: other } = await createAccount(service, { externalID: 'calm' });
    assert.equal(
      (await api(service, 'POST', '/api/topics', { session: other, body: { sourceURL: source } })).status,
      202,
    );
  });

  test('a token refused by the IP budget is not consumed: the same token works once the budget allows', async () => {
    const service = await startTestService({ limits: { 'tokens.ip': { burst: 1, perMinute: 60 } } });
    await createAccount(service, { externalID: 'first' });
    const token = await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID: 'second' } });
    const refused = await api(service, 'POST', '/api/accounts', { body: { token } });
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.error.data.limit, 'tokens.ip');
    const jtis = service.stats().usedJtis;
    assert.equal(service.stats().accounts, 1);
    // One call a second comes back: wait for what Retry-After says, then the same token works.
    await new Promise((resolve) => setTimeout(resolve, refused.body.error.data.retryAfterMs));
    const accepted = await api(service, 'POST', '/api/accounts', { body: { token } });
    assert.equal(accepted.status, 201, JSON.stringify(accepted.body));
    assert.equal(service.stats().usedJtis, jtis + 1);
  });

  test('the studio sign-in has a per-IP and a per-partner budget; a refused one creates no account and fires no webhook', async () => {
    const service = await startTestService({ limits: { 'signIn.partner': { burst: 2, perMinute: 1 } } });
    const signIn = (emailAddress: string) =>
      api(service, 'POST', `/api/partners/${PARTNER}/sign-in`, { body: { emailAddress } });
    assert.equal((await signIn('a@example.com')).status, 201);
    assert.equal((await signIn('b@example.com')).status, 201);
    const refused = await signIn('c@example.com');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.data.limit, 'signIn.partner');
    assert.equal(service.stats().accounts, 2);
  });

  test('renders (complete) and generations are budgeted per account', async () => {
    const service = await startTestService({ limits: { 'generations.account': { burst: 1, perMinute: 1 } } });
    const { session } = await createAccount(service);
    const first = await api(service, 'POST', '/api/generations', {
      session,
      body: { topicId: 'topic_none', aspectRatio: '16:9', duration: 5 },
    });
    // The first call spends the budget even though its topic is unknown (the budget is spent before any work).
    assert.equal(first.body.error.code, 'topic_not_found');
    const again = await api(service, 'POST', '/api/generations', {
      session,
      body: { topicId: 'topic_none', aspectRatio: '16:9', duration: 5 },
    });
    assert.equal(again.status, 429);
    assert.equal(again.body.error.data.limit, 'generations.account');
  });
});

describe('limits configuration', () => {
  test('an unknown budget name or a bad bucket is refused naming the field', () => {
    assert.throws(() => resolveConfig({ limits: { 'topics.account': { burst: 1, perMinute: 1 } } as never }), {
      code: 'invalid_parameter',
      message: /limits/,
    });
    assert.throws(() => resolveConfig({ limits: { 'topicSearches.account': { burst: 0, perMinute: 1 } } }), {
      code: 'invalid_parameter',
      message: /limits\.topicSearches\.account\.burst/,
    });
  });

  test('--limit sets or lifts a budget, --session-idle-ms and --searches-at-once their values', () => {
    const line = parseCommandLine([
      '--limit',
      'topicSearches.account=10/60',
      '--limit',
      'signIn.ip=off',
      '--session-idle-ms',
      '600000',
      '--searches-at-once',
      '4',
    ]);
    assert.equal(line.help, false);
    if (line.help) return;
    assert.deepEqual(line.options.limits, {
      'topicSearches.account': { burst: 10, perMinute: 60 },
      'signIn.ip': false,
    });
    assert.equal(line.options.sessionIdleMs, 600_000);
    assert.deepEqual(line.options.searchSlots, { total: 4, perAccount: 2 });
    assert.throws(() => parseCommandLine(['--limit', 'topics=1/1']), UsageError);
    assert.throws(() => parseCommandLine(['--limit', 'topicSearches.ip=1']), /BURST\/PER_MINUTE/);
  });
});

describe('topic searches at once (searchSlots)', () => {
  test(
    'of 12 searches started together, 2 fetch at once per account and 3 in all; the rest wait PENDING, then all COMPLETE',
    { timeout: 60_000 },
    async () => {
      const service = await startTestService({ jobMs: 0, searchSlots: { perAccount: 2, total: 3 } });
      let inFlight = 0;
      let most = 0;
      const held: (() => void)[] = [];
      let arrived = () => {};
      const source = await serve((req, res) => {
        inFlight++;
        most = Math.max(most, inFlight);
        held.push(() => {
          inFlight--;
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Shop ${req.url}</title>`);
        });
        arrived();
      });
      const sessions = [
        (await createAccount(service, { externalID: 'one' })).session,
        (await createAccount(service, { externalID: 'two' })).session,
      ];
      const started = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          api(service, 'POST', '/api/topics', {
            session: sessions[index % 2],
            body: { sourceURL: `${source}/${index}` },
          }),
        ),
      );
      assert.deepEqual(
        started.map((answer) => answer.status),
        Array(12).fill(202),
      );
      // Three fetches reach the source; the other nine wait for a slot, PENDING.
      while (held.length < 3 || service.stats().searchesWaiting < 9) {
        await new Promise<void>((resolve) => {
          arrived = resolve;
          setImmediate(resolve);
        });
      }
      assert.equal(inFlight, 3);
      const statuses = async () => {
        const all = await Promise.all(sessions.map((session) => api(service, 'GET', '/api/topics', { session })));
        return all.flatMap((answer) => answer.body.topics.map((topic: { status: string }) => topic.status));
      };
      assert.deepEqual((await statuses()).sort(), [...Array(9).fill('PENDING'), ...Array(3).fill('PROCESSING')]);
      // Release the source one answer at a time: each frees a slot for a waiting search.
      for (let released = 0; released < 12; released++) {
        while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
        held.shift()!();
      }
      while ((await statuses()).some((status) => status !== 'COMPLETE')) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.equal(most, 3);
      assert.equal(service.stats().searchesWaiting, 0);
    },
  );
});

test('the studio tells its user about a refused budget in plain words, not the generic error', () => {
  assert.equal(
    errorText({ code: 'rate_limited' }),
    'Too many requests in a short time. Wait a minute, then try again.',
  );
  assert.notEqual(errorText({ code: 'rate_limited' }), errorText({ code: 'no_such_code' }));
});
