/**
 * The store is the only writer of topics, generations and videos: its transitions check the status
 * order, stamp `updatedAt`, write and publish in one step (store/store.ts, store/status.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { InvalidStateError } from 'video-plugin/internal';
import { Store, newId, type Change, type TopicRecord, type VideoRecord } from '../../src/store/store.js';

const owner = { partnerID: 'partner-a', accountID: 'acct_1' };
const PAST = '2000-01-01T00:00:00.000Z';

function topic(): TopicRecord {
  return {
    ...owner,
    id: newId('topic'),
    requestId: newId('search'),
    sourceURL: 'https://shop.example/',
    status: 'PENDING',
    images: [],
    createdAt: PAST,
    updatedAt: PAST,
  };
}

function video(status: 'PENDING' | 'PROCESSING' | 'COMPLETE'): VideoRecord {
  return {
    ...owner,
    id: newId('vid'),
    name: 'A video',
    aspectRatio: '16:9',
    duration: 5,
    language: 'en-US',
    createdAt: PAST,
    updatedAt: PAST,
    isCompleted: true,
    hasThumbnail: true,
    renders: [{ format: 'svg', status }],
  };
}

const dir = mkdtempSync(join(tmpdir(), 'vp-transitions-'));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const file of [undefined, 'data.db']) {
  describe(`store transitions (${file ? 'with a data file' : 'in memory'})`, () => {
    async function open(): Promise<{ store: Store; published: Change[] }> {
      const store = await Store.open(file && join(dir, `${newId('db')}.db`));
      after(() => store.close());
      const published: Change[] = [];
      store.subscribe((change) => published.push(structuredClone(change)));
      return { store, published };
    }

    test('every transition publishes exactly once, stamped, and the record is saved', async () => {
      const { store, published } = await open();
      const record = topic();
      const change = { kind: 'topic', record } as const;
      store.insert(change);
      assert.equal(published.length, 1);
      store.progressed(change, { progress: { stage: 'queued', fraction: 0.05 } });
      assert.equal(published.length, 2);
      assert.equal(published[1]!.record.updatedAt, PAST, 'a progress step is not an edit: updatedAt stays');
      store.advance(change, 'PROCESSING', undefined, { progress: { stage: 'reading_page', fraction: 0.1 } });
      assert.equal(published.length, 3);
      assert.equal((published[2]!.record as TopicRecord).status, 'PROCESSING');
      assert.deepEqual((published[2]!.record as TopicRecord).progress, { stage: 'reading_page', fraction: 0.1 });
      assert.notEqual(published[2]!.record.updatedAt, PAST, 'a transition stamps updatedAt');
      store.update(change, { title: 'A shop', images: ['https://shop.example/a.jpg'] });
      assert.equal(published.length, 4);
      assert.equal((published[3]!.record as TopicRecord).title, 'A shop');
      store.advance(change, 'COMPLETE');
      assert.equal(published.length, 5);
      const held = store.topics.get(record.id)!;
      assert.equal(held.status, 'COMPLETE');
      assert.equal(held.title, 'A shop');
      if (store.file) {
        await store.close();
        const reopened = await Store.open(store.file);
        after(() => reopened.close());
        assert.deepEqual(reopened.topics.get(record.id), held, 'what was published is what was saved');
      }
    });

    test('a backwards or skipped transition is refused, saves nothing and publishes nothing', async () => {
      const { store, published } = await open();
      const record = topic();
      const change = { kind: 'topic', record } as const;
      store.insert(change);
      assert.throws(() => store.advance(change, 'COMPLETE'), InvalidStateError, 'PENDING → COMPLETE skips PROCESSING');
      store.advance(change, 'PROCESSING');
      assert.throws(() => store.advance(change, 'PENDING'), /Cannot move from PROCESSING to PENDING/);
      store.advance(change, 'FAILED', { code: 'source_unreachable', message: 'gone' });
      for (const status of ['PENDING', 'PROCESSING', 'COMPLETE', 'FAILED'] as const) {
        assert.throws(() => store.advance(change, status), /Cannot move from FAILED/);
      }
      assert.equal(published.length, 3, 'only the insert and the two allowed moves were published');
      assert.equal(store.topics.get(record.id)!.status, 'FAILED');
      assert.deepEqual(store.topics.get(record.id)!.error, { code: 'source_unreachable', message: 'gone' });
    });

    test('a record is inserted once', async () => {
      const { store, published } = await open();
      const record = topic();
      store.insert({ kind: 'topic', record });
      assert.throws(() => store.insert({ kind: 'topic', record: { ...record } }), /already stored/);
      assert.equal(published.length, 1);
    });

    test('renders end through the order, in one published step; a finished render stays as it is', async () => {
      const { store, published } = await open();
      const pending = video('PENDING');
      store.insert({ kind: 'video', record: pending });
      store.advanceRenders(pending, 'COMPLETE', { stage: 'finishing', fraction: 1 }, { renderedAt: PAST });
      assert.equal(published.length, 2);
      const [render] = store.videos.get(pending.id)!.renders;
      assert.equal(render!.status, 'COMPLETE');
      assert.equal(render!.renderedAt, PAST);
      assert.deepEqual(render!.progress, { stage: 'finishing', fraction: 1 });
      // Ending them again changes no status: COMPLETE is final.
      store.advanceRenders(pending, 'FAILED', undefined, { error: { code: 'render_failed', message: 'no' } });
      assert.equal(store.videos.get(pending.id)!.renders[0]!.status, 'COMPLETE');
      assert.equal(store.videos.get(pending.id)!.renders[0]!.error, undefined);
    });
  });
}
