// A session's status sockets (`/api/live`) and status streams (`GET /api/events`) end with it: on
// logout, and at the moment it reaches its absolute or idle limit, by the service's own timer, with
// no message or request needed to notice (close 4401 `not_authenticated`; the stream ends). Before,
// an expired session's socket and stream went on pushing the account's records until shutdown.
// And one IP address may hold only so many sockets that have not logged in yet (429 beyond it).
//
// The limits here are seconds long, not milliseconds: on a loaded machine the login, the socket's
// first message and the stream's opening must all come within the limit. Every check waits on an
// event (a close, a stream's end) with a deadline of many seconds, and the only timing asserted is
// a lower bound that no timer can undercut (a session never ends before its limit).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { MAX_PENDING_SOCKETS_PER_IP, PENDING_SOCKETS_LIMIT } from '../../src/limit-values.js';
import { AUTH_MS } from '../../src/http/live.js';
import type { RunningService } from '../../src/server.js';
import { EventStream, api, createAccount, startTestService, within } from '../support/helpers.js';

/** Long enough for a login, a socket and a stream on a busy machine; short enough to wait for. */
const LIMIT_MS = 5000;
/** How long a test waits for the end it expects, beyond the limit. */
const DEADLINE_MS = LIMIT_MS + 20_000;

interface Socket {
  ws: WebSocket;
  /** Every message heard, parsed. */
  messages: unknown[];
  /** The first answer (`{ cursor, changes }`), or the close that came instead. */
  answered: Promise<unknown>;
  closed: Promise<{ code: number; reason: string; at: number }>;
}

/** A status socket that logs in with `session` as soon as it opens (as the page does). */
function socket(service: RunningService, session?: string, options: { localAddress?: string } = {}): Socket {
  const ws = new WebSocket(`${service.url.replace('http', 'ws')}/api/live`, {
    headers: { origin: service.origin },
    ...options,
  });
  const messages: unknown[] = [];
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason), at: Date.now() })),
  );
  const answered = new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data))));
    void closed.then(resolve);
  });
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  ws.on('error', () => {});
  if (session !== undefined) ws.once('open', () => ws.send(JSON.stringify({ session })));
  return { ws, messages, answered, closed };
}

/** Whether `done()` turns true within `ms` (the service's side of a close may come just after the client's). */
async function eventually(done: () => boolean, ms = DEADLINE_MS): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return done();
}

/** A socket and a whole-account status stream of a new account's session, both following. */
async function following(service: RunningService) {
  const { session } = await createAccount(service);
  const live = socket(service, session);
  const first = (await live.answered) as { cursor?: string; code?: number };
  assert.equal(typeof first.cursor, 'string', `the socket was refused at login (${JSON.stringify(first)})`);
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  const ended = stream.ended().then(() => Date.now());
  return { session, live, stream, ended };
}

describe('a session ends its sockets and streams', () => {
  test('at its absolute limit (sessionMaxAgeMs), by timer: the socket closes 4401 and the stream ends', async () => {
    const service = await startTestService({ sessionMaxAgeMs: LIMIT_MS });
    const loggedIn = Date.now();
    const { session, live, ended } = await following(service);
    // Nothing is sent meanwhile: no request, no message. The service ends both on its own.
    const closed = await within(live.closed, DEADLINE_MS, 'the socket closing');
    assert.deepEqual({ code: closed.code, reason: closed.reason }, { code: 4401, reason: 'not_authenticated' });
    const streamEnded = await within(ended, DEADLINE_MS, 'the stream ending');
    // Not before the limit (measured from before the login, so this holds however slow the machine).
    assert.ok(closed.at - loggedIn >= LIMIT_MS - 50, `closed ${closed.at - loggedIn} ms after the login`);
    assert.ok(streamEnded - loggedIn >= LIMIT_MS - 50, `ended ${streamEnded - loggedIn} ms after the login`);
    // The API says the same, with the reason.
    const refused = await api(service, 'GET', '/api/account', { session });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.data.reason, 'max_age');
    assert.ok(await eventually(() => service.stats().streams === 0), 'no socket or stream is left');
  });

  test('at its idle limit (sessionIdleMs), counted from its last call: the socket closes 4401 and the stream ends', async () => {
    const service = await startTestService({ sessionIdleMs: LIMIT_MS });
    const { session, live, ended } = await following(service);
    // A call moves the idle limit on: the socket and stream stay open past the first deadline.
    const lastCall = Date.now();
    assert.equal((await api(service, 'GET', '/api/account', { session })).status, 200);
    const closed = await within(live.closed, DEADLINE_MS, 'the socket closing');
    assert.deepEqual({ code: closed.code, reason: closed.reason }, { code: 4401, reason: 'not_authenticated' });
    const streamEnded = await within(ended, DEADLINE_MS, 'the stream ending');
    assert.ok(closed.at - lastCall >= LIMIT_MS - 50, `closed ${closed.at - lastCall} ms after the last call`);
    assert.ok(streamEnded - lastCall >= LIMIT_MS - 50, `ended ${streamEnded - lastCall} ms after the last call`);
    const refused = await api(service, 'GET', '/api/account', { session });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.data.reason, 'idle');
    assert.ok(await eventually(() => service.stats().streams === 0), 'no socket or stream is left');
  });

  test("another session's socket and stream go on", async () => {
    const service = await startTestService({ sessionMaxAgeMs: LIMIT_MS });
    const ending = await following(service);
    // Logged in later, so it ends later: when the first one's socket closes, this one's is open.
    await within(ending.live.closed, DEADLINE_MS, 'the first socket closing');
    const { session } = await createAccount(service);
    const live = socket(service, session);
    assert.equal(typeof ((await live.answered) as { cursor?: string }).cursor, 'string');
    assert.equal(live.ws.readyState, WebSocket.OPEN);
    live.ws.close();
    await live.closed;
  });

  test('logout ends the status stream too, at once (the socket: live.test.ts)', async () => {
    const service = await startTestService();
    const { session, live, ended } = await following(service);
    assert.equal((await api(service, 'DELETE', '/api/sessions/current', { session })).status, 204);
    await within(ended, DEADLINE_MS, 'the stream ending');
    assert.equal((await within(live.closed, DEADLINE_MS, 'the socket closing')).code, 4401);
  });

  test('a request that finds the session ended ends its socket and stream at once, before their timer', async () => {
    // The service's clock moved past the session's limit before the timer fired (a suspended
    // laptop, a clock set ahead): the first request refused ends what the session holds open.
    const service = await startTestService({ sessionMaxAgeMs: 3_600_000 });
    const { session, live, ended } = await following(service);
    const realNow = Date.now;
    Date.now = () => realNow() + 2 * 3_600_000;
    try {
      const refused = await api(service, 'GET', '/api/account', { session });
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error.data.reason, 'max_age');
    } finally {
      Date.now = realNow;
    }
    assert.equal((await within(live.closed, DEADLINE_MS, 'the socket closing')).code, 4401);
    await within(ended, DEADLINE_MS, 'the stream ending');
  });
});

