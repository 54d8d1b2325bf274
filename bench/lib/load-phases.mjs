// bench/load.mjs's first three phases, each given the service (bench/lib/load-service.mjs) and a
// client of its API (bench/lib/load-client.mjs): generations at once, aborted downloads, the soak.
// Each prints its line and returns its part of bench/results/load.json.
/* global fetch, performance */
import { FINAL, RANK } from './load-client.mjs';

/**
 * 1. `count` generations with real media started at once, and then their final renders at once:
 * how many end COMPLETE, whether each one's statuses came in order, and how long they take.
 */
export async function generationsAtOnce({ api, newAccount, openStream, completedTopic, serviceResources }, count) {
  const { session } = await newAccount();
  const stream = await openStream(session);
  const topicId = await completedTopic(session, stream);
  const before = serviceResources();
  const began = performance.now();
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      api('POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration: 5 } }).then(
        (r) => r.body,
      ),
    ),
  );
  const ids = new Set(started.map((one) => one.requestId));
  const finals = (events) =>
    events.filter((e) => e.event === 'generation' && ids.has(e.data.requestId) && FINAL.includes(e.data.status));
  await stream.until((events) => new Set(finals(events).map((e) => e.data.requestId)).size === ids.size, 20 * 60_000);
  const generationSeconds = (performance.now() - began) / 1000;
  const inOrder = [...ids].every((id) => {
    const ranks = stream.events
      .filter((e) => e.event === 'generation' && e.data.requestId === id)
      .map((e) => RANK[e.data.status]);
    return ranks.every((rank, index) => index === 0 || rank >= ranks[index - 1]);
  });
  const complete = new Set(
    finals(stream.events)
      .filter((e) => e.data.status === 'COMPLETE')
      .map((e) => e.data.requestId),
  ).size;
  const peak = serviceResources();
  // Their final renders, all at once too.
  const renderBegan = performance.now();
  await Promise.all(started.map(({ videoId }) => api('POST', `/api/videos/${videoId}/complete`, { session })));
  const videos = new Set(started.map((one) => one.videoId));
  const rendered = (events) =>
    new Set(
      events
        .filter((e) => e.event === 'video' && videos.has(e.data.id) && FINAL.includes(e.data.renders?.[0]?.status))
        .map((e) => e.data.id),
    );
  await stream.until((events) => rendered(events).size === videos.size, 20 * 60_000);
  const renderSeconds = (performance.now() - renderBegan) / 1000;
  stream.close();
  const report = {
    count,
    complete,
    statusesInOrder: inOrder,
    seconds: Number(generationSeconds.toFixed(1)),
    finalRenders: rendered(stream.events).size,
    finalRenderSeconds: Number(renderSeconds.toFixed(1)),
    before,
    afterGenerations: peak,
    previewVideoId: started[0].videoId,
    session,
  };
  console.log(
    `1. ${count} generations at once: ${complete} COMPLETE, statuses in order: ${inOrder}, ${generationSeconds.toFixed(1)} s; ` +
      `their final renders: ${rendered(stream.events).size} in ${renderSeconds.toFixed(1)} s`,
  );
  return report;
}

/** 2. `count` aborted downloads of the preview MP4 (a player seeking): open files and memory before and after. */
export async function abortedDownloads({ settledResources, abortedDownload }, count, previewVideoId) {
  const path = `/media/videos/${previewVideoId}/preview.mp4`;
  const before = await settledResources();
  const statuses = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      abortedDownload(path, index % 2 ? `bytes=${index * 1000}-` : undefined),
    ),
  );
  const after = await settledResources();
  const report = { count, statuses: [...new Set(statuses)], before, after };
  console.log(
    `2. ${count} aborted downloads: open files ${before.openFiles} → ${after.openFiles}, RSS ${before.rssMB} → ${after.rssMB} MB, heap after GC ${before.heapAfterGCMB} → ${after.heapAfterGCMB} MB`,
  );
  return report;
}

/**
 * The soak's memory over its second half: the sample nearest the half-way mark against the last
 * one (the growth the issue holds to 5 %), and the highest RSS in between.
 */
function lastHalf(samples) {
  if (samples.length < 3) return undefined;
  const end = samples.at(-1);
  const mid = samples.reduce((best, one) =>
    Math.abs(one.atSeconds - end.atSeconds / 2) < Math.abs(best.atSeconds - end.atSeconds / 2) ? one : best,
  );
  const pair = (field) => [mid[field], end[field]];
  return {
    fromSeconds: mid.atSeconds,
    toSeconds: end.atSeconds,
    rssMB: pair('rssMB'),
    rssGrowthPercent: Number((((end.rssMB - mid.rssMB) / mid.rssMB) * 100).toFixed(1)),
    rssHighestMB: Math.max(...samples.filter((one) => one.atSeconds >= mid.atSeconds).map((one) => one.rssMB)),
    heapAfterGCMB: pair('heapAfterGCMB'),
    nativeMB: pair('nativeMB'),
  };
}

