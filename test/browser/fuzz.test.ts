// Hostile input: thousands of forged messages, generated with a fixed seed (test/support/fuzz.ts),
// posted by a hostile script of this page and by a hostile sibling frame on another origin at the
// host's window and at the service frame, and by the wire fixture itself on the real port. Nothing
// may be resolved, rejected, emitted or changed, and no exception may reach the page.
//
// Proving that nothing happened: every test awaits positive sentinels ordered after the flood (a
// marker posted by the same party to the same window, a refusal to a last connect, an echo on a
// port the flooded frame captured last, real calls), and a tripwire fails it at once when anything
// a forged message could cause is seen.
import { expect } from '@open-wc/testing';
import { DestroyedError } from '../../src/errors.js';
import { Frame } from '../../src/frame.js';
import type { Plugin } from '../../src/plugin.js';
import { EVENT_NAMES } from '../../src/wire/api.js';
import { HostConnection } from '../../src/wire/host.js';
import { HANDSHAKE_KEY, PROTOCOL_VERSION, frameHash } from '../../src/wire/protocol.js';
import type { HostileCommand, HostileReport } from '../fixtures/hostile.js';
import { FUZZ_COUNT, FUZZ_SEED, forgeMessages, type ForgedMessage, type FuzzContext } from '../support/fuzz.js';
import { Attacker, summarize, type Tally } from '../support/fuzz-attacker.js';
import { BUSINESS_URL, channelOf, cleanupPlugins, createPlugin, rejection, signUp } from '../support/plugin.js';

const frameOrigin = `http://127.0.0.1:${location.port}`;
const fixture = `${frameOrigin}/test/fixtures/wire-service.html`;
/** The seed offset of each posting party, so that each posts its own corpus. */
const PARTY = { page: 0, sibling: 1, service: 2 } as const;

// ---- What must not happen ----

const pageErrors: string[] = [];
window.addEventListener('error', (event) => pageErrors.push(String(event.message)));
window.addEventListener('unhandledrejection', (event) => pageErrors.push(String(event.reason)));
let prototypeKeys: string[];

/** Removes what a test added to the page, even when it failed half-way. */
const cleanups: (() => void)[] = [];

beforeEach(() => {
  pageErrors.length = 0;
  prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** No exception reached the page, and no prototype was touched. */
function expectNoHarm(): void {
  expect(pageErrors, 'exceptions that reached the page').to.deep.equal([]);
  expect(Object.getOwnPropertyNames(Object.prototype)).to.deep.equal(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
}

/** Fails the test at once when anything a forged message could cause is seen. */
class Tripwire {
  readonly #tripped: Promise<never>;
  #reject!: (error: Error) => void;
  constructor() {
    this.#tripped = new Promise((_, reject) => (this.#reject = reject));
    this.#tripped.catch(() => {});
  }
  trip = (what: string): void => this.#reject(new Error(`forged input got through: ${what}`));
  /** `promise`, unless the wire trips first. */
  guard<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.#tripped]);
  }
}

/** Resolves when this window receives `{ fuzzMarker: marker }` from `source`. */
function windowMarker(source: MessageEventSource | null, marker: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent): void => {
      if (event.source !== source || (event.data as { fuzzMarker?: unknown })?.fuzzMarker !== marker) return;
      window.removeEventListener('message', onMessage);
      resolve();
    };
    window.addEventListener('message', onMessage);
  });
}

/** The browser took exactly the messages the generator called postable, for every target. */
function expectTally(tally: Tally, messages: readonly ForgedMessage[], targets: number): void {
  const unpostable = messages.filter((m) => !m.postable).length;
  expect(tally.mislabeled, 'messages whose postability the generator got wrong').to.deep.equal([]);
  expect(tally).to.deep.include({ posted: (messages.length - unpostable) * targets, unpostable: unpostable * targets });
}

