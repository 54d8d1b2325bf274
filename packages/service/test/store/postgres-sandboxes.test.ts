// Sandboxes on a shared PostgreSQL database (services A and B on one database): a sandbox is a
// shared record. Made on either, it is known to both at once (the other accepts its tokens and runs
// its jobs); reset on either, it is removed once and both stop its jobs, deliveries and streams and refuse its
// tokens with `sandbox_expired`; its expiry is carried out once, by whichever timer fires first; the
// `max` limit counts the sandboxes of both; it outlives the service that made it while another
// runs; a service that starts later knows the live ones and removes those whose time is over; and an
// expiry the database refused (lost at that moment) is carried out once it is back.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { createAccountToken } from '../../../../src/server/index.js';
import type { RunningService, SandboxCredentials } from '../../src/server.js';
import type { ServiceOptions } from '../../src/config.js';
import { EventStream, PARTNER, SECRET, api, createAccount, serve, statusesUntilFinal } from '../support/helpers.js';
import pg from 'pg';
import { LOCK_SPACE, WRITE_LOCK } from '../../src/store/postgres.js';
import { runService } from '../support/child-service.js';
import { postgresMissing, startPostgres } from '../support/postgres.js';

const missing = postgresMissing();
// A time limit per test: a job that never ends fails its test instead of stalling the run.
const skip = missing ? { skip: missing } : { timeout: 120_000 };
const server = missing ? undefined : await startPostgres();
const source = await serve((req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Sandboxed page</title>'),
);
const psql = promisify(execFile);

const OPERATOR_KEY = 'sandbox-pg-test-operator-key-0123456789abcdef';
const operator = { authorization: `Bearer ${OPERATOR_KEY}` };

/** A new database, and a starter of services on it (sharing one media folder). */
async function place() {
  const placed = await server!.place({ partners: [{ id: PARTNER, secret: SECRET }] });
  const start = ({ sandboxes, ...options }: ServiceOptions = {}) =>
    placed.start({ sandboxes: { operatorKey: OPERATOR_KEY, ...sandboxes }, ...options });
  return { ...placed, start };
}

/** Two services on a new database. */
async function pair(options: ServiceOptions = {}): Promise<[RunningService, RunningService, string]> {
  const { database, start } = await place();
  return [await start(options), await start(options), database];
}

/** One SQL statement through psql, its output. */
async function sql(url: string, statement: string): Promise<string> {
  return (await psql('psql', [url, '-Atqc', statement])).stdout.trim();
}

/** How many times the sandbox's records were removed (each removal is one row of the changes others read). */
async function removals(database: string, partnerID: string): Promise<number> {
  return Number(
    await sql(database, `SELECT count(*) FROM video_plugin.changes WHERE kind = 'partner' AND key = '${partnerID}'`),
  );
}

async function sandboxOn(service: RunningService): Promise<SandboxCredentials> {
  const made = await api(service, 'POST', '/api/sandboxes', { headers: operator });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body as SandboxCredentials;
}

const accountOf = (service: RunningService, sandbox: SandboxCredentials, externalID = 'ci-user') =>
  createAccount(service, { externalID }, sandbox.partnerID, sandbox.secret);

/** A new account token of the sandbox sent to `service`: the answer. */
async function signUp(service: RunningService, sandbox: SandboxCredentials) {
  const token = await createAccountToken({ partnerID: sandbox.partnerID, secret: sandbox.secret, account: {} });
  return api(service, 'POST', '/api/accounts', { body: { token } });
}

/** Asserts that `service` refuses the sandbox's session and tokens as ended `reason`. */
async function assertEnded(service: RunningService, sandbox: SandboxCredentials, session: string, reason: string) {
  for (const refused of [await api(service, 'GET', '/api/account', { session }), await signUp(service, sandbox)]) {
    assert.equal(refused.status, 401, `${service.url}: ${JSON.stringify(refused.body)}`);
    assert.equal(refused.body.error.code, 'sandbox_expired');
    assert.equal(refused.body.error.data.reason, reason);
  }
}

test(
  'a sandbox made on A is known to B at once: B accepts its tokens and runs its jobs, A sees them',
  skip,
  async () => {
    const [a, b] = await pair();
    const sandbox = await sandboxOn(a);
    const { session, account } = await accountOf(b, sandbox);
    const stream = await EventStream.open(b, session);
    await stream.next((event) => event.event === 'ready');
    const started = await api(b, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/shop` } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { topicId } = started.body as { topicId: string };
    assert.equal((await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId)).at(-1), 'COMPLETE');
    stream.close();
    assert.equal((await api(a, 'GET', '/api/account', { session })).body.account.id, account.id);
    const topic = await api(a, 'GET', `/api/topics/${topicId}`, { session });
    assert.equal(topic.body.topic.title, 'Sandboxed page');
    assert.equal(a.stats().sandboxes, 1);
    assert.equal(b.stats().sandboxes, 1);
  },
);

test(
  'a reset on B removes it once: A stops its job and stream and refuses its tokens, its records are gone on both',
  skip,
  async () => {
    const [a, b, database] = await pair({ jobMs: 60_000 });
    const sandbox = await sandboxOn(a);
    const { session } = await accountOf(a, sandbox);
    const stream = await EventStream.open(a, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(a, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/slow` } })).body;
    // Its job runs on one of them, for a minute.
    await stream.next(
      (event) => event.event === 'topic' && event.data.id === topicId && event.data.status === 'PROCESSING',
    );
    assert.equal(a.stats().jobs + b.stats().jobs, 1);

    const reset = await api(b, 'DELETE', `/api/sandboxes/${sandbox.partnerID}`, { headers: operator });
    assert.equal(reset.status, 204, JSON.stringify(reset.body));
    await stream.ended();
    for (const service of [a, b]) {
      await assertEnded(service, sandbox, session, 'reset');
      const stats = service.stats();
      assert.deepEqual(
        [stats.sandboxes, stats.accounts, stats.sessions, stats.topics, stats.jobs],
        [0, 0, 0, 0, 0],
        service.url,
      );
    }
    assert.equal(await removals(database, sandbox.partnerID), 1);
    assert.equal(await sql(database, `SELECT count(*) FROM video_plugin.accounts`), '0');
    const twice = await api(a, 'DELETE', `/api/sandboxes/${sandbox.partnerID}`, { headers: operator });
    assert.equal(twice.status, 404);
    assert.equal(twice.body.error.code, 'sandbox_not_found');
  },
);

