// Progress with stages and a time estimate (issue 21, item 2): every status update of a topic
// search, a generation and a render carries `progress: { stage, fraction, etaMs? }`. The tracker's
// rules (forward only, throttle, estimate) with a fake clock; the service's jobs over the status
// stream; a real render whose fraction comes from ffmpeg's own progress.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  ETA_AFTER,
  PLANS,
  PROGRESS_INTERVAL_MS,
  PROGRESS_STAGES,
  ProgressTracker,
  type Progress,
  type ProgressStage,
} from '../../src/jobs/progress.js';
import { renderVideo } from '../../src/media/render.js';
import { buildStoryboard } from '../../src/media/storyboard.js';
import { EventStream, api, createAccount, serve, startTestService, type StreamEvent } from '../support/helpers.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-progress-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

const source = await serve((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>Harbor Lane Coffee</title>
    <meta name="description" content="Small-batch coffee, roasted every morning."></head>
    <body><h1>Roasted at dawn</h1><p>We roast twelve single-origin coffees in small batches.</p>
    <img src="/a.png"><img src="/b.png"></body></html>`);
});

const order = (stage: ProgressStage): number => PROGRESS_STAGES.indexOf(stage);

/**
 * Asserts the documented rules on a job's updates, in the order sent: every one has progress of
 * the documented shape; stages never go back; fractions never decrease, and grow strictly while
 * the status stays; the final COMPLETE is `{ stage: 'finishing', fraction: 1 }` without estimate.
 */
function assertForwardOnly(updates: { status: string; progress?: Progress }[]): void {
  assert.ok(updates.length > 0);
  let last: { status: string; progress: Progress } | undefined;
  for (const update of updates) {
    const { progress } = update;
    assert.ok(progress, `every update has progress: ${JSON.stringify(update)}`);
    assert.deepEqual(
      Object.keys(progress).filter((key) => !['stage', 'fraction', 'etaMs'].includes(key)),
      [],
    );
    assert.ok(PROGRESS_STAGES.includes(progress.stage), `a documented stage: ${progress.stage}`);
    assert.ok(progress.fraction >= 0 && progress.fraction <= 1, `fraction in 0..1: ${progress.fraction}`);
    if (progress.etaMs !== undefined) assert.ok(Number.isInteger(progress.etaMs) && progress.etaMs >= 0);
    if (last) {
      assert.ok(order(progress.stage) >= order(last.progress.stage), `${last.progress.stage} → ${progress.stage}`);
      assert.ok(progress.fraction >= last.progress.fraction, `${last.progress.fraction} → ${progress.fraction}`);
      // A record republished for its content (a topic's next image) carries the same progress: only
      // a changed progress must have grown. (`update` also has `at`, the time it came: not compared.)
      const same = JSON.stringify({ status: update.status, progress }) === JSON.stringify(last);
      if (update.status === last.status && !same) {
        assert.ok(
          progress.fraction > last.progress.fraction,
          `grows within ${update.status}: ${JSON.stringify(last)} → ${JSON.stringify({ status: update.status, progress })}`,
        );
      }
    }
    last = { status: update.status, progress };
  }
  assert.equal(last!.status, 'COMPLETE');
  assert.deepEqual(last!.progress, { stage: 'finishing', fraction: 1 });
}

/** The stages of `updates`, each once, in the order they came. */
const stagesOf = (updates: { progress?: Progress }[]): ProgressStage[] => [
  ...new Set(updates.map((update) => update.progress!.stage)),
];

/** The data of every `kind` event matching `matches` until a final status. */
async function updatesUntilFinal(
  stream: EventStream,
  kind: string,
  matches: (data: StreamEvent['data']) => boolean,
  status: (data: StreamEvent['data']) => string = (data) => data.status,
): Promise<{ status: string; progress?: Progress; at: number }[]> {
  const updates = [];
  for (;;) {
    const { data } = await stream.next((event) => event.event === kind && matches(event.data));
    const update = { status: status(data), progress: kind === 'video' ? data.renders[0]?.progress : data.progress };
    updates.push({ ...update, at: Date.now() });
    if (update.status === 'COMPLETE' || update.status === 'FAILED') return updates;
  }
}

/** A fraction as the tracker rounds it (to 0.001). */
const round = (fraction: number) => Math.round(fraction * 1000) / 1000;

describe('the progress tracker', () => {
  /** A tracker on a fresh record with a clock the test moves, and what it published. */
  function tracked(kind: keyof typeof PLANS, record: { progress?: Progress } = {}) {
    let now = 1000;
    const sent: Progress[] = [];
    const tracker = new ProgressTracker(
      record,
      kind,
      () => sent.push({ ...record.progress! }),
      () => now,
    );
    return { record, tracker, sent, tick: (ms: number) => (now += ms) };
  }

  test('a new job starts in its first stage with nothing done', () => {
    assert.deepEqual(tracked('topic').record.progress, { stage: 'queued', fraction: 0 });
    assert.deepEqual(tracked('render').record.progress, { stage: 'queued', fraction: 0 });
  });

  test('a stage change is always published, at the stage’s start, and never goes back', () => {
    const { tracker, sent } = tracked('generationReal');
    assert.equal(tracker.stage('writing_storyboard'), true);
    assert.equal(tracker.stage('voicing'), true);
    assert.deepEqual(
      sent.map(({ stage, fraction }) => [stage, fraction]),
      [
        ['writing_storyboard', PLANS.generationReal.writing_storyboard],
        ['voicing', PLANS.generationReal.voicing],
      ],
    );
    assert.equal(tracker.stage('writing_storyboard'), false, 'an earlier stage is ignored');
    assert.equal(tracker.stage('voicing'), false, 'the same stage is not sent twice');
    assert.equal(sent.length, 2);
  });

  test('two stages starting at the same fraction still make the fraction grow', () => {
    // waiting_to_render and voicing both start at 0.3 in the real generation's plan.
    const { tracker, sent } = tracked('generationReal');
    tracker.stage('waiting_to_render');
    tracker.stage('voicing');
    assert.ok(sent[1]!.fraction > sent[0]!.fraction, JSON.stringify(sent));
  });

  test('within a stage: the whole-job fraction, at most every 250 ms and only on a 1 % change', () => {
    const { tracker, sent, tick } = tracked('render');
    tracker.stage('rendering');
    assert.equal(sent.length, 1);
    tracker.within(0.5);
    assert.equal(sent.length, 1, 'too soon after the stage change');
    tick(PROGRESS_INTERVAL_MS);
    tracker.within(0.5);
    // rendering spans 0 .. 0.95 of a placeholder render: half of it is 0.475 of the whole job.
    assert.equal(sent.at(-1)!.fraction, 0.475);
    tick(PROGRESS_INTERVAL_MS);
    tracker.within(0.505);
    assert.equal(sent.length, 2, 'under 1 % more is not sent');
    tracker.within(0.1);
    tick(PROGRESS_INTERVAL_MS);
    tracker.within(0.2);
    assert.equal(sent.length, 2, 'a smaller share never moves the fraction back');
    tracker.within(1);
    assert.equal(sent.at(-1)!.fraction, 0.949, 'the stage’s end is the next stage’s start');
  });

  test('etaMs: absent until 5 % is done, then the time left at the pace so far', () => {
    const { tracker, sent, tick } = tracked('render');
    tracker.stage('rendering');
    tick(PROGRESS_INTERVAL_MS);
    tracker.within(0.04);
    assert.equal(sent.at(-1)!.etaMs, undefined, `${sent.at(-1)!.fraction} < ${ETA_AFTER}`);
    tick(750);
    tracker.within(0.25 / 0.95);
    // 1000 ms for a quarter of the job: 3000 ms left.
    assert.deepEqual(sent.at(-1), { stage: 'rendering', fraction: 0.25, etaMs: 3000 });
  });

  test('scenes taken from the cache count as done at once, and the time left is the pace of the work left', () => {
    // A real render's rendering stage spans 0.3 .. 0.95: 5 of 6 equal scenes reused are 5/6 of it.
    const { tracker, sent, tick, record } = tracked('renderReal');
    tracker.stage('rendering');
    tracker.credit(5 / 6);
    assert.equal(record.progress!.fraction, round(0.3 + 0.65 * (5 / 6)));
    // The last scene: half of it encoded in 5 s.
    tick(5000);
    tracker.within(5 / 6 + 1 / 12);
    const { fraction, etaMs } = sent.at(-1)!;
    assert.equal(fraction, round(0.3 + 0.65 * (11 / 12)));
    // Worked in 5 s: the stages before plus half a scene (0.3 + 0.65/12); left: 1 - fraction.
    const worked = 0.3 + 0.65 / 12;
    assert.equal(etaMs, Math.round((5000 * (1 - fraction)) / worked / 100) * 100);
    // Counting the reused scenes as worked would have promised far less time than is left.
    assert.ok(etaMs! > 2 * Math.round((5000 * (1 - fraction)) / fraction / 100) * 100, `${etaMs}`);
  });

  test('COMPLETE is finishing at 1 without estimate; FAILED keeps where it was, without estimate', () => {
    const done = tracked('render');
    done.tracker.stage('rendering');
    done.tick(1000);
    done.tracker.within(0.5);
    done.tracker.complete();
    assert.deepEqual(done.record.progress, { stage: 'finishing', fraction: 1 });
    const failed = tracked('render');
    failed.tracker.stage('rendering');
    failed.tick(1000);
    failed.tracker.within(0.5);
    assert.ok(failed.record.progress!.etaMs !== undefined);
    failed.tracker.fail();
    assert.deepEqual(failed.record.progress, { stage: 'rendering', fraction: 0.475 });
  });

  test('a resumed job starts from its record: no stage or fraction goes back', () => {
    const { tracker, sent, record, tick } = tracked('generationReal', {
      progress: { stage: 'rendering', fraction: 0.7 },
    });
    // The job runs again from the start; its earlier stages publish nothing.
    assert.equal(tracker.stage('writing_storyboard'), false);
    tick(PROGRESS_INTERVAL_MS);
    tracker.within(0.5);
    assert.equal(tracker.stage('voicing'), false);
    assert.equal(sent.length, 0);
    assert.deepEqual(record.progress, { stage: 'rendering', fraction: 0.7 });
    // Once the job passes where it was, it moves on.
    assert.equal(tracker.stage('finishing'), true);
    assert.equal(sent.at(-1)!.stage, 'finishing');
    assert.ok(sent.at(-1)!.fraction >= 0.95);
  });
});

describe('the jobs report progress on every status update', () => {
  test('a topic search and a generation (placeholder media): stages in order, forward only, an estimate', async () => {
    const service = await startTestService({ jobMs: 1500 });
    const { session } = await createAccount(service);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');

    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } }))
      .body;
    const topic = await updatesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    assertForwardOnly(topic);
    assert.deepEqual(stagesOf(topic), ['queued', 'reading_page', 'collecting_images', 'finishing']);
    assert.ok(
      topic.some((update) => update.progress!.etaMs !== undefined),
      'an estimate once 5 % is done',
    );
    // Throttled: at most 4 updates a second within a stage (plus one per stage and status change).
    const seconds = (topic.at(-1)!.at - topic[0]!.at) / 1000;
    assert.ok(topic.length <= Math.ceil(seconds * 4) + 12, `${topic.length} updates in ${seconds} s`);

    const started = await api(service, 'POST', '/api/generations', {
      session,
      body: { topicId, aspectRatio: '16:9', duration: 5 },
    });
    const { requestId } = started.body;
    const generation = await updatesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
    assertForwardOnly(generation);
    assert.deepEqual(stagesOf(generation), ['queued', 'writing_storyboard', 'finishing']);
    assert.ok(
      new Set(generation.map((update) => update.progress!.fraction)).size >= 4,
      'the fraction moves while the storyboard is written',
    );
    // The API answers the same progress as the stream.
    const read = (await api(service, 'GET', `/api/generations/${requestId}`, { session })).body.generation;
    assert.deepEqual(read.progress, { stage: 'finishing', fraction: 1 });
    stream.close();
  });

  test('a failed generation keeps the stage and fraction it failed at, without estimate', async () => {
    const service = await startTestService({ jobMs: 300 });
    const { session } = await createAccount(service);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } }))
      .body;
    await updatesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    const { requestId } = (
      await api(service, 'POST', '/api/generations', {
        session,
        body: { topicId, aspectRatio: '16:9', duration: 5, videoInstructions: 'calm [fail]' },
      })
    ).body;
    const updates = await updatesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
    const failed = updates.at(-1)!;
    assert.equal(failed.status, 'FAILED');
    assert.equal(failed.progress!.stage, 'writing_storyboard');
    assert.ok(failed.progress!.fraction > 0 && failed.progress!.fraction < 1);
    assert.equal(failed.progress!.etaMs, undefined);
    stream.close();
  });

  test('a real render: its stages, and a fraction driven by the encoder', { timeout: 300_000 }, async () => {
    const service = await startTestService({ jobMs: 40, media: 'real', mediaDir: join(work, 'media') });
    const { session } = await createAccount(service);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } }))
      .body;
    await updatesUntilFinal(stream, 'topic', (data) => data.id === topicId);
    const { requestId, videoId } = (
      await api(service, 'POST', '/api/generations', {
        session,
        body: { topicId, aspectRatio: '16:9', duration: 30, language: 'en-GB' },
      })
    ).body;
    const generation = await updatesUntilFinal(stream, 'generation', (data) => data.requestId === requestId);
    assertForwardOnly(generation);
    assert.deepEqual(stagesOf(generation), [
      'queued',
      'writing_storyboard',
      'voicing',
      'composing_scenes',
      'rendering',
      'finishing',
    ]);

    // The preview makes every scene: ffmpeg's -progress reports drive the fraction while the scenes
    // are encoded and joined (composing_scenes and rendering: 0.4 .. 0.95 of a generation).
    const encoding = generation
      .filter((update) => ['composing_scenes', 'rendering'].includes(update.progress!.stage))
      .map((u) => u.progress!);
    const distinct = new Set(encoding.map((progress) => progress.fraction));
    assert.ok(distinct.size >= 3, `several fractions while encoding: ${[...distinct].join(', ')}`);
    assert.ok([...distinct].every((fraction) => fraction >= 0.4 && fraction < 0.95));
    assert.ok(
      encoding.some((progress) => progress.etaMs !== undefined),
      'an estimate while encoding',
    );

    await api(service, 'POST', `/api/videos/${videoId}/complete`, { session });
    const render = await updatesUntilFinal(
      stream,
      'video',
      (data) => data.id === videoId && data.renders.length > 0,
      (data) => data.renders[0].status,
    );
    assertForwardOnly(render);
    assert.deepEqual(stagesOf(render), ['queued', 'voicing', 'composing_scenes', 'rendering', 'finishing']);
    // The final render takes every scene of the preview (no edit since): they count as done at once,
    // so every update after the stage's start is past the scenes' share of rendering (0.3 + 0.65 × 0.75).
    const rendering = render.filter((update) => update.progress!.stage === 'rendering').map((u) => u.progress!);
    assert.ok(
      rendering.slice(1).every((progress) => progress.fraction >= 0.787),
      rendering.map((p) => p.fraction).join(', '),
    );
    const [final] = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video.renders;
    assert.deepEqual({ ...final.stats, ms: 0 }, { scenes: 6, scenesRendered: 0, scenesReused: 6, ms: 0 });
    stream.close();
  });
});

describe('renderVideo reports its stages and the encoder’s progress', () => {
  test(
    'voicing, composing_scenes, rendering, finishing; the encoded share grows to the end',
    { timeout: 120_000 },
    async () => {
      const board = buildStoryboard(
        {
          sourceURL: 'https://harbor-lane.example/',
          title: 'Harbor Lane Coffee',
          headings: ['Roasted at dawn'],
          sentences: ['We roast twelve single-origin coffees in small batches.'],
          images: [],
        },
        { aspectRatio: '16:9', duration: 30, language: 'en-US' },
      );
      const log: (ProgressStage | number)[] = [];
      await renderVideo(board, join(work, 'direct'), 'vid_progress', {
        progress: { stage: (stage) => log.push(stage), within: (share) => log.push(share) },
      });
      const stages = log.filter((entry): entry is ProgressStage => typeof entry === 'string');
      assert.deepEqual(stages, ['voicing', 'composing_scenes', 'rendering', 'finishing']);
      const encoded = log.slice(log.indexOf('rendering') + 1, log.indexOf('finishing')) as number[];
      assert.ok(encoded.length >= 2, `ffmpeg reported ${encoded.length} times`);
      assert.deepEqual(
        encoded,
        [...encoded].sort((a, b) => a - b),
        'the encoded share never goes back',
      );
      assert.ok(encoded.at(-1)! > 0.9 && encoded.at(-1)! <= 1.01, `ends near the whole duration: ${encoded.at(-1)}`);
    },
  );
});
