/**
 * A seeded fuzzer of forged wire messages, shared by the fuzz tests and the hostile sibling frame
 * (test/fixtures/hostile.ts). The same seed gives the same messages, so a failure reproduces.
 * docs/protocol.md ("What the fuzzer covers") lists the classes.
 *
 * Each message starts as a well-formed copy of one protocol shape and gets up to two field
 * mutations and one wrapper mutation. The generator knows, independently of the code under test,
 * whether the result still passes every check of its shape (`wellFormed`) and whether the browser
 * can clone it at all (`postable`), so the tests can state exact outcomes.
 */
import { HANDSHAKE_KEY, PROTOCOL_VERSION } from '../../src/wire/protocol.js';
import { mulberry32 } from './random.js';
/** The seed of every fuzz run; each posting party adds its own offset to it. */
export const FUZZ_SEED = 0x7e57_f022;
/** Forged messages per corpus. */
export const FUZZ_COUNT = 1500;
const SHAPES = [
  'hello',
  'connect',
  'call',
  'sub',
  'unsub',
  'ready',
  'refused',
  'ok',
  'err',
  'evt',
  'upd',
  'bye',
  'garbage',
];
/** About 1 MB. */
const HUGE = 'A'.repeat(1 << 20);
/** `depth` levels of `{ a: { a: … } }`; the browser refuses to clone a few thousand levels. */
function nested(depth) {
  let value = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}
/**
 * Whether this engine's serializer takes 10,000 levels of nesting: the HTML spec sets no limit,
 * Chromium refuses it (DataCloneError) and Firefox and WebKit clone it. `structuredClone` is the
 * serializer postMessage uses, so the label follows the engine that runs the test.
 */
