// The host side of the wire (src/wire/host.ts) against a fake service frame (support/host.ts): the
// replay after a reload (the configuration, the subscriptions, the calls that may be sent again),
// the hold while `onConnected` restores a session, and why a silent frame is silent.
import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { PAGE_ORIGIN } from './support/dom.js';
import { ConnectionError, FrameBlockedError, OriginNotAllowedError, serializeError } from '../../src/errors.js';
import { SERVICE, answer, setup, state, until } from './support/host.js';

describe('reconnects and replay', () => {
  test('a new hello (the page reloaded): the configuration and subscriptions are replayed, reads re-sent, writes failed as interrupted', async () => {
    const { connection, connected, handshake, configs, disconnects } = setup();
    const first = await connected();
    connection.subscribe('topic', 't1', () => {});
    const sub = await first.next();
    const read = connection.call('getVideo', undefined, { resend: true });
    const write = connection.call('createVideo');
    await first.next();
    await first.next();
    const second = handshake();
    assert.deepEqual(second.connect.config, { configs: 2 });
    assert.equal(configs(), 2, 'the configuration was not read again for the new page');
    assert.equal(disconnects(), 1);
    assert.equal(connection.state, 'connecting');
    await assert.rejects(write, (error) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(
        error.message,
        'The call was interrupted (the service page reloaded); it may have taken effect: check before calling again.',
      );
      assert.equal(error.data?.retryable, true);
      return true;
    });
    assert.equal(await state(read), 'pending');
    second.ready();
    assert.deepEqual(await second.next(), { t: 'sub', sid: sub.sid, topic: 'topic', key: 't1' });
    await answer(second, 'getVideo', 'from the new page');
    assert.equal(await read, 'from the new page');
  });

  test("bye (the page unloads): the port is let go, and calls wait for the next page's ready", async () => {
    const { connection, connected, handshake, disconnects } = setup();
    const first = await connected();
    first.send({ t: 'bye' });
    await until(() => disconnects() > 0);
    assert.equal(connection.state, 'connecting');
    assert.equal(disconnects(), 1);
    const call = connection.call('getVideo');
    assert.equal(await state(call), 'pending');
    const second = handshake();
    second.ready();
    await answer(second, 'getVideo', 'ok');
    assert.equal(await call, 'ok');
  });

  test('expectReload(): the port is dropped at once, with the reason in the interrupted calls', async () => {
    const { connection, connected, handshake } = setup();
    const first = await connected();
    const write = connection.call('saveVideo');
    await first.next();
    connection.expectReload('the element moved');
    assert.equal(connection.state, 'connecting');
    await assert.rejects(write, { message: /^The call was interrupted \(the element moved\);/ });
    const later = connection.call('getVideo');
    const second = handshake();
    second.ready();
    await answer(second, 'getVideo', 2);
    assert.equal(await later, 2);
  });

  test('onConnected holds the queue: only early calls go out until its promise settles, then the rest', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const { connection, handshake } = setup({ onConnected: () => hold });
    const queued = connection.call('searchTopic');
    connection.subscribe('topic', 't1', () => {});
    const service = handshake();
    service.ready({ accountID: null });
    await until(() => connection.state === 'connected');
    assert.equal(connection.state, 'connected');
    const early = connection.call('loginAccount', { token: 'x' }, { early: true });
    const held = connection.call('getVideo');
    const login = await answer(service, 'loginAccount', { id: 'acc-1' });
    assert.deepEqual(await early, { id: 'acc-1' });
    // An answer for a call that did not go out yet (the next id: the held one) is not its answer.
    service.send({ t: 'ok', id: (login.id as number) + 1, value: 'forged' });
    assert.equal(await state(held), 'pending');
    assert.equal(await state(queued), 'pending');
    release();
    assert.equal((await service.next()).t, 'sub');
    await answer(service, 'searchTopic', 1);
    await answer(service, 'getVideo', 2);
    assert.deepEqual(await Promise.all([queued, held]), [1, 2]);
  });

  test('a call that times out while the queue is held says it waited for getLoginToken', async () => {
    const { connection, handshake } = setup({ onConnected: () => new Promise(() => {}), callTimeout: 1000 });
    handshake().ready();
    await until(() => connection.state === 'connected');
    const held = connection.call('getVideo');
    mock.timers.tick(1000);
    await assert.rejects(held, {
      message:
        'getVideo got no answer within 1000 ms (it waited for getLoginToken). Try again, or pass a larger timeout.',
    });
  });

  test('a newer handshake while the queue is held: the old hold releasing sends nothing on the new port', async () => {
    const gates: (() => void)[] = [];
    const { connection, handshake } = setup({ onConnected: () => new Promise<void>((resolve) => gates.push(resolve)) });
    const call = connection.call('getVideo', undefined, { resend: true });
    const first = handshake();
    first.ready();
    await until(() => gates.length === 1);
    const second = handshake();
    second.ready();
    await until(() => gates.length === 2);
    // The first page's restore ends: the second page's is still running, so nothing goes out.
    gates[0]!();
    await state(Promise.resolve());
    assert.equal(second.waiting, 0, 'a call went out while the new page held the queue');
    gates[1]!();
    // Sent once, by the new port's own flush.
    await answer(second, 'getVideo', 'once');
    assert.equal(await call, 'once');
    const next = connection.call('ping');
    await answer(second, 'ping', 'pong');
    await next;
  });
});

