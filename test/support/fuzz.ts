/**
 * A seeded fuzzer of forged wire messages, shared by the fuzz tests and the hostile sibling frame
 * (test/fixtures/hostile.ts). The same seed gives the same messages, so a failure reproduces.
 * docs/protocol.md ("What the fuzzer covers") lists the classes.
 *
 * Each message starts as a well-formed copy of one protocol shape and gets up to two field
 * mutations and one wrapper mutation. The generator knows, independently of the code under test,
 * whether the result still passes every check of its shape (`wellFormed`) and whether the browser
 * can clone it at all (`postable`), so the tests can state exact outcomes. The odd values are in
 * fuzz-values.ts, the attacker that posts the messages and exploits ports in fuzz-attacker.ts.
 */
import { HANDSHAKE_KEY, PROTOCOL_VERSION } from '../../src/wire/protocol.js';
import { type FieldKind, HUGE, nested, DEEP_NESTING_POSTABLE, ODD_VALUES, accepts } from './fuzz-values.js';
import { mulberry32 } from './random.js';

/** The seed of every fuzz run; each posting party adds its own offset to it. */
export const FUZZ_SEED = 0x7e57_f022;

/** Forged messages per corpus. */
export const FUZZ_COUNT = 1500;

/** What the attacker knows of its victim: at worst everything the embedding page can read. */
export interface FuzzContext {
  /** The victim's channel id (a page script can read it from the iframe URL). */
  channel: string;
  /** A host configuration the service would accept in `connect`. */
  config: unknown;
  /** Call ids worth forging replies to (pending, answered, or never sent). */
  ids: number[];
  /** Subscription ids worth forging updates for. */
  sids: number[];
  /** Whether messages may transfer ports (not when they are relayed as call parameters). */
  ports: boolean;
}

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
] as const;
export type Shape = (typeof SHAPES)[number];

/** How a message carries ports: none, one or two transferred, or one inside the data too. */
export type PortUse = 'none' | 'transfer' | 'transfer2' | 'in-data' | 'in-data-untransferred';

