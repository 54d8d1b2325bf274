// Two service processes, A and B, on one PostgreSQL database and one S3 bucket, used as a team's
// staging service is: requests go to either. 40 generations sent alternately to A and B all reach
// COMPLETE, each job run once (pg-boss's own table says so); A killed (SIGKILL) in the middle of a
// real render has the render finished by B, byte-identical to a clean run (same SHA-256), served by
// B from the bucket; a scene one process rendered is not encoded again by the other.
//
// Cost: three real encodes of a 15 s video (the clean run, A's interrupted one, B's take-over, which
// takes from the bucket the scenes A had stored) and placeholder media for the 40 generations.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { startService, type RunningService } from '../../src/server.js';
import { SWEEP_MS } from '../../src/jobs/queue.js';
import { videoMediaURL } from '../../src/media/files.js';
import { runService } from '../support/child-service.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  api,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';
import { CountingCache, picture } from '../support/media-helpers.js';
import { WaitedLocks } from '../../src/jobs/claims.js';
import { renderVideo } from '../../src/media/render.js';
import { SCENE_LOCKS } from '../../src/media/segments.js';
import { buildStoryboard } from '../../src/media/storyboard.js';
import { postgresMissing, startPostgres } from '../support/postgres.js';
import { startS3 } from '../support/s3.js';

const missing = postgresMissing();
const dir = await mkdtemp(join(tmpdir(), 'video-plugin-fleet-'));
after(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
const server = missing ? undefined : await startPostgres();
const s3 = missing ? undefined : await startS3();
const psql = promisify(execFile);

// Four shops, each page with a picture (its video has an image scene).
const photo = await readFile(picture(dir, 'shop.png', 'teal'));
const SHOPS = ['Harbor Lane Coffee', 'Juniper Florist', 'Ortega Bikes', 'Saltmarsh Books'];
const source = await serve((req, res) => {
  if (req.url?.endsWith('.png')) return void res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
  const shop = SHOPS[Number(req.url?.slice(1)) || 0]!;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>${shop}</title></head>
    <body><h1>${shop}</h1><p>${shop} has served the harbor district since 1998, six days a week.</p>
    <img src="/shop.png" alt="The shop"><p>Ask for the seasonal specials, made in small batches.</p></body></html>`);
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The preview's files and counts (the storyboard route). */
async function preview(service: Pick<RunningService, 'url'>, session: string, videoId: string) {
  const { body } = await api(service as RunningService, 'GET', `/api/videos/${videoId}/storyboard`, { session });
  return body.preview as {
    sha256: Record<string, string>;
    stats: { scenes: number; scenesRendered: number };
  };
}

test(
  '40 generations sent alternately to A and B: all complete, and each job ran once',
  missing ? { skip: missing } : { timeout: 300_000 },
  async () => {
    const database = await server!.database('fleet_many');
    const mediaStore = await s3!.bucket('fleet-many');
    const start = (name: string) =>
      startTestService({ database, mediaStore, mediaDir: join(dir, `many-${name}`), jobMs: 100 });
    const [a, b] = [await start('a'), await start('b')];
    const services = [a, b];
    // Four users, each with a shop's topic, each searched on one of the two.
    const users = await Promise.all(
      SHOPS.map(async (_, index) => {
        const on = services[index % 2]!;
        const { session } = await createAccount(on, { externalID: `owner-${index}` });
        const stream = await EventStream.open(on, session);
        await stream.next((event) => event.event === 'ready');
        const { topicId } = (
          await api(on, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/${index}` } })
        ).body;
        assert.equal((await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId)).at(-1), 'COMPLETE');
        return { session, stream, topicId: topicId as string };
      }),
    );
    // 40 generations, ten per user, each request to the other service than the one before.
    const sent: { user: (typeof users)[number]; requestId: string }[] = [];
    for (let index = 0; index < 40; index++) {
      const user = users[index % users.length]!;
      const answer = await api(services[index % 2]!, 'POST', '/api/generations', {
        session: user.session,
        body: { topicId: user.topicId, aspectRatio: index % 3 ? '16:9' : '4:5', duration: 5, language: 'en-GB' },
      });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      sent.push({ user, requestId: answer.body.requestId });
    }
    // Each user's stream (on A or B) sees every one of its generations end, whichever process ran it.
    const ends = new Map<string, string>();
    await Promise.all(
      users.map(async (user) => {
        const mine = new Set(sent.filter((one) => one.user === user).map((one) => one.requestId));
        while ([...mine].some((id) => !ends.has(id))) {
          const { data } = await user.stream.next(
            (event) =>
              event.event === 'generation' &&
              mine.has(event.data.requestId) &&
              (event.data.status === 'COMPLETE' || event.data.status === 'FAILED'),
          );
          ends.set(data.requestId, data.status);
        }
      }),
    );
    assert.equal(ends.size, 40);
    assert.deepEqual(new Set(ends.values()), new Set(['COMPLETE']));
    for (const service of services) assert.equal(service.stats().generations, 40);
    // pg-boss's table: one job per search and per generation, each completed on its first run.
    const { stdout } = await psql('psql', [
      database,
      '-Atc',
      `SELECT data->>'job', count(*), count(DISTINCT data->>'id'), sum(retry_count), bool_and(state = 'completed')
         FROM video_plugin_jobs.job GROUP BY 1 ORDER BY 1`,
    ]);
    assert.deepEqual(stdout.trim().split('\n'), ['generation|40|40|0|t', 'topicSearch|4|4|0|t']);
    for (const user of users) user.stream.close();
  },
);

