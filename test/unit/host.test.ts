// The host side of the wire (src/wire/host.ts) against a fake service frame (support/host.ts): the
// handshake and which hellos it drops, calls and their replies, the time limits, and what
// `destroy()` releases. The replay after a reload and a silent frame are host-replay.test.ts's.
import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { PAGE_ORIGIN, postToWindow } from './support/dom.js';
import {
  ConnectionError,
  DestroyedError,
  InvalidParameterError,
  NotFoundError,
  OriginNotAllowedError,
  serializeError,
  TimeoutError,
} from '../../src/errors.js';
import { PROTOCOL_VERSION } from '../../src/wire/protocol.js';
import { CHANNEL, SERVICE, SRC, answer, setup, state, until } from './support/host.js';

describe('handshake', () => {
  test("a hello from the frame brings a connect to the service's exact origin; ready connects", async () => {
    const infos: unknown[] = [];
    const { connection, targets, handshake } = setup({ onConnected: (info) => void infos.push(info) });
    assert.equal(connection.state, 'connecting');
    const service = handshake();
    assert.deepEqual(targets, [SERVICE]);
    assert.deepEqual(service.connect, {
      videoPlugin: 'connect',
      v: PROTOCOL_VERSION,
      channel: CHANNEL,
      sdk: '9.9.9',
      config: { configs: 1 },
    });
    const connected = connection.whenConnected();
    assert.equal(await state(connected), 'pending');
    service.ready({ accountID: 'acc-1' });
    await connected;
    assert.equal(connection.state, 'connected');
    assert.deepEqual(infos, [{ accountID: 'acc-1' }]);
  });

  test('drops a hello from another window, another origin, another channel or version, and anything malformed', () => {
    const { connects, hello, logged } = setup();
    hello({}, { source: {} });
    hello({}, { source: null });
    hello({}, { origin: 'http://127.0.0.1:9999' });
    hello({ channel: 'channel-2' });
    hello({ v: PROTOCOL_VERSION + 1 });
    hello({ videoPlugin: 'connect' });
    hello({ channel: 42 });
    postToWindow('hello', {}, SERVICE);
    assert.equal(connects.length, 0);
    // The first two never reach the checks (not our frame); the rest are logged as dropped.
    assert.equal(logged.filter(([message]) => message === 'dropped').length, 5);
  });

  test('no answer within the connect limit: what waits fails with why, and the next call loads the frame again', async () => {
    const { connection, reloads } = setup();
    const waiting = connection.call('searchTopic', { q: 'bread' }, { timeout: 60_000 });
    const connected = connection.whenConnected();
    mock.timers.tick(9999);
    assert.equal(await state(waiting), 'pending');
    mock.timers.tick(1);
    for (const promise of [waiting, connected]) {
      await assert.rejects(promise, (error) => {
        assert.ok(error instanceof ConnectionError);
        assert.equal(
          error.message,
          `No answer from ${SRC} within 10000 ms. Check the service URL, that the partner allows the origin ${PAGE_ORIGIN}, and that this page's CSP allows frame-src ${SERVICE}.`,
        );
        assert.deepEqual(error.data, { serviceURL: SRC, pageOrigin: PAGE_ORIGIN, retryable: true });
        return true;
      });
    }
    assert.equal(connection.state, 'connecting');
    assert.equal(reloads(), 0);
    const retry = connection.call('searchTopic', undefined, { timeout: 60_000 });
    assert.equal(reloads(), 1);
    void connection.call('searchTopic', undefined, { timeout: 60_000 }).catch(() => {});
    assert.equal(reloads(), 1, 'a second call reloaded the frame again');
    // The retry gets a connect limit of its own.
    mock.timers.tick(10_000);
    await assert.rejects(retry, ConnectionError);
  });

  test('after a failed connect, expectReload() (the host reloads the frame itself) spares the next call a reload', async () => {
    const { connection, reloads } = setup();
    const waiting = connection.whenConnected();
    mock.timers.tick(10_000);
    await assert.rejects(waiting, ConnectionError);
    connection.expectReload('the element moved');
    void connection.call('getVideo').catch(() => {});
    assert.equal(reloads(), 0);
  });

  test('the connect error says when the frame speaks another protocol, or was removed from the document', async () => {
    const other = setup();
    other.hello({ v: PROTOCOL_VERSION + 1 });
    const versioned = other.connection.whenConnected();
    const removed = setup();
    removed.iframe.isConnected = false;
    const orphan = removed.connection.whenConnected();
    mock.timers.tick(10_000);
    await assert.rejects(versioned, {
      message: `No answer from ${SRC} within 10000 ms. The service speaks protocol ${PROTOCOL_VERSION + 1}, this SDK ${PROTOCOL_VERSION}: update video-plugin.`,
    });
    await assert.rejects(orphan, {
      message: `No answer from ${SRC} within 10000 ms. The iframe was removed from the document: call mount(element), or cleanup().`,
    });
  });

  test("refused: every call fails with the service's error, now and from now on", async () => {
    const { connection, handshake } = setup();
    const waiting = connection.call('searchTopic');
    const service = handshake();
    const refusal = new OriginNotAllowedError(`The origin ${PAGE_ORIGIN} is not allowed for this partner.`, {
      origin: PAGE_ORIGIN,
    });
    service.send({ t: 'refused', error: serializeError(refusal) });
    await assert.rejects(waiting, (error) => {
      assert.ok(error instanceof OriginNotAllowedError);
      assert.equal(error.message, refusal.message);
      assert.deepEqual(error.data, { origin: PAGE_ORIGIN });
      return true;
    });
    assert.equal(connection.state, 'refused');
    await assert.rejects(connection.call('searchTopic'), OriginNotAllowedError);
    // No connect limit runs any more: nothing else happens to later calls.
    mock.timers.tick(60_000);
  });
});

