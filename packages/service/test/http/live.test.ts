// The plugin page's status socket (`/api/live`): only same-origin or partner-allowed pages may open
// it; the first message's session is checked like the Bearer header (else close 4401, no data);
// the first answer replays from a cursor exactly as GET /api/changes does (null when it cannot);
// then each of the account's own changes is pushed once, as the status stream sends it; dead peers
// are cut by the heartbeat; and every socket is counted in stats and closed on logout and shutdown.
// A client that stops reading (socket or status stream) is cut once too much waits for it.
import assert from 'node:assert/strict';
import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { WebSocket, type RawData } from 'ws';
import { resolveConfig } from '../../src/config.js';
import { AUTH_MS, CLOSE_AUTH_TIMEOUT, CLOSE_GRACE_MS, CLOSE_TOO_SLOW, Live } from '../../src/http/live.js';
import { sessionOf } from '../../src/auth/sessions.js';
import type { RunningService } from '../../src/server.js';
import { Store, newId, nowISO, type TopicRecord } from '../../src/store/store.js';
import { MAX_UNSENT_BYTES, Streams } from '../../src/http/stream.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  api,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
  type StreamEvent,
} from '../support/helpers.js';

const service = await startTestService();
/** Source pages titled after their path, so that each account's records carry its own words. */
const source = await serve((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Title of ${req.url?.slice(1)}</title>`);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
type Message = any;

/** A client socket and what it heard, in order. */
interface Client {
  ws: WebSocket;
  messages: Message[];
  /** The next message not yet taken by `next`. */
  next(): Promise<Message>;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(
  target: Pick<RunningService, 'url' | 'origin'>,
  first?: unknown,
  options: { origin?: string | null; autoPong?: boolean; path?: string } = {},
): Client {
  const headers: Record<string, string> = {};
  const origin = options.origin === undefined ? target.origin : options.origin;
  if (origin !== null) headers.origin = origin;
  const ws = new WebSocket(`${target.url.replace('http', 'ws')}${options.path ?? '/api/live'}`, {
    headers,
    autoPong: options.autoPong ?? true,
  });
  const messages: Message[] = [];
  const waiters: ((message: Message) => void)[] = [];
  let taken = 0;
  ws.on('message', (data: RawData) => {
    messages.push(JSON.parse(String(data)));
    waiters.shift()?.(messages[taken++]);
  });
  if (first !== undefined) ws.once('open', () => ws.send(typeof first === 'string' ? first : JSON.stringify(first)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
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
function refusal(target: RunningService, options: { origin?: string | null; path?: string }): Promise<number> {
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

async function account(externalID: string) {
  const { session } = await createAccount(service, { externalID });
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  return {
    session,
    stream,
    /** Starts a topic search and waits for its final status on the reference stream. */
    async search(): Promise<string> {
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

const asChanges = (events: StreamEvent[]) =>
  events.filter((e) => e.event !== 'ready').map((e) => ({ kind: e.event, record: e.data }));

/** Reads messages until the topic reaches a final status. */
async function untilFinal(client: Client, topicId: string): Promise<Message[]> {
  const heard: Message[] = [];
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

  for (const [limit, reason] of [
    [{ sessionMaxAgeMs: 0 }, /its age limit/],
    [{ sessionIdleMs: 0 }, /its idle limit/],
  ] as const) {
    test(`a session past ${Object.keys(limit)[0]} gets 401 on every route and 4401 on the socket, and is gone (issue 29, finding 6)`, async () => {
      // A limit of 0: every session is past it as soon as it is used.
      const strict = await startTestService(limit);
      const { session } = await createAccount(strict);
      const first = await api(strict, 'GET', '/api/account', { session });
      assert.equal(first.status, 401);
      assert.match(first.body.error.message, reason);
      // Once ended, it is gone: every route and the socket refuse it.
      for (const path of ['/api/account', '/api/videos', '/api/changes']) {
        assert.equal((await api(strict, 'GET', path, { session })).status, 401, path);
      }
      const { session: other } = await createAccount(strict);
      const client = connect(strict, { session: other });
      assert.deepEqual(await client.closed, { code: 4401, reason: 'not_authenticated' });
      assert.equal(strict.stats().sessions, 0, 'the expired sessions were removed');
      // Within the limits (the defaults) the same steps work.
      const { session: fresh } = await createAccount(service);
      assert.equal((await api(service, 'GET', '/api/account', { session: fresh })).status, 200);
    });
  }

  test(`no first message within ${AUTH_MS} ms closes with 4408 auth_timeout, not as a refused session`, async () => {
    const client = connect(service);
    const started = Date.now();
    assert.deepEqual(await client.closed, { code: CLOSE_AUTH_TIMEOUT, reason: 'auth_timeout' });
    assert.equal(CLOSE_AUTH_TIMEOUT, 4408);
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
    // Each change has a cursor of its own (sealed for the account: changes.ts), and the last one is
    // where the change feed stands once the search is over.
    const cursors = [first, ...heard].map((m) => m.cursor);
    assert.equal(new Set(cursors).size, cursors.length);
    const feed = await api(service, 'GET', '/api/changes', { session: owner.session });
    assert.equal(heard.at(-1).cursor, feed.body.cursor);
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
    assert.ok(replay.changes.some((c: Message) => c.record.id === missed && c.record.status === 'COMPLETE'));
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
    // The live peer's pong must come back within one beat, through this same busy process: 40 ms
    // let a stall of the machine cut a peer that answers (a timer runs before the read of its pong).
    const quick = await startTestService({ heartbeatMs: 250 });
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

  test('heartbeat: a beat that comes late (the process stalled) does not cut a peer whose pong waits to be read', async () => {
    const quick = await startTestService({ heartbeatMs: 200 });
    const { session } = await createAccount(quick, { externalID: 'stall' });
    const peer = connect(quick, { session });
    await peer.next();
    // ws sends the pong before it emits 'ping'; then this whole process stalls for three beats, so
    // the service's next tick runs before it reads that pong (timers come before I/O in a turn).
    await new Promise<void>((resolve) =>
      peer.ws.once('ping', () => {
        const end = performance.now() + 600;
        while (performance.now() < end);
        resolve();
      }),
    );
    const twoMorePings = new Promise<string>((resolve) => {
      let pings = 0;
      peer.ws.on('ping', () => ++pings === 2 && resolve('open'));
    });
    const outcome = await Promise.race([twoMorePings, peer.closed.then(({ code }) => `closed with ${code}`)]);
    assert.equal(outcome, 'open');
    peer.ws.close();
    await peer.closed;
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

/**
 * The status stream and socket wired as server.ts wires them (same Store, Streams and Live), with
 * a lower limit of unsent bytes than {@link MAX_UNSENT_BYTES}, so that a few MB overflow it; and
 * one account whose topic changes can be published at will, each `CHANGE_BYTES` long.
 */
async function limitedService(maxUnsentBytes: number) {
  // No ping during the test: a paused client could not answer it and would be cut for that.
  const config = resolveConfig({ heartbeatMs: 600_000, partners: [{ id: PARTNER, secret: SECRET }] });
  const store = await Store.open();
  let origin = '';
  const streams = new Streams(store, {
    heartbeatMs: config.heartbeatMs,
    baseURL: () => origin,
    maxUnsentBytes,
    sessions: config,
  });
  const live = new Live(config, store, streams, () => origin);
  const server = createServer((req, res) => {
    // GET /api/events as api.ts opens it, without filters.
    const { owner, key } = sessionOf(store, req.headers.authorization?.replace(/^Bearer /, ''), config);
    streams.open(res, owner, key, { topics: new Set(), generations: new Set(), videos: new Set() }, []);
  });
  server.on('upgrade', (req, socket, head) => live.upgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  after(async () => {
    streams.endAll();
    await live.closeAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  });
  const owner = { partnerID: PARTNER, accountID: newId('acct') };
  store.addAccount({ ...owner, id: owner.accountID, createdAt: nowISO(), updatedAt: nowISO() });
  const topic: TopicRecord = {
    ...owner,
    id: newId('topic'),
    requestId: newId('search'),
    sourceURL: 'https://shop.example/',
    status: 'PROCESSING',
    images: [],
    createdAt: nowISO(),
    updatedAt: nowISO(),
  };
  let published = 0;
  return {
    url: origin,
    origin,
    store,
    streams,
    live,
    session: store.createSession(owner),
    /**
     * Publishes changes of the account's topic until `done()` or 32 MiB; returns the bytes
     * published. Yields between changes, so that the sockets write and the clients read.
     */
    async publishUntil(done: () => boolean): Promise<number> {
      let bytes = 0;
      while (!done() && bytes < 32 * 1024 * 1024) {
        const description = `${++published} `.padEnd(CHANGE_BYTES, 'x');
        const held = store.topics.get(topic.id);
        if (held) store.update({ kind: 'topic', record: held }, { description });
        else store.insert({ kind: 'topic', record: { ...topic, description } });
        bytes += CHANGE_BYTES;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return bytes;
    },
  };
}
const CHANGE_BYTES = 16 * 1024;
const LIMIT = 64 * 1024;

/** Waits (polling, at most `ms`) until `done()`. */
async function until(done: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return done();
}

describe('a client that stops reading', () => {
  test(`is cut past ${MAX_UNSENT_BYTES} unsent bytes (1 MiB) unless told otherwise`, async () => {
    assert.equal(MAX_UNSENT_BYTES, 1024 * 1024);
    const store = await Store.open();
    const options = { heartbeatMs: 1000, baseURL: () => '', sessions: resolveConfig() };
    assert.equal(new Streams(store, options).maxUnsentBytes, MAX_UNSENT_BYTES);
    assert.equal(new Streams(store, { ...options, maxUnsentBytes: 10 }).maxUnsentBytes, 10);
    await store.close();
  });

  test('socket: cut with 1013 too_slow, no longer follows, dropped; a reading socket stays', async (t) => {
    const warned = t.mock.method(console, 'warn', () => {});
    const service = await limitedService(LIMIT);
    const reading = connect(service, { session: service.session });
    const stalled = connect(service, { session: service.session });
    await Promise.all([reading.next(), stalled.next()]);
    assert.equal(service.streams.followers, 2);
    // The peer stops reading: what the service sends piles up in the kernel, then in the service.
    stalled.ws.pause();
    const bytes = await service.publishUntil(() => service.streams.followers < 2);
    t.diagnostic(`${bytes} bytes published until the cut`);
    assert.equal(service.streams.followers, 1, `the stalled socket still follows after ${bytes} bytes`);
    assert.equal(service.streams.cut, 1);
    assert.match(String(warned.mock.calls[0]?.arguments[0]), /cut a status socket whose client stopped reading/);
    // It never reads again: dropped after the grace, nothing of it held.
    assert.ok(await until(() => service.live.size === 1, CLOSE_GRACE_MS + 5000), `${service.live.size} sockets`);
    // The reading socket heard every change, in order, and stays.
    assert.equal(reading.ws.readyState, WebSocket.OPEN);
    await until(() => reading.messages.length === bytes / CHANGE_BYTES + 1);
    assert.equal(reading.messages.length, bytes / CHANGE_BYTES + 1);
    reading.ws.close();
    await reading.closed;
    assert.ok(await until(() => service.live.size === 0));
    assert.equal(service.streams.followers, 0);
    assert.equal(service.store.listenerCount, 1); // the Streams' own
    // Reading again, the stalled peer finds its connection gone without a close frame.
    stalled.ws.resume();
    assert.equal((await stalled.closed).code, 1006);
  });

  test('socket: one that reads again within the grace gets the close frame, 1013 too_slow', async (t) => {
    t.mock.method(console, 'warn', () => {});
    const service = await limitedService(LIMIT);
    const client = connect(service, { session: service.session });
    await client.next();
    client.ws.pause();
    const bytes = await service.publishUntil(() => service.streams.followers === 0);
    assert.equal(service.streams.followers, 0, `still follows after ${bytes} bytes`);
    client.ws.resume();
    assert.deepEqual(await client.closed, { code: CLOSE_TOO_SLOW, reason: 'too_slow' });
    // Nothing after the cut was sent to it.
    assert.ok(client.messages.length <= bytes / CHANGE_BYTES + 1);
    assert.ok(await until(() => service.live.size === 0));
  });

  test('status stream: cut (the response is dropped) and released; a reading stream stays', async (t) => {
    const warned = t.mock.method(console, 'warn', () => {});
    const service = await limitedService(LIMIT);
    const open = async () => {
      const res = await new Promise<IncomingMessage>((resolve, reject) =>
        get(`${service.url}/api/events`, { headers: { authorization: `Bearer ${service.session}` } }, resolve).once(
          'error',
          reject,
        ),
      );
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      await until(() => text.includes('event: ready'));
      return { res, events: () => text.split('\nevent: topic\n').length - 1 };
    };
    const reading = await open();
    const stalled = await open();
    assert.equal(service.streams.size, 2);
    // The client stops reading its socket.
    stalled.res.socket.pause();
    const bytes = await service.publishUntil(() => service.streams.size < 2);
    t.diagnostic(`${bytes} bytes published until the cut`);
    assert.equal(service.streams.size, 1, `the stalled stream is still open after ${bytes} bytes`);
    assert.equal(service.streams.cut, 1);
    assert.match(String(warned.mock.calls[0]?.arguments[0]), /cut a status stream whose client stopped reading/);
    assert.ok(await until(() => reading.events() === bytes / CHANGE_BYTES));
    reading.res.destroy();
    assert.ok(await until(() => service.streams.size === 0));
    assert.equal(service.store.listenerCount, 1);
    // Reading again, the stalled client finds its response cut short.
    const closed = new Promise((resolve) => stalled.res.once('close', resolve));
    stalled.res.socket.resume();
    await closed;
    assert.equal(stalled.res.complete, false);
  });
});
