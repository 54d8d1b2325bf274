// Everything a finished video needs, in one result (issue 21, item 5): each COMPLETE render lists
// its video, poster, captions, chapters and transcript (URL and type) and an alt text, in the API's
// video and in the video.rendered webhook alike; every URL answers through the real service with its
// type; the video lists its chapters. Real media end to end (a 5 s render), a render made before
// chapters were written, the SVG stand-ins of placeholder media, the access rules, the chapters'
// WebVTT and ffmetadata text.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { verifyWebhook, type WebhookEvent } from '../../../../src/server/index.js';
import Database from 'better-sqlite3';
import {
  altText,
  captions,
  chapterMetadata,
  chapters,
  chaptersVtt,
  cues,
  ffmetadataValue,
  transcript,
} from '../../src/media/accessibility.js';
import { removeMediaOf, renderFiles, renderName, RENDER_FILE_KINDS, videosDir } from '../../src/media/files.js';
import { parseVtt } from '../../src/media/quality.js';
import { buildStoryboard } from '../../src/media/storyboard.js';
import { startService, type ServiceOptions } from '../../src/server.js';
import type { Render, Video } from '../../../../src/wire/api.js';
import { ffmpegPath } from '../../src/media/tools.js';
import { ffprobePath } from '../support/media-helpers.js';
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
async function renderedVideo(media: 'real' | 'placeholder', hook: string, language = 'en-GB', dataFile?: string) {
  const options: ServiceOptions = {
    port: 0,
    allowLoopbackSources: true,
    jobMs: 40,
    media,
    mediaDir: join(work, hook),
    ...(dataFile ? { dataFile } : {}),
    webhookRetryMs: 10,
    partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET], webhookURLs: [`${receiver}/${hook}`] }],
  };
  const service = await startService(options);
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
  return { service, options, session, videoId, processing, renders: rendered.data.renders as Render[] };
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
    'real media: the render lists its MP4, poster, captions, chapters and transcript, each served with its type, and an alt text; the video its chapters',
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
        chapters: {
          url: `${media}/chapters.vtt`,
          type: 'text/vtt; charset=utf-8',
          sha256: render!.files!.chapters!.sha256,
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

      // One chapter per scene, titled by its heading, at the scenes' cuts (on whole frames; the
      // scenes' lengths follow what each says), in the video and as the chapters file's cues.
      const video = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video as Video;
      const cut = video.chapters![0]!.end;
      assert.deepEqual(video.chapters, [
        { title: scenes[0]!.heading, start: 0, end: cut },
        { title: scenes[1]!.heading, start: cut, end: 5 },
      ]);
      assert.ok(cut > 0 && cut < 5 && Number.isInteger(Math.round(cut * 25 * 1e6) / 1e6), `the cut at ${cut} s`);
      const cues = parseVtt((await get(render!.files!.chapters!.url)).text);
      assert.deepEqual(
        cues,
        video.chapters!.map(({ title, start, end }) => ({ text: title, start, end })),
      );
      // The preview has its chapters file too, with the hash its record keeps.
      const { preview } = (await api(service, 'GET', `/api/videos/${videoId}/storyboard`, { session })).body as {
        preview: { sha256: Record<string, string> };
      };
      const previewChapters = await fetch(`${media}/preview-chapters.vtt`);
      assert.equal(previewChapters.status, 200);
      assert.equal(previewChapters.headers.get('content-type'), 'text/vtt; charset=utf-8');
      const previewBytes = Buffer.from(await previewChapters.arrayBuffer());
      assert.equal(createHash('sha256').update(previewBytes).digest('hex'), preview.sha256.chapters);

      // The alt text names the video (its current name) and says what it is.
      assert.equal(render!.altText, 'A 5-second video about “Harbor Lane spring ad”.');

      // The quality report of the finished file (quality.test.ts checks its figures).
      assert.equal(typeof render!.quality?.loudnessLUFS, 'number');
      // The API's video, and the video.rendered webhook, carry the same renders (the report too).
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
    'real media: a render made before transcripts were written gets one from its storyboard; one made before chapters lists none and is served',
    { timeout: 90_000 },
    async () => {
      const dataFile = join(work, 'older.db');
      const { service, options, session, videoId, renders } = await renderedVideo('real', 'older', 'de', dataFile);
      const transcriptURL = renders[0]!.files!.transcript!.url;
      const first = await get(transcriptURL);
      assert.match(first.text, /Entdecken Sie /); // a local address is not named
      assert.equal(renders[0]!.altText, 'Ein 5-sekündiges Video über „Harbor Lane spring ad“.');
      unlinkSync(join(work, 'older', 'videos', `${videoId}-final.txt`));
      const again = await get(transcriptURL);
      assert.deepEqual([again.status, again.type, again.text], [200, 'text/plain; charset=utf-8', first.text]);
      assert.equal(readFileSync(join(work, 'older', 'videos', `${videoId}-final.txt`), 'utf8'), first.text);
      assert.equal((await get(`${service.url}/media/videos/${videoId}/constructor`)).status, 404);

      // A render made before renders wrote chapters: its record (and its preview's) has no chapters
      // hash, and there is no chapters file. Its files list none, `chapters.vtt` is not found, and
      // everything else is served as before.
      await service.close();
      const db = new Database(dataFile);
      db.prepare(
        "UPDATE videos SET record = json_remove(record, '$.renders[0].sha256.chapters', '$.preview.sha256.chapters') WHERE id = ?",
      ).run(videoId);
      db.close();
      for (const kind of ['final', 'preview'] as const) {
        unlinkSync(renderFiles(videosDir(join(work, 'older')), renderName(videoId, kind)).chapters);
      }
      const older = await startService({ ...options, port: 0 });
      after(() => older.close());
      const video = (await api(older, 'GET', `/api/videos/${videoId}`, { session })).body.video as Video;
      const [render] = video.renders;
      assert.equal(render!.status, 'COMPLETE');
      assert.deepEqual(Object.keys(render!.files!).sort(), ['captions', 'poster', 'transcript', 'video']);
      const media = `${older.url}/media/videos/${videoId}`;
      for (const name of ['chapters.vtt', 'preview-chapters.vtt']) {
        const answer = await get(`${media}/${name}`);
        assert.equal(answer.status, 404, name);
        assert.match(answer.text, /Nothing is served at/, name);
      }
      for (const file of Object.values(render!.files!)) assert.equal((await get(file.url)).status, 200, file.url);
      // The video's chapters come from its storyboard, which it still has.
      assert.equal(video.chapters?.length, 2);
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
    // A stand-in has no narration and no storyboard: nothing is served where real media has
    // captions, chapters and a transcript, and the video lists no chapters.
    for (const name of ['captions.vtt', 'chapters.vtt', 'transcript.txt']) {
      assert.equal((await get(`${media}/${name}`)).status, 404, name);
    }
    assert.equal(render!.altText, 'A 5-second video about “Harbor Lane spring ad”.');

    const video = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video as Video;
    assert.deepEqual(video.renders, renders);
    assert.equal('chapters' in video, false);
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
    // The closing scene is headed by its line: the name is the title scene's heading only.
    assert.match(text, /\n\[0:25\] Rendez-vous sur harbor\.coffee\nRendez-vous sur harbor\.coffee\.\n$/);
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

  test('the chapters are the scenes: titled by their headings, from cut to cut on whole frames', () => {
    // 30 s in 6 scenes of 5 s: each cut falls on a frame, so the times are the scenes' own.
    assert.deepEqual(
      chapters(board),
      board.scenes.map((scene) => ({ title: scene.heading, start: scene.start, end: scene.start + scene.duration })),
    );
    assert.deepEqual(
      chapters(board).map((chapter) => chapter.title),
      [
        'Harbor Lane Coffee',
        'Roasted at dawn',
        'Our origins',
        'Visit the roastery',
        'Wholesale',
        'Rendez-vous sur harbor.coffee',
      ],
    );
    // A heading typed over lines is one line of title.
    const typed = { ...board, scenes: [{ ...board.scenes[0]!, heading: ' Fresh\n  today ' }] };
    assert.equal(chapters(typed)[0]!.title, 'Fresh today');
  });

  test('the chapters file is WebVTT with a cue per scene, its title escaped as cue text', () => {
    const vtt = chaptersVtt(board);
    assert.match(vtt, /^WEBVTT\n\n1\n00:00:00\.000 --> 00:00:05\.000\nHarbor Lane Coffee\n\n2\n00:00:05\.000 --> /);
    assert.equal(parseVtt(vtt).length, 6);
    // `&`, `<` and `>` are markup in a cue: a heading keeps them as text, and `-->` cannot end a cue.
    const marked = { ...board, scenes: [{ ...board.scenes[0]!, heading: 'Tea & <cake> --> now' }] };
    assert.match(chaptersVtt(marked), /\n1\n00:00:00\.000 --> 00:00:05\.000\nTea &amp; &lt;cake&gt; --&gt; now\n$/);
  });

  test('the captions escape their cue text: it reads back as typed, from the file and from the MP4’s track', () => {
    // Text without `&`, `<`, `>` or a blank line is each cue's text as it is: such renders keep their bytes.
    const blocks = (vtt: string) => vtt.split('\n\n').slice(1);
    assert.deepEqual(
      blocks(captions(board)).map((block) => block.split('\n').slice(2).join('\n').replace(/\n$/, '')),
      cues(board).map((cue) => cue.text),
    );
    // `<b>` would be bold (and gone) and `-->` could end the cue; a blank line would end it.
    const typed = 'Tea <b>& cake</b> --> now';
    const marked = { ...board, scenes: [board.scenes[0]!, { ...board.scenes[1]!, narration: `${typed}\n\nSee you.` }] };
    const vtt = captions(marked);
    assert.equal(
      blocks(vtt)[1]!.split('\n').slice(2).join('\n'),
      'Tea &lt;b&gt;&amp; cake&lt;/b&gt; --&gt; now\nSee you.\n',
    );
    assert.equal(parseVtt(vtt)[1]!.text, `${typed} See you.`);
    // The MP4's subtitle track is made from this file (render.ts): FFmpeg reads the text back as typed.
    const dir = mkdtempSync(join(work, 'captions-'));
    writeFileSync(join(dir, 'captions.vtt'), vtt);
    const ffmpeg = ffmpegPath();
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-i',
      join(dir, 'captions.vtt'),
      '-c:s',
      'mov_text',
      join(dir, 'subtitles.mp4'),
    ]);
    const track = execFileSync(ffmpeg, [
      '-v',
      'error',
      '-i',
      join(dir, 'subtitles.mp4'),
      '-map',
      '0:s',
      '-c',
      'copy',
      '-f',
      'data',
      '-',
    ]);
    assert.ok(track.includes(`${typed}\nSee you.`), JSON.stringify(track.toString('latin1')));
  });

  test('chapter titles are escaped as ffmetadata wants them: ffprobe reads back =, ;, #, \\ and a line break', () => {
    const title = 'Roast = love; #1 \\ beans\nand more';
    assert.equal(ffmetadataValue(title), 'Roast \\= love\\; \\#1 \\\\ beans\\\nand more');
    const dir = mkdtempSync(join(work, 'ffmetadata-'));
    const file = join(dir, 'metadata.txt');
    writeFileSync(file, `;FFMETADATA1\ntitle=${ffmetadataValue(title)}\n`);
    const read = execFileSync(
      ffprobePath(),
      ['-v', 'error', '-f', 'ffmetadata', '-show_entries', 'format_tags=title', '-of', 'json', file],
      { encoding: 'utf8' },
    );
    assert.equal((JSON.parse(read) as { format: { tags: { title: string } } }).format.tags.title, title);
    // The chapters' file: a [CHAPTER] per scene, counted in frames (1/25 s), the title escaped.
    const marked = { ...board, scenes: [{ ...board.scenes[0]!, heading: 'A = b; #c' }] };
    assert.equal(
      chapterMetadata(marked),
      ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/25\nSTART=0\nEND=125\ntitle=A \\= b\\; \\#c\n',
    );
  });

  test("a sandbox's reset removes every file of its videos' renders, the chapters too", async () => {
    const mediaDir = mkdtempSync(join(work, 'reset-'));
    mkdirSync(videosDir(mediaDir));
    const written = (['preview', 'final'] as const).flatMap((kind) =>
      RENDER_FILE_KINDS.map((file) => renderFiles(videosDir(mediaDir), renderName('vid_gone', kind))[file]),
    );
    const kept = renderFiles(videosDir(mediaDir), renderName('vid_kept', 'final')).chapters;
    for (const file of [...written, kept]) writeFileSync(file, 'x');
    assert.ok(written.some((file) => file.endsWith('vid_gone-final.chapters.vtt')));
    await removeMediaOf(mediaDir, ['vid_gone'], []);
    assert.deepEqual(readdirSync(videosDir(mediaDir)), ['vid_kept-final.chapters.vtt']);
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