describe('calls', () => {
  test('a call goes out with a unique id, its metadata beside its params; ok resolves it with the value, err rejects it with the error rebuilt', async () => {
    const { connection, connected } = setup();
    const service = await connected();
    const first = connection.call('searchTopic', { q: 'bread' }, { meta: { idempotencyKey: 'k1' }, timeout: 5000 });
    const second = connection.call('getVideo', { id: 'v1' });
    const [a, b] = [await service.next(), await service.next()];
    // Only the metadata travels: the timeout is the host's own.
    assert.deepEqual(a, {
      t: 'call',
      id: a.id,
      method: 'searchTopic',
      params: { q: 'bread' },
      meta: { idempotencyKey: 'k1' },
    });
    assert.deepEqual(b, { t: 'call', id: b.id, method: 'getVideo', params: { id: 'v1' }, meta: undefined });
    assert.notEqual(a.id, b.id);
    service.send({ t: 'err', id: b.id, error: serializeError(new NotFoundError('video_not_found', 'No video "v1".')) });
    service.send({ t: 'ok', id: a.id, value: { id: 't1' } });
    const rejected = assert.rejects(second, (error) => {
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.code, 'video_not_found');
      assert.equal(error.message, 'No video "v1".');
      return true;
    });
    assert.deepEqual(await first, { id: 't1' });
    await rejected;
    // A second answer, an answer to no call, and a message of no known kind change nothing.
    service.send({ t: 'ok', id: a.id, value: 'again' });
    service.send({ t: 'ok', id: 999, value: 'nobody' });
    service.send({ t: 'what' });
    const third = connection.call('getVideo');
    await answer(service, 'getVideo', 'third');
    assert.equal(await third, 'third');
  });

  test('calls and subscriptions made while connecting go out after ready: the subscriptions first, then the calls in order', async () => {
    const { connection, handshake } = setup();
    const calls = [connection.call('first'), connection.call('second')];
    const values: unknown[] = [];
    connection.subscribe('topic', 't1', (value) => values.push(value));
    const service = handshake();
    service.ready();
    const sub = await service.next();
    assert.deepEqual(sub, { t: 'sub', sid: sub.sid, topic: 'topic', key: 't1' });
    await answer(service, 'first', 1);
    await answer(service, 'second', 2);
    assert.deepEqual(await Promise.all(calls), [1, 2]);
    // Ports keep their order: once the second update is in, the first was handled (and dropped).
    service.send({ t: 'upd', sid: 12345, value: 'for nobody' });
    service.send({ t: 'upd', sid: sub.sid, value: { status: 'PENDING' } });
    await until(() => values.length > 0);
    assert.deepEqual(values, [{ status: 'PENDING' }]);
  });

  test('unsubscribing sends unsub once; pushed events reach onEvent', async () => {
    const { connection, connected, events } = setup();
    const service = await connected();
    const stop = connection.subscribe('video', 'g1', () => {});
    const sub = await service.next();
    stop();
    stop();
    assert.deepEqual(await service.next(), { t: 'unsub', sid: sub.sid });
    service.send({ t: 'evt', name: 'videoSaved', payload: { videoId: 'v1' } });
    // The next message after the unsub is this call's: no second unsub went out.
    const call = connection.call('ping');
    await answer(service, 'ping', 'pong');
    await call;
    assert.deepEqual(events, [['videoSaved', { videoId: 'v1' }]]);
  });

  test('a call gets no answer within its limit: TimeoutError naming the method, the limit and where it waited', async () => {
    const { connection, connected } = setup({ callTimeout: 1000 });
    const early = connection.call('searchTopic');
    mock.timers.tick(1000);
    await assert.rejects(early, {
      name: 'TimeoutError',
      message:
        'searchTopic got no answer within 1000 ms (the service iframe was not connected). Try again, or pass a larger timeout.',
    });
    const service = await connected();
    const late = connection.call('getVideo');
    const longer = connection.call('renderVideo', undefined, { timeout: 3000 });
    await service.next();
    await service.next();
    mock.timers.tick(999);
    assert.equal(await state(late), 'pending');
    mock.timers.tick(1);
    await assert.rejects(late, (error) => {
      assert.ok(error instanceof TimeoutError);
      assert.equal(error.message, 'getVideo got no answer within 1000 ms. Try again, or pass a larger timeout.');
      assert.deepEqual(error.data, { method: 'getVideo', timeout: 1000 });
      return true;
    });
    // One timer serves every call: it is armed again for the longer one.
    assert.equal(await state(longer), 'pending');
    mock.timers.tick(2000);
    await assert.rejects(longer, { message: /^renderVideo got no answer within 3000 ms\./ });
  });

  test("an abort rejects the call with the signal's reason, and its answer is dropped", async () => {
    const { connection, connected } = setup();
    const service = await connected();
    const controller = new AbortController();
    const call = connection.call('searchTopic', undefined, { signal: controller.signal });
    const sent = await service.next();
    const reason = new Error('the user cancelled');
    controller.abort(reason);
    await assert.rejects(call, (error) => error === reason);
    service.send({ t: 'ok', id: sent.id, value: 'late' });
    const aborted = new AbortController();
    aborted.abort(new Error('before the call'));
    await assert.rejects(connection.call('getVideo', undefined, { signal: aborted.signal }), /before the call/);
    // Nothing went out for the aborted one: the next message is this call.
    const next = connection.call('ping');
    await answer(service, 'ping', 1);
    assert.equal(await next, 1);
  });

  test('arguments that cannot be cloned are refused, naming the method', async () => {
    const { connection, connected } = setup();
    await connected();
    await assert.rejects(connection.call('createVideo', { onDone: () => {} }), (error) => {
      assert.ok(error instanceof InvalidParameterError);
      assert.match(error.message, /^The arguments of createVideo cannot be sent: pass plain data only\. /);
      assert.deepEqual(error.data, { field: 'createVideo' });
      return true;
    });
  });
});