export interface ForgedMessage {
  /** Position in the corpus. */
  index: number;
  shape: Shape;
  /** The mutations applied, joined with `+`; `none` for a well-formed copy. */
  mutation: string;
  /** Whether it still passes every check of its shape: schema, channel and version. */
  wellFormed: boolean;
  /** Whether the browser can clone it (functions, symbols and proxies cannot; 10k-deep nesting, per engine). */
  postable: boolean;
  data: unknown;
  ports: PortUse;
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
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

type Template = { fields: Record<string, FieldKind>; make: () => Record<string, unknown> };

function templates(random: Random, context: FuzzContext): Record<Exclude<Shape, 'garbage'>, Template> {
  const id = (): number => (random.chance(0.8) ? random.pick(context.ids) : 10_000 + random.int(1e9));
  const sid = (): number => (random.chance(0.8) ? random.pick(context.sids) : 10_000 + random.int(1e9));
  const value = (): unknown =>
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
  const error = (): Record<string, unknown> =>
    random.chance(0.5)
      ? { code: random.pick(SERVICE_CODES), message: 'forged' }
      : { code: random.pick(SERVICE_CODES), message: 'forged', data: { origin: 'https://evil.example' } };
  const t = (name: string): { exact: string } => ({ exact: name });
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

const WRONG_CHANNELS = (channel: string): unknown[] => [
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
const WRONG_VERSIONS: unknown[] = [0, 2, -1, 1.5, '1', NaN, null, 1e9, 1n, [1]];
const WRONG_TAGS: unknown[] = [
  'Hello',
  'OK',
  'ok ',
  'call\u0000',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
];
const EXTRA_KEYS = ['constructor', 'prototype', 'then', 'toJSON', 'valueOf', 'polluted', HANDSHAKE_KEY, 't'];

/**
 * `count` forged messages for `context`, the same for the same seed. Every shape of the protocol,
 * well-formed or mutated: wrong channel, version or tag, missing and wrongly typed fields, odd
 * values, own `__proto__`/`constructor`/`prototype` keys, 1 MB strings, deep nesting, getters,
 * proxies, cycles, JSON strings and arrays of messages, and extra ports.
 */
export function forgeMessages(seed: number, count: number, context: FuzzContext): ForgedMessage[] {
  const random = new Random(seed);
  const shapes = templates(random, context);
  const messages: ForgedMessage[] = [];
  for (let index = 0; index < count; index++) {
    const shape: Shape = random.chance(0.12) ? 'garbage' : random.pick(SHAPES.slice(0, -1));
    const message =
      shape === 'garbage'
        ? garbage(random, shapes, index, context)
        : mutate(random, shapes[shape], shape, index, context);
    messages.push(message);
  }
  return messages;
}

function garbage(
  random: Random,
  shapes: ReturnType<typeof templates>,
  index: number,
  context: FuzzContext,
): ForgedMessage {
  const roll = random.int(4);
  let data: unknown;
  let mutation: string;
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
    const shape = random.pick(SHAPES.slice(0, -1)) as Exclude<Shape, 'garbage'>;
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
function withPorts(random: Random, context: FuzzContext, message: Omit<ForgedMessage, 'ports'>): ForgedMessage {
  const handshake = message.shape === 'hello' || message.shape === 'connect';
  if (!context.ports || !random.chance(handshake ? 0.8 : 0.15)) return { ...message, ports: 'none' };
  let ports = random.pick(['transfer', 'transfer', 'transfer2', 'in-data', 'in-data-untransferred'] as const);
  // A spread copy would unwrap a Proxy, so it keeps its port out of the data.
  if (ports.startsWith('in-data') && (!isPlainRecord(message.data) || message.mutation.includes('Proxy'))) {
    ports = 'transfer';
  }
  return { ...message, ports, postable: message.postable && ports !== 'in-data-untransferred' };
}

function isPlainRecord(data: unknown): data is Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const prototype = Object.getPrototypeOf(data) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function mutate(
  random: Random,
  template: Template,
  shape: Exclude<Shape, 'garbage'>,
  index: number,
  context: FuzzContext,
): ForgedMessage {
  let data: Record<string, unknown> = template.make();
  // What each touched property does to the message; a later mutation of the same key wins.
  const touched = new Map<string, { valid: boolean; postable: boolean }>();
  const set = (key: string, value: unknown, valid: boolean, postable = true): void => {
    data = withKey(data, key, value);
    touched.set(key, { valid, postable });
  };
  const labels: string[] = [];
  const fields = Object.keys(template.fields);
  const tag = HANDSHAKE_KEY in template.fields ? HANDSHAKE_KEY : 't';
  const fieldMutations = random.chance(0.25) ? 0 : 1 + random.int(2);
  for (let i = 0; i < fieldMutations; i++) {
    const field = random.pick(fields);
    const kind = template.fields[field]!;
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
function withKey(data: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...data };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** One mutation of the message as a whole, or none. */
function wrap(
  random: Random,
  data: Record<string, unknown>,
  template: Template,
): { data: unknown; label?: string; wellFormed: boolean; postable: boolean; replaced?: boolean } {
  const fresh = JSON.stringify(template.make());
  switch (random.int(14)) {
    case 0: // An own __proto__ key holding a well-formed message, next to the real fields.
      return {
        data: { ...data, ...(JSON.parse(`{"__proto__":${fresh}}`) as object) },
        label: 'own __proto__',
        wellFormed: true,
        postable: true,
      };
    case 1: // Nothing but an own __proto__ key holding a well-formed message.
      return {
        data: JSON.parse(`{"__proto__":${fresh}}`) as unknown,
        label: 'only __proto__',
        replaced: true,
        wellFormed: false,
        postable: true,
      };
    case 2:
      return {
        data: JSON.parse(`{"constructor":{"prototype":${fresh}}}`) as unknown,
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
        data: Object.assign(Object.create(null) as object, data),
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
        data: withKey(data, 'boom', ODD_VALUES.find((odd) => odd.name === 'throwing getter')!.make()),
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

/** Where a message goes: to the host (as if from the service) or to the service (as if from the host). */
export type Direction = 'host' | 'service';

/**
 * Well-formed port messages an attacker sends on a port it holds: the one it gave away with a
 * forged message (a reply from the wrong port) or one it was handed (a breach, made loud: it
 * answers every call, pushes events and updates, and as a host logs out and reloads).
 */
export function portBurst(direction: Direction, context: FuzzContext): unknown[] {
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