describe('a silent frame, explained', () => {
  const explain = new URL(`${SERVICE}/api/diagnose?partner=p1`);

  test("a load without a hello asks the service; its refusal fails every call with the service's words", async () => {
    const asked: [string, RequestInit | undefined][] = [];
    const refusal = new OriginNotAllowedError(`The origin ${PAGE_ORIGIN} is not allowed.`);
    mock.method(globalThis, 'fetch', async (url: URL, init?: RequestInit) => {
      asked.push([String(url), init]);
      return { json: async () => ({ refusal: serializeError(refusal) }) };
    });
    const { connection, iframe } = setup({ explain });
    const waiting = connection.call('searchTopic', undefined, { timeout: 60_000 });
    iframe.dispatchEvent(new Event('load'));
    mock.timers.tick(199);
    assert.deepEqual(asked, []);
    mock.timers.tick(1);
    await assert.rejects(
      waiting,
      (error) => error instanceof OriginNotAllowedError && error.message === refusal.message,
    );
    assert.deepEqual(asked, [[String(explain), { credentials: 'omit', cache: 'no-store' }]]);
    assert.equal(connection.state, 'refused');
  });

  test('a hello soon after the load cancels the question', async () => {
    let asked = 0;
    mock.method(globalThis, 'fetch', async () => {
      asked++;
      return { json: async () => ({}) };
    });
    const { connection, iframe, handshake } = setup({ explain });
    iframe.dispatchEvent(new Event('load'));
    mock.timers.tick(100);
    handshake().ready();
    await connection.whenConnected();
    mock.timers.tick(60_000);
    assert.equal(asked, 0);
  });

  test('an answer with neither error nor refusal (the service sees nothing wrong) leaves the connect limit to decide', async () => {
    let asked = 0;
    mock.method(globalThis, 'fetch', async () => {
      asked++;
      return { json: async () => ({ ok: true }) };
    });
    const { connection, iframe } = setup({ explain });
    const waiting = connection.call('searchTopic', undefined, { timeout: 60_000 });
    iframe.dispatchEvent(new Event('load'));
    mock.timers.tick(200);
    await until(() => asked === 1);
    assert.equal(await state(waiting), 'pending');
    mock.timers.tick(10_000);
    await assert.rejects(waiting, { message: /^No answer from / });
  });

  test('nothing answers at all: a retryable ConnectionError within a second for a local service', async () => {
    mock.method(globalThis, 'fetch', async () => {
      throw new TypeError('fetch failed');
    });
    const { connection, reloads } = setup({ explain });
    const waiting = connection.call('searchTopic', undefined, { timeout: 60_000 });
    // No load event either (Firefox and WebKit fire none): the local limit asks.
    mock.timers.tick(600);
    await state(Promise.resolve());
    mock.timers.tick(0);
    await assert.rejects(waiting, (error) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.message, `Nothing answers at ${SERVICE}: is the service running there?`);
      assert.deepEqual(error.data, { serviceURL: SERVICE, retryable: true });
      return true;
    });
    assert.equal(connection.state, 'connecting');
    void connection.call('searchTopic').catch(() => {});
    assert.equal(reloads(), 1);
  });

  test("a question this page's CSP refused (connect-src) says nothing: the connect limit decides", async () => {
    mock.method(globalThis, 'fetch', async () => {
      throw new TypeError('blocked');
    });
    const { connection } = setup({ explain });
    const waiting = connection.call('searchTopic', undefined, { timeout: 60_000 });
    document.dispatchEvent(
      Object.assign(new Event('securitypolicyviolation'), {
        effectiveDirective: 'connect-src',
        blockedURI: `${SERVICE}/api/diagnose`,
      }),
    );
    mock.timers.tick(600);
    await state(Promise.resolve());
    mock.timers.tick(0);
    assert.equal(await state(waiting), 'pending');
    mock.timers.tick(10_000);
    await assert.rejects(waiting, { message: /^No answer from / });
  });

  test("this page's CSP blocking the frame fails every call with the directive to fix", async () => {
    const { connection } = setup({ explain });
    const waiting = connection.call('searchTopic');
    const violation = (blockedURI: string, effectiveDirective = 'frame-src') =>
      document.dispatchEvent(Object.assign(new Event('securitypolicyviolation'), { effectiveDirective, blockedURI }));
    // Another origin's violation is not ours.
    violation('https://cdn.example/x.js', 'script-src');
    violation('https://ads.example/frame');
    assert.equal(await state(waiting), 'pending');
    violation(SERVICE, 'child-src');
    await assert.rejects(waiting, (error) => {
      assert.ok(error instanceof FrameBlockedError);
      assert.equal(error.message, `This page's CSP blocks the frame: add ${SERVICE} to its frame-src.`);
      assert.deepEqual(error.data, { directive: 'child-src' });
      return true;
    });
    assert.equal(connection.state, 'refused');
  });
});
