// The element's slot (src/element/plugin-slot.ts), with a fake Plugin and an EventTarget for the
// element: calls that wait for the next Plugin or fail with why there is none, subscriptions asked
// for before it, and each event reaching the DOM, the `on` listeners and `callbacks`, in that order.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { reported } from './support/dom.js';
import { PluginSlot, type StatusMethod } from '../../src/element/plugin-slot.js';
import { DestroyedError, InvalidParameterError, ServiceError } from '../../src/errors.js';
import type { Plugin } from '../../src/plugin.js';
import { EVENT_NAMES } from '../../src/wire/api.js';

/** A Plugin stand-in: its `on` listeners (to emit through) and the status subscriptions it was asked for. */
function fakePlugin() {
  const listeners = new Map<string, (payload: unknown) => void>();
  const subscriptions: { method: StatusMethod; id: string; callback: unknown; stopped: number }[] = [];
  const subscribe = (method: StatusMethod) => (id: string, callback: unknown) => {
    const subscription = { method, id, callback, stopped: 0 };
    subscriptions.push(subscription);
    return () => subscription.stopped++;
  };
  const plugin = {
    isDestroyed: false,
    on(name: string, listener: (payload: unknown) => void) {
      listeners.set(name, listener);
      return () => {};
    },
    subscribeToTopicSearchStatusUpdates: subscribe('subscribeToTopicSearchStatusUpdates'),
    subscribeToVideoGenerationStatusUpdates: subscribe('subscribeToVideoGenerationStatusUpdates'),
    subscribeToVideoRenderStatusUpdates: subscribe('subscribeToVideoRenderStatusUpdates'),
  };
  return { plugin, asPlugin: plugin as unknown as Plugin, listeners, subscriptions };
}

function setup() {
  const element = Object.assign(new EventTarget(), { callbacks: undefined as Record<string, unknown> | undefined });
  let wanted = 0;
  const slot = new PluginSlot(element as never, () => wanted++);
  return { slot, element, wanted: () => wanted };
}

/** How a promise stands after the microtasks queued now have run. */
async function state(promise: Promise<unknown>): Promise<'pending' | { value: unknown } | { error: unknown }> {
  let result: 'pending' | { value: unknown } | { error: unknown } = 'pending';
  promise.then(
    (value) => (result = { value }),
    (error) => (result = { error }),
  );
  await new Promise<void>((resolve) => setImmediate(resolve));
  return result;
}

beforeEach(() => {
  reported.length = 0;
});

