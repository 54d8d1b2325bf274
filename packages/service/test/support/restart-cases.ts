// What a restart must keep, whichever database holds the records: the SQLite data file
// (store/persistence.test.ts) and PostgreSQL (store/postgres.test.ts) run these same cases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccountToken } from '../../../../src/server/index.js';
import type { ServiceOptions } from '../../src/config.js';
import { EventStream, PARTNER, SECRET, api, login, startTestService, statusesUntilFinal } from './helpers.js';

/**
 * The restart cases, for one engine: `place(name)` gives the options of a new, empty place for the
 * records (`{ dataFile }`, or `{ database, mediaDir }`); `inspect` looks at what the first case left
 * there once its services are closed (the file's mode, no WAL left...).
 */
export function restartCases(
  engine: string,
  source: string,
  place: (name: string) => Promise<ServiceOptions>,
  inspect?: (where: ServiceOptions, session: string) => Promise<void>,
): void {
  test(`accounts, sessions, videos and used tokens survive a restart (${engine})`, async () => {
    const where = await place('state');
    const first = await startTestService(where);
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
    const updated = await api(first, 'PATCH', '/api/account', { session, body: { city: 'Oslo' } });
    const { session: ended } = (await login(first, { externalID: 'keeper' })).body;
    assert.equal((await api(first, 'DELETE', '/api/sessions/current', { session: ended })).status, 204);
    stream.close();
    await first.close();

    const second = await startTestService(where);
    const loggedIn = await login(second, { externalID: 'keeper' });
    assert.equal(loggedIn.status, 200);
    assert.deepEqual(loggedIn.body.account, updated.body.account);
    assert.equal(loggedIn.body.account.id, account.id);
    const { videos } = (await api(second, 'GET', '/api/videos', { session: loggedIn.body.session })).body;
    assert.deepEqual(
      videos.map((video: { id: string; name: string }) => [video.id, video.name]),
      [[videoId, 'Kept video']],
    );
    assert.equal(videos[0].thumbnailURL, `${second.url}/media/videos/${videoId}/thumbnail.svg`);
    assert.equal((await api(second, 'GET', '/api/account', { session })).status, 200, 'the old session still works');
    assert.equal((await api(second, 'GET', '/api/account', { session: ended })).status, 401, 'a logout is kept');
    assert.equal((await api(second, 'POST', '/api/accounts', { body: { token } })).body.error.code, 'token_replayed');
    await second.close();
    await inspect?.(where, session);
  });

  test(`jobs unfinished at shutdown finish after the restart (${engine})`, async () => {
    const where = await place('jobs');
    const quick = await startTestService(where);
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
    const slow = await startTestService({ ...where, jobMs: 600_000 });
    const { topicId } = (await api(slow, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
    const { requestId } = (
      await api(slow, 'POST', '/api/generations', {
        session,
        body: { topicId: doneTopic, aspectRatio: '4:5', duration: 30 },
      })
    ).body;
    await slow.close();

    const resumed = await startTestService(where);
    const stream = await EventStream.open(resumed, session, `topic=${topicId}&generation=${requestId}`);
    const topicStatuses = statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    assert.equal((await topicStatuses).at(-1), 'COMPLETE');
    const generation = await api(resumed, 'GET', `/api/generations/${requestId}`, { session });
    if (generation.body.generation.status !== 'COMPLETE') {
      await stream.next((event) => event.event === 'generation' && event.data.status === 'COMPLETE');
    }
    assert.equal((await api(resumed, 'GET', `/api/topics/${topicId}`, { session })).body.topic.title, 'Persisted page');
  });
}
