// Another account's IDs through every API route that takes one, over real HTTP, as an account of the
// same partner (B) and of another partner (C): always "not found", exactly as for an ID that never
// existed, never a byte of the owner's data, and nothing of the owner's changed. api.test.ts checks
// the same-partner basics; this file checks the whole route table, both kinds of intruder, the
// streams, and the ways into an account that take no ID (sign-in, logout).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loginAccountToken } from '../../../../src/server/index.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  api,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
  type ApiResult,
  OTHER,
  OTHER_SECRET,
  TWO_PARTNERS,
} from '../support/helpers.js';

const service = await startTestService({
  jobMs: 60,
  partners: TWO_PARTNERS,
});
/** The owner's source page: its title ends up in the owner's topic and video, and must go nowhere else. */
const PRIVATE_TITLE = 'Private Atelier 7f3c';
const source = await serve((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const title = req.url === '/owner' ? PRIVATE_TITLE : 'Intruder Shop';
  res.end(`<!doctype html><html><head><title>${title}</title></head><body></body></html>`);
});

// The owner: an account with a topic, a generation and its video, all COMPLETE.
const owner = await createAccount(service, { externalID: 'owner', emailAddress: 'owner@example.com' });
const ownerStream = await EventStream.open(service, owner.session);
await ownerStream.next((event) => event.event === 'ready');
const topicId: string = (
  await api(service, 'POST', '/api/topics', { session: owner.session, body: { sourceURL: `${source}/owner` } })
).body.topicId;
await statusesUntilFinal(ownerStream, 'topic', (data) => data.id === topicId);
const started = await api(service, 'POST', '/api/generations', {
  session: owner.session,
  body: { topicId, aspectRatio: '16:9', duration: 15 },
});
const { requestId, videoId } = started.body as { requestId: string; videoId: string };
await statusesUntilFinal(ownerStream, 'generation', (data) => data.requestId === requestId);
const ownerVideo = (await api(service, 'GET', `/api/videos/${videoId}`, { session: owner.session })).body.video;

const intruders = {
  'an account of the same partner': (await createAccount(service, { externalID: 'intruder' })).session,
  'an account of another partner': (await createAccount(service, { externalID: 'owner' }, OTHER, OTHER_SECRET)).session,
};

/** Values that belong to the owner and must appear in no answer to an intruder. */
const OWNER_SECRETS = [PRIVATE_TITLE, owner.account.id, owner.session];

/** IDs of the same shape that never existed: an intruder's answer must be the same as for these. */
const missing = {
  videoId: 'vid_00000000000000000000000000000000',
  topicId: 'topic_00000000000000000000000000000000',
  requestId: 'gen_00000000000000000000000000000000',
};

/** Every route that takes an ID, called with the owner's ID or a missing one. */
const ROUTE_CALLS: [route: string, call: (session: string, ids: typeof missing) => Promise<ApiResult>][] = [
  ['GET /api/videos/:videoId', (session, ids) => api(service, 'GET', `/api/videos/${ids.videoId}`, { session })],
  [
    'GET /api/videos/:videoId/storyboard',
    (session, ids) => api(service, 'GET', `/api/videos/${ids.videoId}/storyboard`, { session }),
  ],
  [
    'PATCH /api/videos/:videoId',
    (session, ids) => api(service, 'PATCH', `/api/videos/${ids.videoId}`, { session, body: { name: 'Mine now' } }),
  ],
  [
    'POST /api/videos/:videoId/complete',
    (session, ids) => api(service, 'POST', `/api/videos/${ids.videoId}/complete`, { session }),
  ],
  ['GET /api/topics/:topicId', (session, ids) => api(service, 'GET', `/api/topics/${ids.topicId}`, { session })],
  [
    'POST /api/generations',
    (session, ids) =>
      api(service, 'POST', '/api/generations', {
        session,
        body: { topicId: ids.topicId, aspectRatio: '4:5', duration: 5 },
      }),
  ],
  [
    'GET /api/generations/:requestId',
    (session, ids) => api(service, 'GET', `/api/generations/${ids.requestId}`, { session }),
  ],
  ['GET /api/events?topic=', (session, ids) => api(service, 'GET', `/api/events?topic=${ids.topicId}`, { session })],
  [
    'GET /api/events?generation=',
    (session, ids) => api(service, 'GET', `/api/events?generation=${ids.requestId}`, { session }),
  ],
  ['GET /api/events?video=', (session, ids) => api(service, 'GET', `/api/events?video=${ids.videoId}`, { session })],
];