test(
  'A killed (SIGKILL) in the middle of a real render: B finishes it within seconds, byte-identical to a clean run, and serves it from the bucket',
  missing ? { skip: missing } : { timeout: 600_000 },
  async () => {
    const generation = { aspectRatio: '16:9', duration: 15, language: 'en-GB' };
    // The clean run: one process, its own folder, no database or bucket.
    const clean = await startService({
      port: 0,
      jobMs: 40,
      media: 'real',
      allowLoopbackSources: true,
      mediaDir: join(dir, 'clean'),
      partners: [{ id: PARTNER, secret: SECRET }],
    });
    let expected: Record<string, string>;
    try {
      const { session } = await createAccount(clean);
      const stream = await EventStream.open(clean, session);
      await stream.next((event) => event.event === 'ready');
      const { topicId } = (await api(clean, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/0` } }))
        .body;
      await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
      const made = await api(clean, 'POST', '/api/generations', { session, body: { topicId, ...generation } });
      assert.equal(made.status, 202, JSON.stringify(made.body));
      const seen = await statusesUntilFinal(stream, 'generation', (data) => data.requestId === made.body.requestId);
      assert.equal(seen.at(-1), 'COMPLETE');
      expected = (await preview(clean, session, made.body.videoId)).sha256;
      stream.close();
    } finally {
      await clean.close();
    }

    const database = await server!.database('fleet_kill');
    const mediaStore = await s3!.bucket('fleet-kill');
    // Each process with a media folder of its own: what B serves of A's comes from the bucket.
    const args = (name: string) => [
      '--database',
      database,
      '--media-store',
      mediaStore,
      '--media-dir',
      join(dir, `kill-${name}`),
      '--media',
      'real',
      '--job-ms',
      '1500',
    ];
    const a = runService(args('a'));
    const onA = { url: await a.listening } as RunningService;
    const { session } = await createAccount(onA);
    const stream = await EventStream.open(onA, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(onA, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/0` } })).body;
    await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    const started = await api(onA, 'POST', '/api/generations', { session, body: { topicId, ...generation } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { requestId, videoId } = started.body;
    // A has claimed the generation (B is not running yet) ...
    await stream.next((event) => event.event === 'generation' && event.data.requestId === requestId);
    const b = runService(args('b'));
    const onB = { url: await b.listening } as RunningService;
    // ... and is encoding its scenes when it is killed.
    const encoding = await stream.next(
      (event) =>
        event.event === 'generation' &&
        event.data.requestId === requestId &&
        (event.data.progress?.stage === 'rendering' ||
          event.data.status === 'COMPLETE' ||
          event.data.status === 'FAILED'),
    );
    assert.equal(encoding.data.status, 'PROCESSING', 'A finished the render before it could be killed');
    a.child.kill('SIGKILL');
    assert.deepEqual(await a.exited, { code: null, signal: 'SIGKILL' });
    const killed = Date.now();
    const watch = await EventStream.open(onB, session, `generation=${requestId}`);
    await b.printed(/took over job .*, whose process ended while it ran/);
    const tookOverMs = Date.now() - killed;
    // The sweep (1 s) and the claim's grace (3 s), plus 5 s.
    assert.ok(tookOverMs < SWEEP_MS + 3000 + 5000, `taken over ${tookOverMs} ms after the kill`);
    const seen = await statusesUntilFinal(watch, 'generation', (data) => data.requestId === requestId);
    if (seen.at(-1) !== 'COMPLETE') {
      const record = (await api(onB, 'GET', `/api/generations/${requestId}`, { session })).body;
      assert.fail(`B ended the generation ${seen.join(' → ')}: ${JSON.stringify(record)}\nB printed:\n${b.output()}`);
    }
    watch.close();

    const finished = await preview(onB, session, videoId);
    assert.deepEqual(finished.sha256, expected, 'the same bytes as the clean run');
    assert.ok(finished.stats.scenesRendered <= finished.stats.scenes);
    const served = Buffer.from(await (await fetch(`${videoMediaURL(onB.url, videoId)}/preview.mp4`)).arrayBuffer());
    assert.equal(sha256(served), expected.video, 'B serves the render from the bucket');

    // The same video again, on B: every scene is in the bucket, none is encoded.
    const again = await api(onB, 'POST', '/api/generations', { session, body: { topicId, ...generation } });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    const watchAgain = await EventStream.open(onB, session, `generation=${again.body.requestId}`);
    await statusesUntilFinal(watchAgain, 'generation', (data) => data.requestId === again.body.requestId);
    watchAgain.close();
    const repeated = await preview(onB, session, again.body.videoId);
    assert.equal(repeated.stats.scenesRendered, 0);
    assert.deepEqual(repeated.sha256, expected);
    b.child.kill('SIGTERM');
    await b.exited;
  },
);

test(
  'two processes render one storyboard at once through one cache: each scene is encoded once, the other waits and takes it',
  missing ? { skip: missing } : { timeout: 300_000 },
  async () => {
    const database = await server!.database('fleet_scenes');
    // Two processes' caches: a lock each on a connection of its own, as two services have; one folder.
    const locks = await Promise.all([1, 2].map((n) => WaitedLocks.open(database, SCENE_LOCKS, `scenes ${n}`)));
    const folder = join(dir, 'scenes-together');
    const caches = locks.map((lock) => new CountingCache(folder, undefined, undefined, (name) => lock.hold(name)));
    try {
      const board = () =>
        buildStoryboard(
          {
            sourceURL: `${source}/2`,
            title: 'Ortega Bikes',
            description: 'Bicycles repaired while you wait.',
            headings: ['Repairs', 'Rentals'],
            sentences: ['We fix any bicycle.', 'Rent one by the day.'],
            images: [],
          },
          { aspectRatio: '16:9', duration: 5, language: 'en-GB' },
        );
      const [a, b] = await Promise.all([
        renderVideo(board(), join(dir, 'scenes-out-a'), 'v', { cache: caches[0] }),
        renderVideo(board(), join(dir, 'scenes-out-b'), 'v', { cache: caches[1] }),
      ]);
      assert.equal(a.sha256.video, b.sha256.video);
      const made = new Map<string, number>();
      for (const cache of caches) for (const [name, count] of cache.puts) made.set(name, (made.get(name) ?? 0) + count);
      assert.ok(made.size >= 2 * a.stats.scenes, 'a voice and a picture per scene');
      assert.deepEqual(
        [...made].filter(([, count]) => count > 1),
        [],
        'no entry made by both',
      );
    } finally {
      await Promise.all(locks.map((lock) => lock.end()));
    }
  },
);