describe('calls before, between and after Plugins', () => {
  test('a call waits for the next Plugin and asks for one; fill() hands it over and returns the previous one', async () => {
    const { slot, wanted } = setup();
    assert.equal(slot.current('openPlugin'), undefined);
    const waiting = slot.instance('openPlugin');
    const quiet = slot.instance('openPlugin', false);
    assert.equal(wanted(), 1, 'only the call that wants a Plugin asks for one');
    assert.equal(await state(waiting), 'pending');
    const first = fakePlugin();
    assert.equal(slot.fill(first.asPlugin), undefined);
    assert.equal(await waiting, first.asPlugin);
    assert.equal(await quiet, first.asPlugin);
    assert.equal(slot.plugin, first.asPlugin);
    // With a Plugin, a call goes to it at once.
    assert.equal(await slot.instance('openPlugin'), first.asPlugin);
    assert.equal(wanted(), 1);
    const second = fakePlugin();
    assert.equal(slot.fill(second.asPlugin), first.asPlugin);
  });

  test('fail(): waiting calls and every call until the next fill reject with the failure', async () => {
    const { slot } = setup();
    const waiting = slot.instance('openPlugin');
    const failure = new ServiceError('invalid_parameter', 'The service-url attribute is not a URL.');
    slot.fail(failure);
    assert.deepEqual(await state(waiting), { error: failure });
    assert.throws(
      () => slot.current('openPlugin'),
      (error) => error === failure,
    );
    // Thrown at once, as current() throws: the element's methods are async, so their callers see a rejection.
    assert.throws(
      () => slot.instance('openPlugin'),
      (error) => error === failure,
    );
    slot.fill(fakePlugin().asPlugin);
    assert.ok(slot.current('openPlugin'));
  });

  test('empty(): the Plugin is let go, waiting calls fail, later calls say the element was removed; inserted() lets them wait again', async () => {
    const { slot } = setup();
    const { asPlugin } = fakePlugin();
    slot.fill(asPlugin);
    assert.equal(slot.empty(), asPlugin);
    assert.equal(slot.plugin, undefined);
    const removed =
      /^<video-plugin>\.openEditor\(\) was called after the element was removed from the document \(its session ended\): insert it again\.$/;
    assert.throws(
      () => slot.current('openEditor'),
      (error) => error instanceof DestroyedError && removed.test(error.message),
    );

    slot.inserted();
    const waiting = slot.instance('openEditor');
    assert.equal(await state(waiting), 'pending');
    slot.empty();
    const outcome = await state(waiting);
    assert.ok(typeof outcome === 'object' && 'error' in outcome);
    assert.ok(outcome.error instanceof DestroyedError);
    assert.equal(
      outcome.error.message,
      '<video-plugin> was removed from the document before this call ran: insert it again, then retry.',
    );
  });

  test('a Plugin ended by cleanup() makes calls fail, naming the method', () => {
    const { slot } = setup();
    const { plugin, asPlugin } = fakePlugin();
    slot.fill(asPlugin);
    plugin.isDestroyed = true;
    assert.throws(
      () => slot.current('searchTopic'),
      (error) =>
        error instanceof DestroyedError &&
        error.message ===
          '<video-plugin>.searchTopic() was called after cleanup(): change an attribute or insert the element again.',
    );
  });
});

describe('status subscriptions', () => {
  test('asked for before the Plugin: checked at once, started on the next Plugin, ended through the same function', () => {
    const { slot, wanted } = setup();
    const callback = () => {};
    const stop = slot.subscribe('subscribeToVideoGenerationStatusUpdates', 'generationRequestId', 'g1', callback);
    const never = slot.subscribe('subscribeToTopicSearchStatusUpdates', 'topicSearchRequestId', 't1', callback);
    assert.equal(wanted(), 2);
    never();
    const { asPlugin, subscriptions } = fakePlugin();
    slot.fill(asPlugin);
    assert.deepEqual(
      subscriptions.map(({ method, id, callback: given }) => [method, id, given === callback]),
      [['subscribeToVideoGenerationStatusUpdates', 'g1', true]],
    );
    stop();
    assert.equal(subscriptions[0]!.stopped, 1);
    stop();
    assert.equal(subscriptions[0]!.stopped, 1, 'a second stop() ended it again');
    // Started once: the next Plugin does not get it again.
    const next = fakePlugin();
    slot.fill(next.asPlugin);
    assert.deepEqual(next.subscriptions, []);
  });

  test('with a Plugin, the subscription goes to it directly', () => {
    const { slot, wanted } = setup();
    const { asPlugin, subscriptions } = fakePlugin();
    slot.fill(asPlugin);
    const stop = slot.subscribe('subscribeToVideoRenderStatusUpdates', 'videoId', 'v1', () => {});
    assert.equal(subscriptions.length, 1);
    stop();
    assert.equal(subscriptions[0]!.stopped, 1);
    assert.equal(wanted(), 0);
  });

  test('bad arguments before the Plugin are refused, naming the field', () => {
    const { slot } = setup();
    assert.throws(
      () => slot.subscribe('subscribeToVideoGenerationStatusUpdates', 'generationRequestId', '', () => {}),
      (error) => error instanceof InvalidParameterError && /generationRequestId/.test(error.message),
    );
    assert.throws(
      () => slot.subscribe('subscribeToTopicSearchStatusUpdates', 'topicSearchRequestId', 't1', 'no' as never),
      (error) => error instanceof InvalidParameterError && /callback/.test(error.message),
    );
  });

  test('empty() drops the subscriptions still waiting for a Plugin', () => {
    const { slot } = setup();
    slot.subscribe('subscribeToVideoGenerationStatusUpdates', 'generationRequestId', 'g1', () => {});
    slot.empty();
    slot.inserted();
    const { asPlugin, subscriptions } = fakePlugin();
    slot.fill(asPlugin);
    assert.deepEqual(subscriptions, []);
  });
});