/** The corpus covers every shape, well-formed and not, postable and not, and each hostile value. */
function expectCoverage(messages: readonly ForgedMessage[]): void {
  expect(new Set(messages.map((m) => m.shape)).size).to.equal(13);
  expect(messages.filter((m) => m.wellFormed).length).to.be.greaterThan(100);
  expect(messages.filter((m) => !m.postable).length).to.be.greaterThan(20);
  expect(messages.filter((m) => m.ports !== 'none').length).to.be.greaterThan(200);
  for (const needle of ['1 MB', 'nesting 10k', 'nesting 1k', '__proto__', 'constructor', 'getters', 'Proxy']) {
    expect(messages.filter((m) => m.mutation.includes(needle)).length, needle).to.be.greaterThan(5);
  }
}

/** A connect that passes the service's checks of source, shape, channel, version and port. */
const actionable = (m: ForgedMessage): boolean =>
  m.shape === 'connect' && m.wellFormed && m.postable && m.ports !== 'none';

/**
 * Floods as a hostile script of this page: every message at this window and at the service frame,
 * then a marker at this window and one last well-formed connect at the frame. Resolves once both
 * sentinels are back and every actionable connect got its answer; trips on any other answer.
 */
async function pageFlood(target: Window, context: FuzzContext, tripwire: Tripwire): Promise<Attacker> {
  const messages = forgeMessages(FUZZ_SEED + PARTY.page, FUZZ_COUNT, context);
  expectCoverage(messages);
  const attacker = new Attacker(context);
  void attacker
    .when((r) => summarize(r.data) !== 'refused')
    .then((r) => tripwire.trip(`${summarize(r.data)} to #${r.index}`));
  const marker = crypto.randomUUID();
  const seen = windowMarker(window, marker);
  expectTally(attacker.flood([window], messages, 'host'), messages, 1);
  expectTally(attacker.flood([target], messages, 'service'), messages, 1);
  window.postMessage({ fuzzMarker: marker }, '*');
  const { channel, config } = context;
  const sentinel = { [HANDSHAKE_KEY]: 'connect', v: PROTOCOL_VERSION, channel, sdk: 'x', config };
  attacker.post(target, { index: -1, data: sentinel, ports: 'transfer' }, 'service');
  await tripwire.guard(seen);
  await tripwire.guard(attacker.when((r) => r.index === -1));
  const expected = messages.filter(actionable).map((m) => m.index);
  expect(expected.length).to.be.greaterThan(20);
  await tripwire.guard(Promise.all(expected.map((index) => attacker.when((r) => r.index === index))));
  expect(attacker.received.map((r) => r.index)).to.have.members([...expected, -1]);
  for (const { data } of attacker.received) {
    expect(data).to.deep.equal({
      t: 'refused',
      error: {
        code: 'bad_request',
        message: 'This service page already has its host; reload the frame to connect again.',
      },
    });
  }
  return attacker;
}

// ---- The hostile sibling frame ----

interface Sibling {
  window: Window;
  /** Floods the parent and every other frame; resolves once the sibling has posted everything. */
  flood(context: FuzzContext, marker: string): Promise<{ tally: Record<'parent' | 'frames', Tally>; frames: number }>;
  /** Resolves when a frame echoed the marker on the port that came with it. */
  echoed(): Promise<unknown>;
  report(): Promise<HostileReport>;
}

async function sibling(tripwire: Tripwire): Promise<Sibling> {
  const iframe = document.createElement('iframe');
  iframe.title = 'hostile sibling';
  iframe.src = `${frameOrigin}/test/fixtures/hostile.html`;
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  document.body.append(iframe);
  const control = new MessageChannel();
  cleanups.push(() => {
    control.port1.close();
    iframe.remove();
  });
  await loaded;
  const waiting = new Map<string, (data: unknown) => void>();
  control.port1.onmessage = (event: MessageEvent<{ cmd: string; what?: string }>) => {
    if (event.data.cmd === 'breach') tripwire.trip(`the sibling received ${event.data.what}`);
    waiting.get(event.data.cmd)?.(event.data);
    waiting.delete(event.data.cmd);
  };
  const next = <T>(cmd: string): Promise<T> =>
    tripwire.guard(new Promise((resolve) => waiting.set(cmd, resolve as (data: unknown) => void)));
  const ready = next('ready');
  iframe.contentWindow!.postMessage({ hostileSetup: true }, frameOrigin, [control.port2]);
  await ready;
  const command = (command: HostileCommand): void => control.port1.postMessage(command);
  return {
    window: iframe.contentWindow!,
    flood: (context, marker) => {
      const flooded = next<{ tally: Record<'parent' | 'frames', Tally>; frames: number }>('flooded');
      command({ cmd: 'flood', seed: FUZZ_SEED + PARTY.sibling, count: FUZZ_COUNT, context, marker });
      return flooded;
    },
    echoed: () => next('marker'),
    report: async () => {
      const report = next<{ report: HostileReport }>('report');
      command({ cmd: 'report' });
      return (await report).report;
    },
  };
}

