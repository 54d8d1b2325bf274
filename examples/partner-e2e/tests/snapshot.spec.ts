// Snapshot-testing an integration: the local service renders byte for byte, so a partner's CI can
// compare today's render with a recorded one. Against the real-media service (the config's second
// service), through the service's documented HTTP API: a 5 s, 16:9 video of the app's business
// page, completed; each served file hashes to its `sha256`; the captions and transcript equal the
// committed snapshots (`UPDATE_SNAPSHOTS=1` rewrites them); a second video of the same page and
// settings gives the same five hashes. The MP4 and poster are compared within the run only: another
// ffmpeg build gives other (stable) bytes (docs/testing.md, "Snapshot-testing your integration").
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { REAL_MEDIA_SERVICE_URL } from '../playwright.config.js';

type File = { url: string; type: string; sha256: string };
type Render = { status: string; error?: { message: string }; files: Record<string, File> };
type Video = { id: string; renders: Render[] };

const SNAPSHOTS = new URL('../snapshots/', import.meta.url);
const update = process.env.UPDATE_SNAPSHOTS === '1';

/** Calls the service's HTTP API with the session; throws with the service's error message. */
async function api<T>(session: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, REAL_MEDIA_SERVICE_URL), {
    method,
    headers: {
      ...(session ? { authorization: `Bearer ${session}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json as T;
}

/**
 * Reads the status stream (`GET /api/events?<kind>=<id>`: the record's current state first, then
 * each change) until `done` holds for the record, and returns it. No polling, no sleep.
 */
async function until<T>(session: string, kind: string, id: string, done: (record: T) => boolean): Promise<T> {
  const response = await fetch(new URL(`/api/events?${kind}=${encodeURIComponent(id)}`, REAL_MEDIA_SERVICE_URL), {
    headers: { authorization: `Bearer ${session}` },
  });
  if (!response.ok || !response.body) throw new Error(`GET /api/events: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`the status stream of ${kind} ${id} ended before it was done`);
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = message.match(/^data: (.*)$/m)?.[1];
        if (message.match(/^event: (.*)$/m)?.[1] !== kind || !data) continue;
        const record = JSON.parse(data) as T & { status?: string; error?: unknown };
        if (done(record)) return record;
        if (record.status === 'FAILED') throw new Error(`${kind} ${id} FAILED: ${JSON.stringify(record.error)}`);
      }
    }
  } finally {
    await reader.cancel();
  }
}

/** A new account (the partner's token route mints the token), a 5 s 16:9 video of `sourceURL`, completed and rendered. */
async function renderedVideo(session: string, sourceURL: string): Promise<Render> {
  const { topicId } = await api<{ topicId: string }>(session, 'POST', '/api/topics', { sourceURL });
  await until<{ status: string }>(session, 'topic', topicId, (topic) => topic.status === 'COMPLETE');
  const { requestId, videoId } = await api<{ requestId: string; videoId: string }>(
    session,
    'POST',
    '/api/generations',
    {
      topicId,
      aspectRatio: '16:9',
      duration: 5,
      language: 'en-US',
    },
  );
  await until<{ status: string }>(session, 'generation', requestId, (generation) => generation.status === 'COMPLETE');
  await api(session, 'POST', `/api/videos/${videoId}/complete`);
  const video = await until<Video>(session, 'video', videoId, (v) => v.renders.some((r) => r.status === 'COMPLETE'));
  return video.renders.find((r) => r.status === 'COMPLETE')!;
}

test('a render is byte-identical: served files match their sha256, captions and transcript match the snapshots, a second render matches the first', async ({
  request,
  baseURL,
}) => {
  test.setTimeout(300_000); // a hang detector: two real renders on a busy CI machine
  const token = (await (await request.post('/api/video-plugin-token', { data: { kind: 'create' } })).json()).token;
  const { session } = await api<{ session: string }>('', 'POST', '/api/accounts', { token });
  const sourceURL = new URL('/business.html', baseURL).href;

  const first = await renderedVideo(session, sourceURL);
  expect(Object.keys(first.files).sort()).toEqual(['captions', 'chapters', 'poster', 'transcript', 'video']);

  // (a) Each file the service serves hashes to the sha256 the render reports.
  const bytes: Record<string, Buffer> = {};
  for (const [name, file] of Object.entries(first.files)) {
    const response = await fetch(file.url);
    expect(response.status, `${name}: ${file.url}`).toBe(200);
    bytes[name] = Buffer.from(await response.arrayBuffer());
    expect(createHash('sha256').update(bytes[name]).digest('hex'), `${name}'s sha256`).toBe(file.sha256);
  }

  // (b) The captions and transcript equal the committed snapshots (the same on every machine).
  for (const [name, file] of [
    ['captions', 'business.captions.vtt'],
    ['transcript', 'business.transcript.txt'],
  ] as const) {
    const snapshot = new URL(file, SNAPSHOTS);
    if (update) await writeFile(snapshot, bytes[name]!);
    const expected = await readFile(snapshot).catch(() => {
      throw new Error(`no snapshot ${snapshot.pathname}: run with UPDATE_SNAPSHOTS=1 to record it`);
    });
    expect(bytes[name]!.toString('utf8'), `${name} against snapshots/${file} (UPDATE_SNAPSHOTS=1 rewrites it)`).toBe(
      expected.toString('utf8'),
    );
  }

  // (c) A second video of the same page and settings gives the same bytes, MP4 and poster included.
  const second = await renderedVideo(session, sourceURL);
  const hashes = (render: Render) => Object.fromEntries(Object.entries(render.files).map(([n, f]) => [n, f.sha256]));
  expect(hashes(second)).toEqual(hashes(first));
});
