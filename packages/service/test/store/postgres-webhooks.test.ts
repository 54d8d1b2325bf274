// Webhooks of services sharing one PostgreSQL database: each outbox row is delivered by one service
// at a time (the one that holds its claim, webhooks.ts and jobs/claims.ts), and retried by
// whichever is alive. Many events queued on A and B while a third service starts arrive once each;
// a delivery retrying on a service killed with SIGKILL, or on one that stopped cleanly, is taken
// over by the other within the sweep, the grace and 5 s, and arrives once, as does one whose claim
// was lost when PostgreSQL restarted; two services starting together on an outbox a killed service
// left deliver each row once; a row a service cannot make (a URL it does not have) is left in the
// outbox for one that can.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import { decodeJwt } from 'jose';
import pg from 'pg';
import type { RunningService } from '../../src/server.js';
import { PARTNER, SECRET, WEBHOOK_SECRET, createAccount, within } from '../support/helpers.js';
import { postgresMissing, startPostgres } from '../support/postgres.js';
import { runService } from '../support/child-service.js';
import { webhookReceiver, type Received } from '../support/webhooks.js';
import { SWEEP_MS } from '../../src/jobs/claims.js';
import { CLAIM_GRACE_MS } from '../../src/webhooks/webhooks.js';

const missing = postgresMissing();
// A time limit per test: a delivery that never comes fails its test instead of stalling the run.
const skip = missing ? { skip: missing } : { timeout: 120_000 };
const server = missing ? undefined : await startPostgres();

/** A new database, and services on it whose test partner posts its webhooks to `url` (retrying at once). */
async function pair(url: string) {
  const placed = await server!.place({
    // Longer than the receiver holds its answers: a try that timed out would be tried again.
    webhookTimeoutMs: 60_000,
  });
  const start = ({ webhookRetryMs = 10, webhookURL = url }: { webhookRetryMs?: number; webhookURL?: string } = {}) =>
    placed.start({
      webhookRetryMs,
      partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET], webhookURLs: [webhookURL] }],
    });
  return { ...placed, start };
}

/** The rows of the shared outbox, read from the database itself. */
async function outbox(database: string): Promise<{ id: string; attempts: number }[]> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return (
      await client.query<{ id: string; attempts: number }>('SELECT id, attempts FROM video_plugin.webhook_outbox')
    ).rows;
  } finally {
    await client.end();
  }
}

