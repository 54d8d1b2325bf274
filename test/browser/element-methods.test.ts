// <video-plugin>'s methods, forwarded to its Plugin (docs/element-guide.md, "Methods"): through a
// whole session, before the element is connected, after cleanup(). Runs on src/ and on the classic
// CDN script (element.test.ts says more).
import { expect } from '@open-wc/testing';
import { DestroyedError, NotAuthenticatedError, Plugin, VideoPluginElement } from '../support/element-api.js';
import { PARTNER, element, signUp, removeElements } from '../support/element-suite.js';
import { BUSINESS_URL, inFrame, rejection, statusLog, thrown, token } from '../support/plugin.js';

afterEach(removeElements);

describe('<video-plugin>: methods', () => {
  it('exposes every public Plugin method', () => {
    const methods = Object.entries(Object.getOwnPropertyDescriptors(Plugin.prototype))
      .filter(([name, descriptor]) => name !== 'constructor' && typeof descriptor.value === 'function')
      .map(([name]) => name)
      // update() is Lit's render step on the element; its theme, appearance and locale do its job.
      .filter((name) => name !== 'update');
    expect(methods).to.include('openPlugin');
    expect(methods).to.include('topicSearchStatus');
    for (const name of methods) {
      expect(typeof (VideoPluginElement.prototype as unknown as Record<string, unknown>)[name], name).to.equal(
        'function',
      );
    }
  });

  it('forwards every method to its Plugin, through a whole session', async function () {
    // With real media (Chromium) the generation renders a real preview: a deadline for a hang,
    // not a speed test (bench:render measures speed).
    this.timeout(60_000);
    const el = await element();
    const accountID = await signUp(el, { externalID: `ext-${crypto.randomUUID()}` });
    expect((await el.getAccountInfo()).id).to.equal(accountID);
    expect((await el.updateAccountInfo({ lastName: 'Lovelace' })).lastName).to.equal('Lovelace');
    expect(await el.getVideos()).to.deep.equal([]);
    expect(await el.getVideoData('no-such-video')).to.equal(null);

    const { topicId } = await el.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => el.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    const started = await el.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    const generation = statusLog((cb) => el.subscribeToVideoGenerationStatusUpdates(started.requestId, cb));
    await generation.until('COMPLETE');
    generation.unsubscribe();
    expect((await el.getVideos()).map((video) => video.id)).to.deep.equal([started.videoId]);
    expect((await el.getVideoData(started.videoId))!.id).to.equal(started.videoId);

    await el.openPlugin({ generationRequestId: started.requestId });
    expect(el.plugin!.isOpen).to.equal(true);
    await el.close();
    expect(el.plugin!.isOpen).to.equal(false);
    await el.openEditorForVideo(started.videoId);
    expect(el.plugin!.isOpen).to.equal(true);

    await el.logoutAccount();
    expect(await rejection(el.getAccountInfo())).to.be.instanceOf(NotAuthenticatedError);
    expect((await el.loginAccount(await token('login', { partnerID: PARTNER, accountID }))).id).to.equal(accountID);

    const elsewhere = document.createElement('div');
    document.body.append(elsewhere);
    await el.mount(elsewhere, true);
    expect(el.plugin!.iframe.parentElement).to.equal(elsewhere);
    expect((await el.getAccountInfo()).id).to.equal(accountID);

    const plugin = el.plugin!;
    await el.cleanup();
    expect(plugin.isDestroyed).to.equal(true);
    expect(plugin.iframe.isConnected).to.equal(false);
    elsewhere.remove();
    const after = await rejection(el.getVideos());
    expect(after).to.be.instanceOf(DestroyedError);
    expect(after.message).to.contain('getVideos').and.contain('cleanup()');
  });

  it('keeps accepting the deprecated businessURL, and says so once, only in debug mode', async () => {
    const lines: string[] = [];
    const original = console.debug;
    console.debug = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    try {
      const quiet = await element();
      await signUp(quiet);
      await quiet.openPlugin({ businessURL: BUSINESS_URL });
      expect(lines).to.deep.equal([]);
      const loud = await element({ debug: '' });
      await signUp(loud);
      await loud.openPlugin({ businessURL: BUSINESS_URL });
      await loud.close();
      await loud.openPlugin({ businessURL: BUSINESS_URL });
      expect(loud.plugin!.isOpen).to.equal(true);
      const notices = lines.filter((line) => line.includes('businessURL is deprecated'));
      expect(notices).to.have.length(1);
      expect(notices[0]).to.contain('sourceURL');
    } finally {
      console.debug = original;
    }
  });

  it('starts a new session after cleanup() when an attribute changes', async () => {
    const el = await element();
    await el.cleanup();
    el.setAttribute('call-timeout', '8000');
    await el.updateComplete;
    expect(el.plugin!.isDestroyed).to.equal(false);
    expect(await el.getVideos()).to.deep.equal([]);
  });

  it('calls made before the element is connected wait for it', async () => {
    const el = await element({}, { connect: false });
    let settled = false;
    const videos = el.getVideos().finally(() => (settled = true));
    const info = el.getAccountInfo().catch((error: unknown) => error);
    const statuses: string[] = [];
    el.subscribeToTopicSearchStatusUpdates('no-such-topic', ({ status }) => statuses.push(status));
    // The sentinel: a connected element completes a whole round trip meanwhile.
    const other = await element();
    expect(await other.getVideos()).to.deep.equal([]);
    expect(settled).to.equal(false);
    expect(el.plugin).to.equal(undefined);
    document.body.append(el);
    expect(await videos).to.deep.equal([]);
    expect(await info).to.be.instanceOf(NotAuthenticatedError);
  });

  it('pushes a video’s render status to a subscription made before it was connected, and iterates it to COMPLETE', async function () {
    // With real media (Chromium) the generation and the render are real: a deadline for a hang.
    this.timeout(60_000);
    const owner = await element();
    const accountID = await signUp(owner);
    const { topicId } = await owner.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => owner.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    const { videoId, requestId } = await owner.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    await statusLog((cb) => owner.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');

    // Another element of the same user, not connected yet: the subscription waits for it.
    const el = await element({}, { connect: false });
    const log = statusLog((cb) => el.subscribeToVideoRenderStatusUpdates(videoId, cb));
    const loggedIn = el.loginAccount(await token('login', { partnerID: PARTNER, accountID }));
    document.body.append(el);
    await loggedIn;
    await log.until('PENDING');
    const iterated = (async () => {
      const statuses: string[] = [];
      for await (const { status } of el.videoRenderStatus(videoId)) statuses.push(status);
      return statuses;
    })();

    await owner.openEditorForVideo(videoId);
    await inFrame(owner.plugin!).click('[data-action="complete"]');
    await log.until('COMPLETE');
    expect(log.statuses).to.deep.equal(['PENDING', 'PROCESSING', 'COMPLETE']);
    expect(log.payloads.at(-1)).to.deep.equal({ status: 'COMPLETE', progress: { stage: 'finishing', fraction: 1 } });
    expect(await iterated).to.deep.equal(log.payloads.map(({ status }) => status));
    log.unsubscribe();
  });

  it('createAccount and loginAccount take a token function too, asked again once for an expired token', async () => {
    // preload="none": the Plugin, and so the first call of the function, comes with the first method.
    const el = await element({ preload: 'none' });
    const asked: string[] = [];
    const accountID = await el.createAccount(() => {
      asked.push('create');
      return token('create', { partnerID: PARTNER, expired: asked.length === 1 });
    });
    expect(asked).to.deep.equal(['create', 'create']);
    const account = await el.loginAccount(async () => {
      asked.push('login');
      return token('login', { partnerID: PARTNER, accountID });
    });
    expect(account.id).to.equal(accountID);
    expect(asked).to.deep.equal(['create', 'create', 'login']);
  });

  it('validates subscription arguments at once, even before it is connected', async () => {
    const el = await element({}, { connect: false });
    expect(thrown(() => el.subscribeToTopicSearchStatusUpdates('', () => {})).data?.field).to.equal('topicId');
    expect(thrown(() => el.subscribeToVideoGenerationStatusUpdates('r', 'no' as never)).data?.field).to.equal(
      'callback',
    );
    expect(thrown(() => el.subscribeToVideoRenderStatusUpdates('', () => {})).data?.field).to.equal('videoId');
  });
});
