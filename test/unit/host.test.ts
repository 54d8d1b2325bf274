// The host side of the wire (src/wire/host.ts) against a fake service frame on Node's own
// MessageChannel, with node:test's mock timers (and `performance.now()` on their clock): the
// handshake and which hellos it drops, calls and their replies, the time limits, the replay after a
// reload (the configuration, the subscriptions, the calls that may be sent again), the hold while
// `onConnected` restores a session, why a silent frame is silent, and what `destroy()` releases.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { PAGE_ORIGIN, postToWindow } from './support/dom.js';
import {
  ConnectionError,
  DestroyedError,
  FrameBlockedError,
  InvalidParameterError,
  NotFoundError,
  OriginNotAllowedError,
  serializeError,
  TimeoutError,
} from '../../src/errors.js';
import { HostConnection, type HostConnectionOptions } from '../../src/wire/host.js';
import { PROTOCOL_VERSION } from '../../src/wire/protocol.js';

const SERVICE = 'http://127.0.0.1:8001';
const CHANNEL = 'channel-1';
const SRC = `${SERVICE}/embed#channel=${CHANNEL}&v=${PROTOCOL_VERSION}`;

/** Every service port of the file's tests: closed after each, so that no leak keeps the process alive. */
const servicePorts: MessagePort[] = [];

/** The service's end of one connection: what the host sent on the port, in order, and a way to answer. */
class ServicePort {
  readonly #received: unknown[] = [];
  #wake: (() => void) | undefined;
  readonly port: MessagePort;
  /** The `connect` message that brought this port. */
  readonly connect: Record<string, unknown>;

  constructor(port: MessagePort, connect: Record<string, unknown>) {
    this.port = port;
    this.connect = connect;
    servicePorts.push(port);
    port.onmessage = (event: MessageEvent) => {
      this.#received.push(event.data);
      this.#wake?.();
    };
  }

  /** The next message the host sends on this port (ports keep their order). */
  async next(): Promise<Record<string, unknown>> {
    while (!this.#received.length) await new Promise<void>((resolve) => (this.#wake = resolve));
    return this.#received.shift() as Record<string, unknown>;
  }

  /** How many messages arrived that {@link next} has not taken yet. */
  get waiting(): number {
    return this.#received.length;
  }

  send(message: unknown): void {
    this.port.postMessage(message);
  }

  ready(info?: Record<string, unknown>): void {
    this.send({ t: 'ready', ...(info ? { info } : {}) });
  }
}

const connections: HostConnection[] = [];

/** A connection to a fake frame; `hello()` plays the frame's page saying hello, and returns its port. */
function setup(options: Partial<HostConnectionOptions> = {}) {
  const connects: ServicePort[] = [];
  const targets: string[] = [];
  const contentWindow = {
    postMessage(message: Record<string, unknown>, targetOrigin: string, transfer: MessagePort[]) {
      assert.equal(transfer.length, 1, 'the connect message carries one port');
      targets.push(targetOrigin);
      connects.push(new ServicePort(transfer[0]!, message));
    },
  };
  const iframe = Object.assign(new EventTarget(), { contentWindow, isConnected: true, src: SRC });
  const events: [string, unknown][] = [];
  const logged: unknown[][] = [];
  let configs = 0;
  let reloads = 0;
  let disconnects = 0;
  const connection = new HostConnection({
    iframe: iframe as unknown as HTMLIFrameElement,
    serviceOrigin: SERVICE,
    channel: CHANNEL,
    sdkVersion: '9.9.9',
    config: () => ({ configs: ++configs }),
    connectTimeout: 10_000,
    callTimeout: 5000,
    onEvent: (name, payload) => events.push([name, payload]),
    onDisconnected: () => disconnects++,
    reload: () => reloads++,
    log: (...line) => logged.push(line),
    ...options,
  });
  connections.push(connection);
  const hello = (message: Record<string, unknown> = {}, { source = contentWindow as unknown, origin = SERVICE } = {}) =>
    postToWindow({ videoPlugin: 'hello', v: PROTOCOL_VERSION, channel: CHANNEL, ...message }, source, origin);
  /** A hello, and the port of the connect it brought. */
  const handshake = (): ServicePort => {
    const before = connects.length;
    hello();
    assert.equal(connects.length, before + 1, 'the hello brought no connect');
    return connects.at(-1)!;
  };
  /** Handshake and ready: a connected connection and the service's port. */
  const connected = async (info?: Record<string, unknown>): Promise<ServicePort> => {
    const service = handshake();
    service.ready(info);
    await connection.whenConnected();
    return service;
  };
  return {
    connection,
    iframe,
    connects,
    targets,
    events,
    logged,
    hello,
    handshake,
    connected,
    reloads: () => reloads,
    disconnects: () => disconnects,
    configs: () => configs,
  };
}

/** How a promise stands once the pending port messages and microtasks have run. */
async function state(promise: Promise<unknown>): Promise<'pending' | { value: unknown } | { error: unknown }> {
  let result: 'pending' | { value: unknown } | { error: unknown } = 'pending';
  promise.then(
    (value) => (result = { value }),
    (error) => (result = { error }),
  );
  // setImmediate is not mocked: one turn of the event loop lets a port message through.
  for (let turn = 0; turn < 3; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  return result;
}

/**
 * Waits, turn by turn of the event loop, until `done()` holds: a port message arrives in a later turn,
 * however busy the machine (no clock involved).
 */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; !done(); turn++) {
    assert.ok(turn < 1000, 'the awaited state never came');
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Answers the next call on `service` with `value`, checking its method. */
async function answer(service: ServicePort, method: string, value: unknown): Promise<Record<string, unknown>> {
  const call = await service.next();
  assert.equal(call.t, 'call');
  assert.equal(call.method, method);
  service.send({ t: 'ok', id: call.id, value });
  return call;
}

beforeEach(() => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  // Node 20's mock timers take a missing delay as NaN: once the clock is past 0, tick() never runs
  // such a timer (host.ts waits a task with `setTimeout(resolve)`). A real timer takes it as 0.
  // reset() puts the real setTimeout back over this.
  const mocked = globalThis.setTimeout;
  globalThis.setTimeout = ((callback: () => void, delay = 0) => mocked(callback, delay)) as typeof setTimeout;
  // The call deadlines read performance.now(): on the mocked clock too.
  mock.method(performance, 'now', () => Date.now());
});

afterEach(() => {
  for (const connection of connections.splice(0)) connection.destroy();
  for (const port of servicePorts.splice(0)) port.close();
  mock.timers.reset();
  mock.restoreAll();
});

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
  test('a call goes out with a unique id; ok resolves it with the value, err rejects it with the error rebuilt', async () => {
    const { connection, connected } = setup();
    const service = await connected();
    const first = connection.call('searchTopic', { q: 'bread' });
    const second = connection.call('getVideo', { id: 'v1' });
    const [a, b] = [await service.next(), await service.next()];
    assert.deepEqual(a, { t: 'call', id: a.id, method: 'searchTopic', params: { q: 'bread' } });
    assert.equal(b.method, 'getVideo');
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
