// The partner's bad input through every public method and option of `Plugin` and `<video-plugin>`:
// generated wrong values (seeded, test/support/generate.ts) for every field → the documented error
// class, naming the field and saying what to do, and nothing sent to the service. "Nothing sent" is
// counted on MessagePort.prototype.postMessage (the host's only way to reach a connected service
// page) and proven live by a real call before and after each table.
import { expect } from '@open-wc/testing';
import type { VideoPluginElement } from '../../src/element/index.js';
import '../../src/element/index.js';
import { InvalidParameterError, InvalidTokenError, VideoPluginError } from '../../src/errors.js';
import { Plugin } from '../../src/plugin.js';
import { EVENT_NAMES } from '../../src/wire/api.js';
import {
  CONFLICTS,
  METHOD_ROWS,
  SEED,
  WHAT_TO_DO,
  cases,
  constructorRows,
  expectInvalid,
  failure,
  fn,
  id,
  isHttpURL,
  spyPorts,
  timeout,
  url,
  valueOf,
  type Row,
} from '../support/bad-input.js';
import { Random, wrongValues, type FieldSpec } from '../support/generate.js';
import { cleanupPlugins, createPlugin, signUp, testConfig, token } from '../support/plugin.js';
import { countResources } from '../support/resources.js';

let ports: ReturnType<typeof spyPorts> | undefined;
const elements: VideoPluginElement[] = [];

afterEach(async () => {
  ports?.restore();
  ports = undefined;
  const plugins = elements.map((el) => el.plugin).filter((plugin) => plugin !== undefined);
  for (const el of elements.splice(0)) el.remove();
  await Promise.all(plugins.map((plugin) => plugin.cleanup()));
  await cleanupPlugins();
});

/**
 * Runs every generated case of `rows` (and the conflicts) against `target`, connected and signed
 * in, and checks that nothing was posted; a real call before and after proves the spy counts.
 */
async function refusesEverything(target: Plugin): Promise<number> {
  ports = spyPorts();
  const sentinel = async (label: string) => {
    const before = ports!.count;
    expect(await target.getVideos()).to.deep.equal([]);
    expect(ports!.count, `${label}: the sentinel call is counted`).to.equal(before + 1);
  };
  await sentinel('before');
  let checked = 0;
  for (const [index, row] of METHOD_ROWS.entries()) {
    for (const { wrong, label } of cases(row, index)) {
      const before = ports.count;
      const error = await failure(() => row.call(target, valueOf(row, wrong)), row.sync, label);
      expectInvalid(error, row.field, label, wrong.unknownKey);
      expect(ports.count, `${label}: sent ${ports.since(before)}`).to.equal(before);
      checked++;
    }
  }
  for (const { field, options } of CONFLICTS) {
    const label = `openPlugin(${JSON.stringify(options)})`;
    const before = ports.count;
    expectInvalid(await failure(() => target.openPlugin(options), false, label), field, label);
    expect(ports.count, label).to.equal(before);
    checked++;
  }
  await sentinel('after');
  return checked;
}

/** A `<video-plugin>` for the test partner on the test service; connected unless told otherwise. */
async function element(configure: (el: VideoPluginElement) => void = () => {}, connect = true) {
  const { serviceURL } = await testConfig();
  const el = document.createElement('video-plugin');
  el.setAttribute('partner-id', 'test-partner');
  el.setAttribute('service-url', serviceURL);
  configure(el);
  elements.push(el);
  if (connect) document.body.append(el);
  return el;
}

/** Resolves with the `detail` of the element's next `error` event. */
function nextError(el: VideoPluginElement): Promise<VideoPluginError> {
  return new Promise((resolve) => el.addEventListener('error', (event) => resolve(event.detail), { once: true }));
}