const DEEP_NESTING_POSTABLE = (() => {
  try {
    structuredClone(nested(10_000));
    return true;
  } catch {
    return false;
  }
})();
const ODD_VALUES = [
  { name: 'null', type: 'null', make: () => null },
  { name: 'undefined', type: 'undefined', make: () => undefined },
  { name: 'true', type: 'boolean', make: () => true },
  { name: '0', type: 'finite', make: () => 0 },
  { name: '-0', type: 'finite', make: () => -0 },
  { name: '1', type: 'finite', make: () => 1 },
  { name: '-1', type: 'finite', make: () => -1 },
  { name: '1.5', type: 'finite', make: () => 1.5 },
  { name: '2^53', type: 'finite', make: () => 2 ** 53 },
  { name: 'MAX_VALUE', type: 'finite', make: () => Number.MAX_VALUE },
  { name: 'NaN', type: 'nonfinite', make: () => NaN },
  { name: 'Infinity', type: 'nonfinite', make: () => Infinity },
  { name: '-Infinity', type: 'nonfinite', make: () => -Infinity },
  { name: 'BigInt', type: 'bigint', make: () => 10n },
  { name: 'huge BigInt', type: 'bigint', make: () => -(2n ** 100n) },
  { name: 'empty string', type: 'string', make: () => '' },
  { name: 'NUL', type: 'string', make: () => '\u0000' },
  { name: 'lone surrogate', type: 'string', make: () => '\ud800' },
  { name: 'astral', type: 'string', make: () => '𝒳🎬' },
  { name: '"__proto__"', type: 'string', make: () => '__proto__' },
  { name: '"constructor"', type: 'string', make: () => 'constructor' },
  { name: 'markup', type: 'string', make: () => '<img src=x onerror=alert(1)>' },
  { name: 'Date', type: 'object', make: () => new Date(0) },
  { name: 'invalid Date', type: 'object', make: () => new Date(NaN) },
  { name: 'Map', type: 'object', make: () => new Map([[1, { t: 'ok' }]]) },
  { name: 'Set', type: 'object', make: () => new Set(['hello']) },
  { name: 'Blob', type: 'object', make: () => new Blob(['forged']) },
  { name: 'File', type: 'object', make: () => new File(['forged'], 'forged.txt') },
  { name: 'Uint8Array', type: 'object', make: () => new Uint8Array([1, 2, 3]) },
  { name: 'Float64Array', type: 'object', make: () => new Float64Array([NaN, -0]) },
  { name: 'ArrayBuffer', type: 'object', make: () => new ArrayBuffer(16) },
  { name: 'DataView', type: 'object', make: () => new DataView(new ArrayBuffer(4)) },
  { name: 'RegExp', type: 'object', make: () => /forged/gi },
  { name: 'Error', type: 'object', make: () => new TypeError('forged') },
  { name: 'boxed String', type: 'object', make: () => new String('hello') },
  { name: 'boxed Number', type: 'object', make: () => new Number(1) },
  { name: 'empty object', type: 'object', make: () => ({}) },
  { name: 'null-prototype object', type: 'object', make: () => Object.create(null) },
  {
    name: 'getter object',
    type: 'object',
    make: () => ({
      get t() {
        return 'ok';
      },
    }),
  },
  { name: 'own __proto__', type: 'object', make: () => JSON.parse('{"__proto__":{"polluted":true}}') },
  { name: 'constructor.prototype', type: 'object', make: () => ({ constructor: { prototype: { polluted: true } } }) },
  { name: 'empty array', type: 'array', make: () => [] },
  { name: 'sparse array', type: 'array', make: () => [1, , 3] }, // eslint-disable-line no-sparse-arrays
  { name: 'holey array', type: 'array', make: () => new Array(5) },
  { name: 'function', type: undefined, make: () => () => 1 },
  { name: 'Symbol', type: undefined, make: () => Symbol('forged') },
  { name: 'object with a method', type: undefined, make: () => ({ then() {} }) },
  {
    name: 'throwing getter',
    type: undefined,
    make: () => ({
      get t() {
        throw new Error('forged getter');
      },
    }),
  },
  { name: 'Proxy', type: undefined, make: () => new Proxy({ t: 'ok' }, {}) },
  { name: 'WeakMap', type: undefined, make: () => new WeakMap() },
];
/** Whether a field of `kind` accepts `value` of `type` once cloned. */
function accepts(kind, type, value) {
  if (type === undefined) return false;
  if (typeof kind === 'object') return value === kind.exact;
  switch (kind) {
    case 'string':
      return type === 'string';
    case 'number':
      return type === 'finite';
    case 'unknown':
      return true;
    case 'object?':
      return type === 'object' || type === 'undefined';
    case 'error':
      return false;
  }
}
const SERVICE_CODES = ['origin_not_allowed', 'bad_request', 'video_not_found', 'destroyed', 'not_a_code'];
const EVENT_NAMES = ['pluginOpened', 'videoCreated', 'editorExited', 'error', '_session', '_closed', 'constructor'];
const METHODS = ['getAccountInfo', 'getVideos', 'logoutAccount', 'updateAccountInfo', 'echo', 'reload', '__proto__'];
const TOPIC_NAMES = ['topicSearch', 'videoGeneration', 'ticker', 'constructor', '__proto__'];
/** A video that would pass the SDK's checks, so that a forged one reaching a listener is loud. */
const FORGED_VIDEO = {
  id: 'video-forged',
  name: 'Forged',
  aspectRatio: '16:9',
  duration: 5,
  language: 'en-US',
  createdAt: '2020-01-01T00:00:00.000Z',
  updatedAt: '2020-01-01T00:00:00.000Z',
  isCompleted: true,
  renders: [],
};
class Random {
  constructor(seed) {
    this.next = mulberry32(seed);
  }
  int(n) {
    return Math.floor(this.next() * n);
  }
  pick(items) {
    return items[this.int(items.length)];
  }
  chance(p) {
    return this.next() < p;
  }
}
function templates(random, context) {
  const id = () => (random.chance(0.8) ? random.pick(context.ids) : 10_000 + random.int(1e9));
  const sid = () => (random.chance(0.8) ? random.pick(context.sids) : 10_000 + random.int(1e9));
  const value = () =>
    random.pick([
      'forged',
      null,
      FORGED_VIDEO,
      [FORGED_VIDEO],
      { accountID: 'account-mallory' },
      { status: 'COMPLETE' },
      { status: 'FAILED', error: { code: 'generation_failed', message: 'forged' } },
      { documentId: 'forged', value: 'forged' },
    ]);
  const error = () =>
    random.chance(0.5)
      ? { code: random.pick(SERVICE_CODES), message: 'forged' }
      : { code: random.pick(SERVICE_CODES), message: 'forged', data: { origin: 'https://evil.example' } };
  const t = (name) => ({ exact: name });
  return {
    hello: {
      fields: { [HANDSHAKE_KEY]: t('hello'), v: { exact: PROTOCOL_VERSION }, channel: { exact: context.channel } },
      make: () => ({ [HANDSHAKE_KEY]: 'hello', v: PROTOCOL_VERSION, channel: context.channel }),
    },
    connect: {
      fields: {
        [HANDSHAKE_KEY]: t('connect'),
        v: { exact: PROTOCOL_VERSION },
        channel: { exact: context.channel },
        sdk: 'string',
        config: 'unknown',
      },
      make: () => ({
        [HANDSHAKE_KEY]: 'connect',
        v: PROTOCOL_VERSION,
        channel: context.channel,
        sdk: random.pick(['0.1.0', 'evil', '']),
        config: random.chance(0.7) ? context.config : value(),
      }),
    },
    call: {
      fields: { t: t('call'), id: 'number', method: 'string', params: 'unknown' },
      make: () => ({
        t: 'call',
        id: id(),
        method: random.pick(METHODS),
        params: random.pick([undefined, { info: { firstName: 'Mallory' } }]),
      }),
    },
    sub: {
      fields: { t: t('sub'), sid: 'number', topic: 'string', key: 'string' },
      make: () => ({ t: 'sub', sid: sid(), topic: random.pick(TOPIC_NAMES), key: random.pick(['k', 'topic-x', '']) }),
    },
    unsub: { fields: { t: t('unsub'), sid: 'number' }, make: () => ({ t: 'unsub', sid: sid() }) },
    ready: {
      fields: { t: t('ready'), info: 'object?' },
      make: () => (random.chance(0.3) ? { t: 'ready' } : { t: 'ready', info: { accountID: 'account-mallory' } }),
    },
    refused: { fields: { t: t('refused'), error: 'error' }, make: () => ({ t: 'refused', error: error() }) },
    ok: { fields: { t: t('ok'), id: 'number', value: 'unknown' }, make: () => ({ t: 'ok', id: id(), value: value() }) },
    err: {
      fields: { t: t('err'), id: 'number', error: 'error' },
      make: () => ({ t: 'err', id: id(), error: error() }),
    },
    evt: {
      fields: { t: t('evt'), name: 'string', payload: 'unknown' },
      make: () => ({ t: 'evt', name: random.pick(EVENT_NAMES), payload: value() }),
    },
    upd: {
      fields: { t: t('upd'), sid: 'number', value: 'unknown' },
      make: () => ({ t: 'upd', sid: sid(), value: value() }),
    },
    bye: { fields: { t: t('bye') }, make: () => ({ t: 'bye' }) },
  };
}
const WRONG_CHANNELS = (channel) => [
  crypto.randomUUID(),
  `${channel}x`,
  channel.slice(1),
  channel.toUpperCase(),
  ` ${channel}`,
  '',
  '*',
  [channel],
  { toString: channel },
];
const WRONG_VERSIONS = [0, 2, -1, 1.5, '1', NaN, null, 1e9, 1n, [1]];
const WRONG_TAGS = ['Hello', 'OK', 'ok ', 'call\u0000', '__proto__', 'constructor', 'hasOwnProperty', 'toString'];
const EXTRA_KEYS = ['constructor', 'prototype', 'then', 'toJSON', 'valueOf', 'polluted', HANDSHAKE_KEY, 't'];
/**
 * `count` forged messages for `context`, the same for the same seed. Every shape of the protocol,
 * well-formed or mutated: wrong channel, version or tag, missing and wrongly typed fields, odd
 * values, own `__proto__`/`constructor`/`prototype` keys, 1 MB strings, deep nesting, getters,
 * proxies, cycles, JSON strings and arrays of messages, and extra ports.
 */