/**
 * 3. `minutes` of mixed API use by four users at a time, memory sampled every 30 s; `oldSession`
 * (phase 1's account) owns the videos that are renamed.
 */
export async function soak(
  {
    base,
    source,
    partner,
    secret,
    loginAccountToken,
    api,
    newAccount,
    openStream,
    completedTopic,
    abortedDownload,
    serviceResources,
    settledResources,
    memorySplit,
  },
  { minutes, previewVideoId, oldSession },
) {
  const began = Date.now();
  const until = began + minutes * 60_000;
  const counts = {};
  const failures = {};
  const count = (kind, ok) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
    if (!ok) failures[kind] = (failures[kind] ?? 0) + 1;
  };
  const before = await settledResources();
  const samples = [];
  const { session: shared, account } = await newAccount();
  const sharedStream = await openStream(shared);
  const topicId = await completedTopic(shared, sharedStream);
  const videoPath = `/media/videos/${previewVideoId}/preview.mp4`;
  // Seeks land inside the file (a start past its end is a 416, not a seek).
  const videoBytes = Number((await fetch(`${base}${videoPath}`, { method: 'HEAD' })).headers.get('content-length'));
  /** One user's round: what a partner's page does in a few seconds. */
  const round = async (index) => {
    const kind = index % 6;
    if (kind === 0) {
      const { session } = await newAccount();
      count('createAccount', true);
      const stream = await openStream(session);
      count('open stream', true);
      const r = await api('GET', '/api/videos', { session });
      count('list videos', r.status === 200);
      stream.close();
    } else if (kind === 1) {
      const token = await loginAccountToken({ partnerID: partner, secret, accountID: account.id });
      const r = await api('POST', '/api/sessions', { body: { token } });
      count('login', r.status === 200 || r.status === 201);
    } else if (kind === 2) {
      const r = await api('POST', '/api/topics', { session: shared, body: { sourceURL: source } });
      count('startTopicSearch', r.status === 202);
    } else if (kind === 3 && Date.now() >= nextGeneration) {
      // A generation every 10 s (each renders a real video), in either aspect ratio.
      nextGeneration = Date.now() + 10_000;
      const r = await api('POST', '/api/generations', {
        session: shared,
        body: { topicId, aspectRatio: index % 24 === 3 ? '4:5' : '16:9', duration: 5 },
      });
      count('startVideoGeneration', r.status === 202);
    } else if (kind === 3) {
      const list = await api('GET', '/api/videos', { session: oldSession });
      count('list videos', list.status === 200);
      const video = list.body.videos[index % list.body.videos.length];
      const r = await api('PATCH', `/api/videos/${video.id}`, { session: oldSession, body: { name: `Soak ${index}` } });
      count('rename', r.status === 200);
    } else if (kind === 4) {
      const response = await fetch(`${base}${videoPath}`, { headers: { range: 'bytes=0-65535' } });
      await response.arrayBuffer();
      count('range download', response.status === 206);
    } else {
      const status = await abortedDownload(videoPath, `bytes=${(index * 100) % videoBytes}-`);
      count('aborted download', status === 206 || status === 200);
    }
  };
  let index = 0;
  let nextGeneration = began;
  // Four users at a time, until the time is up.
  const user = async () => {
    while (Date.now() < until) {
      const mine = index++;
      await round(mine).catch((error) => count(`error: ${error.message.slice(0, 60)}`, false));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  // A memory sample every 30 s while the users run.
  const sampler = async () => {
    while (Date.now() < until) {
      samples.push({
        atSeconds: Math.round((Date.now() - began) / 1000),
        openFiles: serviceResources().openFiles,
        ...(await memorySplit()),
      });
      await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, Math.max(0, until - Date.now()))));
    }
  };
  await Promise.all([user(), user(), user(), user(), sampler()]);
  sharedStream.close();
  const after = await settledResources();
  const report = {
    minutes: minutes,
    requests: Object.values(counts).reduce((a, b) => a + b, 0),
    counts,
    failures,
    before,
    after,
    samples,
    lastHalf: lastHalf(samples),
  };
  console.log(
    `3. ${minutes}-minute soak: ${report.requests} rounds' steps, failures ${JSON.stringify(failures)}; ` +
      `open files ${before.openFiles} → ${after.openFiles}, RSS ${before.rssMB} → ${after.rssMB} MB, ` +
      `heap after GC ${before.heapAfterGCMB} → ${after.heapAfterGCMB} MB`,
  );
  console.log(`   ${JSON.stringify(counts)}`);
  const half = report.lastHalf;
  if (half)
    console.log(
      `   last half (${half.fromSeconds} → ${half.toSeconds} s): RSS ${half.rssMB.join(' → ')} MB (${half.rssGrowthPercent} %, ` +
        `highest ${half.rssHighestMB} MB), heap after GC ${half.heapAfterGCMB.join(' → ')} MB, native ${half.nativeMB.join(' → ')} MB`,
    );
  return report;
}