describe('bad input: Plugin', () => {
  it('the constructor throws InvalidParameterError naming each bad option, and creates no iframe, listener, timer or port', async () => {
    const { serviceURL } = await testConfig();
    const created: Plugin[] = [];
    const iframes = { count: 0 };
    const createElement = document.createElement;
    document.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
      if (tag.toLowerCase() === 'iframe') iframes.count++;
      return createElement.call(this, tag, options);
    } as typeof document.createElement;
    const resources = countResources();
    try {
      for (const [index, row] of constructorRows(serviceURL).entries()) {
        for (const { wrong, label } of cases(row, 1000 + index)) {
          const error = await failure(
            () => created.push(row.call(undefined as never, valueOf(row, wrong)) as Plugin),
            true,
            label,
          );
          expectInvalid(error, row.field, label, wrong.unknownKey);
          expect(iframes.count, label).to.equal(0);
          expect(resources.live(), label).to.deep.equal({ listeners: 0, timers: 0, ports: 0 });
        }
      }
      // The sentinel: a valid construction is seen by both counters.
      const plugin = new Plugin('test-partner', { serviceURL });
      expect(iframes.count).to.equal(1);
      expect(resources.live().listeners).to.be.greaterThan(0);
      await plugin.cleanup();
      expect(resources.live()).to.deep.equal({ listeners: 0, timers: 0, ports: 0 });
    } finally {
      resources.restore();
      document.createElement = createElement;
      await Promise.all(created.map((plugin) => plugin.cleanup()));
    }
  });

  it('every method refuses every generated bad argument with InvalidParameterError naming it, and sends nothing', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const checked = await refusesEverything(plugin);
    expect(plugin.isOpen).to.equal(false);
    expect(checked).to.be.greaterThan(400);
  }).timeout(20000);

  // The page checks only that a token is a string of 1 to 8192 characters (the table above); the
  // service judges everything else (README "Tokens are judged by the service only").
  it('tokens that cannot work are sent once and refused by the service with InvalidTokenError and its code', async () => {
    const plugin = await createPlugin();
    const accountID = await signUp(plugin);
    const random = new Random(SEED);
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789-_';
    const b64 = (value: unknown) =>
      btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const header = b64({ alg: 'HS256', typ: 'JWT' });
    const tokens: [string, string][] = [
      [random.string(1 + random.int(200), letters), 'token_malformed'],
      [`${random.string(10, letters)}.${random.string(10, letters)}`, 'token_malformed'],
      [`${header}.${random.string(20, 'abcdefgh')}.sig`, 'token_malformed'],
      [`${header}.${b64([1, 2])}.sig`, 'token_malformed'],
      [`${header}.${b64('text')}.sig`, 'token_malformed'],
      [await token('create', { partnerID: 'other-partner' }), 'token_unknown_issuer'],
      [await token('login', { partnerID: 'other-partner', accountID: 'acct_1' }), 'token_unknown_issuer'],
    ];
    ports = spyPorts();
    for (const [value, code] of tokens) {
      for (const method of ['createAccount', 'loginAccount'] as const) {
        const label = `${method}(${value.slice(0, 40)}) (seed ${SEED})`;
        const before = ports.count;
        const error = await failure(() => plugin[method](value), false, label);
        expect(error, label).to.be.instanceOf(InvalidTokenError);
        expect((error as InvalidTokenError).code, label).to.equal(code);
        if (code === 'token_unknown_issuer') {
          expect((error as InvalidTokenError).message, label)
            .to.contain('other-partner')
            .and.contain('test-partner');
        }
        expect(ports.count, label).to.equal(before + 1);
      }
    }
    // The sentinel: a valid token is sent.
    const login = await token('login', { accountID });
    const before = ports.count;
    expect((await plugin.loginAccount(login)).id).to.equal(accountID);
    expect(ports.count).to.equal(before + 1);
  });
});

