// The Plugin's background actions against the real local service (docs/plugin-api.md, "Methods":
// topic searches, generations, renders and their status subscriptions; "Decisions where the
// reference is silent": safe retries with options.idempotencyKey).
import { expect } from '@open-wc/testing';
import { InvalidParameterError } from '../../src/errors.js';
import { Plugin } from '../../src/plugin.js';
import {
  PROGRESS_STAGES,
  type ProgressStage,
  type TopicSearchStatusUpdatePayload,
  type VideoRenderStatusUpdatePayload,
} from '../../src/index.js';
import {
  BUSINESS_URL,
  cleanupPlugins,
  createPlugin,
  generatedVideo,
  inFrame,
  nextEvent,
  rejection,
  signUp,
  statusLog,
} from '../support/plugin.js';

afterEach(cleanupPlugins);

describe('Plugin: background actions and status subscriptions', () => {
  it('a topic search goes PENDING → PROCESSING → COMPLETE, each status once, in order', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const { topicId, requestId } = await plugin.startTopicSearch(BUSINESS_URL);
    expect(topicId).to.be.a('string');
    expect(requestId).to.be.a('string');
    const log = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
    await log.until('COMPLETE');
    expect(log.statuses.at(-1)).to.equal('COMPLETE');
    expect(new Set(log.statuses).size).to.equal(log.statuses.length);
    const order = ['PENDING', 'PROCESSING', 'COMPLETE'];
    expect(log.statuses.map((s) => order.indexOf(s))).to.deep.equal(
      [...log.statuses.map((s) => order.indexOf(s))].sort(),
    );
  });

  it('a late subscriber first receives the current status at once', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    const late = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
    await late.until('COMPLETE');
    expect(late.statuses).to.deep.equal(['COMPLETE']);
  });

  it('many subscribers to one id share one upstream subscription; unsubscribe is idempotent', async () => {
    const plugin = await createPlugin({ slow: true });
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    const a = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
    const b = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
    await Promise.all([a.until('PENDING'), b.until('PENDING')]);
    b.unsubscribe();
    b.unsubscribe();
    await a.until('PROCESSING');
    expect(b.statuses).to.deep.equal(['PENDING']);
    a.unsubscribe();
  });

  /**
   * Checks the documented progress of status updates, in the order delivered: every one has
   * `progress: { stage, fraction, etaMs? }` with a documented stage; the stage never goes back in the
   * documented order and the fraction never decreases (and grows while the status stays).
   */
  function expectForwardProgress(payloads: TopicSearchStatusUpdatePayload[]): void {
    expect(payloads.length).to.be.above(0);
    let last: TopicSearchStatusUpdatePayload | undefined;
    for (const payload of payloads) {
      const { progress } = payload;
      expect(progress, JSON.stringify(payload)).to.be.an('object');
      expect(Object.keys(progress!).every((key) => ['stage', 'fraction', 'etaMs'].includes(key))).to.equal(true);
      expect(STAGES).to.include(progress!.stage);
      expect(progress!.fraction).to.be.within(0, 1);
      if (progress!.etaMs !== undefined) expect(progress!.etaMs).to.be.a('number').and.at.least(0);
      if (last) {
        expect(STAGES.indexOf(progress!.stage)).to.be.at.least(STAGES.indexOf(last.progress!.stage));
        expect(progress!.fraction).to.be.at.least(last.progress!.fraction);
        if (payload.status === last.status) expect(progress!.fraction).to.be.above(last.progress!.fraction);
      }
      last = payload;
    }
  }
  const STAGES: readonly ProgressStage[] = PROGRESS_STAGES;

  it('the status iterator and callbacks carry progress, forward only, COMPLETE at fraction 1', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    const searched: TopicSearchStatusUpdatePayload[] = [];
    for await (const update of plugin.topicSearchStatus(topicId)) searched.push(update);
    expectForwardProgress(searched);
    expect(searched.at(-1)).to.deep.equal({ status: 'COMPLETE', progress: { stage: 'finishing', fraction: 1 } });

    const { requestId } = await plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    const log = statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb));
    await log.until('COMPLETE');
    expectForwardProgress(log.payloads);
    expect(log.payloads.map(({ progress }) => progress!.stage)).not.to.include('reading_page');
    expect(log.payloads.at(-1)!.progress).to.deep.equal({ stage: 'finishing', fraction: 1 });
  });

  it('progress moves within a status, each update delivered once, with an estimate once it has one', async () => {
    const plugin = await createPlugin({ slow: true });
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    const updates: TopicSearchStatusUpdatePayload[] = [];
    // A second subscriber to the same search gets the same updates.
    const other = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
    for await (const update of plugin.topicSearchStatus(topicId)) {
      updates.push(update);
      if (updates.filter((u) => u.status === update.status).length >= 3 && update.progress?.etaMs !== undefined) break;
    }
    expect(updates.at(-1)!.status).not.to.equal('COMPLETE');
    expectForwardProgress(updates);
    expect(new Set(updates.map(({ progress }) => progress!.fraction)).size).to.equal(updates.length);
    expectForwardProgress(other.payloads);
    other.unsubscribe();
  });

  /** Completes the video as the user does: "Complete video" in the editor. */
  async function completeInEditor(plugin: Plugin, videoId: string): Promise<void> {
    await plugin.openEditorForVideo(videoId);
    await inFrame(plugin).click('[data-action="complete"]');
  }

  it('the final render’s status is pushed: PENDING until completed, then progress forward to COMPLETE, in order, once each', async () => {
    const plugin = await createPlugin();
    const videoId = await generatedVideo(plugin);
    const log = statusLog((cb) => plugin.subscribeToVideoRenderStatusUpdates(videoId, cb));
    await log.until('PENDING');
    // The iterator shares the subscription: it starts with the current status, then gets each update.
    const iterated = (async () => {
      const updates: VideoRenderStatusUpdatePayload[] = [];
      for await (const update of plugin.videoRenderStatus(videoId)) updates.push(update);
      return updates;
    })();
    const rendered = nextEvent(plugin, 'videoRendered');
    await completeInEditor(plugin, videoId);
    await log.until('COMPLETE');
    expect(log.statuses).to.deep.equal(['PENDING', 'PROCESSING', 'COMPLETE']);
    expect(log.payloads[0]).to.deep.equal({ status: 'PENDING' });
    const rendering = log.payloads.slice(1);
    expectForwardProgress(rendering);
    // A stand-in render's stages (docs/plugin-api.md, "Progress").
    for (const { progress } of rendering) expect(['queued', 'rendering', 'finishing']).to.include(progress!.stage);
    expect(log.payloads.at(-1)).to.deep.equal({ status: 'COMPLETE', progress: { stage: 'finishing', fraction: 1 } });
    // The iterator ended at COMPLETE, with what the callback got.
    expect(await iterated).to.deep.equal(log.payloads);
    expect((await rendered).renders.every((render) => render.status === 'COMPLETE')).to.equal(true);
    // The status the page reads agrees; a late subscriber gets it at once, and its iterator ends.
    expect((await plugin.getVideoData(videoId))!.renders[0]!.progress).to.deep.equal(log.payloads.at(-1)!.progress);
    const late: VideoRenderStatusUpdatePayload[] = [];
    for await (const update of plugin.videoRenderStatus(videoId)) late.push(update);
    expect(late).to.deep.equal([log.payloads.at(-1)]);
    log.unsubscribe();
  });

  it('render status: unsubscribe stops one subscriber only; an unknown video is FAILED video_not_found', async () => {
    const plugin = await createPlugin();
    const videoId = await generatedVideo(plugin);
    const a = statusLog((cb) => plugin.subscribeToVideoRenderStatusUpdates(videoId, cb));
    const b = statusLog((cb) => plugin.subscribeToVideoRenderStatusUpdates(videoId, cb));
    await b.until('PENDING');
    b.unsubscribe();
    b.unsubscribe();
    await completeInEditor(plugin, videoId);
    await a.until('COMPLETE');
    expect(b.statuses).to.deep.equal(['PENDING']);
    a.unsubscribe();

    const unknown = statusLog((cb) => plugin.subscribeToVideoRenderStatusUpdates('no-such-video', cb));
    await unknown.until('FAILED');
    expect(unknown.payloads.map(({ status, error }) => [status, error?.code])).to.deep.equal([
      ['FAILED', 'video_not_found'],
    ]);
    const ended: VideoRenderStatusUpdatePayload[] = [];
    for await (const update of plugin.videoRenderStatus('no-such-video')) ended.push(update);
    expect(ended.map(({ status }) => status)).to.deep.equal(['FAILED']);
    unknown.unsubscribe();
  });

  it('a generation with a topic that is not COMPLETE is refused by the service', async () => {
    const plugin = await createPlugin({ slow: true });
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    const error = await rejection(plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 }));
    expect(error.code).to.equal('invalid_state');
  });
});

