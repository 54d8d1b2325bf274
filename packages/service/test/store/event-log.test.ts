// The event log's memory (store/events.ts): pages by cursor, one partner at a time, and the 30 days.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebhookEvent } from 'video-plugin/internal';
import { EventLog } from '../../src/store/events.js';

const event = (id: string, createdAt: string): WebhookEvent => ({
  type: 'account.created',
  id,
  createdAt,
  accountID: 'acct_1',
  data: { via: 'token', account: {} },
});

/** A log of `count` events of partner "a" (1 a day in May) with one of partner "b" between each. */
function log(count: number): EventLog {
  const events = new EventLog();
  for (let day = 1; day <= count; day++) {
    const at = `2026-05-${String(day).padStart(2, '0')}T00:00:00.000Z`;
    events.add({ seq: events.nextSeq(), partnerID: 'a', event: event(`evt_a${day}`, at) });
    events.add({ seq: events.nextSeq(), partnerID: 'b', event: event(`evt_b${day}`, at) });
  }
  return events;
}

test("a page holds the partner's events after the cursor, oldest first, and says whether more follow", () => {
  const events = log(5);
  const first = events.page('a', 0, 2);
  assert.deepEqual(
    first.events.map((e) => e.id),
    ['evt_a1', 'evt_a2'],
  );
  assert.equal(first.hasMore, true);
  const second = events.page('a', first.cursor, 10);
  assert.deepEqual(
    second.events.map((e) => e.id),
    ['evt_a3', 'evt_a4', 'evt_a5'],
  );
  assert.equal(second.hasMore, false);
  // The end: no events, the same cursor back.
  assert.deepEqual(events.page('a', second.cursor, 10), { events: [], cursor: second.cursor, hasMore: false });
  assert.deepEqual(events.page('nobody', 0, 10), { events: [], cursor: 0, hasMore: false });
});

test('pruning forgets the events made before the limit, and a cursor from before it starts at the oldest kept', () => {
  const events = log(5);
  const cursor = events.page('a', 0, 1).cursor; // after evt_a1
  assert.equal(events.prune('2026-05-03T00:00:00.000Z'), 4);
  assert.equal(events.size, 6);
  assert.deepEqual(
    events.page('a', cursor, 10).events.map((e) => e.id),
    ['evt_a3', 'evt_a4', 'evt_a5'],
  );
  // Sequence numbers are never reused.
  assert.equal(events.nextSeq(), 11);
});

test('the store keeps an event 30 days: older ones are forgotten as new ones come', async () => {
  const { Store } = await import('../../src/store/store.js');
  const store = await Store.open();
  const day = 86_400_000;
  store.appendEvent('a', event('evt_old', new Date(Date.now() - 31 * day).toISOString()));
  store.appendEvent('a', event('evt_kept', new Date(Date.now() - 29 * day).toISOString()));
  store.appendEvent('a', event('evt_new', new Date().toISOString()));
  assert.deepEqual(
    store.events('a', 0, 100).events.map((e) => e.id),
    ['evt_kept', 'evt_new'],
  );
  await store.close();
});
