// Real media through the service's HTTP API (`media: 'real'`, the default): a topic search keeps
// the source page's usable images (and refuses the rest), a generation is COMPLETE only with a
// preview render and a real thumbnail, completing renders the final MP4, served with ranges; a
// restart with a data file resumes an unfinished render. Files are read back with mp4box.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseVtt } from '../../src/media/quality.js';
import { startService } from '../../src/server.js';
import type { Render } from '../../../../src/wire/api.js';
import { picture, probe } from '../support/media-helpers.js';
import { EventStream, PARTNER, SECRET, api, createAccount, serve, statusesUntilFinal } from '../support/helpers.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-media-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

const red = readFileSync(picture(work, 'red.png', 'red', '640x480'));
const jpeg = readFileSync(picture(work, 'blue.jpg', 'blue', '640x480'));
const bomb = Buffer.alloc(33);
Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(bomb, 0);
bomb.write('IHDR', 12);
bomb.writeUInt32BE(60_000, 16);
bomb.writeUInt32BE(60_000, 20);
const FILES: Record<string, [string, Buffer]> = {
  '/red.png': ['image/png', red],
  '/broken.jpg': ['image/jpeg', Buffer.concat([jpeg.subarray(0, 200), Buffer.alloc(300, 0x33)])],
  '/bomb.png': ['image/png', bomb],
  '/logo.svg': ['image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')],
};
const source = await serve((req, res) => {
  const file = FILES[req.url ?? ''];
  if (file) return res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Harbor Lane Coffee</title>
    <meta name="description" content="Small-batch coffee, roasted every morning."></head>
    <body><h1>Roasted at dawn</h1><p>We roast twelve single-origin coffees in small batches. Come taste them.</p>
    <img src="/red.png"><img src="/broken.jpg"><img src="/bomb.png"><img src="/logo.svg"></body></html>`);
});

async function start(options: Record<string, unknown> = {}) {
  return startService({
    port: 0,
    allowLoopbackSources: true,
    jobMs: 40,
    partners: [{ id: PARTNER, secret: SECRET }],
    ...options,
  });
}

/** Signs up, runs a topic search and a generation to their end; returns what a test needs. */
async function generated(service: Awaited<ReturnType<typeof start>>, params: Record<string, unknown> = {}) {
  const { session } = await createAccount(service);
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  const { body: topic } = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } });
  assert.deepEqual(await statusesUntilFinal(stream, 'topic', (data) => data.id === topic.topicId), [
    'PENDING',
    'PROCESSING',
    'COMPLETE',
  ]);
  const { body } = await api(service, 'POST', '/api/generations', {
    session,
    body: { topicId: topic.topicId, aspectRatio: '16:9', duration: 5, ...params },
  });
  const statuses = await statusesUntilFinal(stream, 'generation', (data) => data.requestId === body.requestId);
  return { session, stream, topicId: topic.topicId as string, videoId: body.videoId as string, statuses };
}

describe('real media', () => {
  // Time limits here are hang detectors: each test renders real files, on a machine that may be busy
  // (the editor's test timed out at 60 s beside other renders; the final render is also measured).
  test(
    'a topic keeps the usable images only; a generation is COMPLETE with a real preview and thumbnail',
    { timeout: 180_000 },
    async () => {
      const mediaDir = join(work, 'media-1');
      const service = await start({ mediaDir });
      try {
        const { session, stream, topicId, videoId, statuses } = await generated(service);
        assert.deepEqual(statuses, ['PENDING', 'PROCESSING', 'COMPLETE']);
        // The public topic lists the page's images; the service kept only the one it can use, as a
        // JPEG it wrote (the PNG is opaque).
        const topic = (await api(service, 'GET', `/api/topics/${topicId}`, { session })).body.topic;
        assert.equal(topic.images.length, 4);
        assert.deepEqual(readdirSync(join(mediaDir, 'topics', topicId)), ['0.jpg']);

        const video = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video;
        assert.equal(video.thumbnailURL, `${service.url}/media/videos/${videoId}/thumbnail.jpg`);
        const thumbnail = await fetch(video.thumbnailURL);
        assert.equal(thumbnail.headers.get('content-type'), 'image/jpeg');
        const preview = await fetch(`${service.url}/media/videos/${videoId}/preview.mp4`);
        assert.equal(preview.status, 200);
        assert.equal(preview.headers.get('content-type'), 'video/mp4');
        assert.equal(preview.headers.get('accept-ranges'), 'bytes');
        const bytes = Buffer.from(await preview.arrayBuffer());
        assert.equal(Number(preview.headers.get('content-length')), bytes.length);
        const info = await probe(bytes);
        assert.ok(Math.abs(info.duration / info.timescale - 5) < 0.15);
        assert.deepEqual([info.videoTracks[0]!.video!.width, info.videoTracks[0]!.video!.height], [1280, 720]);
        assert.match(info.videoTracks[0]!.codec, /^avc1/);
        assert.match(info.audioTracks[0]!.codec, /^mp4a/);

        // Ranges, as players ask for them to seek.
        const part = await fetch(preview.url, { headers: { range: 'bytes=100-199' } });
        assert.equal(part.status, 206);
        assert.equal(part.headers.get('content-range'), `bytes 100-199/${bytes.length}`);
        assert.deepEqual(Buffer.from(await part.arrayBuffer()), bytes.subarray(100, 200));
        const tail = await fetch(preview.url, { headers: { range: 'bytes=-10' } });
        assert.deepEqual(Buffer.from(await tail.arrayBuffer()), bytes.subarray(-10));
        const beyond = await fetch(preview.url, { headers: { range: `bytes=${bytes.length}-` } });
        assert.equal(beyond.status, 416);
        assert.equal(beyond.headers.get('content-range'), `bytes */${bytes.length}`);
        // The final render is not there before the video is completed.
        assert.equal((await fetch(`${service.url}/media/videos/${videoId}/render.mp4`)).status, 404);

        // Completing renders the final file; only then is the render COMPLETE, with its URL.
        const completed = await api(service, 'POST', `/api/videos/${videoId}/complete`, { session });
        assert.deepEqual(completed.body.video.renders, [
          { format: 'mp4', status: 'PROCESSING', progress: { stage: 'queued', fraction: 0 } },
        ]);
        const rendered = await stream.next(
          (event) =>
            event.event === 'video' && event.data.id === videoId && event.data.renders[0]?.status === 'COMPLETE',
        );
        const [render] = rendered.data.renders;
        assert.equal(render.url, `${service.url}/media/videos/${videoId}/render.mp4`);
        assert.ok(render.renderedAt);
        const final = await fetch(render.url);
        assert.equal(final.headers.get('content-type'), 'video/mp4');
        assert.ok(Math.abs((await probe(Buffer.from(await final.arrayBuffer()))).duration / info.timescale - 5) < 0.15);
        const vtt = await fetch(`${service.url}/media/videos/${videoId}/captions.vtt`);
        assert.equal(vtt.headers.get('content-type'), 'text/vtt; charset=utf-8');
        assert.match(await vtt.text(), /^WEBVTT\n\n1\n00:00:00\.150 --> /); // when the voice starts
        stream.close();
      } finally {
        await service.close();
      }
    },
  );

  test(
    'the editor: the storyboard is read, edited (text, picture, order, removal) and previewed again',
    { timeout: 180_000 },
    async () => {
      const service = await start({ mediaDir: join(work, 'media-edit') });
      try {
        const { session, stream, videoId } = await generated(service, { duration: 15 });
        const board = (await api(service, 'GET', `/api/videos/${videoId}/storyboard`, { session })).body;
        assert.equal(board.editable, true);
        assert.equal(board.scenes.length, 4);
        assert.equal(board.images.length, 1);
        assert.equal((await fetch(board.images[0])).headers.get('content-type'), 'image/jpeg');
        assert.equal(board.scenes[0].image, 0);

        // Bad edits are refused, naming the field; nothing changes.
        const bad = await api(service, 'PATCH', `/api/videos/${videoId}`, {
          session,
          body: { scenes: [{ heading: 'x', narration: 'y', image: 5 }] },
        });
        assert.equal(bad.status, 400);
        assert.match(bad.body.error.message, /scenes\.0\.image: the topic has 1 image\(s\)/);
        const empty = await api(service, 'PATCH', `/api/videos/${videoId}`, { session, body: { scenes: [] } });
        assert.equal(empty.status, 400);

        // Edit: the last scene first, the first one's text changed and without picture, one removed.
        const scenes = [
          { ...board.scenes[3], image: 0 },
          { ...board.scenes[0], heading: 'Fresh every dawn', narration: 'Fresh coffee, every dawn.', image: null },
          board.scenes[1],
        ];
        const before = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video.updatedAt;
        const saved = await api(service, 'PATCH', `/api/videos/${videoId}`, {
          session,
          body: { name: 'Dawn', scenes },
        });
        assert.equal(saved.status, 200);
        assert.equal(saved.body.video.name, 'Dawn');
        const again = (await api(service, 'GET', `/api/videos/${videoId}/storyboard`, { session })).body;
        assert.deepEqual(
          again.scenes.map((scene: { heading: string; image: number | null }) => [scene.heading, scene.image]),
          [
            [board.scenes[3].heading, 0],
            ['Fresh every dawn', null],
            [board.scenes[1].heading, board.scenes[1].image],
          ],
        );
        // Sources follow the texts: an unchanged scene keeps them, an edited text has none.
        assert.deepEqual(again.scenes[2].sources, board.scenes[1].sources);
        assert.equal(board.scenes[1].sources.pageURL, `${source}/`);
        assert.equal(again.scenes[1].sources.heading, undefined);
        assert.equal(again.scenes[1].sources.voiceover, undefined);
        assert.equal(again.scenes[0].sources.pictureURL, `${source}/red.png`);
        // The preview is rendered again: the captions follow the new scenes.
        await stream.next(
          (event) =>
            event.event === 'video' && event.data.id === videoId && event.data.updatedAt > saved.body.video.updatedAt,
        );
        assert.ok(saved.body.video.updatedAt >= before);
        const captions = await (await fetch(`${service.url}/media/videos/${videoId}/preview.vtt`)).text();
        assert.equal(captions.match(/-->/g)?.length, 3);
        assert.match(captions, /00:00:05\.150 --> 00:00:10\.000\nFresh coffee, every dawn\./);

        // Completed, the scenes are read only.
        await api(service, 'POST', `/api/videos/${videoId}/complete`, { session });
        const late = await api(service, 'PATCH', `/api/videos/${videoId}`, { session, body: { scenes } });
        assert.equal(late.status, 409);
        assert.equal(
          (await api(service, 'GET', `/api/videos/${videoId}/storyboard`, { session })).body.editable,
          false,
        );
        stream.close();
      } finally {
        await service.close();
      }
    },
  );

  test(
    'completing with the editor’s edits not saved yet: refused, nothing is saved or completed; accepted, they are saved with it and the final render is made of them',
    { timeout: 180_000 },
    async () => {
      const service = await start({ mediaDir: join(work, 'media-complete-edits') });
      try {
        const { session, stream, videoId } = await generated(service);
        const url = `/api/videos/${videoId}`;
        const board = (await api(service, 'GET', `${url}/storyboard`, { session })).body;
        // Markup in the texts as typed: the files keep it as text (captions and chapters escape it).
        const heading = 'Tea <b>& cake</b>';
        const narration = 'Tea & cake, <fresh> today.';
        const scenes = [{ ...board.scenes[0], heading, narration }, ...board.scenes.slice(1)];

        // Edits the service refuses, each naming its field: the video is neither saved nor completed.
        const refusals: [Record<string, unknown>, string][] = [
          [{ scenes: [{ ...scenes[0], narration: ' ' }] }, 'scenes.0.narration'],
          [{ name: ' ', scenes }, 'name'],
          [{ scenes: [{ ...scenes[0], image: 5 }] }, 'scenes.0.image'],
        ];
        for (const [body, field] of refusals) {
          const refused = await api(service, 'POST', `${url}/complete`, { session, body });
          assert.equal(refused.status, 400, field);
          assert.equal(refused.body.error.data.field, field);
        }
        const untouched = (await api(service, 'GET', url, { session })).body.video;
        assert.equal(untouched.isCompleted, false);
        assert.deepEqual((await api(service, 'GET', `${url}/storyboard`, { session })).body.scenes, board.scenes);

        const completed = await api(service, 'POST', `${url}/complete`, {
          session,
          body: { name: 'Tea time', scenes },
        });
        assert.equal(completed.status, 200);
        assert.deepEqual([completed.body.video.name, completed.body.video.isCompleted], ['Tea time', true]);
        const saved = (await api(service, 'GET', `${url}/storyboard`, { session })).body;
        assert.deepEqual(
          [saved.scenes[0].heading, saved.scenes[0].narration, saved.editable],
          [heading, narration, false],
        );
        const rendered = await stream.next(
          (event) =>
            event.event === 'video' && event.data.id === videoId && event.data.renders[0]?.status === 'COMPLETE',
        );
        const [render] = rendered.data.renders as Render[];
        // Made of the edited scenes: the first scene rendered anew, the other reused from the preview.
        assert.deepEqual({ ...render!.stats, ms: 0 }, { scenes: 2, scenesRendered: 1, scenesReused: 1, ms: 0 });
        const text = async (file?: { url: string }) => (await fetch(file!.url)).text();
        const captions = await text(render!.files!.captions);
        assert.ok(captions.includes('\nTea &amp; cake, &lt;fresh&gt; today.\n'), captions);
        assert.equal(parseVtt(captions)[0]!.text, narration);
        assert.equal(parseVtt(await text(render!.files!.chapters))[0]!.text, heading);
        assert.match(await text(render!.files!.transcript), new RegExp(`^\\[0:00\\] ${heading}\n${narration}\n`));
        // No preview was rendered from the edits: the preview is still the generation's.
        assert.deepEqual(saved.preview, board.preview);
        stream.close();
      } finally {
        await service.close();
      }
    },
  );

  test(
    'a preview that cannot be rendered ends the generation FAILED with render_failed; nothing is served',
    { timeout: 30_000 },
    async () => {
      const mediaDir = join(work, 'media-broken');
      const service = await start({ mediaDir });
      try {
        const { session } = await createAccount(service);
        const stream = await EventStream.open(service, session);
        await stream.next((event) => event.event === 'ready');
        const { body: topic } = await api(service, 'POST', '/api/topics', {
          session,
          body: { sourceURL: `${source}/` },
        });
        await statusesUntilFinal(stream, 'topic', (data) => data.id === topic.topicId);
        // The kept image disappears from the disk before the render needs it.
        rmSync(join(mediaDir, 'topics', topic.topicId), { recursive: true, force: true });
        const { body } = await api(service, 'POST', '/api/generations', {
          session,
          body: { topicId: topic.topicId, aspectRatio: '16:9', duration: 5 },
        });
        assert.deepEqual(await statusesUntilFinal(stream, 'generation', (data) => data.requestId === body.requestId), [
          'PENDING',
          'PROCESSING',
          'FAILED',
        ]);
        const failed = (await api(service, 'GET', `/api/generations/${body.requestId}`, { session })).body.generation;
        assert.equal(failed.error.code, 'render_failed');
        assert.match(
          failed.error.message,
          /^The preview render failed: The picture of scene 1 could not be made: .*0\.jpg/,
        );
        assert.equal((await fetch(`${service.url}/media/videos/${body.videoId}/preview.mp4`)).status, 404);
        assert.deepEqual(readdirSync(join(mediaDir, 'videos')), []);
        stream.close();
      } finally {
        await service.close();
      }
    },
  );

  test('the [fail] marker still fails the generation, before any render', { timeout: 30_000 }, async () => {
    const service = await start({ mediaDir: join(work, 'media-2') });
    try {
      const { statuses, videoId } = await generated(service, { videoInstructions: 'Warm [fail]' });
      assert.deepEqual(statuses, ['PENDING', 'PROCESSING', 'FAILED']);
      assert.equal((await fetch(`${service.url}/media/videos/${videoId}/preview.mp4`)).status, 404);
    } finally {
      await service.close();
    }
  });

  test('a restart with the same data file resumes an unfinished render', { timeout: 180_000 }, async () => {
    const dataFile = join(work, 'resume.json');
    const first = await start({ dataFile });
    const { session, videoId } = await generated(first);
    await api(first, 'POST', `/api/videos/${videoId}/complete`, { session });
    // Stopped while the final render runs: nothing half-written is left to serve.
    await first.close();
    const renders = readdirSync(join(`${dataFile}.media`, 'videos'));
    assert.ok(!renders.includes(`${videoId}-final.mp4`), `no final render yet: ${renders}`);

    const second = await start({ dataFile });
    try {
      // Listen first, then look: the render may finish before or after.
      const stream = await EventStream.open(second, session);
      await stream.next((event) => event.event === 'ready');
      let current = (await api(second, 'GET', `/api/videos/${videoId}`, { session })).body.video;
      if (current.renders[0]?.status !== 'COMPLETE') {
        current = (
          await stream.next(
            (event) =>
              event.event === 'video' && event.data.id === videoId && event.data.renders[0]?.status === 'COMPLETE',
          )
        ).data;
      }
      const video = { data: current };
      assert.equal(video.data.renders[0].format, 'mp4');
      assert.equal((await fetch(`${second.url}/media/videos/${videoId}/render.mp4`)).status, 200);
      stream.close();
    } finally {
      await second.close();
    }
  });
});

/**
 * Starts `count` generations of one topic at once (durations taken in turn from `durations`),
 * then completes every video; resolves with every generation's and final render's last status,
 * read from the status stream (nothing polls).
 */
async function burst(service: Awaited<ReturnType<typeof start>>, durations: number[], count: number) {
  const { session } = await createAccount(service);
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  const { body: topic } = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } });
  await statusesUntilFinal(stream, 'topic', (data) => data.id === topic.topicId);
  const started = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      api(service, 'POST', '/api/generations', {
        session,
        body: { topicId: topic.topicId, aspectRatio: '16:9', duration: durations[index % durations.length] },
      }).then(({ body }) => body as { requestId: string; videoId: string }),
    ),
  );
  const generations = new Map<string, string>();
  while (generations.size < count) {
    const { data } = await stream.next(
      (event) =>
        event.event === 'generation' &&
        ['COMPLETE', 'FAILED'].includes(event.data.status) &&
        started.some((one) => one.requestId === event.data.requestId),
    );
    generations.set(data.requestId, data.status);
  }
  await Promise.all(started.map(({ videoId }) => api(service, 'POST', `/api/videos/${videoId}/complete`, { session })));
  const renders = new Map<string, string>();
  while (renders.size < count) {
    const { data } = await stream.next(
      (event) =>
        event.event === 'video' &&
        started.some((one) => one.videoId === event.data.id) &&
        ['COMPLETE', 'FAILED'].includes(event.data.renders[0]?.status),
    );
    renders.set(data.id, data.renders[0].status);
  }
  stream.close();
  return { generations: [...generations.values()], renders: [...renders.values()] };
}

describe('the render queue under a burst (issue 19: a render once held a slot while waiting for another)', () => {
  // Hang detectors, not budgets: each final render is also measured for its quality report (issue
  // 33), and the machine may be busy beside the run.
  test(
    'more renders than --render-concurrency 1 allows: every generation and render COMPLETE',
    { timeout: 300_000 },
    async () => {
      const service = await start({ renderConcurrency: 1 });
      try {
        const { generations, renders } = await burst(service, [5, 15, 5], 3);
        assert.deepEqual(generations, ['COMPLETE', 'COMPLETE', 'COMPLETE']);
        assert.deepEqual(renders, ['COMPLETE', 'COMPLETE', 'COMPLETE']);
      } finally {
        await service.close();
      }
    },
  );

  test(
    'more renders than the default limit (the cores): every generation and render COMPLETE',
    { timeout: 300_000 },
    async () => {
      const service = await start();
      try {
        const count = availableParallelism() + 2;
        const { generations, renders } = await burst(service, [5], count);
        assert.deepEqual(generations, Array(count).fill('COMPLETE'));
        assert.deepEqual(renders, Array(count).fill('COMPLETE'));
      } finally {
        await service.close();
      }
    },
  );
});
