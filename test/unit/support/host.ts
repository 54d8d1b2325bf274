// The host side of the wire (src/wire/host.ts) against a fake service frame on Node's own
// MessageChannel, for host.test.ts and host-replay.test.ts: the service's end of a connection, a
// connection to a fake frame, and node:test's mock timers (with `performance.now()` on their clock)
// around each test, every connection and port closed after it.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock } from 'node:test';
import { postToWindow } from './dom.js';
import { HostConnection, type HostConnectionOptions } from '../../../src/wire/host.js';
import { PROTOCOL_VERSION } from '../../../src/wire/protocol.js';

export const SERVICE = 'http://127.0.0.1:8001';
export const CHANNEL = 'channel-1';
export const SRC = `${SERVICE}/embed#channel=${CHANNEL}&v=${PROTOCOL_VERSION}`;

/** Every service port of the file's tests: closed after each, so that no leak keeps the process alive. */
const servicePorts: MessagePort[] = [];

/** The service's end of one connection: what the host sent on the port, in order, and a way to answer. */
export class ServicePort {
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
export function setup(options: Partial<HostConnectionOptions> = {}) {
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
export async function state(promise: Promise<unknown>): Promise<'pending' | { value: unknown } | { error: unknown }> {
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
export async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; !done(); turn++) {
    assert.ok(turn < 1000, 'the awaited state never came');
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Answers the next call on `service` with `value`, checking its method. */
export async function answer(service: ServicePort, method: string, value: unknown): Promise<Record<string, unknown>> {
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