export function forgeMessages(seed, count, context) {
  const random = new Random(seed);
  const shapes = templates(random, context);
  const messages = [];
  for (let index = 0; index < count; index++) {
    const shape = random.chance(0.12) ? 'garbage' : random.pick(SHAPES.slice(0, -1));
    const message =
      shape === 'garbage'
        ? garbage(random, shapes, index, context)
        : mutate(random, shapes[shape], shape, index, context);
    messages.push(message);
  }
  return messages;
}
function garbage(random, shapes, index, context) {
  const roll = random.int(4);
  let data;
  let mutation;
  let postable = true;
  if (roll === 0) {
    const odd = random.pick(ODD_VALUES);
    data = odd.make();
    mutation = odd.name;
    postable = odd.type !== undefined;
  } else if (roll === 1) {
    data = random.pick(['hello', 'connect', 'ready', HANDSHAKE_KEY, '{"t":"ok","id":1,"value":1}', HUGE]);
    mutation = 'string';
  } else if (roll === 2) {
    const shape = random.pick(SHAPES.slice(0, -1));
    data = [shapes[shape].make(), shapes[shape].make()];
    mutation = `array of ${shape}`;
  } else {
    const deep = random.chance(0.5);
    data = nested(deep ? 10_000 : 1000);
    mutation = deep ? 'nesting 10k' : 'nesting 1k';
    postable = !deep || DEEP_NESTING_POSTABLE;
  }
  return withPorts(random, context, { index, shape: 'garbage', mutation, wellFormed: false, postable, data });
}
/**
 * Adds the ports a message travels with: mostly one for hello and connect, sometimes for others.
 * A port inside the data goes only into a plain object; untransferred, it makes the message
 * unpostable.
 */