/** The answer with every ID replaced by a placeholder, so that two answers can be compared. */
function shape(result: ApiResult, ids: typeof missing) {
  let text = JSON.stringify(result.body);
  for (const id of Object.values(ids)) text = text.replaceAll(id, '<id>');
  return { status: result.status, body: JSON.parse(text) };
}

/**
 * ID-taking routes of a partner's back end (no session: an events token), whose isolation between
 * partners is tested where they are: webhook-kit.test.ts ("another partner's event answers 404").
 */
const BACK_END_ROUTES = new Set(['POST /api/partner/events/:id/resend']);

test('the route table of docs/service.md has no ID-taking route left out here', () => {
  const documented = [
    ...readFileSync('docs/service.md', 'utf8').matchAll(/^\| `(GET|POST|PATCH|DELETE) (\/api\/[^` ]+)`/gm),
  ]
    .map(([, method, path]) => `${method} ${path}`)
    .filter((route) => route.includes('/:') && !route.includes(':partnerID') && !BACK_END_ROUTES.has(route));
  const covered = new Set(ROUTE_CALLS.map(([route]) => route));
  assert.ok(documented.length >= 5, 'the route table was not found');
  for (const route of documented) assert.ok(covered.has(route), `${route} is not tested for isolation`);
});

for (const [who, session] of Object.entries(intruders)) {
  describe(`the owner's IDs, used by ${who}`, () => {
    for (const [route, call] of ROUTE_CALLS) {
      test(`${route}: 404 *_not_found, exactly as for an ID that never existed, and no owner data`, async () => {
        const before = service.stats();
        const foreign = await call(session, { videoId, topicId, requestId });
        const absent = await call(session, missing);
        assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
        assert.match(foreign.body.error.code, /^(video|topic|generation)_not_found$/);
        assert.deepEqual(shape(foreign, { videoId, topicId, requestId }), shape(absent, missing));
        const text = JSON.stringify(foreign.body);
        for (const secret of OWNER_SECRETS) assert.ok(!text.includes(secret), `the answer carries ${secret}`);
        const after = service.stats();
        for (const key of ['generations', 'videos', 'topics', 'streams'] as const) {
          assert.equal(after[key], before[key], `${key} changed`);
        }
      });
    }

    test("a stream naming one of the intruder's own topics and the owner's video is refused as a whole", async () => {
      const own = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/own` } });
      const result = await api(service, 'GET', `/api/events?topic=${own.body.topicId}&video=${videoId}`, { session });
      assert.equal(result.status, 404);
      assert.equal(result.body.error.code, 'video_not_found');
    });

    test("the lists hold none of the owner's records", async () => {
      const videos = (await api(service, 'GET', '/api/videos', { session })).body.videos as { id: string }[];
      const topics = (await api(service, 'GET', '/api/topics', { session })).body.topics as { id: string }[];
      assert.ok(!videos.some((video) => video.id === videoId));
      assert.ok(!topics.some((topic) => topic.id === topicId));
      const text = JSON.stringify({ videos, topics });
      for (const secret of OWNER_SECRETS) assert.ok(!text.includes(secret));
    });

    test('logging out this session leaves the owner signed in', async () => {
      const spare = await createAccount(
        service,
        {},
        who.includes('another') ? OTHER : PARTNER,
        who.includes('another') ? OTHER_SECRET : SECRET,
      );
      assert.equal((await api(service, 'DELETE', '/api/sessions/current', { session: spare.session })).status, 204);
      assert.equal((await api(service, 'GET', '/api/account', { session: owner.session })).status, 200);
    });
  });
}

test("the intruders' renames and completions changed nothing of the owner's video", async () => {
  const now = (await api(service, 'GET', `/api/videos/${videoId}`, { session: owner.session })).body.video;
  assert.deepEqual(now, ownerVideo);
  assert.equal(now.isCompleted, false);
  assert.equal(now.name, PRIVATE_TITLE);
});

test("unfiltered streams of both intruders carry none of the owner's changes", async () => {
  const streams = await Promise.all(Object.values(intruders).map((session) => EventStream.open(service, session)));
  for (const stream of streams) await stream.next((event) => event.event === 'ready');

  // The owner renames and completes its video (whose render then runs) and searches a new topic.
  await api(service, 'PATCH', `/api/videos/${videoId}`, { session: owner.session, body: { name: 'Renamed' } });
  await api(service, 'POST', `/api/videos/${videoId}/complete`, { session: owner.session });
  await ownerStream.next((event) => event.event === 'video' && event.data.renders[0]?.status === 'COMPLETE');
  const second = await api(service, 'POST', '/api/topics', {
    session: owner.session,
    body: { sourceURL: `${source}/owner` },
  });
  await statusesUntilFinal(ownerStream, 'topic', (data) => data.id === second.body.topicId);

  // Each intruder's own change is sent after every one of the owner's; up to it, the stream carried
  // only the intruder's own records.
  for (const [index, session] of Object.values(intruders).entries()) {
    const stream = streams[index] as EventStream;
    const own = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/own` } });
    await stream.next((event) => event.event === 'topic' && event.data.id === own.body.topicId);
    const ownTopics = new Set(
      (await api(service, 'GET', '/api/topics', { session })).body.topics.map((topic: { id: string }) => topic.id),
    );
    for (const event of stream.events.slice(1)) {
      assert.equal(event.event, 'topic', JSON.stringify(event));
      assert.ok(ownTopics.has(event.data.id), JSON.stringify(event));
    }
    stream.close();
  }
});

