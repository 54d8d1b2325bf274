// Issue 35: the data file cannot be written. It lives on a real small filesystem (a tmpfs,
// small-disk.ts) that the test fills to the last byte — what stops SQLite's writes as root, who
// ignores file modes (a read-only remount is refused while the service holds the file open).
// Mutating calls answer 503 `service_unavailable` with Retry-After, nothing of them is kept, reads
// go on, a background job waits and goes on from its last saved state, and everything works again
// once there is room.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { createAccountToken } from '../../../../src/server/index.js';
import { STORAGE_RETRY_AFTER_SECONDS } from '../../src/store/errors.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  api,
  createAccount,
  login,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';
import { cannotMount, smallDisk } from './small-disk.js';

const source = await serve((req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Written page</title>'),
);

test(
  'a data file that cannot be written: 503 with Retry-After, nothing half-written, reads go on, then it recovers',
  { skip: cannotMount, timeout: 120_000 },
  async () => {
    const disk = smallDisk(16);
    after(() => disk.remove());
    const dataFile = join(disk.dir, 'service.db');
    // Jobs slow enough that one is running when the disk fills.
    const service = await startTestService({ dataFile, jobMs: 1500 });
    const { session, account } = await createAccount(service, { externalID: 'before' });
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
    await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    const { videoId } = (
      await api(service, 'POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration: 5 } })
    ).body;
    const running = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body.topicId;
    await stream.next((event) => event.event === 'topic' && event.data.id === running);
    const before = service.stats();

    disk.fill();
    const refused = async (result: Awaited<ReturnType<typeof api>>, what: string) => {
      assert.equal(result.status, 503, `${what}: ${JSON.stringify(result.body)}`);
      assert.equal(result.headers.get('retry-after'), String(STORAGE_RETRY_AFTER_SECONDS), what);
      assert.equal(result.body.error.code, 'service_unavailable', what);
      assert.match(
        result.body.error.message,
        /could not save the change .*nothing was changed\. Try again in 5 s/,
        what,
      );
      assert.equal(result.body.error.data.retryable, true, what);
      assert.doesNotMatch(
        result.body.error.message,
        new RegExp(disk.dir),
        `${what}: the answer does not reveal the file’s path`,
      );
    };
    const token = await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID: 'during' } });
    await refused(await api(service, 'POST', '/api/accounts', { body: { token } }), 'createAccount');
    await refused(await login(service, { accountID: account.id }), 'login');
    await refused(
      await api(service, 'PATCH', `/api/videos/${videoId}`, { session, body: { name: 'Never saved' } }),
      'rename',
    );
    await refused(
      await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } }),
      'startTopicSearch',
    );

    // Reads go on, and show nothing of what was refused.
    const videos = await api(service, 'GET', '/api/videos', { session });
    assert.equal(videos.status, 200);
    assert.notEqual(videos.body.videos.find((video: { id: string }) => video.id === videoId).name, 'Never saved');
    assert.equal((await api(service, 'GET', `/api/topics/${topicId}`, { session })).status, 200);
    const { accounts, sessions, topics } = service.stats();
    assert.deepEqual(
      { accounts, sessions, topics },
      { accounts: before.accounts, sessions: before.sessions, topics: before.topics },
    );

    // Room again: the same calls succeed (the refused account was not kept: no conflict), and the
    // topic search that could not save its steps goes on to COMPLETE.
    disk.free();
    assert.equal((await api(service, 'POST', '/api/accounts', { body: { token } })).status, 201);
    assert.ok([200, 201].includes((await login(service, { accountID: account.id })).status));
    const renamed = await api(service, 'PATCH', `/api/videos/${videoId}`, { session, body: { name: 'Saved' } });
    assert.equal(renamed.status, 200);
    assert.equal(
      (await statusesUntilFinal(stream, 'topic', (data) => data.id === running)).at(-1),
      'COMPLETE',
      'the running search went on',
    );
    stream.close();
    await service.close();

    const db = new Database(dataFile, { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(db.prepare("SELECT count(*) FROM accounts WHERE external_id = 'during'").pluck().get(), 1);
      assert.equal(db.prepare('SELECT status FROM topics WHERE id = ?').pluck().get(running), 'COMPLETE');
    } finally {
      db.close();
    }
  },
);