describe('bad input: <video-plugin>', () => {
  it('every forwarded method refuses every generated bad argument the same way, and sends nothing', async () => {
    const el = await element();
    await el.createAccount(await token('create'));
    expect(await refusesEverything(el as unknown as Plugin)).to.be.greaterThan(400);
  }).timeout(20000);

  it('synchronous methods validate at once before the element is connected, the same way', async () => {
    const el = await element(() => {}, false);
    const rows = METHOD_ROWS.filter((row) => row.sync);
    for (const [index, row] of rows.entries()) {
      for (const { wrong, label } of cases(row, 2000 + index)) {
        expectInvalid(await failure(() => row.call(el as never, valueOf(row, wrong)), true, label), row.field, label);
      }
    }
    expect(el.plugin).to.equal(undefined);
  });

  /**
   * Each attribute, and which strings it accepts (to leave out generated values that an attribute,
   * always a string, turns valid). An empty attribute means "not set", which only partner-id refuses.
   */
  const ATTRIBUTES: { attribute: string; spec: FieldSpec; valid: (value: string) => boolean }[] = [
    { attribute: 'partner-id', spec: id, valid: (v) => v.length >= 1 && v.length <= 256 },
    {
      attribute: 'environment',
      spec: { kind: 'enum', values: ['prod', 'demo'] },
      valid: (v) => /^(|prod|demo)$/.test(v),
    },
    {
      attribute: 'auth-mode',
      spec: { kind: 'enum', values: ['jwt', 'uncontrolled'] },
      valid: (v) => /^(|jwt|uncontrolled)$/.test(v),
    },
    { attribute: 'service-url', spec: url, valid: (v) => v === '' || isHttpURL(v) },
    ...['connect-timeout', 'call-timeout'].map((attribute) => ({
      attribute,
      spec: timeout,
      valid: (v: string) => v === '' || (Number(v) > 0 && Number(v) <= 600_000),
    })),
  ];

  it('bad attribute values dispatch an error event naming the attribute, never throw, and build nothing', async () => {
    ports = spyPorts();
    // The sentinel: valid attributes (an empty one means "not set") build a Plugin and its iframe.
    const valid = await element((el) => el.setAttribute('connect-timeout', ''));
    const errors: VideoPluginError[] = [];
    valid.addEventListener('error', (event) => errors.push(event.detail));
    await valid.getVideos();
    expect(errors).to.deep.equal([]);
    expect(valid.shadowRoot!.querySelector('iframe')).to.not.equal(null);
    expect(ports.count).to.equal(1);
    const before = ports.count;
    let checked = 0;
    for (const [index, { attribute, spec, valid: isValid }] of ATTRIBUTES.entries()) {
      const seed = SEED + 3000 + index;
      const values = new Set(
        wrongValues(spec, new Random(seed))
          .filter(({ value }) => typeof value !== 'symbol')
          .map(({ value }) => String(value))
          .filter((value) => !isValid(value)),
      );
      for (const value of values) {
        const label = `${attribute}="${value.slice(0, 40)}" (seed ${seed})`;
        const el = await element(() => {}, false);
        const failed = nextError(el);
        expect(() => el.setAttribute(attribute, value), label).to.not.throw();
        document.body.append(el);
        const error = await failed;
        expect(error, label).to.be.instanceOf(InvalidParameterError);
        expect(error.data?.field, label).to.equal(attribute);
        expect(error.message, label).to.contain(`the ${attribute} attribute`).and.match(WHAT_TO_DO);
        expect(error.message.length, label).to.be.below(400);
        expect(el.plugin, label).to.equal(undefined);
        expect(el.shadowRoot!.querySelector('iframe'), label).to.equal(null);
        el.remove();
        checked++;
      }
    }
    expect(ports.count).to.equal(before);
    expect(checked).to.be.greaterThan(40);
  });

  it('bad property values dispatch an error event naming the property, never throw, and build nothing', async () => {
    const properties: { property: string; field: string; spec: FieldSpec; base?: () => Record<string, unknown> }[] = [
      { property: 'partnerID', field: 'partner-id', spec: id },
      { property: 'environment', field: 'environment', spec: { kind: 'enum', values: ['prod', 'demo'] } },
      { property: 'authMode', field: 'auth-mode', spec: { kind: 'enum', values: ['jwt', 'uncontrolled'] } },
      { property: 'serviceURL', field: 'service-url', spec: url },
      { property: 'debug', field: 'debug', spec: { kind: 'boolean' } },
      { property: 'connectTimeout', field: 'connect-timeout', spec: timeout },
      { property: 'callTimeout', field: 'call-timeout', spec: timeout },
      { property: 'editor', field: 'editor', spec: { kind: 'object', keys: ['labels'] }, base: () => ({}) },
    ];
    ports = spyPorts();
    let checked = 0;
    for (const [index, { property, field, spec, base }] of properties.entries()) {
      const row: Row = { field, spec, nullable: true, call: () => {}, ...(base ? { base } : {}) };
      for (const { wrong, label } of cases(row, 4000 + index)) {
        // An empty string, like null, means "not set".
        if (wrong.value === '') continue;
        const el = await element(() => {}, false);
        const failed = nextError(el);
        expect(() => Object.assign(el, { [property]: valueOf(row, wrong) }), label).to.not.throw();
        document.body.append(el);
        const error = await failed;
        expect(error, label).to.be.instanceOf(InvalidParameterError);
        expect(error.data?.field, label).to.equal(field);
        expect(error.message, label).to.contain(field).and.match(WHAT_TO_DO);
        expect(error.message.length, label).to.be.below(400);
        if (wrong.unknownKey !== undefined) expect(error.message, label).to.contain(JSON.stringify(wrong.unknownKey));
        expect(el.plugin, label).to.equal(undefined);
        el.remove();
        checked++;
      }
    }
    expect(ports.count).to.equal(0);
    expect(checked).to.be.greaterThan(100);
    // The sentinel: a valid element's call is counted.
    await (await element()).getVideos();
    expect(ports.count).to.equal(1);
  });

  it('bad callbacks dispatch an error event naming the key, and keep the session without sending anything', async () => {
    const el = await element();
    const accountID = await el.createAccount(await token('create'));
    const plugin = el.plugin;
    ports = spyPorts();
    const rows: Row[] = [
      {
        field: 'callbacks',
        spec: { kind: 'object', keys: EVENT_NAMES },
        nullable: true,
        base: () => ({}),
        call: () => {},
      },
      ...EVENT_NAMES.map((name): Row => ({ field: `callbacks.${name}`, spec: fn, call: () => {} })),
    ];
    for (const [index, row] of rows.entries()) {
      for (const { wrong, label } of cases(row, 5000 + index)) {
        const name = row.field.split('.')[1];
        const failed = nextError(el);
        el.callbacks = (name ? { [name]: wrong.value } : valueOf(row, wrong)) as never;
        const error = await failed;
        expectInvalid(error, row.field, label, wrong.unknownKey);
      }
    }
    el.callbacks = undefined;
    expect(el.plugin).to.equal(plugin);
    expect(ports.count).to.equal(0);
    expect((await el.getAccountInfo()).id).to.equal(accountID);
    expect(ports.count).to.equal(1);
  });
});