function withPorts(random, context, message) {
  const handshake = message.shape === 'hello' || message.shape === 'connect';
  if (!context.ports || !random.chance(handshake ? 0.8 : 0.15)) return { ...message, ports: 'none' };
  let ports = random.pick(['transfer', 'transfer', 'transfer2', 'in-data', 'in-data-untransferred']);
  // A spread copy would unwrap a Proxy, so it keeps its port out of the data.
  if (ports.startsWith('in-data') && (!isPlainRecord(message.data) || message.mutation.includes('Proxy'))) {
    ports = 'transfer';
  }
  return { ...message, ports, postable: message.postable && ports !== 'in-data-untransferred' };
}
function isPlainRecord(data) {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const prototype = Object.getPrototypeOf(data);
  return prototype === Object.prototype || prototype === null;
}
function mutate(random, template, shape, index, context) {
  let data = template.make();
  // What each touched property does to the message; a later mutation of the same key wins.
  const touched = new Map();
  const set = (key, value, valid, postable = true) => {
    data = withKey(data, key, value);
    touched.set(key, { valid, postable });
  };
  const labels = [];
  const fields = Object.keys(template.fields);
  const tag = HANDSHAKE_KEY in template.fields ? HANDSHAKE_KEY : 't';
  const fieldMutations = random.chance(0.25) ? 0 : 1 + random.int(2);
  for (let i = 0; i < fieldMutations; i++) {
    const field = random.pick(fields);
    const kind = template.fields[field];
    const roll = random.int(100);
    if (roll < 12) {
      delete data[field];
      touched.set(field, { valid: kind === 'object?', postable: true });
      labels.push(`drop ${field}`);
    } else if (roll < 20 && 'channel' in template.fields) {
      set('channel', random.pick(WRONG_CHANNELS(context.channel)), false);
      labels.push('wrong channel');
    } else if (roll < 28 && 'v' in template.fields) {
      set('v', random.pick(WRONG_VERSIONS), false);
      labels.push('wrong version');
    } else if (roll < 34) {
      set(tag, random.pick(WRONG_TAGS), false);
      labels.push('wrong tag');
    } else if (roll < 36) {
      set(field, HUGE, kind === 'string' || kind === 'unknown');
      labels.push(`1 MB ${field}`);
    } else if (roll < 38) {
      const deep = random.chance(0.5);
      set(
        field,
        nested(deep ? 10_000 : 1000),
        kind === 'unknown' || kind === 'object?',
        !deep || DEEP_NESTING_POSTABLE,
      );
      labels.push(`${deep ? 'nesting 10k' : 'nesting 1k'} ${field}`);
    } else {
      // An odd value in a field, or under an extra key (stripped by the schemas unless it is a field).
      const key = roll < 48 ? random.pick(EXTRA_KEYS) : field;
      const odd = random.pick(ODD_VALUES);
      const value = odd.make();
      const fieldKind = Object.hasOwn(template.fields, key) ? template.fields[key] : undefined;
      set(key, value, fieldKind === undefined || accepts(fieldKind, odd.type, value), odd.type !== undefined);
      labels.push(`${key}: ${odd.name}`);
    }
  }
  const states = [...touched.values()];
  const wrapped = wrap(random, data, template);
  if (wrapped.label) labels.push(wrapped.label);
  // A wrapper that replaces the message with a fresh copy leaves none of the field mutations.
  const fieldsCount = !wrapped.replaced;
  return withPorts(random, context, {
    index,
    shape,
    mutation: labels.join('+') || 'none',
    wellFormed: wrapped.wellFormed && (!fieldsCount || states.every((state) => state.valid)),
    postable: wrapped.postable && (!fieldsCount || states.every((state) => state.postable)),
    data: wrapped.data,
  });
}
/** `data` with an own `key`, even `__proto__` (spread defines own properties; it never sets a prototype). */
function withKey(data, key, value) {
  const copy = { ...data };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}
