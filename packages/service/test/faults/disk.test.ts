// Issue 35: the disk fills while a render writes. The media folder is a real small filesystem (a
// tmpfs, small-disk.ts), filled to the last byte while ffmpeg encodes: the render ends FAILED with
// `storage_full` at its stage, nothing of it is served or left in the folder, the database (on
// another disk) is intact, and the next render after the space is back succeeds. ENOSPC is what
// this proves; EDQUOT and EFBIG (a quota, a file-size limit) are mapped alike (jobs/job.ts, renderFailure).
import assert from 'node:assert/strict';
import { kill } from 'node:process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { startService } from '../../src/server.js';
import { picture } from '../support/media-helpers.js';
import { EventStream, PARTNER, SECRET, api, createAccount, serve, statusesUntilFinal } from '../support/helpers.js';
import { cannotMount, smallDisk } from './small-disk.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-disk-fault-'));
after(() => rmSync(work, { recursive: true, force: true }));
const red = readFileSync(picture(work, 'red.png', 'red', '640x480'));
const source = await serve((req, res) => {
  if (req.url === '/red.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(red);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Harbor Lane Coffee</title></head>
    <body><h1>Roasted at dawn</h1><p>We roast twelve single-origin coffees in small batches.</p>
    <img src="/red.png"></body></html>`);
});

/** The ffmpeg processes this process runs (the service's renders, in this process). */
function ffmpegChildren(): number[] {
  const children = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'ffmpeg';
    } catch {
      return false; // already gone
    }
  });
}

test(
  'a disk that fills while a render writes: FAILED storage_full at its stage, nothing served, the next render succeeds',
  { skip: cannotMount, timeout: 600_000 },
  async () => {
    const finalRender = async (videoId: string) => {
      for (;;) {
        const { data } = await stream.next((event) => event.event === 'video' && event.data.id === videoId);
        if (['COMPLETE', 'FAILED'].includes(data.renders[0].status)) return data.renders[0];
      }
    };
    const disk = smallDisk(64);
    after(() => disk.remove());
    const mediaDir = join(disk.dir, 'media');
    const dataFile = join(work, 'service.db');
    const service = await startService({
      port: 0,
      allowLoopbackSources: true,
      jobMs: 40,
      partners: [{ id: PARTNER, secret: SECRET }],
      mediaDir,
      dataFile,
    });
    let closed = false;
    after(() => (closed ? undefined : service.close()));

    const { session } = await createAccount(service);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } }))
      .body;
    await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    // Three videos with their previews, while there is room: a 30-second one (its encode lasts) and
    // two short ones for after.
    const videos: string[] = [];
    for (const duration of [30, 5, 5]) {
      const { requestId, videoId } = (
        await api(service, 'POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration } })
      ).body;
      assert.deepEqual(
        (await statusesUntilFinal(stream, 'generation', (data) => data.requestId === requestId)).at(-1),
        'COMPLETE',
      );
      videos.push(videoId);
    }
    const [doomed, next, early] = videos as [string, string, string];

    // The final render of the first: once it encodes, ffmpeg is paused, the disk filled, ffmpeg let go.
    assert.equal((await api(service, 'POST', `/api/videos/${doomed}/complete`, { session })).status, 200);
    await stream.next(
      (event) =>
        event.event === 'video' && event.data.id === doomed && event.data.renders[0]?.progress?.stage === 'rendering',
    );
    const paused = ffmpegChildren();
    for (const pid of paused) kill(pid, 'SIGSTOP');
    disk.fill();
    for (const pid of paused) kill(pid, 'SIGCONT');
    // ffmpeg's write fails (its "No space left on device").
    const failed = await finalRender(doomed);
    assert.equal(failed.status, 'FAILED', JSON.stringify(failed));
    assert.equal(failed.error.code, 'storage_full');
    assert.match(failed.error.message, /disk is full/);
    // Its stage: the encode ffmpeg was caught in; with no encoder running at that moment (the scenes
    // taken from the cache, the join not begun yet), the rendering stage or the finishing after it.
    if (paused.length > 0) assert.equal(failed.progress.stage, 'rendering');
    else assert.ok(['rendering', 'finishing'].includes(failed.progress.stage), failed.progress.stage);

    // A render started on the full disk (filled again: the failed render's own files were removed,
    // which gave their space back): the service's own first write fails (ENOSPC), at voicing.
    disk.fill();
    assert.equal((await api(service, 'POST', `/api/videos/${early}/complete`, { session })).status, 200);
    const refused = await finalRender(early);
    assert.deepEqual(
      [refused.status, refused.error.code, refused.progress.stage],
      ['FAILED', 'storage_full', 'voicing'],
    );

    // Nothing of it is served, nor left in the folder (no final file, no temporary folder).
    for (const name of ['render.mp4', 'poster.jpg', 'captions.vtt', 'transcript.txt']) {
      assert.equal((await fetch(`${service.url}/media/videos/${doomed}/${name}`)).status, 404, name);
    }
    assert.deepEqual(
      readdirSync(join(mediaDir, 'videos')).filter((file) => file.includes('-final')),
      [],
    );
    // The service goes on: reads, and its preview still plays.
    assert.equal((await api(service, 'GET', '/api/videos', { session })).status, 200);
    assert.equal((await fetch(`${service.url}/media/videos/${doomed}/preview.mp4`)).status, 200);

    // Space is back: the next render succeeds and is served.
    disk.free();
    assert.equal((await api(service, 'POST', `/api/videos/${next}/complete`, { session })).status, 200);
    const done = await finalRender(next);
    assert.equal(done.status, 'COMPLETE', JSON.stringify(done));
    const movie = await fetch(`${service.url}/media/videos/${next}/render.mp4`);
    assert.equal(movie.status, 200);
    assert.ok((await movie.arrayBuffer()).byteLength > 10_000);
    stream.close();
    await service.close();
    closed = true;

    // The database is intact and says what the partner saw.
    const db = new Database(dataFile, { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      const stored = JSON.parse(db.prepare('SELECT record FROM videos WHERE id = ?').pluck().get(doomed) as string);
      assert.equal(stored.renders[0].status, 'FAILED');
      assert.equal(stored.renders[0].error.code, 'storage_full');
    } finally {
      db.close();
    }
  },
);
