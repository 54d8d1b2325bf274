// --data FILE: state survives a restart, unfinished jobs finish after it, writes are atomic.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createAccountToken } from '../../src/server/index.js';
import { EventStream, PARTNER, SECRET, api, login, serve, startTestService, statusesUntilFinal } from './helpers.js';
const dir = await mkdtemp(join(tmpdir(), 'video-plugin-data-'));
after(() => rm(dir, { recursive: true, force: true }));
const source = await serve((req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Persisted page</title>'),
);
test('accounts, sessions, videos and used tokens survive a restart', async () => {
  const dataFile = join(dir, 'state.json');
  const first = await startTestService({ dataFile });
  const token = await createAccountToken({
    partnerID: PARTNER,
    secret: SECRET,
    account: { externalID: 'keeper', firstName: 'Kim' },
  });
  const { account, session } = (await api(first, 'POST', '/api/accounts', { body: { token } })).body;
  const stream = await EventStream.open(first, session);
  await stream.next((event) => event.event === 'ready');
  const { topicId } = (await api(first, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
  await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
  const { requestId, videoId } = (
    await api(first, 'POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration: 5 } })
  ).body;
  await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
  await api(first, 'PATCH', `/api/videos/${videoId}`, { session, body: { name: 'Kept video' } });
  stream.close();
  await first.close();
  const second = await startTestService({ dataFile });
  const loggedIn = await login(second, { externalID: 'keeper' });
  assert.equal(loggedIn.status, 200);
  assert.deepEqual(loggedIn.body.account, account);
  const { videos } = (await api(second, 'GET', '/api/videos', { session: loggedIn.body.session })).body;
  assert.deepEqual(
    videos.map((video) => [video.id, video.name]),
    [[videoId, 'Kept video']],
  );
  assert.equal(videos[0].thumbnailURL, `${second.url}/media/videos/${videoId}/thumbnail.svg`);
  assert.equal((await api(second, 'GET', '/api/account', { session })).status, 200, 'the old session still works');
  assert.equal((await api(second, 'POST', '/api/accounts', { body: { token } })).body.error.code, 'token_replayed');
  await second.close();
  assert.deepEqual(await readdir(dir), ['state.json'], 'no temp file is left behind');
  assert.doesNotMatch(await readFile(dataFile, 'utf8'), new RegExp(session), 'session tokens are stored hashed');
});
test('jobs unfinished at shutdown finish after the restart', async () => {
  const dataFile = join(dir, 'jobs.json');
  const quick = await startTestService({ dataFile });
  const { session } = (
    await api(quick, 'POST', '/api/accounts', {
      body: { token: await createAccountToken({ partnerID: PARTNER, secret: SECRET }) },
    })
  ).body;
  const quickStream = await EventStream.open(quick, session);
  await quickStream.next((event) => event.event === 'ready');
  const { topicId: doneTopic } = (await api(quick, 'POST', '/api/topics', { session, body: { sourceURL: source } }))
    .body;
  await statusesUntilFinal(quickStream, 'topic', (data) => data.id === doneTopic);
  quickStream.close();
  await quick.close();
  // Jobs that would take ten minutes, interrupted at once.
  const slow = await startTestService({ dataFile, jobMs: 600_000 });
  const { topicId } = (await api(slow, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
  const { requestId } = (
    await api(slow, 'POST', '/api/generations', {
      session,
      body: { topicId: doneTopic, aspectRatio: '4:5', duration: 30 },
    })
  ).body;
  await slow.close();
  const resumed = await startTestService({ dataFile });
  const stream = await EventStream.open(resumed, session, `topic=${topicId}&generation=${requestId}`);
  const topicStatuses = statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
  assert.equal((await topicStatuses).at(-1), 'COMPLETE');
  const generation = await api(resumed, 'GET', `/api/generations/${requestId}`, { session });
  if (generation.body.generation.status !== 'COMPLETE') {
    await stream.next((event) => event.event === 'generation' && event.data.status === 'COMPLETE');
  }
  assert.equal((await api(resumed, 'GET', `/api/topics/${topicId}`, { session })).body.topic.title, 'Persisted page');
});
test('a data file that is not ours is refused with a clear message', async () => {
  const dataFile = join(dir, 'foreign.json');
  await writeFile(dataFile, '{"hello": "world"}');
  await assert.rejects(
    startTestService({ dataFile }),
    /is not a video-plugin-service data file.*Move it away or choose another file/,
  );
  assert.equal(await readFile(dataFile, 'utf8'), '{"hello": "world"}', 'the file is left untouched');
});
//# sourceMappingURL=persistence.test.js.map