describe('Plugin: safe retries (options.idempotencyKey)', () => {
  it('starts one topic search and one generation per key: a repeat resolves to the same IDs', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const searchKey = crypto.randomUUID();
    // A double click: both calls go out before either answer.
    const [search, twice] = await Promise.all([
      plugin.startTopicSearch(BUSINESS_URL, { idempotencyKey: searchKey }),
      plugin.startTopicSearch(BUSINESS_URL, { idempotencyKey: searchKey }),
    ]);
    expect(twice).to.deep.equal(search);
    expect(await plugin.startTopicSearch(BUSINESS_URL, { idempotencyKey: searchKey })).to.deep.equal(search);
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(search.topicId, cb)).until('COMPLETE');
    const params = { topicId: search.topicId, aspectRatio: '16:9', duration: 5 } as const;
    const generationKey = crypto.randomUUID();
    const first = await plugin.startVideoGeneration(params, { idempotencyKey: generationKey });
    const retry = await plugin.startVideoGeneration(
      { ...params, language: 'en-US' },
      { idempotencyKey: generationKey },
    );
    expect(retry).to.deep.equal(first);
    expect((await plugin.getVideos()).map((video) => video.id)).to.deep.equal([first.videoId]);
  });

  it('rejects the same key with other parameters with idempotency_key_reused', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const idempotencyKey = crypto.randomUUID();
    await plugin.startTopicSearch(BUSINESS_URL, { idempotencyKey });
    const error = await rejection(plugin.startTopicSearch(`${BUSINESS_URL}?other`, { idempotencyKey }));
    expect(error).to.be.instanceOf(InvalidParameterError);
    expect(error.code).to.equal('idempotency_key_reused');
    expect(error.data?.field).to.equal('options.idempotencyKey');
    expect(error.message).to.match(/use a new key for a new request/);
  });

  it('rejects a key that is not a string of 1 to 255 visible characters, naming the field', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    for (const idempotencyKey of [42, '', 'x'.repeat(256), 'two words']) {
      const error = await rejection(
        plugin.startTopicSearch(BUSINESS_URL, { idempotencyKey: idempotencyKey as unknown as string }),
      );
      expect(error, String(idempotencyKey)).to.be.instanceOf(InvalidParameterError);
      expect(error.code).to.equal('invalid_parameter');
      expect(error.data?.field).to.equal('options.idempotencyKey');
      expect(error.message).to.match(/^options\.idempotencyKey must be/);
    }
    expect(await plugin.getVideos()).to.deep.equal([]);
  });
});