/** What a sibling reports when nothing reached it, and it could reach into `reachable` frames. */
function untouched(reachable: number): HostileReport {
  return { windowMessages: [], windowPorts: 0, portMessages: [], reachableFrames: reachable, frameErrors: [] };
}

/** Floods from a hostile sibling; checks what it posted and that its parent marker came after. */
async function siblingFlood(hostile: Sibling, context: FuzzContext, tripwire: Tripwire): Promise<string> {
  const marker = crypto.randomUUID();
  const seen = windowMarker(hostile.window, marker);
  const { tally, frames } = await hostile.flood(context, marker);
  const messages = forgeMessages(FUZZ_SEED + PARTY.sibling, FUZZ_COUNT, context);
  expectCoverage(messages);
  expect(frames, 'service frames the sibling posted to').to.equal(1);
  expectTally(tally.parent, messages, 1);
  expectTally(tally.frames, messages, 1);
  await tripwire.guard(seen);
  return marker;
}

// ---- The wire: HostConnection against the wire fixture (the real service-side module) ----

describe('fuzz: forged messages against the wire', function () {
  this.timeout(20_000);
  let frame: Frame;
  let connection: HostConnection;
  let channel: string;
  let tripwire: Tripwire;
  let held: Promise<unknown>;
  let ending: boolean;
  let ticks: unknown[];
  let documentId: unknown;
  let connected: number;

  beforeEach(async () => {
    tripwire = new Tripwire();
    ending = false;
    connected = 0;
    ticks = [];
    channel = crypto.randomUUID();
    frame = new Frame({ src: `${fixture}${frameHash(channel)}`, title: 'wire fixture' });
    connection = new HostConnection({
      iframe: frame.iframe,
      serviceOrigin: frameOrigin,
      channel,
      sdkVersion: 'fuzz',
      config: () => ({ partner: 'p1' }),
      onEvent: (name) => tripwire.trip(`event ${name}`),
      onConnected: () => ++connected > 1 && tripwire.trip('a second handshake'),
      onDisconnected: () => tripwire.trip('a disconnect'),
    });
    // Ids are sequential per connection: calls #1–#3 are answered, subscription #4 is live,
    // call #5 is held (the fixture never answers it in time), and the forge calls come next.
    documentId = await connection.call('documentId');
    await connection.call('echo', 2);
    await connection.call('echo', 3);
    connection.subscribe('ticker', 'k', (value) => {
      ticks.push(value);
      const sent = (value as { value?: unknown }).value;
      if (sent !== 'initial' && sent !== 'real') tripwire.trip(`update ${JSON.stringify(value)}`);
    });
    held = connection.call('slow', 600_000, { timeout: 600_000 });
    held.then(
      () => tripwire.trip('the held call resolved'),
      (error) => ending || tripwire.trip(`the held call rejected: ${error}`),
    );
    await connection.call('echo', 'subscribed');
    expect(ticks).to.have.length(1);
  });

  afterEach(() => {
    ending = true;
    connection.destroy();
    frame.destroy();
  });

  /** Same document, same host, the subscription alive, the held call still pending until destroyed. */
  async function expectUnchanged(): Promise<void> {
    const call = (method: string, params?: unknown) => tripwire.guard(connection.call(method, params));
    expect(await call('documentId')).to.equal(documentId);
    expect(await call('hostOrigin')).to.equal(location.origin);
    expect(await call('config')).to.deep.equal({ partner: 'p1' });
    expect(await call('tick', { key: 'k', value: 'real' })).to.equal(true);
    await call('echo', 'after the tick');
    expect(ticks).to.have.length(2);
    expect({ state: connection.state, connected }).to.deep.equal({ state: 'connected', connected: 1 });
    ending = true;
    connection.destroy();
    expect(await rejection(held)).to.be.instanceOf(DestroyedError);
    expectNoHarm();
  }

  it("the service frame's own malformed hellos and port messages, replies to ids never sent and duplicate replies change nothing", async () => {
    const context: FuzzContext = {
      channel,
      config: { partner: 'p1' },
      ids: [0, 1, 2, 3, 4, -1, 0.5, 2 ** 31],
      sids: [0, 1, 2, 3, 5, 6, -4],
      ports: false,
    };
    // What a real service may send is not forged: a well-formed hello restarts the handshake, and
    // well-formed events and state changes are its to send.
    const legitimate = new Set(['hello', 'ready', 'refused', 'bye', 'evt']);
    const messages = forgeMessages(FUZZ_SEED + PARTY.service, FUZZ_COUNT, context).filter(
      (m) => m.postable && !(m.wellFormed && legitimate.has(m.shape)),
    );
    expect(messages.length).to.be.greaterThan(FUZZ_COUNT * 0.7);
    expect(messages.filter((m) => m.shape === 'ok' && m.wellFormed).length).to.be.greaterThan(20);
    expect(
      messages.filter((m) => m.shape === 'hello' && m.mutation.includes('wrong channel')).length,
    ).to.be.greaterThan(5);
    expect(
      messages.filter((m) => m.shape === 'hello' && m.mutation.includes('wrong version')).length,
    ).to.be.greaterThan(5);
    const marker = crypto.randomUUID();
    const seen = windowMarker(frame.iframe.contentWindow, marker);
    // The fixture posts each at this window (right source and origin) and on the real port; the
    // call's own answer comes after them on that port, the marker after them at this window.
    const posted = await tripwire.guard(
      connection.call('forge', [...messages.map((m) => m.data), { fuzzMarker: marker }]),
    );
    expect(posted).to.equal(messages.length + 1);
    await tripwire.guard(seen);
    await expectUnchanged();
  });

  it('a hostile page script flooding the host window and the service frame changes nothing; a well-formed connect is only refused', async () => {
    const context: FuzzContext = {
      channel,
      config: { partner: 'p1' },
      ids: Array.from({ length: 12 }, (_, i) => i),
      sids: Array.from({ length: 12 }, (_, i) => i),
      ports: true,
    };
    // A sibling of the fixture's origin only watches, counting the fixture frame's uncaught errors.
    const watcher = await sibling(tripwire);
    const attacker = await pageFlood(frame.iframe.contentWindow!, context, tripwire);
    await expectUnchanged();
    expect(await watcher.report()).to.deep.equal(untouched(1));
    attacker.close();
  });

  it('a hostile sibling frame flooding the parent and every frame changes nothing and is handed no port', async () => {
    const hostile = await sibling(tripwire);
    const context: FuzzContext = {
      channel,
      config: { partner: 'p1' },
      ids: Array.from({ length: 12 }, (_, i) => i),
      sids: Array.from({ length: 12 }, (_, i) => i),
      ports: true,
    };
    const marker = await siblingFlood(hostile, context, tripwire);
    // The fixture captures the port of every window message; the marker's came last from the
    // sibling, so its `forge` echoes there once every earlier message of the sibling was handled.
    const echoed = hostile.echoed();
    await tripwire.guard(connection.call('forge', [{ fuzzMarker: marker }]));
    await echoed;
    await expectUnchanged();
    // The sibling shares the fixture's origin (so its hello had the right origin but the wrong
    // source) and can reach into that frame: it counted the frame's uncaught errors too.
    expect(await hostile.report()).to.deep.equal(untouched(1));
  });
});

