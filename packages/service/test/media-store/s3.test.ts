// The service's media in an S3 bucket (`mediaStore: 's3://…'`), against a real S3 server (s3rver,
// started here on a free port in a temporary folder): a real render stored by content and served
// from the bucket byte for byte (Range, HEAD, ETag), nothing of it left in the local media folder;
// a second service on the same data file and bucket, with an empty media folder, serving the
// first's files and pictures and reusing its cached scenes; the store stopped while a render runs
// (the render fails with `media_store_unavailable` after its tries, files answer 503 with
// Retry-After) and back (a new render completes); a sandbox's reset, which keeps shared objects;
// a service given a store after rendering into its folder. Three real encodes of 5 s videos in
// all (the first preview, the one made while the store is down, the 4:5 one made without a
// store); every other render takes its scenes from the bucket's cache.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startService, type RunningService } from '../../src/server.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  api,
  createAccount,
  login,
  serve,
  statusesUntilFinal,
} from '../support/helpers.js';
import { picture } from '../support/media-helpers.js';
import { startS3 } from '../support/s3.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-s3-test-'));
after(() => rmSync(work, { recursive: true, force: true }));
const BUCKET = 'video-media';
/** The S3 server: stopped and started again on the same port by the outage tests. */
const s3 = await startS3();
const { endpoint, client } = s3;
const mediaStore = await s3.bucket(BUCKET);

/** The bytes of the bucket's object `key`. */
async function object(key: string): Promise<Buffer> {
  const answer = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

/** The keys of the bucket's content objects (`sha256/…`). */
async function contentObjects(): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'sha256/' }));
  return (listed.Contents ?? []).map((entry) => entry.Key!).sort();
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every file under `dir` (relative paths); none when it does not exist. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
  } catch {
    return [];
  }
}