describe('destroy', () => {
  test('rejects what waits, and every later call, with its error; the frame is no longer heard', async () => {
    const { connection, connected, connects, hello } = setup();
    const service = await connected();
    const pending = connection.call('getVideo');
    await service.next();
    connection.destroy();
    assert.equal(connection.state, 'destroyed');
    await assert.rejects(pending, (error) => {
      assert.ok(error instanceof DestroyedError);
      assert.equal(error.message, 'cleanup() ended this call: create a new Plugin.');
      return true;
    });
    await assert.rejects(connection.call('getVideo'), DestroyedError);
    await assert.rejects(connection.whenConnected(), DestroyedError);
    hello();
    assert.equal(connects.length, 1, 'a hello after destroy() was answered');
    // A second destroy changes nothing.
    connection.destroy(new DestroyedError('again'));
    await assert.rejects(connection.call('getVideo'), { message: 'cleanup() ended this call: create a new Plugin.' });
  });

  test('with an error of its own, that error; and no timer of the connection fires afterwards', async () => {
    let asked = 0;
    mock.method(globalThis, 'fetch', async () => {
      asked++;
      throw new TypeError('fetch failed');
    });
    const { connection, reloads } = setup({ explain: new URL(`${SERVICE}/api/diagnose`) });
    const pending = connection.call('getVideo');
    const reason = new DestroyedError('the element was removed');
    connection.destroy(reason);
    await assert.rejects(pending, (error) => error === reason);
    mock.timers.tick(60_000);
    await state(Promise.resolve());
    assert.equal(asked, 0);
    assert.equal(reloads(), 0);
  });
});
