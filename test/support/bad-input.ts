// The bad-input tables of bad-input.test.ts: every argument of every method and every constructor
// option with the kind of its field (FieldSpec), the inputs wrong only together, and the checks a
// refusal must pass (the documented error, naming the field and saying what to do; thrown or
// rejected as the method's kind says; nothing posted on a MessagePort). The values are generated
// from the specs (test/support/generate.ts) with a fixed seed.
import { expect } from '@open-wc/testing';
import { InvalidParameterError } from '../../src/errors.js';
import { Plugin } from '../../src/plugin.js';
import { ACCOUNT_FIELD_LIMITS, ASPECT_RATIOS, DURATIONS, EVENT_NAMES, LANGUAGES } from '../../src/wire/api.js';
import { Random, wrongValues, type FieldSpec, type Wrong } from './generate.js';
import { BUSINESS_URL } from './plugin.js';

/** Change it to explore other values; each failure message names the seed of its row. */
export const SEED = 20261122;

export const id: FieldSpec = { kind: 'string', min: 1, max: 256 };
// A token, or the function that returns one: a function's wrong results are plugin.test.ts's.
const tokenSpec: FieldSpec = { kind: 'string', min: 1, max: 8192, orFunction: true };
export const timeout: FieldSpec = { kind: 'timeout', max: 600_000 };
export const url: FieldSpec = { kind: 'url' };
export const fn: FieldSpec = { kind: 'function' };
const CONFIRMATION_KEYS = ['shouldShow', 'title', 'body', 'confirmButton', 'cancelButton'];
// Each account field and its limit, from the one contract (pinned to the documented values and
// checked at every door by packages/service/test/http/account-fields.test.ts).
const ACCOUNT_FIELDS: [string, number][] = Object.entries(ACCOUNT_FIELD_LIMITS);

/** One argument or option: how to pass a value there, and what the error must name. */
export interface Row {
  /** The `data.field` the error must carry (and its message name). */
  field: string;
  spec: FieldSpec;
  required?: boolean;
  /** `null` is accepted (an optional options object). */
  nullable?: boolean;
  /** Synchronous methods throw; the others must reject, never throw. */
  sync?: boolean;
  /** For objects: the valid fields an unknown key is added to. */
  base?: () => Record<string, unknown>;
  call: (target: Plugin, value: unknown) => unknown;
}

export function isHttpURL(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol) && value.length <= 2048;
  } catch {
    return false;
  }
}