describe(`sockets that have not logged in: at most ${MAX_PENDING_SOCKETS_PER_IP} per IP address`, () => {
  /** Opens `count` sockets that send nothing; resolves once all are open. */
  async function waiting(service: RunningService, count: number, localAddress?: string): Promise<Socket[]> {
    const sockets = Array.from({ length: count }, () =>
      socket(service, undefined, localAddress ? { localAddress } : {}),
    );
    await Promise.all(sockets.map(({ ws }) => new Promise((resolve) => ws.once('open', resolve))));
    return sockets;
  }

  /** The HTTP answer to an upgrade, or 101 when it was accepted. */
  function upgrade(service: RunningService, headers: Record<string, string> = {}, localAddress?: string) {
    const ws = new WebSocket(`${service.url.replace('http', 'ws')}/api/live`, {
      headers: { origin: service.origin, ...headers },
      ...(localAddress ? { localAddress } : {}),
    });
    ws.on('error', () => {});
    return new Promise<{ status: number; retryAfter?: string; body?: string; ws: WebSocket }>((resolve) => {
      ws.once('open', () => resolve({ status: 101, ws }));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body, ws }));
      });
    });
  }

  test('one more is refused with 429 rate_limited naming the limit; X-Forwarded-For does not change whose it is', async () => {
    assert.equal(MAX_PENDING_SOCKETS_PER_IP, 100);
    // Each waiting socket is held AUTH_MS (5 s) at most: the steps below take well under that.
    const service = await startTestService();
    const held = await waiting(service, MAX_PENDING_SOCKETS_PER_IP);
    const refused = await upgrade(service, { 'x-forwarded-for': '203.0.113.9' });
    const open = held.filter(({ ws }) => ws.readyState === WebSocket.OPEN).length;
    assert.equal(open, MAX_PENDING_SOCKETS_PER_IP, 'some waiting sockets were closed for their own time limit');
    assert.equal(refused.status, 429);
    assert.equal(refused.retryAfter, String(AUTH_MS / 1000));
    const { error } = JSON.parse(refused.body ?? '{}');
    assert.equal(error.code, 'rate_limited');
    assert.deepEqual(error.data, {
      limit: PENDING_SOCKETS_LIMIT,
      max: MAX_PENDING_SOCKETS_PER_IP,
      retryAfterMs: AUTH_MS,
    });
    assert.match(error.message, /pendingSockets\.ip allows 100/);
    // One logs in: it no longer counts, and there is room for one more.
    const { session } = await createAccount(service);
    const [first] = held as [Socket];
    first.ws.send(JSON.stringify({ session }));
    await first.answered;
    const admitted = await upgrade(service);
    assert.equal(admitted.status, 101);
    // That one fills the room again; one that closes frees its place.
    assert.equal((await upgrade(service)).status, 429);
    const [, second] = held as [Socket, Socket];
    second.ws.close();
    await second.closed;
    const again = await upgrade(service);
    assert.equal(again.status, 101);
    for (const { ws } of [...held, admitted, again]) ws.terminate();
  });

  // Linux routes all of 127/8 to loopback; other systems may have only 127.0.0.1.
  const loopbacks = process.platform === 'linux' ? false : 'needs 127.0.0.2 on loopback (Linux)';
  test('another IP address has its own count', { skip: loopbacks }, async () => {
    const service = await startTestService({ host: '127.0.0.1' });
    const held = await waiting(service, MAX_PENDING_SOCKETS_PER_IP, '127.0.0.1');
    assert.equal((await upgrade(service, {}, '127.0.0.1')).status, 429);
    // The same machine, another client address.
    const other = await upgrade(service, {}, '127.0.0.2');
    assert.equal(other.status, 101);
    for (const { ws } of [...held, other]) ws.terminate();
  });
});
