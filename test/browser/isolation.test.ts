// Another account's IDs through every Plugin method that takes one, with real Plugins, real
// cross-origin iframes and the real service: an owner makes a topic and a video; an intruder of the
// same partner and one of another partner try each ID. Every method answers as for an ID that never
// existed (null, a NotFoundError, or one FAILED *_not_found status update) and never with the owner's
// data; and status updates of the owner's later changes never reach the intruder.
import { expect } from '@open-wc/testing';
import { NotFoundError } from '../../src/errors.js';
import { Plugin } from '../../src/plugin.js';
import type { ActionStatus } from '../../src/wire/api.js';
import {
  BUSINESS_URL,
  cleanupPlugins,
  createPlugin,
  nextEvent,
  rejection,
  signUp,
  statusLog,
  testConfig,
} from '../support/plugin.js';

/** The owner lives for the whole file; intruders are made (and cleaned up) per test. */
let owner: Plugin;
let mine: { topicId: string; requestId: string; videoId: string };
/** The owner's topic title (from business.html): it must reach no intruder. */
const OWNER_TITLE = 'Sunny Bakery';

before(async function () {
  this.timeout(20000);
  owner = new Plugin('test-partner', { serviceURL: (await testConfig()).serviceURL });
  await signUp(owner);
  const { topicId } = await owner.startTopicSearch(BUSINESS_URL);
  await statusLog((cb) => owner.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
  const { requestId, videoId } = await owner.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 15 });
  await statusLog((cb) => owner.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');
  mine = { topicId, requestId, videoId };
});

after(() => owner.cleanup());
afterEach(cleanupPlugins);

/** An ID of the same shape that never existed, to compare answers with. */
const never = (prefix: string) => `${prefix}_00000000000000000000000000000000`;

/** The error's plain form with `id` replaced, so that the answer for a foreign ID and a missing one compare. */
function plain(error: { code: string; message: string; data?: unknown }, id: string) {
  return JSON.parse(
    JSON.stringify({ code: error.code, message: error.message, data: error.data }).replaceAll(id, '<id>'),
  );
}

async function expectNotFound(promise: Promise<unknown>, code: string) {
  const error = await rejection(promise);
  expect(error).to.be.instanceOf(NotFoundError);
  expect(error.code).to.equal(code);
  expect(error.message).not.to.contain(OWNER_TITLE);
  return error;
}

/** A subscription's payloads, and a promise of the first one. */
function subscribed(subscribe: (cb: (payload: { status: ActionStatus }) => void) => () => void) {
  const payloads: { status: ActionStatus; error?: { code: string; message: string } }[] = [];
  let first!: () => void;
  const arrived = new Promise<void>((resolve) => (first = resolve));
  const unsubscribe = subscribe((payload) => {
    payloads.push(payload);
    first();
  });
  return { payloads, arrived, unsubscribe };
}

