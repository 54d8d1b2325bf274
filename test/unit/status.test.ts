// The status subscriptions (src/status.ts), against a fake upstream: one upstream subscription per
// topic and id, shared; each update delivered once and in order; a late subscriber's current
// status; the unsubscribe paths; and the async iterators that end after a final status.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { reported } from './support/dom.js';
import { StatusSubscriptions, type StatusPayload } from '../../src/status.js';

/** One subscription the fake upstream was asked for. */
interface Upstream {
  topic: string;
  key: string;
  push: (value: unknown) => void;
  stopped: number;
}

function setup() {
  const opened: Upstream[] = [];
  const logged: unknown[][] = [];
  const statuses = new StatusSubscriptions(
    {
      subscribe(topic, key, callback) {
        const upstream: Upstream = { topic, key, push: callback, stopped: 0 };
        opened.push(upstream);
        return () => upstream.stopped++;
      },
    },
    (...line) => logged.push(line),
  );
  return { statuses, opened, logged };
}

const update = (status: StatusPayload['status'], fraction?: number): StatusPayload =>
  ({ id: 't1', status, ...(fraction === undefined ? {} : { progress: { fraction } }) }) as unknown as StatusPayload;

/** Lets queued microtasks run (a late subscriber's current status comes in one). */
const microtasks = () => new Promise<void>((resolve) => queueMicrotask(resolve));

beforeEach(() => {
  reported.length = 0;
});

describe('subscribe', () => {
  test('shares one upstream subscription per topic and id, and opens another for another id', () => {
    const { statuses, opened } = setup();
    statuses.subscribe('topic', 'a', () => {});
    statuses.subscribe('topic', 'a', () => {});
    statuses.subscribe('topic', 'b', () => {});
    statuses.subscribe('video', 'a', () => {});
    assert.deepEqual(
      opened.map(({ topic, key }) => `${topic}:${key}`),
      ['topic:a', 'topic:b', 'video:a'],
    );
  });

  test('delivers each update to every subscriber, in order, once', () => {
    const { statuses, opened } = setup();
    const first: string[] = [];
    const second: string[] = [];
    statuses.subscribe('topic', 'a', (p) => first.push(`${p.status}${p.progress?.fraction ?? ''}`));
    statuses.subscribe('topic', 'a', (p) => second.push(`${p.status}${p.progress?.fraction ?? ''}`));
    const push = opened[0]!.push;
    push(update('PENDING'));
    push(update('PENDING'));
    push(update('PROCESSING', 0.2));
    push(update('PROCESSING', 0.2));
    push(update('PROCESSING', 0.5));
    push(update('COMPLETE'));
    push(update('COMPLETE'));
    assert.deepEqual(first, ['PENDING', 'PROCESSING0.2', 'PROCESSING0.5', 'COMPLETE']);
    assert.deepEqual(second, first);
  });

  test('drops an update older than the last one delivered: a slow re-read after a newer update', () => {
    const { statuses, opened } = setup();
    const seen: string[] = [];
    statuses.subscribe('topic', 'a', (p) => seen.push(`${p.status}${p.progress?.fraction ?? ''}`));
    const push = opened[0]!.push;
    push(update('PROCESSING', 0.6));
    push(update('PROCESSING', 0.4));
    push(update('PENDING'));
    push(update('FAILED'));
    // FAILED and COMPLETE rank alike: once final, the other final status is not delivered either.
    push(update('COMPLETE'));
    push(update('PROCESSING', 0.9));
    assert.deepEqual(seen, ['PROCESSING0.6', 'FAILED']);
  });

  test('drops, and logs, an update whose status is unknown or missing, without changing the order', () => {
    const { statuses, opened, logged } = setup();
    const seen: string[] = [];
    statuses.subscribe('topic', 'a', (p) => seen.push(p.status));
    const push = opened[0]!.push;
    const bad = [{ status: 'DONE' }, { status: 'constructor' }, { status: 'toString' }, {}, null, undefined];
    for (const payload of bad) push(payload);
    push(update('PENDING'));
    assert.deepEqual(seen, ['PENDING']);
    assert.deepEqual(
      logged.map(([message, payload]) => [message, payload]),
      bad.map((payload) => ['dropped', payload]),
    );
  });

  test('gives a late subscriber the current status in a microtask, unless it unsubscribed first', async () => {
    const { statuses, opened } = setup();
    statuses.subscribe('topic', 'a', () => {});
    opened[0]!.push(update('PROCESSING', 0.3));
    const late: StatusPayload[] = [];
    const gone: StatusPayload[] = [];
    statuses.subscribe('topic', 'a', (p) => late.push(p));
    statuses.subscribe('topic', 'a', (p) => gone.push(p))();
    assert.deepEqual(late, [], 'the current status came synchronously');
    await microtasks();
    assert.deepEqual(late, [update('PROCESSING', 0.3)]);
    assert.deepEqual(gone, []);
    assert.equal(opened.length, 1, 'a late subscriber opened another upstream subscription');
  });

  test('the same callback subscribed twice is two subscribers: ending one leaves the other', () => {
    const { statuses, opened } = setup();
    const seen: string[] = [];
    const callback = (p: StatusPayload) => seen.push(p.status);
    const stopFirst = statuses.subscribe('topic', 'a', callback);
    statuses.subscribe('topic', 'a', callback);
    opened[0]!.push(update('PENDING'));
    assert.deepEqual(seen, ['PENDING', 'PENDING']);
    stopFirst();
    stopFirst();
    opened[0]!.push(update('PROCESSING'));
    assert.deepEqual(seen, ['PENDING', 'PENDING', 'PROCESSING']);
    assert.equal(opened[0]!.stopped, 0, 'the upstream subscription ended while a subscriber was left');
  });

  test('the last unsubscribe ends the upstream subscription once; a new subscriber opens a fresh one', () => {
    const { statuses, opened } = setup();
    const stops = [statuses.subscribe('topic', 'a', () => {}), statuses.subscribe('topic', 'a', () => {})];
    opened[0]!.push(update('COMPLETE'));
    for (const stop of stops) stop();
    stops[1]!();
    assert.equal(opened[0]!.stopped, 1);
    const seen: string[] = [];
    statuses.subscribe('topic', 'a', (p) => seen.push(p.status));
    assert.equal(opened.length, 2);
    // The fresh subscription has no order yet: the service's first answer is delivered.
    opened[1]!.push(update('PENDING'));
    assert.deepEqual(seen, ['PENDING']);
  });

  test("reports a subscriber's exception and still delivers to the others", () => {
    const { statuses, opened } = setup();
    const boom = new Error('partner bug');
    const seen: string[] = [];
    statuses.subscribe('topic', 'a', () => {
      throw boom;
    });
    statuses.subscribe('topic', 'a', (p) => seen.push(p.status));
    opened[0]!.push(update('PENDING'));
    assert.deepEqual(seen, ['PENDING']);
    assert.deepEqual(reported, [boom]);
  });

  test('a subscriber that unsubscribes another during a delivery does not stop that delivery', () => {
    const { statuses, opened } = setup();
    const seen: string[] = [];
    let stopSecond = () => {};
    statuses.subscribe('topic', 'a', () => stopSecond());
    stopSecond = statuses.subscribe('topic', 'a', (p) => seen.push(p.status));
    opened[0]!.push(update('PENDING'));
    opened[0]!.push(update('PROCESSING'));
    assert.deepEqual(seen, ['PENDING']);
  });
});