/** `{a: {b: value}}` for the path `a.b`. */
function nest(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

const generation = () => ({ topicId: 'topic-1', aspectRatio: '16:9', duration: 5 });

/**
 * Every argument of every method. The element forwards the same signatures to its `Plugin`, so one
 * table serves both (`target` is either).
 */
export const METHOD_ROWS: Row[] = [
  { field: 'createAccountToken', spec: tokenSpec, required: true, call: (t, v) => t.createAccount(v as never) },
  { field: 'loginAccountToken', spec: tokenSpec, required: true, call: (t, v) => t.loginAccount(v as never) },
  {
    field: 'newAccountInfo',
    spec: { kind: 'object', keys: ACCOUNT_FIELDS.map(([name]) => name) },
    required: true,
    base: () => ({ lastName: 'Lovelace' }),
    call: (t, v) => t.updateAccountInfo(v as never),
  },
  ...ACCOUNT_FIELDS.map(([name, max]): Row => ({
    field: `newAccountInfo.${name}`,
    spec: { kind: 'string', min: 0, max },
    call: (t, v) => t.updateAccountInfo({ [name]: v } as never),
  })),
  { field: 'videoID', spec: id, required: true, call: (t, v) => t.getVideoData(v as never) },
  { field: 'sourceURL', spec: url, required: true, call: (t, v) => t.startTopicSearch(v as never) },
  {
    field: 'videoGenerationParams',
    spec: { kind: 'object', keys: Object.keys(generation()) },
    required: true,
    base: generation,
    call: (t, v) => t.startVideoGeneration(v as never),
  },
  ...(
    [
      ['topicId', id, true],
      ['aspectRatio', { kind: 'enum', values: ASPECT_RATIOS }, true],
      ['duration', { kind: 'numberLiteral', values: DURATIONS }, true],
      ['videoInstructions', { kind: 'string', min: 0, max: 2000 }, false],
      ['language', { kind: 'enum', values: LANGUAGES }, false],
    ] as [string, FieldSpec, boolean][]
  ).map(([name, spec, required]): Row => ({
    field: `videoGenerationParams.${name}`,
    spec,
    required,
    call: (t, v) => t.startVideoGeneration({ ...generation(), [name]: v } as never),
  })),
  {
    field: 'topicId',
    spec: id,
    required: true,
    sync: true,
    call: (t, v) => t.subscribeToTopicSearchStatusUpdates(v as never, () => {}),
  },
  {
    field: 'callback',
    spec: fn,
    required: true,
    sync: true,
    call: (t, v) => t.subscribeToTopicSearchStatusUpdates('topic-1', v as never),
  },
  {
    field: 'generationRequestId',
    spec: id,
    required: true,
    sync: true,
    call: (t, v) => t.subscribeToVideoGenerationStatusUpdates(v as never, () => {}),
  },
  {
    field: 'callback',
    spec: fn,
    required: true,
    sync: true,
    call: (t, v) => t.subscribeToVideoGenerationStatusUpdates('request-1', v as never),
  },
  {
    field: 'videoId',
    spec: id,
    required: true,
    sync: true,
    call: (t, v) => t.subscribeToVideoRenderStatusUpdates(v as never, () => {}),
  },
  {
    field: 'callback',
    spec: fn,
    required: true,
    sync: true,
    call: (t, v) => t.subscribeToVideoRenderStatusUpdates('video-1', v as never),
  },
  { field: 'domElement', spec: { kind: 'element' }, required: true, call: (t, v) => t.mount(v as never) },
  {
    field: 'isHidden',
    spec: { kind: 'boolean' },
    call: (t, v) => t.mount(document.createElement('div'), v as never),
  },
  {
    field: 'options',
    spec: {
      kind: 'object',
      keys: ['sourceURL', 'sourceUrl', 'businessURL', 'topicId', 'generationRequestId', 'timeout'],
    },
    nullable: true,
    base: () => ({}),
    call: (t, v) => t.openPlugin(v as never),
  },
  ...(
    [
      ['sourceURL', url],
      ['sourceUrl', url],
      ['businessURL', url],
      ['topicId', id],
      ['generationRequestId', id],
      ['timeout', timeout],
    ] as [string, FieldSpec][]
  ).map(([name, spec]): Row => ({
    field: `options.${name}`,
    spec,
    call: (t, v) => t.openPlugin({ [name]: v } as never),
  })),
  { field: 'videoID', spec: id, required: true, call: (t, v) => t.openEditorForVideo(v as never) },
  {
    field: 'options',
    spec: { kind: 'object', keys: ['timeout'] },
    nullable: true,
    base: () => ({}),
    call: (t, v) => t.openEditorForVideo('video-1', v as never),
  },
  {
    field: 'options.timeout',
    spec: timeout,
    call: (t, v) => t.openEditorForVideo('video-1', { timeout: v } as never),
  },
  ...(['on', 'off'] as const).flatMap((method): Row[] => [
    {
      field: 'eventName',
      spec: { kind: 'enum', values: EVENT_NAMES },
      required: true,
      sync: true,
      call: (t, v) => t[method](v as never, () => {}),
    },
    { field: 'callback', spec: fn, required: true, sync: true, call: (t, v) => t[method]('pluginOpened', v as never) },
  ]),
];

/** Inputs that are wrong together, though each field alone is fine. */
export const CONFLICTS: { field: string; options: Record<string, unknown> }[] = [
  { field: 'options.sourceURL', options: { sourceURL: BUSINESS_URL, businessURL: 'https://other.example/' } },
  { field: 'options.sourceURL', options: { sourceURL: BUSINESS_URL, sourceUrl: 'https://other.example/' } },
  { field: 'options', options: { sourceURL: BUSINESS_URL, topicId: 'topic-1' } },
  { field: 'options', options: { topicId: 'topic-1', generationRequestId: 'request-1' } },
  { field: 'options', options: { businessURL: BUSINESS_URL, generationRequestId: 'request-1' } },
];

/** Every constructor argument and option, down to the confirmation modal's labels. */
export function constructorRows(serviceURL: string): Row[] {
  const create = (options: Record<string, unknown>) => new Plugin('test-partner', { serviceURL, ...options });
  const option = (path: string, spec: FieldSpec, extra: Partial<Row> = {}): Row => ({
    field: `options.${path}`,
    spec,
    sync: true,
    call: (_t, v) => create(nest(path, v)),
    ...extra,
  });
  const confirmation = 'editor.labels.completeVideoConfirmation';
  return [
    {
      field: 'partnerID',
      spec: id,
      required: true,
      sync: true,
      call: (_t, v) => new Plugin(v as never, { serviceURL }),
    },
    {
      field: 'options',
      spec: {
        kind: 'object',
        keys: [
          'environment',
          'domElement',
          'authMode',
          'editor',
          'callbacks',
          'isDebug',
          'serviceURL',
          'connectTimeout',
          'callTimeout',
        ],
      },
      nullable: true,
      sync: true,
      base: () => ({ serviceURL }),
      call: (_t, v) => new Plugin('test-partner', v as never),
    },
    option('environment', { kind: 'enum', values: ['prod', 'demo'] }),
    option('domElement', { kind: 'element' }),
    option('authMode', { kind: 'enum', values: ['jwt', 'uncontrolled'] }),
    option(
      'editor',
      { kind: 'object', keys: ['labels'] },
      { base: () => ({}), call: (_t, v) => create({ editor: v }) },
    ),
    option(
      'editor.labels',
      { kind: 'object', keys: ['completeVideoConfirmation'] },
      { base: () => ({}), call: (_t, v) => create({ editor: { labels: v } }) },
    ),
    option(
      confirmation,
      { kind: 'object', keys: CONFIRMATION_KEYS },
      { base: () => ({ shouldShow: true }), call: (_t, v) => create(nest(confirmation, v)) },
    ),
    option(`${confirmation}.shouldShow`, { kind: 'boolean' }),
    option(`${confirmation}.title`, { kind: 'string', min: 1, max: 2048 }),
    option(`${confirmation}.body`, { kind: 'string', min: 1, max: 4096 }),
    option(`${confirmation}.confirmButton`, { kind: 'string', min: 1, max: 2048 }),
    option(`${confirmation}.cancelButton`, { kind: 'string', min: 1, max: 2048 }),
    option(
      'callbacks',
      { kind: 'object', keys: EVENT_NAMES },
      { base: () => ({ pluginOpened: () => {} }), call: (_t, v) => create({ callbacks: v }) },
    ),
    ...EVENT_NAMES.map((name) => option(`callbacks.${name}`, fn)),
    option('isDebug', { kind: 'boolean' }),
    option('serviceURL', url, { call: (_t, v) => new Plugin('test-partner', { serviceURL: v as never }) }),
    option('connectTimeout', timeout),
    option('callTimeout', timeout),
  ];
}

/** The wrong values of `row`, each with the seed that reproduces it. */
export function cases(row: Row, index: number): { wrong: Wrong; label: string }[] {
  const seed = SEED + index;
  return wrongValues(row.spec, new Random(seed), { required: row.required, nullable: row.nullable }).map((wrong) => ({
    wrong,
    label: `${row.field} = ${wrong.label} (seed ${seed})`,
  }));
}

/** The value to pass: an unknown key goes next to valid fields, so that it is the only fault. */
export function valueOf(row: Row, wrong: Wrong): unknown {
  return wrong.unknownKey !== undefined && row.base
    ? { ...row.base(), ...(wrong.value as Record<string, unknown>) }
    : wrong.value;
}

/** What `run` threw (sync) or rejected with (async); fails when it did the other, or nothing. */
export async function failure(run: () => unknown, sync: boolean | undefined, label: string): Promise<unknown> {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    if (sync) return error;
    throw new Error(`${label}: threw synchronously, but this method must return a rejected promise`, {
      cause: error,
    });
  }
  if (sync) throw new Error(`${label}: returned instead of throwing`);
  expect(result, label).to.be.instanceOf(Promise);
  try {
    await result;
  } catch (error) {
    return error;
  }
  throw new Error(`${label}: resolved instead of rejecting`);
}