/** One mutation of the message as a whole, or none. */
function wrap(random, data, template) {
  const fresh = JSON.stringify(template.make());
  switch (random.int(14)) {
    case 0: // An own __proto__ key holding a well-formed message, next to the real fields.
      return {
        data: { ...data, ...JSON.parse(`{"__proto__":${fresh}}`) },
        label: 'own __proto__',
        wellFormed: true,
        postable: true,
      };
    case 1: // Nothing but an own __proto__ key holding a well-formed message.
      return {
        data: JSON.parse(`{"__proto__":${fresh}}`),
        label: 'only __proto__',
        replaced: true,
        wellFormed: false,
        postable: true,
      };
    case 2:
      return {
        data: JSON.parse(`{"constructor":{"prototype":${fresh}}}`),
        label: 'constructor.prototype',
        replaced: true,
        wellFormed: false,
        postable: true,
      };
    case 3:
      return { data: fresh, label: 'JSON string', wellFormed: false, postable: true, replaced: true };
    case 4:
      return { data: [data], label: 'in an array', wellFormed: false, postable: true };
    case 5:
      return {
        data: Object.assign(Object.create(null), data),
        label: 'null prototype',
        wellFormed: true,
        postable: true,
      };
    case 6: {
      const getters = {};
      for (const [key, value] of Object.entries(data)) {
        Object.defineProperty(getters, key, { get: () => value, enumerable: true });
      }
      return { data: getters, label: 'getters', wellFormed: true, postable: true };
    }
    case 7:
      return {
        data: withKey(data, 'boom', ODD_VALUES.find((odd) => odd.name === 'throwing getter').make()),
        label: 'throwing getter',
        wellFormed: true,
        postable: false,
      };
    case 8:
      return { data: new Proxy(data, {}), label: 'Proxy', wellFormed: true, postable: false };
    case 9:
      data.self = data;
      return { data, label: 'cycle', wellFormed: true, postable: true };
    default:
      return { data, wellFormed: true, postable: true };
  }
}
/**
 * Well-formed port messages an attacker sends on a port it holds: the one it gave away with a
 * forged message (a reply from the wrong port) or one it was handed (a breach, made loud: it
 * answers every call, pushes events and updates, and as a host logs out and reloads).
 */
