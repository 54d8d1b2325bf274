// Everything a finished video needs, in one result (issue 21, item 5): each COMPLETE render lists
// its video, poster, captions and transcript (URL and type) and an alt text, in the API's video and
// in the video.rendered webhook alike; every URL answers through the real service with its type.
// Real media end to end (a 5 s render), the SVG stand-ins of placeholder media, the access rules.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { verifyWebhook, type WebhookEvent } from '../../../../src/server/index.js';
import { altText, transcript } from '../../src/media/accessibility.js';
import { buildStoryboard } from '../../src/media/storyboard.js';
import { startService } from '../../src/server.js';
import type { Render } from '../../../../src/wire/api.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  WEBHOOK_SECRET,
  api,
  createAccount,
  serve,
  statusesUntilFinal,
} from '../support/helpers.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-renders-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

const source = await serve((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>Harbor Lane Coffee</title>
    <meta name="description" content="Small-batch coffee, roasted every morning."></head>
    <body><h1>Roasted at dawn</h1><p>We roast twelve single-origin coffees in small batches.</p>
    <h2>Our origins</h2><p>Beans from Ethiopia, Colombia and Sumatra, bought directly from growers.</p></body></html>`);
});

/** One webhook receiver: every post's verified event, by the path it was posted to. */
const webhooks = new Map<string, WebhookEvent[]>();
const arrived: (() => void)[] = [];
const receiver = await serve((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    res.writeHead(204).end();
    void verifyWebhook(Buffer.concat(chunks).toString('utf8'), { secret: WEBHOOK_SECRET, partnerID: PARTNER }).then(
      (event) => {
        webhooks.set(req.url ?? '/', [...(webhooks.get(req.url ?? '/') ?? []), event]);
        for (const wake of arrived.splice(0)) wake();
      },
    );
  });
});

/** The video.rendered event posted to `path`, once it is there. */
async function renderedEvent(path: string): Promise<Extract<WebhookEvent, { type: 'video.rendered' }>> {
  for (;;) {
    const event = webhooks.get(path)?.find((candidate) => candidate.type === 'video.rendered');
    if (event?.type === 'video.rendered') return event;
    await new Promise<void>((resolve) => arrived.push(resolve));
  }
}

/**
 * A service with `media`, whose partner posts webhooks to `/<hook>`: signs up, searches the page,
 * generates a 5 s 16:9 video named `name`, completes it and waits for its render. Returns the
 * service, the session, the video ID, the renders the status stream showed when the render was
 * COMPLETE, and what the API showed while it was PROCESSING.
 */
async function renderedVideo(media: 'real' | 'placeholder', hook: string, language = 'en-GB') {
  const service = await startService({
    port: 0,
    allowLoopbackSources: true,
    jobMs: 40,
    media,
    mediaDir: join(work, hook),
    webhookRetryMs: 10,
    partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET], webhookURLs: [`${receiver}/${hook}`] }],
  });
  after(() => service.close());
  const { session } = await createAccount(service);
  const stream = await EventStream.open(service, session);
  await stream.next((event) => event.event === 'ready');
  const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } })).body;
  await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
  const generation = await api(service, 'POST', '/api/generations', {
    session,
    body: { topicId, aspectRatio: '16:9', duration: 5, language },
  });
  const { requestId, videoId } = generation.body as { requestId: string; videoId: string };
  assert.equal(
    (await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId)).at(-1),
    'COMPLETE',
  );
  await api(service, 'PATCH', `/api/videos/${videoId}`, { session, body: { name: 'Harbor Lane spring ad' } });
  const processing = (await api(service, 'POST', `/api/videos/${videoId}/complete`, { session })).body.video
    .renders as Render[];
  const rendered = await stream.next(
    (event) => event.event === 'video' && event.data.id === videoId && event.data.renders[0]?.status === 'COMPLETE',
  );
  stream.close();
  return { service, session, videoId, processing, renders: rendered.data.renders as Render[] };
}

/** GETs `url`: its status, Content-Type, Access-Control-Allow-Origin and body as text. */
async function get(url: string): Promise<{ status: number; type: string | null; cors: string | null; text: string }> {
  const response = await fetch(url);
  const { headers } = response;
  return {
    status: response.status,
    type: headers.get('content-type'),
    cors: headers.get('access-control-allow-origin'),
    text: await response.text(),
  };
}

describe('the files of a finished render', () => {
  test(
    'real media: the render lists its MP4, poster, captions and transcript, each served with its type, and an alt text',
    { timeout: 90_000 },
    async () => {
      const { service, session, videoId, processing, renders } = await renderedVideo('real', 'real');
      // Before the render is COMPLETE there is nothing to publish: no files, no alt text.
      assert.deepEqual(processing, [
        { format: 'mp4', status: 'PROCESSING', progress: { stage: 'queued', fraction: 0 } },
      ]);

      const media = `${service.url}/media/videos/${videoId}`;
      const [render] = renders;
      assert.equal(renders.length, 1);
      assert.equal(render!.url, `${media}/render.mp4`);
      const sha256 = /^[0-9a-f]{64}$/;
      assert.deepEqual(render!.files, {
        video: { url: `${media}/render.mp4`, type: 'video/mp4', sha256: render!.files!.video.sha256 },
        poster: { url: `${media}/poster.jpg`, type: 'image/jpeg', sha256: render!.files!.poster.sha256 },
        captions: {
          url: `${media}/captions.vtt`,
          type: 'text/vtt; charset=utf-8',
          language: 'en-GB',
          sha256: render!.files!.captions!.sha256,
        },
        transcript: {
          url: `${media}/transcript.txt`,
          type: 'text/plain; charset=utf-8',
          sha256: render!.files!.transcript!.sha256,
        },
      });
      // Each file carries the SHA-256 of the bytes it serves.
      for (const file of Object.values(render!.files!)) {
        assert.match(file.sha256 ?? '', sha256, file.url);
        const bytes = Buffer.from(await (await fetch(file.url)).arrayBuffer());
        assert.equal(createHash('sha256').update(bytes).digest('hex'), file.sha256, file.url);
      }
      // Completed without an edit since its preview (only the name changed): every scene reused.
      assert.deepEqual({ ...render!.stats, ms: 0 }, { scenes: 2, scenesRendered: 0, scenesReused: 2, ms: 0 });
      assert.ok(render!.stats!.ms > 0);

      // Each URL answers 200 with the type it is listed with, readable from any origin.
      const files = Object.values(render!.files!);
      for (const file of files) {
        const response = await fetch(file.url);
        assert.equal(response.status, 200, file.url);
        assert.equal(response.headers.get('content-type'), file.type, file.url);
        assert.equal(response.headers.get('access-control-allow-origin'), '*', file.url);
        await response.arrayBuffer();
      }
      const mp4 = Buffer.from(await (await fetch(render!.files!.video.url)).arrayBuffer());
      assert.equal(mp4.subarray(4, 8).toString('latin1'), 'ftyp');
      const jpeg = Buffer.from(await (await fetch(render!.files!.poster.url)).arrayBuffer());
      assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff]);

      // The captions and the transcript carry the narration of every scene.
      const { scenes } = (await api(service, 'GET', `/api/videos/${videoId}/storyboard`, { session })).body as {
        scenes: { heading: string; narration: string }[];
      };
      assert.equal(scenes.length, 2);
      const vtt = (await get(render!.files!.captions!.url)).text;
      assert.match(vtt, /^WEBVTT\n/);
      const text = (await get(render!.files!.transcript!.url)).text;
      for (const scene of scenes) {
        assert.ok(vtt.includes(scene.narration), `captions have "${scene.narration}"`);
        assert.ok(text.includes(`${scene.heading}\n${scene.narration}\n`), `transcript has "${scene.narration}"`);
      }
      assert.ok(!text.includes('-->'), 'the transcript is plain text, not cues');

      // The alt text names the video (its current name) and says what it is.
      assert.equal(render!.altText, 'A 5-second video about “Harbor Lane spring ad”.');

      // The quality report of the finished file (quality.test.ts checks its figures).
      assert.equal(typeof render!.quality?.loudnessLUFS, 'number');
      // The API's video, and the video.rendered webhook, carry the same renders (the report too).
      const video = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video;
      assert.deepEqual(video.renders, renders);
      const event = await renderedEvent('/real');
      // The webhook's renders are the API's without the job's bookkeeping (status, progress, stats).
      assert.deepEqual(
        event.data.renders,
        renders.map(({ status: _status, progress: _progress, stats: _stats, ...rest }) => rest),
      );
    },
  );

  test(
    'real media: a render made before transcripts were written gets one from its storyboard',
    { timeout: 90_000 },
    async () => {
      const { service, videoId, renders } = await renderedVideo('real', 'older', 'de');
      const transcriptURL = renders[0]!.files!.transcript!.url;
      const first = await get(transcriptURL);
      assert.match(first.text, /Entdecken Sie /); // a local address is not named
      assert.equal(renders[0]!.altText, 'Ein 5-sekündiges Video über „Harbor Lane spring ad“.');
      unlinkSync(join(work, 'older', 'videos', `${videoId}-final.txt`));
      const again = await get(transcriptURL);
      assert.deepEqual([again.status, again.type, again.text], [200, 'text/plain; charset=utf-8', first.text]);
      assert.equal(readFileSync(join(work, 'older', 'videos', `${videoId}-final.txt`), 'utf8'), first.text);
      assert.equal((await get(`${service.url}/media/videos/${videoId}/constructor`)).status, 404);
    },
  );

  test('placeholder media: the render lists its SVG video and poster, no captions or transcript, and an alt text', async () => {
    const { service, session, videoId, processing, renders } = await renderedVideo('placeholder', 'placeholder');
    // The render has just started: its progress is at its start (its job may have entered `rendering`).
    assert.deepEqual(
      processing.map(({ progress, ...rest }) => ({ ...rest, started: progress!.fraction < 0.01 })),
      [{ format: 'svg', status: 'PROCESSING', started: true }],
    );
    const media = `${service.url}/media/videos/${videoId}`;
    const [render] = renders;
    assert.deepEqual(render!.files, {
      video: { url: `${media}/render.svg`, type: 'image/svg+xml' },
      poster: { url: `${media}/poster.svg`, type: 'image/svg+xml' },
    });
    assert.equal(render!.url, render!.files!.video.url);
    for (const file of Object.values(render!.files!)) {
      const answer = await get(file.url);
      assert.deepEqual([answer.status, answer.type, answer.cors], [200, file.type, '*'], file.url);
      assert.match(answer.text, /^<svg /);
    }
    // A stand-in has no narration: nothing is served where real media has captions and a transcript.
    assert.equal((await get(`${media}/captions.vtt`)).status, 404);
    assert.equal((await get(`${media}/transcript.txt`)).status, 404);
    assert.equal(render!.altText, 'A 5-second video about “Harbor Lane spring ad”.');

    const video = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video;
    assert.deepEqual(video.renders, renders);
    const event = await renderedEvent('/placeholder');
    assert.deepEqual(
      event.data.renders,
      renders.map(({ status: _status, progress: _progress, ...rest }) => rest),
    );
  });

  test('a render’s files are not served before the render is COMPLETE, nor for an unknown video', async () => {
    const service = await startService({
      port: 0,
      allowLoopbackSources: true,
      jobMs: 40,
      media: 'placeholder',
      partners: [{ id: PARTNER, secret: SECRET }],
    });
    after(() => service.close());
    const { session } = await createAccount(service);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } }))
      .body;
    await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    const { requestId, videoId } = (
      await api(service, 'POST', '/api/generations', { session, body: { topicId, aspectRatio: '4:5', duration: 5 } })
    ).body;
    await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
    stream.close();
    const media = `${service.url}/media/videos/${videoId}`;
    // The generation's thumbnail is there; the render's poster and video are not, until completed.
    assert.equal((await get(`${media}/thumbnail.svg`)).status, 200);
    assert.equal((await get(`${media}/poster.svg`)).status, 404);
    assert.equal((await get(`${media}/render.svg`)).status, 404);
    for (const name of ['poster.svg', 'render.mp4', 'poster.jpg', 'captions.vtt', 'transcript.txt']) {
      assert.equal((await get(`${service.url}/media/videos/vid_unknown/${name}`)).status, 404, name);
    }
  });
});

describe('the words of a render', () => {
  const board = buildStoryboard(
    {
      sourceURL: 'https://harbor.coffee/',
      title: 'Harbor Lane Coffee | Home',
      description: 'Small-batch coffee, roasted every morning.',
      headings: ['Roasted at dawn', 'Our origins', 'Visit the roastery', 'Wholesale'],
      sentences: ['We roast twelve single-origin coffees in small batches.'],
      images: [],
    },
    { aspectRatio: '16:9', duration: 30, language: 'fr' },
  );

  test('the transcript has every scene, in order: its start, its heading, its narration', () => {
    const text = transcript(board);
    let at = 0;
    for (const scene of board.scenes) {
      const index = text.indexOf(`${scene.heading}\n${scene.narration}\n`, at);
      assert.ok(index >= at, `scene "${scene.heading}" in order`);
      at = index;
    }
    assert.match(text, /^\[0:00\] Harbor Lane Coffee\n/);
    assert.match(text, /\n\[0:25\] Harbor Lane Coffee\nRendez-vous sur harbor\.coffee\.\n$/);
  });

  test('the alt text is in the video’s language, names it and lists a few scene headings', () => {
    const video = { name: 'Harbor Lane Coffee', duration: 30, language: 'fr' };
    assert.equal(
      altText(video, board),
      'Une vidéo de 30 secondes sur « Harbor Lane Coffee »: Roasted at dawn, Our origins et Visit the roastery.',
    );
    assert.equal(
      altText({ ...video, language: 'en-US' }, board),
      'A 30-second video about “Harbor Lane Coffee”: Roasted at dawn, Our origins, and Visit the roastery.',
    );
    assert.equal(
      altText({ ...video, language: 'de' }, board),
      'Ein 30-sekündiges Video über „Harbor Lane Coffee“: Roasted at dawn, Our origins und Visit the roastery.',
    );
    // No storyboard (placeholder media): only what is known.
    assert.equal(altText({ ...video, language: 'pt' }), 'Um vídeo de 30 segundos sobre “Harbor Lane Coffee”.');
    // A language without its own sentence reads in English.
    assert.equal(altText({ ...video, language: 'nl' }), 'A 30-second video about “Harbor Lane Coffee”.');
  });

  test('the alt text stays short: headings stop before it passes 150 characters', () => {
    const long = buildStoryboard(
      {
        sourceURL: 'https://a.example/',
        title: 'A',
        headings: ['x'.repeat(60), 'y'.repeat(60), 'z'.repeat(60)],
        images: [],
      },
      { aspectRatio: '16:9', duration: 30, language: 'en-US' },
    );
    const text = altText({ name: 'A', duration: 30, language: 'en-US' }, long);
    assert.ok(text.length <= 150, text);
    assert.equal(text, `A 30-second video about “A”: ${long.scenes[1]!.heading}.`);
  });
});