/** Runs a topic search of the intruder's own to COMPLETE: a change sent after everything before it. */
async function ownSearchCompletes(intruder: Plugin): Promise<void> {
  const { topicId } = await intruder.startTopicSearch(BUSINESS_URL);
  await statusLog((cb) => intruder.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
}

const intruders = [
  ['an account of the same partner', 'test-partner'],
  ['an account of another partner', 'other-partner'],
] as const;

for (const [who, partnerID] of intruders) {
  describe(`the owner's IDs, used by ${who}`, () => {
    let intruder: Plugin;
    beforeEach(async () => {
      intruder = await createPlugin({ partnerID });
      await signUp(intruder);
    });

    it('getVideoData resolves to null, as for a video that never existed; getVideos lists none of them', async () => {
      expect(await intruder.getVideoData(mine.videoId)).to.equal(null);
      expect(await intruder.getVideoData(never('vid'))).to.equal(null);
      expect(await intruder.getVideos()).to.deep.equal([]);
      expect((await owner.getVideoData(mine.videoId))?.id).to.equal(mine.videoId);
    });

    it('openEditorForVideo rejects with NotFoundError video_not_found, emits editorOpenFailed, stays closed', async () => {
      let opened = 0;
      intruder.on('editorOpened', () => opened++);
      const failed = nextEvent(intruder, 'editorOpenFailed');
      const error = await expectNotFound(intruder.openEditorForVideo(mine.videoId), 'video_not_found');
      expect(await failed).to.equal(error);
      expect(intruder.isOpen).to.equal(false);
      expect(opened).to.equal(0);
      const missing = await rejection(intruder.openEditorForVideo(never('vid')));
      expect(plain(error, mine.videoId)).to.deep.equal(plain(missing, never('vid')));
    });

    it("openPlugin with the owner's topicId rejects with NotFoundError topic_not_found and stays closed", async () => {
      let opened = 0;
      intruder.on('pluginOpened', () => opened++);
      const failed = nextEvent(intruder, 'pluginOpenFailed');
      const error = await expectNotFound(intruder.openPlugin({ topicId: mine.topicId }), 'topic_not_found');
      expect(await failed).to.equal(error);
      expect(intruder.isOpen).to.equal(false);
      expect(opened).to.equal(0);
      const missing = await rejection(intruder.openPlugin({ topicId: never('topic') }));
      expect(plain(error, mine.topicId)).to.deep.equal(plain(missing, never('topic')));
    });

    it("openPlugin with the owner's generationRequestId rejects with NotFoundError generation_not_found", async () => {
      const error = await expectNotFound(
        intruder.openPlugin({ generationRequestId: mine.requestId }),
        'generation_not_found',
      );
      expect(intruder.isOpen).to.equal(false);
      const missing = await rejection(intruder.openPlugin({ generationRequestId: never('gen') }));
      expect(plain(error, mine.requestId)).to.deep.equal(plain(missing, never('gen')));
    });

    it("startVideoGeneration from the owner's topic rejects with topic_not_found and saves no video anywhere", async () => {
      const ownerVideos = (await owner.getVideos()).map((video) => video.id);
      await expectNotFound(
        intruder.startVideoGeneration({ topicId: mine.topicId, aspectRatio: '4:5', duration: 5 }),
        'topic_not_found',
      );
      expect(await intruder.getVideos()).to.deep.equal([]);
      expect((await owner.getVideos()).map((video) => video.id)).to.deep.equal(ownerVideos);
    });

    it("a render status subscription to the owner's video gets one FAILED video_not_found update, as for an unknown video", async () => {
      const foreign = subscribed((cb) => intruder.subscribeToVideoRenderStatusUpdates(mine.videoId, cb));
      const unknown = subscribed((cb) => intruder.subscribeToVideoRenderStatusUpdates(never('vid'), cb));
      await Promise.all([foreign.arrived, unknown.arrived]);
      // A change of the intruder's own, sent after anything the owner's video could have leaked.
      await ownSearchCompletes(intruder);
      expect(foreign.payloads.map(({ status, error }) => [status, error?.code])).to.deep.equal([
        ['FAILED', 'video_not_found'],
      ]);
      expect(JSON.stringify(foreign.payloads).replaceAll(mine.videoId, '<id>')).to.equal(
        JSON.stringify(unknown.payloads).replaceAll(never('vid'), '<id>'),
      );
      foreign.unsubscribe();
      unknown.unsubscribe();
    });

    it("status subscriptions to the owner's IDs get one FAILED *_not_found update, as for unknown IDs, then nothing", async () => {
      // The owner starts new actions; the intruder subscribes to them while they run.
      const { topicId } = await owner.startTopicSearch(BUSINESS_URL);
      const ownerTopic = statusLog((cb) => owner.subscribeToTopicSearchStatusUpdates(topicId, cb));
      const foreignTopic = subscribed((cb) => intruder.subscribeToTopicSearchStatusUpdates(topicId, cb));
      const unknownTopic = subscribed((cb) => intruder.subscribeToTopicSearchStatusUpdates(never('topic'), cb));
      const { requestId } = await owner.startVideoGeneration({
        topicId: mine.topicId,
        aspectRatio: '4:5',
        duration: 5,
      });
      const ownerGeneration = statusLog((cb) => owner.subscribeToVideoGenerationStatusUpdates(requestId, cb));
      const foreignGeneration = subscribed((cb) => intruder.subscribeToVideoGenerationStatusUpdates(requestId, cb));
      const unknownGeneration = subscribed((cb) => intruder.subscribeToVideoGenerationStatusUpdates(never('gen'), cb));
      await Promise.all([
        foreignTopic.arrived,
        unknownTopic.arrived,
        foreignGeneration.arrived,
        unknownGeneration.arrived,
      ]);
      await Promise.all([ownerTopic.until('COMPLETE'), ownerGeneration.until('COMPLETE')]);

      // Every change of the owner's actions was sent before this one of the intruder's own.
      await ownSearchCompletes(intruder);
      for (const [foreign, unknown, id, code] of [
        [foreignTopic, unknownTopic, topicId, 'topic_not_found'],
        [foreignGeneration, unknownGeneration, requestId, 'generation_not_found'],
      ] as const) {
        expect(foreign.payloads).to.have.length(1);
        expect(foreign.payloads[0]!.status).to.equal('FAILED');
        expect(foreign.payloads[0]!.error!.code).to.equal(code);
        expect(JSON.stringify(foreign.payloads[0]).replaceAll(id, '<id>')).to.equal(
          JSON.stringify(unknown.payloads[0]).replaceAll(
            code === 'topic_not_found' ? never('topic') : never('gen'),
            '<id>',
          ),
        );
        expect(JSON.stringify(foreign.payloads)).not.to.contain(OWNER_TITLE);
        foreign.unsubscribe();
        unknown.unsubscribe();
      }
      expect(ownerTopic.statuses.at(-1)).to.equal('COMPLETE');
    });
  });
}
