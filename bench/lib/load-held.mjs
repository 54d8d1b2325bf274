// bench/load.mjs's held-load phase (`--subscribers N`): live status subscribers, in a worker thread
// (bench/load-subscribers.mjs), while an open loop of API calls runs at a fixed rate.
/* global performance */
import { Worker } from 'node:worker_threads';
import { FINAL } from './load-client.mjs';

/**
 * 4. `subscribers` live subscribers (half SSE streams, half WebSockets) over ten accounts while
 * `rate` API calls per second run for `loadSeconds`: the calls' latencies and statuses, the
 * subscribers dropped or behind, and the service's memory and open files.
 */
export async function heldLoad(
  { base, api, newAccount, openStream, completedTopic, serviceResources },
  { subscribers, rate, loadSeconds },
) {
  const ACCOUNTS = 10;
  // The accounts, each with a real video to rename (a rename is a change every subscriber of the
  // account is sent).
  const owners = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const { session } = await newAccount();
    const stream = await openStream(session);
    const topicId = await completedTopic(session, stream);
    const { body } = await api('POST', '/api/generations', {
      session,
      body: { topicId, aspectRatio: '16:9', duration: 5 },
    });
    owners.push({ session, stream, videoId: body.videoId, requestId: body.requestId });
  }
  for (const owner of owners) {
    await owner.stream.until(
      (events) =>
        events.some(
          (e) => e.event === 'generation' && e.data.requestId === owner.requestId && FINAL.includes(e.data.status),
        ),
      20 * 60_000,
    );
    owner.stream.close();
  }
  // The subscribers, in a worker thread of their own (bench/load-subscribers.mjs).
  const worker = new Worker(new URL('../load-subscribers.mjs', import.meta.url), {
    workerData: {
      base,
      owners: owners.map(({ session, videoId }) => ({ session, videoId })),
      count: subscribers,
    },
  });
  const fromWorker = () =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  await fromWorker();
  const openFilesWithSubscribers = serviceResources().openFiles;
  // The calls: open loop at RATE per second (a call is sent on time whether or not the previous
  // ones have answered): half list videos, a quarter read one video, a quarter rename it.
  const latencies = { read: [], rename: [] };
  const statuses = {};
  const lastName = new Map();
  let renamesPerVideo;
  const calls = [];
  const began = performance.now();
  for (let n = 0; n < rate * loadSeconds; n++) {
    const due = began + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    // Every account gets each kind of call in turn (n / 4 picks the account, n % 4 the kind).
    const owner = owners[Math.floor(n / 4) % ACCOUNTS];
    const kind = n % 4 === 3 ? 'rename' : 'read';
    const sent = performance.now();
    const call =
      kind === 'rename'
        ? api('PATCH', `/api/videos/${owner.videoId}`, { session: owner.session, body: { name: `Load ${n}` } })
        : n % 4 === 2
          ? api('GET', `/api/videos/${owner.videoId}`, { session: owner.session })
          : api('GET', '/api/videos', { session: owner.session });
    if (kind === 'rename') renamesPerVideo = (renamesPerVideo ?? 0) + 1 / ACCOUNTS;
    calls.push(
      call.then(
        ({ status }) => {
          latencies[kind].push(performance.now() - sent);
          statuses[status] = (statuses[status] ?? 0) + 1;
        },
        (error) => {
          // A call that got no answer: undici's reason (a connect timeout…), counted by it.
          const reason = `no answer: ${error.cause?.code ?? error.message.slice(0, 40)}`;
          statuses[reason] = (statuses[reason] ?? 0) + 1;
        },
      ),
    );
  }
  await Promise.all(calls);
  const seconds = (performance.now() - began) / 1000;
  const resources = { ...serviceResources(), openFilesWithSubscribers };
  // Every subscriber still connected is sent its account's last name (the worker waits for it):
  // the name the service kept, which is not always the last one sent (renames of a video overlap
  // when answers are slow, and the service applies them as they arrive).
  for (const owner of owners) {
    const { body } = await api('GET', `/api/videos/${owner.videoId}`, { session: owner.session });
    lastName.set(owner.videoId, body.video.name);
  }
  worker.postMessage({ lastNames: Object.fromEntries(lastName), renames: renamesPerVideo });
  const { report: heard } = await fromWorker();
  await worker.terminate();
  const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1));
  };
  const all = [...latencies.read, ...latencies.rename];
  const r = {
    subscribers,
    ...heard,
    calls: all.length,
    callsPerSecond: Number((all.length / seconds).toFixed(1)),
    statuses,
    latencyMs: {
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      readP50: percentile(latencies.read, 50),
      readP99: percentile(latencies.read, 99),
      renameP50: percentile(latencies.rename, 50),
      renameP99: percentile(latencies.rename, 99),
    },
    service: resources,
  };
  console.log(
    `4. ${subscribers} subscribers (${r.streams} SSE, ${r.sockets} WebSocket) under ${r.callsPerSecond} calls/s for ${seconds.toFixed(0)} s: ` +
      `p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms (reads ${r.latencyMs.readP50}/${r.latencyMs.readP99}, renames ${r.latencyMs.renameP50}/${r.latencyMs.renameP99}); ` +
      `dropped ${r.dropped} ${JSON.stringify(r.droppedReasons)}, behind ${r.behind}, sent fewer renames than made ${r.missedSome} (of ${r.renamesPerVideo} per video); statuses ${JSON.stringify(statuses)}; service RSS ${resources.rssMB} MB, ${resources.openFilesWithSubscribers} open files with the subscribers`,
  );
  return r;
}