test('a reset on B stops the webhook deliveries of the sandbox that A was trying', skip, async () => {
  let posts = 0;
  const receiver = await serve((_req, res) => {
    posts++;
    res.writeHead(500).end();
  });
  const [a, b] = await pair({ webhookRetryMs: 3_600_000 });
  const sandbox = await a.createSandbox({ webhookURLs: [`${receiver}/hooks`] });
  await accountOf(a, sandbox);
  // Its account.created event was tried once, and waits an hour for its next try.
  const retrying = () =>
    [a, b].some((service) => service.webhooks.deliveries.some((attempt) => attempt.outcome === 'retrying'));
  while (!retrying()) await new Promise((resolve) => setImmediate(resolve));
  await b.resetSandbox(sandbox.partnerID);
  await Promise.all([a.webhooks.settled(), b.webhooks.settled()]);
  assert.equal(posts, 1);
});

test(
  'its expiry is carried out once, by whichever timer fires first, and both refuse it afterwards',
  skip,
  async () => {
    const [a, b, database] = await pair({ sandboxes: { ttlMs: 5000 } });
    const sandbox = await b.createSandbox();
    const onA = await accountOf(a, sandbox, 'on-a');
    const onB = await accountOf(b, sandbox, 'on-b');
    const streams = [await EventStream.open(a, onA.session), await EventStream.open(b, onB.session)];
    for (const stream of streams) await stream.next((event) => event.event === 'ready');
    await Promise.all(streams.map((stream) => stream.ended()));
    assert.ok(Date.now() >= Date.parse(sandbox.expiresAt) - 50, 'ended before its expiry');
    for (const service of [a, b]) {
      await assertEnded(service, sandbox, onA.session, 'expired');
      await assertEnded(service, sandbox, onB.session, 'expired');
      assert.equal(service.stats().sandboxes, 0);
      assert.equal(service.stats().accounts, 0);
    }
    assert.equal(await removals(database, sandbox.partnerID), 1);
  },
);

test(
  'sandboxes.max counts the sandboxes of both: one on A, one on B, and the next on either is 429',
  skip,
  async () => {
    const [a, b] = await pair({ sandboxes: { max: 3 } });
    const first = await sandboxOn(a);
    await sandboxOn(b);
    // One place left, asked for on both at once: one gets it.
    const answers = await Promise.all(
      [a, b, a, b].map((service) => api(service, 'POST', '/api/sandboxes', { headers: operator })),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 429, 429, 429]);
    for (const service of [a, b]) {
      const refused = await api(service, 'POST', '/api/sandboxes', { headers: operator });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 'sandbox_limit_reached');
      assert.deepEqual(refused.body.error.data, { limit: 'sandboxes.max', max: 3 });
      await assert.rejects(service.createSandbox(), { code: 'sandbox_limit_reached' });
      assert.equal(service.stats().sandboxes, 3);
    }
    // A reset on B of the one made on A frees a place for A.
    await b.resetSandbox(first.partnerID);
    await sandboxOn(a);
  },
);

