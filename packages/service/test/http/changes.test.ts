// The change feed the plugin page polls (`GET /api/changes?after=<cursor>`): it answers at once
// with the changes after the cursor, each once, in order and as it was at the time (the same as
// the status stream sent), and the cursor to go on from; only the caller's account's changes; null
// for a cursor it cannot replay from; a session in the Authorization header, nothing else.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { REPLAY_LIMIT } from '../../src/http/changes.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  api,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
  type StreamEvent,
  OTHER,
  OTHER_SECRET,
  TWO_PARTNERS,
} from '../support/helpers.js';

const service = await startTestService({
  partners: TWO_PARTNERS,
});
/** Source pages titled after their path, so that each account's records carry its own words. */
const source = await serve((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Title of ${req.url?.slice(1)}</title>`);
});

/** A cursor: this run's boot, then its position sealed for one account (16 bytes, base64url). */
const CURSOR = /^([0-9a-f]{8})-([A-Za-z0-9_-]{22})$/;

/** One account, its unfiltered status stream (open and ready) as the reference, and its calls. */
async function account(externalID: string, partner = PARTNER, secret = SECRET) {
  const { session } = await createAccount(service, { externalID }, partner, secret);
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  return {
    session,
    stream,
    feed: (after?: string) =>
      api(service, 'GET', after === undefined ? '/api/changes' : `/api/changes?after=${encodeURIComponent(after)}`, {
        session,
      }),
    /** Starts a topic search on `/<externalID>` and waits for its final status on the stream. */
    async search(): Promise<string> {
      const started = await api(service, 'POST', '/api/topics', {
        session,
        body: { sourceURL: `${source}/${externalID}` },
      });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      const topicId: string = started.body.topicId;
      await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
      return topicId;
    },
  };
}

/** A stream's change events as the feed shows them. */
const asChanges = (events: StreamEvent[]) =>
  events.filter((e) => e.event !== 'ready').map((e) => ({ kind: e.event, record: e.data }));

const cursorOf = async (who: { feed: () => ReturnType<typeof api> }): Promise<string> => (await who.feed()).body.cursor;

describe('GET /api/changes', () => {
  test('without after: the current cursor and no changes; asked from it, the answer comes at once, empty, same cursor', async () => {
    const owner = await account('first');
    const first = await owner.feed();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(first.body).sort(), ['changes', 'cursor']);
    assert.deepEqual(first.body.changes, []);
    assert.match(first.body.cursor, CURSOR);
    // Nothing happens meanwhile: a feed that held the request would never answer here.
    assert.deepEqual((await owner.feed(first.body.cursor)).body, { cursor: first.body.cursor, changes: [] });
  });

  test('cursor progression: every change after the cursor once, in order, as it was then (as the stream sent it)', async () => {
    const owner = await account('progress');
    const start = await cursorOf(owner);
    const topicId = await owner.search();

    const topicFeed = (await owner.feed(start)).body;
    assert.deepEqual(topicFeed.changes, asChanges(owner.stream.events));
    const statuses = topicFeed.changes.map((c: { record: { status: string } }) => c.record.status);
    assert.deepEqual([...new Set(statuses)], ['PENDING', 'PROCESSING', 'COMPLETE']);
    assert.equal(topicFeed.changes.at(-1).record.title, 'Title of progress');
    // The cursor is the position after the last change returned: the current one.
    assert.equal(topicFeed.cursor, await cursorOf(owner));
    // Asked again from the same cursor: the same answer (nothing is consumed).
    assert.deepEqual((await owner.feed(start)).body, topicFeed);
    assert.deepEqual((await owner.feed(topicFeed.cursor)).body, { cursor: topicFeed.cursor, changes: [] });

    // Next step from the returned cursor: only what happened after it.
    const seen = owner.stream.events.length;
    const started = await api(service, 'POST', '/api/generations', {
      session: owner.session,
      body: { topicId, aspectRatio: '16:9', duration: 5 },
    });
    await statusesUntilFinal(owner.stream, 'generation', (data) => data.requestId === started.body.requestId);
    const generationFeed = (await owner.feed(topicFeed.cursor)).body;
    assert.deepEqual(generationFeed.changes, asChanges(owner.stream.events.slice(seen)));
    assert.deepEqual([...new Set(generationFeed.changes.map((c: { kind: string }) => c.kind))].sort(), [
      'generation',
      'video',
    ]);
    assert.deepEqual((await owner.feed(start)).body.changes, [...topicFeed.changes, ...generationFeed.changes]);
  });

  test("owner filter: another account's changes (same partner or not) never appear, its own all do", async () => {
    const owner = await account('owner');
    const neighbour = await account('neighbour');
    const foreign = await account('foreign', OTHER, OTHER_SECRET);
    // Each account's own cursor of the same moment (no change between them).
    const [start, neighbourStart, foreignStart] = await Promise.all([owner, neighbour, foreign].map(cursorOf));
    const [ownTopic, neighbourTopic, foreignTopic] = await Promise.all([
      owner.search(),
      neighbour.search(),
      foreign.search(),
    ]);
    const ids = (changes: { record: { id: string } }[]) => [...new Set(changes.map((c) => c.record.id))];
    const ownFeed = (await owner.feed(start)).body;
    assert.deepEqual(ids(ownFeed.changes), [ownTopic]);
    assert.deepEqual(ownFeed.changes, asChanges(owner.stream.events));
    assert.doesNotMatch(JSON.stringify(ownFeed), /neighbour|foreign/);
    assert.deepEqual(ids((await neighbour.feed(neighbourStart)).body.changes), [neighbourTopic]);
    assert.deepEqual(ids((await foreign.feed(foreignStart)).body.changes), [foreignTopic]);
  });

  test("a cursor it cannot replay from — malformed, ahead, from another run, too old for its own account's changes — answers null and the current cursor; another account's changes never make it too old", async () => {
    const owner = await account('replay');
    const bystander = await account('bystander');
    const current = await cursorOf(owner);
    const [, boot] = CURSOR.exec(current)!;
    const other = await startTestService();
    const otherRun: string = (
      await api(other, 'GET', '/api/changes', { session: (await createAccount(other)).session })
    ).body.cursor;
    assert.notEqual(CURSOR.exec(otherRun)![1], boot);
    // A plain position of this run (as cursors were before they were sealed) is not a cursor.
    for (const after of [
      '',
      'nonsense',
      `${boot}-`,
      `${boot}-x`,
      `${boot}-1`,
      `${boot}-${'9'.repeat(22)}x`,
      otherRun,
    ]) {
      assert.deepEqual((await owner.feed(after)).body, { cursor: current, changes: null }, `after=${after}`);
    }

    // More than REPLAY_LIMIT changes later, the start is too old; one change later is the oldest kept.
    const topicId = await owner.search();
    const started = await api(service, 'POST', '/api/generations', {
      session: owner.session,
      body: { topicId, aspectRatio: '16:9', duration: 5 },
    });
    const { requestId, videoId } = started.body;
    await statusesUntilFinal(owner.stream, 'generation', (data) => data.requestId === requestId);
    const [before, bystanderBefore] = await Promise.all([cursorOf(owner), cursorOf(bystander)]);
    const rename = async (i: number) => {
      const renamed = await api(service, 'PATCH', `/api/videos/${videoId}`, {
        session: owner.session,
        body: { name: `Name ${i}` },
      });
      assert.equal(renamed.status, 200);
    };
    await rename(0);
    // The position after the first rename, as the owner and the bystander each were given it.
    const [afterFirst, bystanderAfterFirst] = await Promise.all([cursorOf(owner), cursorOf(bystander)]);
    for (let i = 1; i < REPLAY_LIMIT + 1; i++) await rename(i);
    const now = await cursorOf(owner);
    assert.deepEqual((await owner.feed(before)).body, { cursor: now, changes: null });
    const oldest = (await owner.feed(afterFirst)).body;
    assert.equal(oldest.changes.length, REPLAY_LIMIT);
    assert.deepEqual(
      oldest.changes.map((c: { record: { name: string } }) => c.record.name),
      Array.from({ length: REPLAY_LIMIT }, (_, i) => `Name ${i + 1}`),
    );
    // Another account asking from the same position gets none of them, and not null.
    assert.deepEqual((await bystander.feed(bystanderAfterFirst)).body, {
      cursor: await cursorOf(bystander),
      changes: [],
    });
    // Nor from before them all: more than REPLAY_LIMIT changes of the owner later, the bystander's
    // own changes are all still known. A null would tell it that someone made that many meanwhile.
    assert.deepEqual((await bystander.feed(bystanderBefore)).body, {
      cursor: await cursorOf(bystander),
      changes: [],
    });
  });

  test('a session is required, in the Authorization header: none, unknown, in the query or logged out → 401', async () => {
    const owner = await account('auth');
    const cursor = await cursorOf(owner);
    const refused = [
      await api(service, 'GET', `/api/changes?after=${cursor}`),
      await api(service, 'GET', `/api/changes?after=${cursor}`, { session: 'not-a-session' }),
      await api(service, 'GET', `/api/changes?after=${cursor}&session=${encodeURIComponent(owner.session)}`),
    ];
    assert.equal((await api(service, 'DELETE', '/api/sessions/current', { session: owner.session })).status, 204);
    refused.push(await owner.feed(cursor));
    for (const result of refused) {
      assert.equal(result.status, 401);
      assert.equal(result.body.error.code, 'not_authenticated');
      assert.equal(result.body.changes, undefined);
    }
    assert.match(refused[0]!.body.error.message, /Authorization: Bearer/);
  });
});

describe("cursors are each account's own", () => {
  /** The bits in which two cursors' sealed parts differ. */
  const bitsApart = (a: string, b: string): number => {
    const [x, y] = [a, b].map((cursor) => Buffer.from(CURSOR.exec(cursor)![2]!, 'base64url'));
    let bits = 0;
    for (let i = 0; i < 16; i++) for (let byte = x![i]! ^ y![i]!; byte; byte >>= 1) bits += byte & 1;
    return bits;
  };

  test("another account's cursor is refused: 400 invalid_parameter naming after (same partner or another); made-up ones too", async () => {
    const owner = await account('refused-owner');
    const neighbour = await account('refused-neighbour');
    const foreign = await account('refused-foreign', OTHER, OTHER_SECRET);
    await owner.search();
    const cursor = await cursorOf(owner);
    const [, boot] = CURSOR.exec(cursor)!;
    for (const [who, after] of [
      [neighbour, cursor],
      [foreign, cursor],
      [owner, await cursorOf(neighbour)],
      [owner, `${boot}-${'A'.repeat(22)}`],
    ] as const) {
      const refused = await who.feed(after);
      assert.equal(refused.status, 400, after);
      assert.equal(refused.body.error.code, 'invalid_parameter');
      assert.equal(refused.body.error.data.field, 'after');
      assert.match(refused.body.error.message, /GET \/api\/changes: "after" is not a cursor of this account's changes/);
      assert.equal(refused.body.changes, undefined);
    }
    // Its own is served, the same as ever.
    assert.deepEqual((await owner.feed(cursor)).body, { cursor, changes: [] });
  });

  test("the status socket given another account's cursor re-reads (null), as for a cursor it cannot replay", async () => {
    const owner = await account('socket-owner');
    const neighbour = await account('socket-neighbour');
    const cursor = await cursorOf(owner);
    const ws = new WebSocket(`${service.url.replace('http', 'ws')}/api/live`, { headers: { origin: service.origin } });
    const first = new Promise<{ cursor: string; changes: unknown }>((resolve, reject) => {
      ws.once('message', (data) => resolve(JSON.parse(String(data))));
      ws.once('error', reject);
    });
    ws.once('open', () => ws.send(JSON.stringify({ session: neighbour.session, after: cursor })));
    assert.deepEqual(await first, { cursor: await cursorOf(neighbour), changes: null });
    ws.close();
  });

  test("two accounts' consecutive cursors tell nothing of each other: sealed, unrelated from one position to the next", async () => {
    const owner = await account('quiet-owner');
    const busy = await account('busy-neighbour');
    const [first, busyFirst] = await Promise.all([cursorOf(owner), cursorOf(busy)]);
    // The same position, given to two accounts: two unrelated cursors.
    assert.notEqual(first, busyFirst);
    assert.ok(bitsApart(first, busyFirst) >= 30, `${first} ${busyFirst}`);
    await busy.search();
    const second = await cursorOf(owner);
    // Plain positions would differ by the busy account's count; sealed, in about half the bits.
    assert.ok(bitsApart(first, second) >= 30, `${first} ${second}`);
    for (const cursor of [first, second]) assert.doesNotMatch(CURSOR.exec(cursor)![2]!, /^\d+$/);
    // And the owner, asking from its cursor, sees none of the neighbour's changes.
    assert.deepEqual((await owner.feed(first)).body, { cursor: second, changes: [] });
  });
});

describe('GET /api/events resumed with Last-Event-ID', () => {
  /** A new stream of `who`'s account from `lastEventId`: the events it starts with, before `ready`. */
  async function reopened(who: { session: string }, lastEventId: string, query = '') {
    const stream = await EventStream.open(service, who.session, query, { 'last-event-id': lastEventId });
    await stream.next((event) => event.event === 'ready');
    const opening = stream.events.slice(
      0,
      stream.events.findIndex((event) => event.event === 'ready'),
    );
    stream.close();
    return opening;
  }

  test('from a position the log keeps: the changes missed since, in order, each once, and no current state', async () => {
    const owner = await account('resume');
    const ready = owner.stream.events.find((event) => event.event === 'ready')!;
    assert.match(ready.id!, CURSOR);
    const topicId = await owner.search();
    const missed = asChanges(await reopened(owner, ready.id!));
    assert.deepEqual(missed, asChanges(owner.stream.events));
    assert.deepEqual(missed, (await owner.feed(ready.id)).body.changes);
    assert.ok(missed.length >= 3 && missed.every((change) => change.record.id === topicId));
  });

  test("from a position it cannot resume from (another run, malformed): the current state of every record of the account, none of another's", async () => {
    const owner = await account('resume-lost');
    const bystander = await account('resume-bystander');
    await bystander.search();
    const topicId = await owner.search();
    const { requestId, videoId } = (
      await api(service, 'POST', '/api/generations', {
        session: owner.session,
        body: { topicId, aspectRatio: '16:9', duration: 5 },
      })
    ).body;
    await statusesUntilFinal(owner.stream, 'generation', (data) => data.requestId === requestId);
    const current = {
      topic: (await api(service, 'GET', `/api/topics/${topicId}`, { session: owner.session })).body.topic,
      generation: (await api(service, 'GET', `/api/generations/${requestId}`, { session: owner.session })).body
        .generation,
      video: (await api(service, 'GET', `/api/videos/${videoId}`, { session: owner.session })).body.video,
    };
    for (const lastEventId of ['0badc0de-12', 'nonsense']) {
      const opening = await reopened(owner, lastEventId);
      assert.deepEqual(
        asChanges(opening),
        [
          { kind: 'topic', record: current.topic },
          { kind: 'generation', record: current.generation },
          { kind: 'video', record: current.video },
        ],
        lastEventId,
      );
    }
    // Another account's event ID is not a position to resume from either: the same current state.
    const theirs = bystander.stream.events.findLast((event) => event.id && event.event !== 'ready')!.id!;
    assert.deepEqual(asChanges(await reopened(owner, theirs)), [
      { kind: 'topic', record: current.topic },
      { kind: 'generation', record: current.generation },
      { kind: 'video', record: current.video },
    ]);
    // A stream narrowed to some records starts with theirs only, as a new one does.
    assert.deepEqual(asChanges(await reopened(owner, '0badc0de-12', `topic=${topicId}`)), [
      { kind: 'topic', record: current.topic },
    ]);
  });
});