// A page with one picture: the video has an image scene, and the topic a kept picture.
const pictures = join(work, 'pictures');
const pictureFile = picture(mkdtempSync(pictures), 'harbor.png', 'teal');
const source = await serve((req, res) => {
  if (req.url === '/harbor.png') {
    res.writeHead(200, { 'content-type': 'image/png' }).end(readFileSync(pictureFile));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>Harbor Lane Coffee</title></head>
    <body><h1>Roasted at dawn</h1><p>We roast twelve single-origin coffees in small batches.</p>
    <img src="/harbor.png" alt="The harbor"><p>Beans from Ethiopia, Colombia and Sumatra, bought from growers.</p></body></html>`);
});

const dataFile = join(work, 'service.db');
const start = (mediaDir: string): Promise<RunningService> =>
  startService({
    port: 0,
    allowLoopbackSources: true,
    jobMs: 40,
    media: 'real',
    dataFile,
    mediaDir,
    mediaStore,
    // Storing keeps trying for about 1 s here (30 s by default).
    mediaStoreRetryMs: 1000,
    partners: [{ id: PARTNER, secret: SECRET }],
  });

/** A signed-in user of `service` with a status stream. */
async function user(service: RunningService, accountID?: string) {
  const session: string = accountID
    ? (await login(service, { accountID })).body.session
    : (await createAccount(service)).session;
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  return { session, stream };
}

/** Generates a 5 s English video of `topicId` (16:9 unless told); resolves with its IDs and final generation. */
async function generate(
  service: RunningService,
  { session, stream }: Awaited<ReturnType<typeof user>>,
  topicId: string,
  aspectRatio = '16:9',
) {
  const body = { topicId, aspectRatio, duration: 5, language: 'en-GB' };
  const { requestId, videoId } = (await api(service, 'POST', '/api/generations', { session, body })).body;
  await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
  const { generation } = (await api(service, 'GET', `/api/generations/${requestId}`, { session })).body;
  return { requestId: requestId as string, videoId: videoId as string, generation };
}

/** The preview's stats, from the storyboard route. */
async function previewStats(service: RunningService, session: string, videoId: string) {
  const { body } = await api(service, 'GET', `/api/videos/${videoId}/storyboard`, { session });
  return body.preview as { sha256: Record<string, string>; stats: { scenes: number; scenesRendered: number } };
}

const first = join(work, 'media-1');
const second = join(work, 'media-2');
/** What the first service made, for the second. */
let made: {
  accountID: string;
  topicId: string;
  videoId: string;
  render: Record<string, string>;
  chapters: Record<string, string>;
  picture: string;
};

describe('media on S3', () => {
  test(
    'a real render is stored by content: served byte-identical to the object and to its sha256, with Range and HEAD; no local copy',
    { timeout: 240_000 },
    async () => {
      const service = await start(first);
      try {
        assert.equal(service.mediaStore, `s3://${BUCKET} at ${endpoint}`);
        const { session, account } = await createAccount(service);
        const stream = await EventStream.open(service, session);
        await stream.next((event) => event.event === 'ready');
        const search = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } });
        const { topicId } = search.body;
        await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
        const { videoId, generation } = await generate(service, { session, stream }, topicId);
        assert.equal(generation.status, 'COMPLETE', JSON.stringify(generation.error));
        const preview = await previewStats(service, session, videoId);
        assert.ok(preview.stats.scenesRendered > 0 && preview.stats.scenesRendered === preview.stats.scenes);
        await api(service, 'POST', `/api/videos/${videoId}/complete`, { session });
        const done = await stream.next(
          (event) =>
            event.event === 'video' && event.data.id === videoId && event.data.renders[0]?.status !== 'PROCESSING',
        );
        stream.close();
        const [render] = done.data.renders;
        assert.equal(render.status, 'COMPLETE', JSON.stringify(render.error));
        // The final render took every scene from the cache the preview put in the bucket.
        assert.equal(render.stats.scenesRendered, 0);
        const url = render.files.video.url as string;
        const hash = render.files.video.sha256 as string;

        const served = Buffer.from(await (await fetch(url)).arrayBuffer());
        const stored = await object(`sha256/${hash}`);
        assert.equal(sha256(served), hash);
        assert.equal(sha256(stored), hash);
        assert.ok(served.equals(stored));
        for (const name of ['poster', 'captions', 'chapters', 'transcript'] as const) {
          const file = render.files[name];
          assert.ok(file, name);
          const answer = await fetch(file.url);
          assert.equal(answer.status, 200, name);
          assert.equal(answer.headers.get('content-type'), file.type, name);
          assert.equal(sha256(Buffer.from(await answer.arrayBuffer())), file.sha256, name);
        }

        // A player's seek: one range, 206 with Content-Range and exactly those bytes.
        const ranged = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
        assert.equal(ranged.status, 206);
        assert.equal(ranged.headers.get('content-range'), `bytes 1000-1999/${served.length}`);
        assert.equal(ranged.headers.get('content-type'), 'video/mp4');
        assert.equal(ranged.headers.get('accept-ranges'), 'bytes');
        assert.equal(ranged.headers.get('access-control-allow-origin'), '*');
        assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(served.subarray(1000, 2000)));
        const tail = await fetch(url, { headers: { range: 'bytes=-100' } });
        assert.equal(tail.status, 206);
        assert.ok(Buffer.from(await tail.arrayBuffer()).equals(served.subarray(-100)));
        const past = await fetch(url, { headers: { range: `bytes=${served.length}-` } });
        assert.equal(past.status, 416);
        assert.equal(past.headers.get('content-range'), `bytes */${served.length}`);
        const head = await fetch(url, { method: 'HEAD' });
        assert.equal(head.status, 200);
        assert.equal(head.headers.get('content-length'), String(served.length));
        assert.equal(head.headers.get('etag'), `"${hash}"`);
        const unchanged = await fetch(url, { headers: { 'if-none-match': `"${hash}"` } });
        assert.equal(unchanged.status, 304);
        assert.equal((await fetch(`${url.replace(/render\.mp4$/, 'nothing.mp4')}`)).status, 404);

        // The topic's picture is an object too, served at its usual URL.
        const topic = (await api(service, 'GET', `/api/topics/${topicId}`, { session })).body.topic;
        assert.equal(topic.pictures.length, 1);
        const pictureURL = `${service.url}${topic.pictures[0]}`;
        const pictureBytes = Buffer.from(await (await fetch(pictureURL)).arrayBuffer());
        assert.ok(pictureBytes.equals(await object(`sha256/${sha256(pictureBytes)}`)));

        // Nothing of the renders is left in the media folder (the picture is, for the next renders).
        const local = filesUnder(first);
        assert.deepEqual(
          local.filter((file) => !file.startsWith('topics/')),
          [],
        );
        assert.ok(
          local.every((file) => !file.includes(videoId)),
          local.join(),
        );
        made = {
          accountID: account.id,
          topicId,
          videoId,
          render: { url: new URL(url).pathname, hash },
          chapters: { url: new URL(render.files.chapters.url).pathname, hash: render.files.chapters.sha256 },
          picture: topic.pictures[0] as string,
        };
      } finally {
        await service.close();
      }
    },
  );

  let service2: RunningService | undefined;
  after(() => service2?.close());

  test(
    "a second service on the same data and bucket, with an empty media folder, serves the first's files and reuses its scenes",
    { timeout: 240_000 },
    async () => {
      // As on another machine: nothing of the first's media folder is left to read.
      rmSync(first, { recursive: true, force: true });
      const service = (service2 = await start(second));
      const served = Buffer.from(await (await fetch(`${service.url}${made.render.url}`)).arrayBuffer());
      assert.equal(sha256(served), made.render.hash);
      // The chapters too: from the bucket, with their type.
      const chapters = await fetch(`${service.url}${made.chapters.url}`);
      assert.equal(chapters.headers.get('content-type'), 'text/vtt; charset=utf-8');
      assert.equal(sha256(Buffer.from(await chapters.arrayBuffer())), made.chapters.hash);
      const picture = await fetch(`${service.url}${made.picture}`);
      assert.equal(picture.status, 200);
      assert.equal(picture.headers.get('content-type'), made.picture.endsWith('.png') ? 'image/png' : 'image/jpeg');

      // The same video again: every scene (and the voice) comes from the first's cache in the bucket,
      // and its files, byte-identical to the first's preview, are no new objects.
      const objects = await contentObjects();
      const signedIn = await user(service, made.accountID);
      const { videoId, generation } = await generate(service, signedIn, made.topicId);
      signedIn.stream.close();
      assert.equal(generation.status, 'COMPLETE', JSON.stringify(generation.error));
      const preview = await previewStats(service, signedIn.session, videoId);
      assert.equal(preview.stats.scenesRendered, 0);
      assert.ok(preview.stats.scenes > 0);
      assert.deepEqual(await contentObjects(), objects);
      assert.ok(objects.includes(`sha256/${preview.sha256.video}`));
      assert.deepEqual(
        filesUnder(second).filter((file) => !file.startsWith('topics/')),
        [],
      );
    },
  );

  test(
    'the store stopped: a render fails with media_store_unavailable after its tries, files answer 503 with Retry-After; back, a new render completes',
    { timeout: 300_000 },
    async () => {
      const service = service2!;
      await s3.stop();
      const down = await fetch(`${service.url}${made.render.url}`);
      assert.equal(down.status, 503);
      assert.ok(Number(down.headers.get('retry-after')) >= 1);
      assert.equal((await down.json()).error.code, 'service_unavailable');
      assert.equal((await fetch(`${service.url}${made.picture}`)).status, 503);

      const signedIn = await user(service, made.accountID);
      const started = Date.now();
      const failed = await generate(service, signedIn, made.topicId);
      assert.equal(failed.generation.status, 'FAILED');
      // Not at the first refusal: storing waited through its tries (about mediaStoreRetryMs).
      assert.ok(Date.now() - started >= 1000, `${Date.now() - started} ms`);
      assert.equal(failed.generation.error.code, 'media_store_unavailable');
      assert.deepEqual(
        filesUnder(second).filter((file) => !file.startsWith('topics/')),
        [],
      );
      // A topic searched meanwhile: its picture could not be stored, so it is left out.
      const { topicId } = (
        await api(service, 'POST', '/api/topics', { session: signedIn.session, body: { sourceURL: `${source}/` } })
      ).body;
      assert.equal(
        (await statusesUntilFinal(signedIn.stream, 'topic', (data) => data.id === topicId)).at(-1),
        'COMPLETE',
      );
      const { topic } = (await api(service, 'GET', `/api/topics/${topicId}`, { session: signedIn.session })).body;
      assert.deepEqual(topic.pictures, []);
      // The service still answers everything else.
      assert.equal((await api(service, 'GET', '/api/health')).status, 200);

      await s3.start();
      const served = await fetch(`${service.url}${made.render.url}`);
      assert.equal(served.status, 200);
      assert.equal(sha256(Buffer.from(await served.arrayBuffer())), made.render.hash);
      const again = await generate(service, signedIn, made.topicId);
      signedIn.stream.close();
      assert.equal(again.generation.status, 'COMPLETE', JSON.stringify(again.generation.error));
      const preview = await previewStats(service, signedIn.session, again.videoId);
      assert.equal(preview.stats.scenesRendered, 0);
      const movie = await fetch(`${service.url}/media/videos/${again.videoId}/preview.mp4`);
      assert.equal(movie.status, 200);
      assert.equal(sha256(Buffer.from(await movie.arrayBuffer())), preview.sha256.video);
    },
  );

  test(
    "a sandbox's reset keeps the bucket's content objects (shared by content) and serves them no more; another partner's stay served",
    { timeout: 120_000 },
    async () => {
      // Placeholder media: no render, but the topic's kept picture goes through the store all the same.
      const service = await startService({
        port: 0,
        allowLoopbackSources: true,
        jobMs: 40,
        media: 'placeholder',
        mediaStore,
        mediaStoreRetryMs: 1000,
        partners: [{ id: PARTNER, secret: SECRET }],
      });
      try {
        const sandbox = await service.createSandbox();
        const searched = async (partnerID: string, secret: string) => {
          const { session } = await createAccount(service, {}, partnerID, secret);
          const stream = await EventStream.open(service, session);
          await stream.next((event) => event.event === 'ready');
          const { topicId } = (
            await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } })
          ).body;
          await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
          stream.close();
          const { topic } = (await api(service, 'GET', `/api/topics/${topicId}`, { session })).body;
          return `${service.url}${topic.pictures[0]}`;
        };
        const ours = await searched(PARTNER, SECRET);
        const theirs = await searched(sandbox.partnerID, sandbox.secret);
        const bytes = Buffer.from(await (await fetch(theirs)).arrayBuffer());
        assert.ok(bytes.length > 0);
        await service.resetSandbox(sandbox.partnerID);
        assert.equal((await fetch(theirs)).status, 404);
        // The same picture is one object, still the other partner's.
        assert.ok((await object(`sha256/${sha256(bytes)}`)).equals(bytes));
        const kept = await fetch(ours);
        assert.equal(kept.status, 200);
        assert.ok(Buffer.from(await kept.arrayBuffer()).equals(bytes));
      } finally {
        await service.close();
      }
    },
  );

  test(
    'a service given a store later still serves the renders it made into its folder before',
    { timeout: 240_000 },
    async () => {
      const options = {
        port: 0,
        allowLoopbackSources: true,
        jobMs: 40,
        media: 'real' as const,
        dataFile: join(work, 'before.db'),
        mediaDir: join(work, 'media-before'),
        partners: [{ id: PARTNER, secret: SECRET }],
      };
      const folderOnly = await startService(options);
      let account: string;
      let videoId: string;
      try {
        const { session, account: made } = await createAccount(folderOnly);
        account = made.id;
        const stream = await EventStream.open(folderOnly, session);
        await stream.next((event) => event.event === 'ready');
        const { topicId } = (
          await api(folderOnly, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } })
        ).body;
        await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
        // 4:5, so that no object of the tests above has these bytes.
        const generated = await generate(folderOnly, { session, stream }, topicId, '4:5');
        assert.equal(generated.generation.status, 'COMPLETE', JSON.stringify(generated.generation.error));
        videoId = generated.videoId;
        stream.close();
      } finally {
        await folderOnly.close();
      }
      const service = await startService({ ...options, mediaStore, mediaStoreRetryMs: 1000 });
      try {
        const { session } = (await login(service, { accountID: account })).body;
        const preview = await previewStats(service, session, videoId);
        assert.ok(!(await contentObjects()).includes(`sha256/${preview.sha256.video}`));
        const served = await fetch(`${service.url}/media/videos/${videoId}/preview.mp4`);
        assert.equal(served.status, 200);
        assert.equal(sha256(Buffer.from(await served.arrayBuffer())), preview.sha256.video);
      } finally {
        await service.close();
      }
    },
  );
});