describe('stop', () => {
  test('ends every upstream subscription, and a later subscribe opens a new one', () => {
    const { statuses, opened } = setup();
    statuses.subscribe('topic', 'a', () => {});
    statuses.subscribe('video', 'b', () => {});
    statuses.stop();
    assert.deepEqual(
      opened.map((upstream) => upstream.stopped),
      [1, 1],
    );
    statuses.subscribe('topic', 'a', () => {});
    assert.equal(opened.length, 3);
  });
});

describe('updates', () => {
  const iterate = (
    statuses: StatusSubscriptions,
    signal?: AbortSignal,
    check: () => void = () => {},
  ): AsyncGenerator<StatusPayload, void> =>
    statuses.updates(
      (callback) => statuses.subscribe('topic', 'a', callback),
      () => signal,
      check,
    );

  test('yields the updates in order, ends after a final status and unsubscribes', async () => {
    for (const final of ['COMPLETE', 'FAILED'] as const) {
      const { statuses, opened } = setup();
      const iterator = iterate(statuses);
      const first = iterator.next();
      // The subscription starts at the first next().
      assert.equal(opened.length, 1);
      const push = opened[0]!.push;
      push(update('PENDING'));
      push(update('PROCESSING', 0.5));
      push(update(final));
      push(update('PROCESSING', 0.9));
      const seen = [(await first).value, (await iterator.next()).value, (await iterator.next()).value];
      assert.deepEqual(seen, [update('PENDING'), update('PROCESSING', 0.5), update(final)]);
      assert.deepEqual(await iterator.next(), { done: true, value: undefined });
      assert.equal(opened[0]!.stopped, 1);
    }
  });

  test('waits for an update that has not come yet', async () => {
    const { statuses, opened } = setup();
    const iterator = iterate(statuses);
    const next = iterator.next();
    let settled = false;
    void next.then(() => (settled = true));
    await microtasks();
    assert.equal(settled, false);
    opened[0]!.push(update('PROCESSING', 0.1));
    assert.deepEqual(await next, { done: false, value: update('PROCESSING', 0.1) });
    await iterator.return();
    assert.equal(opened[0]!.stopped, 1, 'return() left the subscription open');
  });

  test("an abort ends the wait with the signal's reason and unsubscribes", async () => {
    const { statuses, opened } = setup();
    const controller = new AbortController();
    const iterator = iterate(statuses, controller.signal);
    const next = iterator.next();
    await microtasks();
    const reason = new Error('the user went elsewhere');
    controller.abort(reason);
    await assert.rejects(next, (error) => error === reason);
    assert.equal(opened[0]!.stopped, 1);
  });

  test('an already aborted signal rejects the first next()', async () => {
    const { statuses, opened } = setup();
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await assert.rejects(iterate(statuses, controller.signal).next(), /too late/);
    assert.equal(opened[0]!.stopped, 1);
  });

  test('wake() ends a waiting iterator through its check (the Plugin was destroyed)', async () => {
    const { statuses, opened } = setup();
    let destroyed = false;
    const iterator = iterate(statuses, undefined, () => {
      if (destroyed) throw new Error('cleanup() ended it');
    });
    const next = iterator.next();
    await microtasks();
    destroyed = true;
    statuses.wake();
    await assert.rejects(next, /cleanup\(\) ended it/);
    assert.equal(opened[0]!.stopped, 1);
    // An ended iterator is no longer woken: another wake() reaches nothing and throws nothing.
    statuses.wake();
  });
});