// ---- A logged-in Plugin against the real local service ----

describe('fuzz: forged messages against a logged-in Plugin on the real service', function () {
  this.timeout(20_000);
  let plugin: Plugin;
  let videoId: string;
  let context: FuzzContext;
  let snapshot: [unknown, unknown, unknown];
  let tripwire = new Tripwire();

  /** The session as the partner sees it: the account, its videos, its one video. */
  const session = () => Promise.all([plugin.getAccountInfo(), plugin.getVideos(), plugin.getVideoData(videoId)]);

  /** Resolves on the first status callback of a finished action; any later one trips. */
  function finished(subscribe: (callback: (payload: { status: string }) => void) => () => void): Promise<string> {
    let calls = 0;
    return new Promise((resolve) =>
      subscribe((payload) => {
        if (++calls > 1) tripwire.trip(`status callback ${JSON.stringify(payload)}`);
        resolve(payload.status);
      }),
    );
  }

  before(async () => {
    plugin = await createPlugin();
    await signUp(plugin, { firstName: 'Victim' });
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    await new Promise<void>((resolve) => {
      const stop = plugin.subscribeToTopicSearchStatusUpdates(topicId, ({ status }) => {
        if (status === 'COMPLETE') resolve(stop());
      });
    });
    const started = await plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    videoId = started.videoId;
    await new Promise<void>((resolve) => {
      const stop = plugin.subscribeToVideoGenerationStatusUpdates(started.requestId, ({ status }) => {
        if (status === 'COMPLETE') resolve(stop());
      });
    });
    // New subscriptions to finished actions: one callback each, and never another.
    const statuses = await Promise.all([
      finished((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)),
      finished((cb) => plugin.subscribeToVideoGenerationStatusUpdates(started.requestId, cb)),
    ]);
    expect(statuses).to.deep.equal(['COMPLETE', 'COMPLETE']);
    await plugin.openPlugin();
    for (const name of EVENT_NAMES) plugin.on(name, () => tripwire.trip(`event ${name}`));
    snapshot = await session();
    expect(snapshot[1]).to.have.length(1);
    context = {
      channel: channelOf(plugin),
      config: {
        partnerID: plugin.partnerID,
        authMode: 'jwt',
        isDebug: false,
        completeVideoConfirmation: { shouldShow: true, title: 't', body: 'b', confirmButton: 'y', cancelButton: 'n' },
      },
      ids: Array.from({ length: 40 }, (_, i) => i),
      sids: Array.from({ length: 40 }, (_, i) => i),
      ports: true,
    };
  });

  beforeEach(() => {
    tripwire = new Tripwire();
  });

  after(() => cleanupPlugins());

  /** Same account, same videos, the UI still open; then real calls still work. */
  async function expectUnchanged(): Promise<void> {
    expect(await tripwire.guard(session())).to.deep.equal(snapshot);
    expect(plugin.isOpen).to.equal(true);
    expectNoHarm();
  }

  it('a hostile page script flooding the host window and the service frame changes nothing; a well-formed connect is only refused', async () => {
    // Calls in flight across the flood get their real answers.
    const inFlight = session();
    const attacker = await pageFlood(plugin.iframe.contentWindow!, context, tripwire);
    expect(await tripwire.guard(inFlight)).to.deep.equal(snapshot);
    await expectUnchanged();
    attacker.close();
  });

  it('a hostile sibling frame on another origin flooding the parent and every frame changes nothing and is handed no port', async () => {
    const hostile = await sibling(tripwire);
    const inFlight = session();
    await siblingFlood(hostile, context, tripwire);
    expect(await tripwire.guard(inFlight)).to.deep.equal(snapshot);
    // The sibling is on the service's site, so in its renderer: its posts were queued to the
    // service frame before it reported back, and the real calls that follow are handled after.
    await expectUnchanged();
    // The service's origin is not the sibling's: it could not reach into that frame.
    expect(await hostile.report()).to.deep.equal(untouched(0));
  });
});