export const WHAT_TO_DO = /\bmust\b|\bis required\b|remove it|\bpass (only|at most)\b/i;

/** The documented error: its class and code, the field in `data.field` and in a short message. */
export function expectInvalid(error: unknown, field: string, label: string, unknownKey?: string): void {
  expect(error, label).to.be.instanceOf(InvalidParameterError);
  const { code, data, message } = error as InvalidParameterError;
  expect(code, label).to.equal('invalid_parameter');
  expect(data?.field, label).to.equal(field);
  expect(message, label).to.contain(field);
  expect(message, label).to.match(WHAT_TO_DO);
  // A 1 MB value is described, never echoed.
  expect(message.length, label).to.be.below(400);
  if (unknownKey !== undefined) expect(message, label).to.contain(JSON.stringify(unknownKey));
}

/** Counts what the page posts on any MessagePort: calls, subscriptions, unsubscriptions. */
export function spyPorts() {
  const original = MessagePort.prototype.postMessage;
  const posted: unknown[] = [];
  MessagePort.prototype.postMessage = function (this: MessagePort, ...args: [unknown, never]) {
    posted.push(args[0]);
    return original.apply(this, args);
  };
  return {
    get count() {
      return posted.length;
    },
    /** The messages posted since `from`, for failure messages. */
    since: (from: number) => JSON.stringify(posted.slice(from)).slice(0, 300),
    restore: () => {
      MessagePort.prototype.postMessage = original;
    },
  };
}