export function portBurst(direction, context) {
  if (direction === 'host') {
    return [
      { t: 'ready', info: { accountID: 'account-mallory' } },
      ...context.ids.map((id) => ({ t: 'ok', id, value: 'forged' })),
      ...context.sids.map((sid) => ({
        t: 'upd',
        sid,
        value: { status: 'FAILED', error: { code: 'x', message: 'forged' } },
      })),
      { t: 'evt', name: 'videoCreated', payload: FORGED_VIDEO },
      { t: 'evt', name: '_session', payload: { accountID: null } },
      { t: 'refused', error: { code: 'origin_not_allowed', message: 'forged' } },
    ];
  }
  return [
    { t: 'call', id: 1, method: 'updateAccountInfo', params: { info: { firstName: 'Mallory' } } },
    { t: 'call', id: 2, method: 'logoutAccount', params: undefined },
    { t: 'call', id: 3, method: 'reload', params: undefined },
    { t: 'sub', sid: 4, topic: 'ticker', key: 'k' },
  ];
}
/** Posts forged messages and records everything that comes back on the ports it gives away. */
export class Attacker {
  #kept;
  #waiters;
  constructor(context) {
    this.context = context;
    this.received = [];
    this.#kept = [];
    this.#waiters = [];
  }
  /** Posts every message to every target (targetOrigin `*`, as an attacker would). */
  flood(targets, messages, direction) {
    const tally = { posted: 0, unpostable: 0, mislabeled: [] };
    for (const message of messages) {
      let wrong = false;
      for (const target of targets) {
        const posted = this.post(target, message, direction);
        if (posted) tally.posted++;
        else tally.unpostable++;
        if (posted !== message.postable && !wrong) {
          wrong = true;
          tally.mislabeled.push(`${message.index} ${message.mutation}: ${posted ? 'posted' : 'refused'}`);
        }
      }
    }
    return tally;
  }
  /** Posts one message with fresh ports, then sends a burst of replies on the ends it keeps. */
  post(target, message, direction) {
    const channels = { none: 0, transfer: 1, transfer2: 2, 'in-data': 1, 'in-data-untransferred': 1 }[message.ports];
    const pairs = Array.from({ length: channels }, () => new MessageChannel());
    const transfer = message.ports === 'in-data-untransferred' ? [] : pairs.map((pair) => pair.port2);
    let data = message.data;
    if (message.ports.startsWith('in-data')) data = { ...data, port: pairs[0].port2 };
    try {
      target.postMessage(data, '*', transfer);
    } catch {
      for (const pair of pairs) pair.port1.close();
      return false;
    }
    for (const { port1 } of pairs) {
      this.#kept.push(port1);
      port1.onmessage = (event) => this.#record({ index: message.index, data: event.data });
      for (const reply of portBurst(direction, this.context)) port1.postMessage(reply);
    }
    return true;
  }
  /** Resolves with the first received message (past or future) that passes `test`. */
  when(test) {
    const found = this.received.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }
  close() {
    for (const port of this.#kept.splice(0)) port.close();
  }
  #record(received) {
    this.received.push(received);
    for (const waiter of this.#waiters.filter((w) => w.test(received))) waiter.resolve(received);
    this.#waiters = this.#waiters.filter((w) => !w.test(received));
  }
}
/** A short, clonable description of a message, for reports. */
export function summarize(data) {
  if (typeof data !== 'object' || data === null) return typeof data;
  const record = data;
  const tag = record.t ?? record[HANDSHAKE_KEY];
  return typeof tag === 'string' ? tag.slice(0, 40) : Object.keys(record).slice(0, 5).join(',');
}
//# sourceMappingURL=fuzz.js.map