/** Resolves once the outbox's one row says `attempts` tries (polled: no process tells the test). */
async function outboxSays(database: string, attempts: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await outbox(database))[0]?.attempts !== attempts) {
    assert.ok(Date.now() < deadline, `the outbox's row says ${attempts} tries`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const eventID = (post: Received) => decodeJwt(post.body).jti as string;

/** How many times each event ID is in `posts`. */
function perEvent(posts: Received[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const post of posts) counts.set(eventID(post), (counts.get(eventID(post)) ?? 0) + 1);
  return counts;
}

/** A receiver that refuses the first try of each event and takes the next. */
function refusingFirstTries() {
  const seen = new Set<string>();
  return webhookReceiver((post, res) => {
    const id = eventID(post);
    res.writeHead(seen.has(id) ? 204 : 500).end();
    seen.add(id);
  });
}

/**
 * After A let go of a delivery it had tried once (killed, or stopped): B makes it within the sweep,
 * the grace, B's wait before a retry (none: it goes on at once) and this machine's load, from A's
 * count of tries, and it is never made again.
 */
async function assertTakenOver(
  receiver: Awaited<ReturnType<typeof webhookReceiver>>,
  b: RunningService,
  database: string,
): Promise<void> {
  const letGo = Date.now();
  const bound = SWEEP_MS + CLAIM_GRACE_MS + 10 + 5000;
  await within(
    receiver.arrived(() => receiver.received.length >= 2),
    bound,
    'the delivery taken over by B',
  );
  const tookMs = Date.now() - letGo;
  assert.ok(tookMs < bound, `delivered ${tookMs} ms after A let it go`);
  await within(b.webhooks.settled(), 30_000, 'settled');
  assert.equal(receiver.received.length, 2, 'refused on A, delivered by B, and never again');
  assert.equal(perEvent(receiver.received).size, 1, 'one event');
  assert.deepEqual(
    b.webhooks.deliveries.map(({ attempt, outcome }) => ({ attempt, outcome })),
    [{ attempt: 2, outcome: 'delivered' }],
    'B went on from the try A made',
  );
  assert.deepEqual(await outbox(database), [], 'the outbox is empty');
}

test(
  'twenty events queued alternately on A and B while C starts: each arrives once, and the outbox ends empty',
  skip,
  async () => {
    // Answers wait until the test lets them go: every delivery is still under way when C starts.
    const held: ServerResponse[] = [];
    let holding = true;
    const receiver = await webhookReceiver((_post, res) => (holding ? held.push(res) : res.writeHead(204).end()));
    const { database, start } = await pair(`${receiver.origin}/hook`);
    const [a, b] = [await start(), await start()];
    for (let index = 0; index < 20; index++) await createAccount(index % 2 ? a : b, { externalID: `once-${index}` });
    await within(
      receiver.arrived(() => receiver.received.length >= 20),
      30_000,
      'the first try of each event',
    );
    // A service that starts now finds twenty rows in the outbox, each claimed by A or B.
    const c = await start();
    // Past the grace: the sweeps of all three have looked at every row at least once.
    await new Promise((resolve) => setTimeout(resolve, CLAIM_GRACE_MS + 2 * SWEEP_MS));
    holding = false;
    for (const res of held.splice(0)) res.writeHead(204).end();
    await Promise.all([a, b, c].map((service) => within(service.webhooks.settled(), 30_000, 'settled')));
    const counts = perEvent(receiver.received);
    assert.equal(counts.size, 20, 'twenty events');
    assert.deepEqual(
      [...counts].filter(([, times]) => times !== 1),
      [],
      'each event arrived once',
    );
    const delivered = (service: RunningService) =>
      service.webhooks.deliveries.filter((attempt) => attempt.outcome === 'delivered').length;
    assert.equal(delivered(a) + delivered(b) + delivered(c), 20);
    assert.equal(delivered(c), 0, 'C took over none: A and B held them all');
    assert.deepEqual(await outbox(database), [], 'the outbox is empty');
  },
);

test(
  'a delivery retrying on a service killed with SIGKILL: the other takes it over and it arrives once',
  skip,
  async () => {
    const receiver = await refusingFirstTries();
    const url = `${receiver.origin}/hook`;
    const { database, mediaDir, start } = await pair(url);
    // A waits a minute before its retry: it holds the claim in that wait when it is killed.
    const a = runService([
      '--database',
      database,
      '--media-dir',
      mediaDir,
      '--webhook-url',
      url,
      '--webhook-retry-ms',
      '60000',
    ]);
    const onA = { url: await a.listening } as RunningService;
    const b = await start();
    await createAccount(onA, { externalID: 'handed-on' });
    await within(
      receiver.arrived(() => receiver.received.length >= 1),
      30_000,
      'the first try, on A',
    );
    // A has saved its try (the row says 1) and waits for its next.
    await outboxSays(database, 1);
    // Past the grace, B's sweep leaves alone the row A holds.
    await new Promise((resolve) => setTimeout(resolve, CLAIM_GRACE_MS + 2 * SWEEP_MS));
    assert.equal(receiver.received.length, 1, 'no try from B while A holds the delivery');
    a.child.kill('SIGKILL');
    assert.deepEqual(await a.exited, { code: null, signal: 'SIGKILL' });
    await assertTakenOver(receiver, b, database);
  },
);

test(
  'a service that stops while a delivery waits for its retry lets it go: the other makes it, once',
  skip,
  async () => {
    const receiver = await refusingFirstTries();
    const { database, start } = await pair(`${receiver.origin}/hook`);
    const a = await start({ webhookRetryMs: 60_000 });
    const b = await start();
    await createAccount(a, { externalID: 'let-go' });
    await within(
      receiver.arrived(() => receiver.received.length >= 1),
      30_000,
      'the first try, on A',
    );
    await outboxSays(database, 1);
    await a.close();
    assert.equal(a.webhooks.deliveries.at(-1)?.outcome, 'abandoned', 'A left it in the outbox');
    await assertTakenOver(receiver, b, database);
  },
);

test(
  'a claim lost with the database (a restart) stops its delivery: it is made once, by whichever service takes it again',
  skip,
  async () => {
    const receiver = await refusingFirstTries();
    const { database, start } = await pair(`${receiver.origin}/hook`);
    // A would try again 8 s after its first try, had it kept the delivery.
    const a = await start({ webhookRetryMs: 8000 });
    const b = await start();
    await createAccount(a, { externalID: 'restarted' });
    await within(
      receiver.arrived(() => receiver.received.length >= 1),
      30_000,
      'the first try, on A',
    );
    await outboxSays(database, 1);
    await server!.stop();
    await server!.start();
    const restarted = Date.now();
    const bound = SWEEP_MS + CLAIM_GRACE_MS + 10 + 5000;
    await within(
      receiver.arrived(() => receiver.received.length >= 2),
      bound,
      'the delivery taken again after the restart',
    );
    assert.ok(Date.now() - restarted < bound);
    // A's wait is over by the time both have settled, had its delivery gone on.
    await within(Promise.all([a.webhooks.settled(), b.webhooks.settled()]), 30_000, 'settled');
    assert.equal(receiver.received.length, 2, 'refused once, delivered once');
    assert.deepEqual(await outbox(database), [], 'the outbox is empty');
  },
);

test('two services starting together on the outbox a killed service left deliver each row once', skip, async () => {
  // While A runs, no answer comes; once B and C run, answers wait until both have started.
  const held: ServerResponse[] = [];
  let holding = true;
  let killed = false;
  const retried: Received[] = [];
  const receiver = await webhookReceiver((post, res) => {
    if (killed) retried.push(post);
    if (holding) held.push(res);
    else res.writeHead(204).end();
  });
  const url = `${receiver.origin}/hook`;
  const { database, mediaDir, start } = await pair(url);
  const a = runService(['--database', database, '--media-dir', mediaDir, '--webhook-url', url]);
  const onA = { url: await a.listening } as RunningService;
  for (let index = 0; index < 6; index++) await createAccount(onA, { externalID: `left-${index}` });
  await within(
    receiver.arrived(() => receiver.received.length >= 6),
    30_000,
    'the first try of each, on A',
  );
  a.child.kill('SIGKILL');
  await a.exited;
  for (const res of held.splice(0)) res.destroy();
  assert.equal((await outbox(database)).length, 6, 'A left six rows');
  killed = true;
  const [b, c] = await Promise.all([start(), start()]);
  // Past the grace: each sweep has looked at the rows, held by the service that resumed them.
  await new Promise((resolve) => setTimeout(resolve, CLAIM_GRACE_MS + 2 * SWEEP_MS));
  holding = false;
  for (const res of held.splice(0)) res.writeHead(204).end();
  await Promise.all([b, c].map((service) => within(service.webhooks.settled(), 30_000, 'settled')));
  const counts = perEvent(retried);
  assert.equal(counts.size, 6, 'six events');
  assert.deepEqual(
    [...counts].filter(([, times]) => times !== 1),
    [],
    'each row delivered once',
  );
  assert.deepEqual(await outbox(database), [], 'the outbox is empty');
});

test('a row for a URL a service does not have is left in the outbox for one that has it', skip, async () => {
  // A's receiver never answers: A stops with its delivery under way, and leaves it.
  const silent = await webhookReceiver(() => undefined);
  const other = await webhookReceiver((_post, res) => res.writeHead(204).end());
  const { database, start } = await pair(`${silent.origin}/hook`);
  const a = await start();
  await createAccount(a, { externalID: 'kept' });
  await within(
    silent.arrived(() => silent.received.length >= 1),
    30_000,
    'the first try, on A',
  );
  await a.close();
  // B posts this partner's webhooks elsewhere: the row is not B's to make, nor to drop.
  const b = await start({ webhookURL: `${other.origin}/hook` });
  await new Promise((resolve) => setTimeout(resolve, CLAIM_GRACE_MS + 2 * SWEEP_MS));
  await within(b.webhooks.settled(), 30_000, 'settled');
  assert.equal(other.received.length, 0);
  assert.equal((await outbox(database)).length, 1, 'the row is still in the outbox');
});
