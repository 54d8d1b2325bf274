// The held-load phase's status subscribers (bench/load.mjs, `--subscribers N`), in a worker thread
// of their own so that the thread that sends the API calls and times them is not the one parsing
// every subscriber's events. Half are SSE streams (`GET /api/events`), half WebSockets
// (`/api/live`), spread over the accounts; each follows its account's video and remembers the last
// name it was sent. One whose connection ends before the main thread says the load is over is
// dropped, with the reason.
//
// Messages: in `{ base, owners: [{ session, videoId }], count }` (workerData), out `{ ready }`
// once all are open; in `{ lastNames, renames }` (each video's final name, the renames made per
// video), out `{ report }` once every subscriber still connected has been sent its video's final
// name (at most 60 s).
/* global performance */
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { base, owners, count } = workerData;
const subscribers = [];
let over = false;

function subscribe(index) {
  const owner = owners[index % owners.length];
  // Each account has both kinds: its first subscriber a stream, its second a socket…
  const subscriber = {
    kind: Math.floor(index / owners.length) % 2 ? 'socket' : 'stream',
    videoId: owner.videoId,
    renames: 0,
    last: undefined,
  };
  const seen = (record) => {
    if (record?.id !== owner.videoId) return;
    subscriber.renames++;
    subscriber.last = record.name;
  };
  const dropped = (reason) => {
    if (!over && !subscriber.dropped) subscriber.dropped = reason;
  };
  subscribers.push(subscriber);
  if (subscriber.kind === 'stream') {
    return new Promise((resolve, reject) => {
      const req = request(`${base}/api/events`, { headers: { authorization: `Bearer ${owner.session}` } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream refused: ${res.statusCode}`));
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (/^event: video$/m.test(frame)) seen(JSON.parse(/^data: (.*)$/m.exec(frame)[1]));
          }
        });
        res.on('close', () => dropped('stream ended'));
        subscriber.close = () => req.destroy();
        resolve();
      });
      req.on('error', (error) => dropped(`stream error: ${error.message}`));
      req.end();
    });
  }
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`, { headers: { origin: base } });
    ws.once('open', () => {
      ws.send(JSON.stringify({ session: owner.session }));
      resolve();
    });
    ws.once('error', reject);
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.change?.kind === 'video') seen(message.change.record);
    });
    ws.once('close', (code, reason) => dropped(`socket closed ${code} ${reason}`));
    subscriber.close = () => ws.close();
  });
}

// Opened 50 at a time (a thousand at once is a connection storm, not the load being measured).
for (let i = 0; i < count; i += 50) {
  await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => subscribe(i + k)));
}
parentPort.postMessage({ ready: true });

parentPort.on('message', async ({ lastNames, renames }) => {
  const behind = () => subscribers.filter((s) => !s.dropped && s.last !== lastNames[s.videoId]);
  const deadline = performance.now() + 60_000;
  while (behind().length > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  over = true;
  const reasons = {};
  for (const s of subscribers)
    if (s.dropped) reasons[`${s.kind}: ${s.dropped}`] = (reasons[`${s.kind}: ${s.dropped}`] ?? 0) + 1;
  const report = {
    streams: subscribers.filter((s) => s.kind === 'stream').length,
    sockets: subscribers.filter((s) => s.kind === 'socket').length,
    dropped: subscribers.filter((s) => s.dropped).length,
    droppedReasons: reasons,
    behind: behind().length,
    behindStreams: behind().filter((s) => s.kind === 'stream').length,
    behindSample: behind()
      .slice(0, 3)
      .map((s) => ({ kind: s.kind, last: s.last, expected: lastNames[s.videoId], renames: s.renames })),
    renamesSentPerSubscriber: Math.round(subscribers.reduce((sum, s) => sum + s.renames, 0) / subscribers.length),
    renamesPerVideo: Math.round(renames),
    /** Subscribers that were sent fewer renames of their video than were made. */
    missedSome: subscribers.filter((s) => s.renames < Math.round(renames)).length,
  };
  for (const s of subscribers) s.close?.();
  parentPort.postMessage({ report });
});