describe('events', () => {
  test("each Plugin event reaches the DOM, then `on` listeners, then `callbacks`, across the element's Plugins", () => {
    const { slot, element } = setup();
    const order: string[] = [];
    element.addEventListener('videoSaved', (event) => {
      const { detail, bubbles, composed } = event as CustomEvent;
      order.push(`dom ${JSON.stringify(detail)} ${bubbles} ${composed}`);
    });
    slot.on('videoSaved', (payload) => order.push(`on ${JSON.stringify(payload)}`));
    element.callbacks = { videoSaved: (payload: unknown) => order.push(`callbacks ${JSON.stringify(payload)}`) };
    const first = fakePlugin();
    slot.fill(first.asPlugin);
    assert.deepEqual([...first.listeners.keys()], [...EVENT_NAMES]);
    first.listeners.get('videoSaved')!({ videoId: 'v1' });
    // A rebuilt Plugin: the listeners stay with the element.
    const second = fakePlugin();
    slot.fill(second.asPlugin);
    second.listeners.get('videoSaved')!({ videoId: 'v2' });
    assert.deepEqual(order, [
      'dom {"videoId":"v1"} true true',
      'on {"videoId":"v1"}',
      'callbacks {"videoId":"v1"}',
      'dom {"videoId":"v2"} true true',
      'on {"videoId":"v2"}',
      'callbacks {"videoId":"v2"}',
    ]);
  });

  test('`error` does not bubble, and a payload-less event has detail null', () => {
    const { slot, element } = setup();
    const seen: [string, unknown, boolean][] = [];
    for (const name of ['error', 'pluginOpened'])
      element.addEventListener(name, (event) => seen.push([name, (event as CustomEvent).detail, event.bubbles]));
    slot.emit('error', new ServiceError('internal_error', 'boom') as never);
    slot.emit('pluginOpened', undefined as never);
    assert.equal(seen[0]![2], false);
    assert.ok(seen[0]![1] instanceof ServiceError);
    assert.deepEqual(seen[1], ['pluginOpened', null, true]);
  });

  test("off() removes a listener; a listener's or callback's exception is reported and stops nothing", () => {
    const { slot, element } = setup();
    const seen: string[] = [];
    const boom = new Error('partner listener');
    const quiet = () => seen.push('removed listener ran');
    slot.on('videoCreated', quiet);
    slot.off('videoCreated', quiet);
    slot.on('videoCreated', () => {
      throw boom;
    });
    slot.on('videoCreated', () => seen.push('on'));
    element.callbacks = {
      videoCreated: () => {
        throw boom;
      },
    };
    slot.emit('videoCreated', { videoId: 'v1' } as never);
    // A `callbacks` entry that is not a function is skipped.
    element.callbacks = { videoCreated: 'not a function' };
    slot.emit('videoCreated', { videoId: 'v2' } as never);
    assert.deepEqual(seen, ['on', 'on']);
    assert.deepEqual(reported, [boom, boom, boom]);
  });

  test('on() and off() check their arguments as the Plugin does', () => {
    const { slot } = setup();
    for (const call of [() => slot.on('nope' as never, () => {}), () => slot.off('nope' as never, () => {})]) {
      assert.throws(call, (error) => error instanceof InvalidParameterError && /eventName/.test(error.message));
    }
    assert.throws(
      () => slot.on('videoSaved', null as never),
      (error) => error instanceof InvalidParameterError && /callback/.test(error.message),
    );
  });
});