describe('ways into an account that take no ID', () => {
  test("uncontrolled sign-in with a token account's email makes a new account; it never enters the token account", async () => {
    for (const partner of [PARTNER, OTHER]) {
      const result = await api(service, 'POST', `/api/partners/${partner}/sign-in`, {
        body: { emailAddress: 'OWNER@example.com' },
      });
      assert.equal(result.status, 201, JSON.stringify(result.body));
      assert.notEqual(result.body.account.id, owner.account.id);
      assert.equal(result.body.account.externalID, undefined);
      const videos = (await api(service, 'GET', '/api/videos', { session: result.body.session })).body.videos;
      assert.deepEqual(videos, []);
    }
  });

  test('sign-in accounts are per partner: the same email at another partner is another account', async () => {
    const sign = (partner: string) =>
      api(service, 'POST', `/api/partners/${partner}/sign-in`, { body: { emailAddress: 'sam@example.com' } });
    const mine = await sign(PARTNER);
    const theirs = await sign(OTHER);
    assert.equal(theirs.status, 201);
    assert.notEqual(theirs.body.account.id, mine.body.account.id);
    assert.equal((await sign(PARTNER)).body.account.id, mine.body.account.id);
  });

  test("a login token of the other partner naming the owner's externalID logs in to that partner's own account", async () => {
    const token = await loginAccountToken({ partnerID: OTHER, secret: OTHER_SECRET, externalID: 'owner' });
    const result = await api(service, 'POST', '/api/sessions', { body: { token } });
    assert.equal(result.status, 200);
    assert.notEqual(result.body.account.id, owner.account.id);
    assert.deepEqual((await api(service, 'GET', '/api/videos', { session: result.body.session })).body.videos, []);
  });
});