test(
  'a sandbox outlives the close of the service that made it while another runs: B still serves it',
  skip,
  async () => {
    const [a, b, database] = await pair();
    const sandbox = await sandboxOn(a);
    const { session, account } = await accountOf(a, sandbox);
    await a.close();
    assert.equal((await api(b, 'GET', '/api/account', { session })).body.account?.id, account.id);
    assert.equal((await signUp(b, sandbox)).status, 201);
    const stream = await EventStream.open(b, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(b, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/after` } })).body;
    assert.equal((await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId)).at(-1), 'COMPLETE');
    stream.close();
    assert.equal(b.stats().sandboxes, 1);
    assert.equal(await removals(database, sandbox.partnerID), 0);
  },
);

test('a service that starts later knows the live sandboxes, and removes those whose time is over', skip, async () => {
  const { database, start } = await place();
  const first = await start();
  const [live, over] = [await sandboxOn(first), await sandboxOn(first)];
  const kept = await accountOf(first, live);
  const gone = await accountOf(first, over);
  await first.close();
  // Its time ran out while no service was running (none had a timer for it).
  await sql(database, `UPDATE video_plugin.sandboxes SET expires_at = 0 WHERE partner_id = '${over.partnerID}'`);
  const later = await start();
  assert.equal(later.stats().sandboxes, 1);
  assert.equal((await api(later, 'GET', '/api/account', { session: kept.session })).status, 200);
  await assertEnded(later, over, gone.session, 'expired');
  assert.equal(await removals(database, over.partnerID), 1);
  assert.equal(
    await sql(database, `SELECT count(*) FROM video_plugin.accounts WHERE partner_id = '${over.partnerID}'`),
    '0',
  );
});

test('an expiry the database refused (lost at that moment) is carried out once it is back', skip, async () => {
  const { database, start } = await place();
  const service = await start({ sandboxes: { ttlMs: 6000 } });
  const sandbox = await service.createSandbox();
  const { session } = await accountOf(service, sandbox);
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  await server!.stop();
  try {
    // Past its expiry, with the database still lost: the timer's removal is refused.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(sandbox.expiresAt) - Date.now()) + 1000));
  } finally {
    await server!.start();
  }
  let deadline: NodeJS.Timeout | undefined;
  await Promise.race([
    stream.ended(),
    new Promise((_, reject) => {
      deadline = setTimeout(() => reject(new Error('the sandbox was not ended once the database was back')), 60_000);
    }),
  ]).finally(() => clearTimeout(deadline));
  await assertEnded(service, sandbox, session, 'expired');
  assert.equal(await removals(database, sandbox.partnerID), 1);
});

test(
  'sandboxes.jobsPerSandbox counts the jobs of both: one running on A and one on B leave no room for a third on either',
  skip,
  async () => {
    const [a, b] = await pair({ jobMs: 60_000, sandboxes: { jobsPerSandbox: 2 } });
    const sandbox = await sandboxOn(a);
    const { session } = await accountOf(a, sandbox);
    const search = (service: RunningService, name: string) =>
      api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/${name}` } });
    assert.equal((await search(a, 'one')).status, 202);
    assert.equal((await search(b, 'two')).status, 202);
    for (const service of [a, b]) {
      const refused = await search(service, 'three');
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'sandbox_job_limit_reached');
    }
  },
);

test(
  'sandboxes.jobsPerSandbox holds for two searches sent to A and B at once: the second to commit is refused',
  skip,
  async () => {
    // Two processes (a process's writes block its own thread), each past the check made before the
    // call's work while the test holds the write lock, so that neither knows of the other's job.
    const { database, mediaDir } = await server!.place();
    const args = [
      '--database',
      database,
      '--media-dir',
      mediaDir,
      '--sandboxes',
      '--operator-key',
      OPERATOR_KEY,
      '--sandbox-jobs',
      '1',
    ];
    const [a, b] = await Promise.all(
      [runService([...args, '--job-ms', '60000']), runService([...args, '--job-ms', '60000'])].map(
        async (child) => ({ url: await child.listening }) as RunningService,
      ),
    );
    const sandbox = await sandboxOn(a!);
    const { session } = await accountOf(a!, sandbox);
    const holder = new pg.Client({ connectionString: database });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, $2)', [LOCK_SPACE, WRITE_LOCK]);
      const answers = [a!, b!].map((service, index) =>
        api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/at-once-${index}` } }),
      );
      // Both wait for the write lock in the transaction that would queue their job.
      const waiting = async () =>
        Number(
          (
            await holder.query(
              "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND NOT granted",
              [LOCK_SPACE, WRITE_LOCK],
            )
          ).rows[0].n,
        );
      while ((await waiting()) < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      await holder.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_SPACE, WRITE_LOCK]);
      const statuses = (await Promise.all(answers)).map(({ status, body }) => [status, body.error?.code]);
      assert.deepEqual(
        statuses.sort(([x], [y]) => x - y),
        [
          [202, undefined],
          [429, 'sandbox_job_limit_reached'],
        ],
      );
    } finally {
      await holder.end();
    }
  },
);
