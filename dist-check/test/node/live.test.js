// The plugin page's status socket (`/api/live`): only same-origin or partner-allowed pages may open
// it; the first message's session is checked like the Bearer header (else close 4401, no data);
// the first answer replays from a cursor exactly as GET /api/changes does (null when it cannot);
// then each of the account's own changes is pushed once, as the status stream sends it; dead peers
// are cut by the heartbeat; and every socket is counted in stats and closed on logout and shutdown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { AUTH_MS } from '../../src/service/live.js';
import { EventStream, api, createAccount, serve, startTestService, statusesUntilFinal } from './helpers.js';
const service = await startTestService();
/** Source pages titled after their path, so that each account's records carry its own words. */
const source = await serve((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Title of ${req.url?.slice(1)}</title>`);
});
function connect(target, first, options = {}) {
  const headers = {};
  const origin = options.origin === undefined ? target.origin : options.origin;
  if (origin !== null) headers.origin = origin;
  const ws = new WebSocket(`${target.url.replace('http', 'ws')}${options.path ?? '/api/live'}`, {
    headers,
    autoPong: options.autoPong ?? true,
  });
  const messages = [];
  const waiters = [];
  let taken = 0;
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    waiters.shift()?.(messages[taken++]);
  });
  if (first !== undefined) ws.once('open', () => ws.send(typeof first === 'string' ? first : JSON.stringify(first)));
  const closed = new Promise((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return {
    ws,
    messages,
    next: () =>
      taken < messages.length ? Promise.resolve(messages[taken++]) : new Promise((resolve) => waiters.push(resolve)),
    closed,
  };
}
/** The HTTP status an upgrade is refused with. */
function refusal(target, options) {
  const { ws } = connect(target, undefined, options);
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('error', () => {});
  });
}
async function account(externalID) {
  const { session } = await createAccount(service, { externalID });
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  return {
    session,
    stream,
    /** Starts a topic search and waits for its final status on the reference stream. */
    async search() {
      const started = await api(service, 'POST', '/api/topics', {
        session,
        body: { sourceURL: `${source}/${externalID}` },
      });
      assert.equal(started.status, 202);
      await statusesUntilFinal(stream, 'topic', (data) => data.id === started.body.topicId);
      return started.body.topicId;
    },
  };
}
const asChanges = (events) => events.filter((e) => e.event !== 'ready').map((e) => ({ kind: e.event, record: e.data }));
/** Reads messages until the topic reaches a final status. */
async function untilFinal(client, topicId) {
  const heard = [];
  for (;;) {
    const message = await client.next();
    heard.push(message);
    const { record } = message.change;
    if (record.id === topicId && (record.status === 'COMPLETE' || record.status === 'FAILED')) return heard;
  }
}
describe('/api/live', () => {
  test('refuses upgrades from other origins (403), without an Origin (403), and off the path (404)', async () => {
    assert.equal(await refusal(service, { origin: 'https://evil.example' }), 403);
    assert.equal(await refusal(service, { origin: null }), 403);
    assert.equal(await refusal(service, { path: '/api/other' }), 404);
  });
  test('a missing, malformed, unknown or logged-out session closes with 4401 not_authenticated and no data', async () => {
    const { session } = await createAccount(service, { externalID: 'leaver' });
    assert.equal((await api(service, 'DELETE', '/api/sessions/current', { session })).status, 204);
    for (const first of [{}, 'not json', { session: 42 }, { session: 'unknown-session' }, { session }]) {
      const client = connect(service, first);
      assert.deepEqual(await client.closed, { code: 4401, reason: 'not_authenticated' }, JSON.stringify(first));
      assert.deepEqual(client.messages, [], JSON.stringify(first));
    }
  });
  test(`no first message within ${AUTH_MS} ms closes with 4401`, async () => {
    const client = connect(service);
    const started = Date.now();
    assert.deepEqual(await client.closed, { code: 4401, reason: 'not_authenticated' });
    assert.ok(Date.now() - started >= AUTH_MS - 50);
    assert.deepEqual(client.messages, []);
  });
  test('pushes the account own changes, as the stream sends them, and never another account', async () => {
    const owner = await account('owner');
    const other = await account('other');
    const client = connect(service, { session: owner.session });
    const first = await client.next();
    assert.deepEqual(first.changes, []);
    // The other account's search ends first; the owner's search after it is the sentinel.
    await other.search();
    const topicId = await owner.search();
    const heard = await untilFinal(client, topicId);
    assert.ok(heard.length >= 2);
    for (const message of heard) assert.equal(message.change.record.id, topicId);
    assert.deepEqual(
      heard.map((m) => m.change),
      asChanges(owner.stream.events).filter((c) => c.record.id === topicId),
    );
    // Cursors go on from the first answer, one per change of the service.
    const seqs = [first, ...heard].map((m) => Number(m.cursor.split('-')[1]));
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
    client.ws.close();
    await client.closed;
  });
  test('replays from a cursor like GET /api/changes, then goes on live; null for a cursor it cannot replay', async () => {
    const owner = await account('replay');
    const first = connect(service, { session: owner.session });
    const { cursor } = await first.next();
    first.ws.close();
    await first.closed;
    const missed = await owner.search();
    const feed = await api(service, 'GET', `/api/changes?after=${cursor}`, { session: owner.session });
    const again = connect(service, { session: owner.session, after: cursor });
    const replay = await again.next();
    assert.deepEqual(replay, feed.body);
    assert.ok(replay.changes.some((c) => c.record.id === missed && c.record.status === 'COMPLETE'));
    const live = await owner.search();
    assert.ok((await untilFinal(again, live)).length >= 2);
    again.ws.close();
    for (const after of ['deadbeef-1', `${cursor.split('-')[0]}-99999999`, 'garbage']) {
      const lost = connect(service, { session: owner.session, after });
      assert.deepEqual(Object.keys(await lost.next()).sort(), ['changes', 'cursor']);
      assert.equal(lost.messages[0].changes, null, after);
      lost.ws.close();
    }
  });
  test('logout closes the session sockets with 4401', async () => {
    const { session } = await createAccount(service, { externalID: 'logout' });
    const client = connect(service, { session });
    await client.next();
    assert.equal((await api(service, 'DELETE', '/api/sessions/current', { session })).status, 204);
    assert.deepEqual(await client.closed, { code: 4401, reason: 'not_authenticated' });
  });
  test('heartbeat: a peer that answers pings stays, one that does not is cut; stats count sockets and go back', async () => {
    const quick = await startTestService({ heartbeatMs: 40 });
    const { session } = await createAccount(quick, { externalID: 'beat' });
    const baseline = quick.stats().streams;
    const alive = connect(quick, { session });
    const dead = connect(quick, { session }, { autoPong: false });
    let pings = 0;
    alive.ws.on('ping', () => pings++);
    await Promise.all([alive.next(), dead.next()]);
    assert.equal(quick.stats().streams, baseline + 2);
    // Cut at the second ping without a pong: 1006, the peer got no close frame.
    assert.equal((await dead.closed).code, 1006);
    assert.ok(pings >= 1);
    assert.equal(alive.ws.readyState, WebSocket.OPEN);
    alive.ws.close();
    await alive.closed;
    assert.equal(quick.stats().streams, baseline);
  });
  test('close() closes every socket (1001) and ends with none counted', async () => {
    const closing = await startTestService();
    const { session } = await createAccount(closing, { externalID: 'shutdown' });
    const ready = connect(closing, { session });
    await ready.next();
    const pending = connect(closing);
    await new Promise((resolve) => pending.ws.once('open', resolve));
    assert.equal(closing.stats().streams, 2);
    await closing.close();
    assert.equal((await ready.closed).code, 1001);
    assert.equal((await pending.closed).code, 1001);
    assert.equal(closing.stats().streams, 0);
  });
});
//# sourceMappingURL=live.test.js.map
