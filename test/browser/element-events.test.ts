// <video-plugin>'s DOM events (docs/element-guide.md, "DOM events"): the Plugin's events
// re-dispatched as bubbling, composed DOM events, and error that never reaches window.onerror. Runs
// on src/ and on the classic CDN script (element.test.ts says more).
import { expect } from '@open-wc/testing';
import { NotFoundError, Plugin, VideoPluginError } from '../support/element-api.js';
import { EVENT_NAMES, type PluginEventName } from '../../src/wire/api.js';
import { element, signUp, nextDOMEvent, removeElements } from '../support/element-suite.js';
import { BUSINESS_URL, rejection, statusLog, thrown } from '../support/plugin.js';

afterEach(removeElements);

describe('<video-plugin>: events', () => {
  it('re-dispatches Plugin events as bubbling, composed DOM events with the payload in detail', async () => {
    const el = await element();
    await signUp(el);
    const opened = nextDOMEvent(document, 'pluginOpened');
    await el.openPlugin();
    const event = await opened;
    expect(event.target).to.equal(el);
    expect([event.bubbles, event.composed, event.detail]).to.deep.equal([true, true, null]);

    const failed = nextDOMEvent<VideoPluginError>(document, 'editorOpenFailed');
    const error = await rejection(el.openEditorForVideo('no-such-video'));
    expect(error).to.be.instanceOf(NotFoundError);
    expect((await failed).detail).to.equal(error);
  });

  it('dispatches error without bubbling, so that it never reaches window.onerror', async () => {
    const el = await element();
    let reachedWindow = false;
    const onWindow = () => (reachedWindow = true);
    window.addEventListener('error', onWindow);
    try {
      const failed = nextDOMEvent<VideoPluginError>(el, 'error');
      el.setAttribute('environment', 'nowhere');
      const event = await failed;
      expect([event.bubbles, event.composed]).to.deep.equal([false, true]);
    } finally {
      window.removeEventListener('error', onWindow);
    }
    expect(reachedWindow).to.equal(false);
  });

  it('gives the same payload to DOM listeners, on() listeners and the callbacks property', async () => {
    const el = await element();
    const heard: string[] = [];
    const viaCallbacks = (video: { id: string }) => heard.push(`callbacks:${video.id}`);
    el.callbacks = { videoCreated: viaCallbacks };
    const remove = el.on('videoCreated', (video) => heard.push(`on:${video.id}`));
    el.addEventListener('videoCreated', (event) => heard.push(`dom:${event.detail.id}`));
    await signUp(el);
    const { topicId } = await el.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => el.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    const created = nextDOMEvent(el, 'videoCreated');
    const { videoId } = await el.startVideoGeneration({ topicId, aspectRatio: '4:5', duration: 5 });
    await created;
    expect(heard).to.deep.equal([`dom:${videoId}`, `on:${videoId}`, `callbacks:${videoId}`]);
    remove();
    el.off('videoCreated', viaCallbacks); // not an on() listener: harmless
    expect(thrown(() => el.on('videoCreatd' as PluginEventName, () => {})).data?.field).to.equal('eventName');
  });

  it('forwards idempotencyKey: a retried start resolves to the same IDs and videoCreated fires once', async () => {
    const el = await element();
    await signUp(el);
    const searchKey = crypto.randomUUID();
    const search = await el.startTopicSearch(BUSINESS_URL, { idempotencyKey: searchKey });
    expect(await el.startTopicSearch(BUSINESS_URL, { idempotencyKey: searchKey })).to.deep.equal(search);
    await statusLog((cb) => el.subscribeToTopicSearchStatusUpdates(search.topicId, cb)).until('COMPLETE');
    const createdIDs: string[] = [];
    el.addEventListener('videoCreated', (event) => createdIDs.push(event.detail.id));
    const created = nextDOMEvent(el, 'videoCreated');
    const params = { topicId: search.topicId, aspectRatio: '4:5', duration: 5 } as const;
    const idempotencyKey = crypto.randomUUID();
    const started = await el.startVideoGeneration(params, { idempotencyKey });
    await created;
    expect(await el.startVideoGeneration(params, { idempotencyKey })).to.deep.equal(started);
    // The page would emit a second videoCreated after reading the video again: a round trip later, none.
    expect((await el.getVideos()).map((video) => video.id)).to.deep.equal([started.videoId]);
    expect(createdIDs).to.deep.equal([started.videoId]);
  });

  it('re-dispatches every Plugin event name', async () => {
    const el = await element();
    // The element listens to its Plugin with on(): record the names it asks for on a rebuild.
    const asked = new Set<string>();
    const original = Plugin.prototype.on;
    (Plugin.prototype as { on: unknown }).on = function (this: Plugin, name: PluginEventName, callback: never) {
      asked.add(name);
      return original.call(this, name, callback);
    };
    try {
      el.setAttribute('call-timeout', '9000');
      await el.updateComplete;
    } finally {
      Plugin.prototype.on = original;
    }
    expect([...asked].sort()).to.deep.equal([...EVENT_NAMES].sort());
  });
});
