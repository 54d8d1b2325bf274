// Whole journeys through the Plugin and the service's pages, clicking inside the real
// cross-origin iframe like a person (real input events through the browser).
import { expect } from '@open-wc/testing';
import { AccountMethodsDisabledError, NotAuthenticatedError } from '../../src/errors.js';
import type { Video } from '../../src/wire/api.js';
import type { Plugin } from '../../src/plugin.js';
import {
  BUSINESS_URL,
  cleanupPlugins,
  createPlugin,
  generatedVideo,
  getLoginTokenFor,
  inFrame,
  nextEvent,
  PICTURES_URL,
  rejection,
  signUp,
  statusLog,
  testConfig,
  token,
} from '../support/plugin.js';

afterEach(cleanupPlugins);

const labels = {
  shouldShow: true,
  title: 'Publish this clip?',
  body: 'You confirm you hold the rights to every image and sound in it.',
  confirmButton: 'Yes, publish',
  cancelButton: 'Not yet',
};

/** Opens the AI flow with a source URL (under any of its names) and waits for the prompt step. */
async function searchThroughTheUI(plugin: Plugin, options: Record<string, string>): Promise<void> {
  const opened = nextEvent(plugin, 'pluginOpened');
  await plugin.openPlugin(options);
  await opened;
  const frame = inFrame(plugin);
  expect(await frame.text('[data-view="prompt"] h2[data-topic-status="COMPLETE"]')).to.equal('Sunny Bakery');
}

/**
 * Each render of `video` carries what publishing it needs: its files, each fetched here from the
 * partner's page (another origin) with the type it is listed with, and an alt text naming it. Real
 * media has an MP4, a JPEG poster, WebVTT captions in the video's language and a transcript; the
 * placeholder engines' SVG stand-ins only a video and a poster.
 */
async function expectPublishableRenders(video: Video, name: string): Promise<void> {
  const { realMedia } = await testConfig();
  for (const render of video.renders) {
    const files = render.files!;
    expect(files.video.url).to.equal(render.url);
    expect(render.altText).to.contain(`“${name}”`);
    if (realMedia) {
      expect([files.video.type, files.poster.type]).to.deep.equal(['video/mp4', 'image/jpeg']);
      expect(files.captions).to.include({ type: 'text/vtt; charset=utf-8', language: video.language });
      expect(files.transcript?.type).to.equal('text/plain; charset=utf-8');
    } else {
      expect([files.video.type, files.poster.type]).to.deep.equal(['image/svg+xml', 'image/svg+xml']);
      expect([files.captions, files.transcript]).to.deep.equal([undefined, undefined]);
    }
    const listed = [
      files.video,
      files.poster,
      ...(files.captions ? [files.captions] : []),
      ...(files.transcript ? [files.transcript] : []),
    ];
    const texts = new Map<unknown, string>();
    for (const file of listed) {
      const response = await fetch(file.url);
      expect([response.status, response.headers.get('content-type')]).to.deep.equal([200, file.type]);
      texts.set(file, new TextDecoder().decode(await response.arrayBuffer()));
    }
    if (!files.captions || !files.transcript) continue;
    // The transcript says what the captions say: every cue's narration, one scene after another.
    const cues = texts.get(files.captions)!.split('\n\n').slice(1);
    expect(texts.get(files.captions)).to.match(/^WEBVTT\n/);
    expect(cues).to.have.length.greaterThan(1);
    for (const cue of cues) expect(texts.get(files.transcript)).to.contain(cue.split('\n').slice(2).join('\n'));
  }
}

/** The studio's progress text in English: the stage, the percentage, the time left once known. */
const PROGRESS_TEXT =
  /^(Waiting to start|Reading the website|Collecting images|Writing the storyboard|Waiting for the renderer|Recording the voiceover|Composing the scenes|Rendering the video|Finishing): \d{1,3} %(, about \d+ s left)?$/;

describe('journeys', () => {
  it('create → login → topic search → generation → preview → editor → complete with the modal → rendered → listed → cleanup', async () => {
    const plugin = await createPlugin({ editor: { labels: { completeVideoConfirmation: labels } } });
    const accountID = await signUp(plugin);
    await plugin.logoutAccount();
    await plugin.loginAccount(await token('login', { accountID }));

    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    const topicLog = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
    await topicLog.until('COMPLETE');
    expect(topicLog.statuses.at(-1)).to.equal('COMPLETE');

    // Each invalid parameter is refused before any request is sent.
    for (const bad of [
      { topicId, aspectRatio: '9:16', duration: 5 },
      { topicId, aspectRatio: '16:9', duration: 7 },
      { topicId, aspectRatio: '16:9', duration: 5, language: 'nl' },
      { aspectRatio: '16:9', duration: 5 },
    ]) {
      expect((await rejection(plugin.startVideoGeneration(bad as never))).code).to.equal('invalid_parameter');
    }
    expect(await plugin.getVideos()).to.deep.equal([]);

    const created = nextEvent(plugin, 'videoCreated');
    const started = await plugin.startVideoGeneration({
      topicId,
      aspectRatio: '16:9',
      duration: 15,
      language: 'en-GB',
    });
    expect(started.topicId).to.equal(topicId);
    expect((await created).id).to.equal(started.videoId);
    const generationLog = statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(started.requestId, cb));
    await generationLog.until('COMPLETE');

    await plugin.openPlugin({ generationRequestId: started.requestId });
    const frame = inFrame(plugin);
    const editorOpened = nextEvent(plugin, 'editorOpened');
    await frame.click('[data-action="open-editor"]');
    expect((await editorOpened).id).to.equal(started.videoId);

    const saved = nextEvent(plugin, 'videoSaved');
    await frame.fill('#video-name', 'Bakery spring ad');
    await frame.click('[data-action="save"]');
    expect((await saved).name).to.equal('Bakery spring ad');

    await frame.click('[data-action="complete"]');
    expect(await frame.text('#confirm-title')).to.equal(labels.title);
    expect(await frame.text('[role="dialog"] p')).to.equal(labels.body);
    expect(await frame.text('[data-confirm]')).to.equal(labels.confirmButton);
    expect(await frame.text('[data-cancel]')).to.equal(labels.cancelButton);
    const completed = nextEvent(plugin, 'videoCompleted');
    const rendered = nextEvent(plugin, 'videoRendered');
    await frame.click('[data-confirm]');
    const completedVideo: Video = await completed;
    expect(completedVideo.isCompleted).to.equal(true);
    if ((await testConfig()).realMedia) {
      // A real render takes seconds: the editor shows its stage and percentage meanwhile.
      expect(await frame.text('[data-view="editor"] .progress p')).to.match(PROGRESS_TEXT);
    }
    const renderedVideo: Video = await rendered;
    expect(renderedVideo.renders).to.have.length.greaterThan(0);
    expect(renderedVideo.renders.every((render) => render.status === 'COMPLETE' && render.url)).to.equal(true);
    await expectPublishableRenders(renderedVideo, 'Bakery spring ad');

    const videos = await plugin.getVideos();
    expect(videos.map((video) => [video.id, video.name, video.isCompleted])).to.deep.equal([
      [started.videoId, 'Bakery spring ad', true],
    ]);

    const exited = nextEvent(plugin, 'editorExited');
    await frame.click('[data-action="exit"]');
    await exited;
    expect(plugin.isOpen).to.equal(false);

    const iframe = plugin.iframe;
    await plugin.cleanup();
    expect(iframe.isConnected).to.equal(false);
  }).timeout(30000);

  it('the AI page shows a running search’s stage and percentage in a progress bar', async () => {
    const plugin = await createPlugin({ slow: true });
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('PROCESSING');
    await plugin.openPlugin({ topicId });
    const frame = inFrame(plugin);
    await frame.text('[data-view="prompt"] h2[data-topic-status="PROCESSING"]');
    expect(await frame.text('[data-view="prompt"] .progress p')).to.match(PROGRESS_TEXT);
    // A <progress> (role progressbar) whose value is the percentage.
    const bar = await frame.probe('[data-view="prompt"] progress');
    expect(Number(bar!.value)).to.be.within(1, 99);
  });

  it('the modal is not shown when shouldShow is false (the default): complete goes straight on', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    const { videoId, requestId } = await plugin.startVideoGeneration({ topicId, aspectRatio: '4:5', duration: 5 });
    await statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');
    await plugin.openEditorForVideo(videoId);
    const completed = nextEvent(plugin, 'videoCompleted');
    await inFrame(plugin).click('[data-action="complete"]');
    expect((await completed).id).to.equal(videoId);
  }).timeout(20000);

  it('openEditorForVideo opens the same editor as "Open in editor", scenes included, also after the frame reloads', async () => {
    const { realMedia } = await testConfig();
    const plugin = await createPlugin({ getLoginToken: getLoginTokenFor() });
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    const { videoId, requestId } = await plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    await statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');
    const frame = inFrame(plugin);
    /** The editor's first scene title, or null where the video has no scenes (placeholder media). */
    const firstScene = async (): Promise<string | null> => {
      await frame.text('#video-name');
      return realMedia ? ((await frame.probe('#scene-0-heading'))?.value ?? null) : null;
    };

    // The AI page's way in.
    await plugin.openPlugin({ generationRequestId: requestId });
    const fromAIPage = nextEvent(plugin, 'editorOpened');
    await frame.click('[data-action="open-editor"]');
    expect((await fromAIPage).id).to.equal(videoId);
    const scene = await firstScene();
    if (realMedia) expect(scene).to.equal('Sunny Bakery');
    await plugin.close();

    // The partner's Edit button: the same editor, the same scenes.
    await plugin.openEditorForVideo(videoId);
    expect(await firstScene()).to.equal(scene);

    // After the frame reloads (a mount where the browser has no moveBefore).
    const target = document.createElement('div');
    Object.defineProperty(target, 'moveBefore', { value: undefined });
    document.body.append(target);
    try {
      await plugin.mount(target);
      await plugin.openEditorForVideo(videoId);
      expect(await firstScene()).to.equal(scene);
    } finally {
      await plugin.cleanup();
      target.remove();
    }
  }).timeout(30000);

  for (const name of ['sourceURL', 'sourceUrl', 'businessURL']) {
    it(`openPlugin({ ${name} }) fills in the URL, searches at once and moves to the prompt with the topic`, async () => {
      const plugin = await createPlugin();
      await signUp(plugin);
      await searchThroughTheUI(plugin, { [name]: BUSINESS_URL });
      const frame = inFrame(plugin);
      const created = nextEvent(plugin, 'videoCreated');
      await frame.click('[data-view="prompt"] button[type="submit"]');
      const video = await created;
      expect(video.topicId).to.be.a('string');
      expect(await frame.text('[data-view="preview"] h2[data-generation-status="COMPLETE"]')).to.equal('Your video');
      expect((await plugin.getVideos()).map((v) => v.id)).to.deep.equal([video.id]);
    }).timeout(20000);
  }

  it('the UI close control hides the iframe and keeps the session', async () => {
    const plugin = await createPlugin();
    const accountID = await signUp(plugin);
    await plugin.openPlugin();
    await inFrame(plugin).click('button[aria-label="Close"]');
    // Nothing public announces the UI's own close: watch the iframe's style change, with a deadline.
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('the UI close control did not hide the iframe')), 5000);
      const done = (): void => {
        observer.disconnect();
        clearTimeout(deadline);
        resolve();
      };
      const observer = new MutationObserver(() => !plugin.isOpen && done());
      observer.observe(plugin.iframe, { attributes: true, attributeFilter: ['style'] });
      if (!plugin.isOpen) done();
    });
    expect(plugin.iframe.style.display).to.equal('none');
    expect((await plugin.getAccountInfo()).id).to.equal(accountID);
  });

  it('uncontrolled mode: account methods reject, the UI signs the user in, then background actions work', async () => {
    const plugin = await createPlugin({ authMode: 'uncontrolled' });
    expect(await rejection(plugin.getAccountInfo())).to.be.instanceOf(AccountMethodsDisabledError);
    expect(await rejection(plugin.startTopicSearch(BUSINESS_URL))).to.be.instanceOf(NotAuthenticatedError);
    await plugin.openPlugin();
    const frame = inFrame(plugin);
    await frame.fill('#email', `user-${crypto.randomUUID()}@example.com`);
    await frame.click('[data-view="signIn"] button[type="submit"]');
    expect(await frame.text('[data-view="search"] h2')).to.equal('Start from a website');
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
  }).timeout(20000);
});

describe('the editor of a completed video', () => {
  it('turns read only in place once the video is completed (opened by openEditorForVideo), while it renders and after', async () => {
    // Real media in every engine: only real media has scenes to edit.
    const plugin = await createPlugin({ real: true });
    const videoId = await generatedVideo(plugin);
    await plugin.openEditorForVideo(videoId);
    const frame = inFrame(plugin);
    const scenes = (await frame.probe('fieldset.scenes:enabled'))!;
    // Title, text, voiceover and picture per scene, and at least one of ↑, ↓ and Remove.
    expect(scenes.enabled).to.be.greaterThan(4);
    expect(await frame.text('fieldset.scenes legend')).to.equal('Scenes');
    expect(await frame.text('[data-action="save"]')).to.equal('Save and preview');
    // Where each scene came from (issue 33): the page, and the page's words its title was taken from.
    expect(await frame.text('[data-sources="0"] summary')).to.equal('Where scene 1 came from');
    expect(await frame.text('[data-sources="0"] p:first-of-type a')).to.equal(BUSINESS_URL);
    expect(await frame.text('[data-sources="1"] q'))
      .to.be.a('string')
      .and.not.equal('');

    /** Every scene field and action is read only, and saving saves the name only. */
    const expectReadOnly = async (): Promise<void> => {
      const board = (await frame.probe('fieldset.scenes:disabled'))!;
      expect(board.enabled).to.equal(0);
      expect(await frame.text('fieldset.scenes legend')).to.equal('Scenes (completed: read only)');
      expect((await frame.probe('[data-action="complete"]'))!.disabled).to.equal(true);
      expect(await frame.text('[data-action="save"]')).to.equal('Save');
    };
    // Edits typed and not saved (markup in them stays text), and a name of spaces, which the
    // service refuses: Complete says so in the studio, completes nothing and keeps the edits.
    const heading = 'Typed <b>& never saved</b>';
    const narration = 'Warm bread & <fresh> coffee, typed and never saved.';
    await frame.fill('#scene-0-heading', heading);
    await frame.fill('#scene-0-narration', narration);
    await frame.fill('#video-name', '   ');
    const reported = nextEvent(plugin, 'error');
    await frame.click('[data-action="complete"]');
    expect((await reported).code).to.equal('invalid_parameter');
    expect((await frame.probe('[role="alert"][data-error="invalid_parameter"]'))!.text).to.equal(
      'The video was not completed. Your changes are still here, not saved yet. Please check what you entered and try again.',
    );
    expect((await plugin.getVideoData(videoId))!.isCompleted).to.equal(false);
    expect((await frame.probe('#scene-0-heading'))!.value).to.equal(heading);

    // Named again, Complete saves the edits with the completion: the final render is made of them.
    const completed = nextEvent(plugin, 'videoCompleted');
    const rendered = nextEvent(plugin, 'videoRendered');
    await frame.fill('#video-name', 'Typed, never saved');
    await frame.click('[data-action="complete"]');
    const completedVideo = await completed;
    expect(completedVideo.renders.map((render) => render.status)).to.deep.equal(['PROCESSING']);
    expect(completedVideo.name).to.equal('Typed, never saved');
    await expectReadOnly();
    expect((await frame.probe('[data-view="editor"]'))!.text).not.to.contain('not completed');
    expect((await frame.probe('#scene-0-heading'))!.value).to.equal(heading);
    const files = (await rendered).renders[0]!.files!;
    await frame.text('[data-render-status="COMPLETE"]');
    await expectReadOnly();
    // The player shows the final render with its chapters.
    await frame.probe(`video track[kind="chapters"][label="Chapters"][src="${files.chapters!.url}"]`);
    // What the render was made of: the video's chapters (its storyboard) and the files themselves.
    expect((await plugin.getVideoData(videoId))!.chapters?.[0]?.title).to.equal(heading);
    const read = async (file?: { url: string }) => (await fetch(file!.url)).text();
    expect(await read(files.transcript))
      .to.match(/^\[0:00\] /)
      .and.contain(`${heading}\n${narration}\n`);
    expect(await read(files.chapters)).to.contain('\nTyped &lt;b&gt;&amp; never saved&lt;/b&gt;\n');
    expect(await read(files.captions)).to.contain('Warm bread &amp; &lt;fresh&gt; coffee');

    // The name can still change: saved alone, with no error in the studio or for the page.
    const errors: unknown[] = [];
    plugin.on('error', (error) => errors.push(error));
    const saved = nextEvent(plugin, 'videoSaved');
    await frame.fill('#video-name', 'Renamed after completing');
    await frame.click('[data-action="save"]');
    expect((await saved).name).to.equal('Renamed after completing');
    expect(errors).to.deep.equal([]);
    expect((await frame.probe('[data-view="editor"]'))!.text).not.to.contain('no longer');
  }).timeout(60000);

  it('shows an action the service refuses in the studio, in its language, and sends it to the page as error', async () => {
    const plugin = await createPlugin({ locale: 'de' });
    // A generation that failed: the service refuses to complete its video.
    const videoId = await generatedVideo(plugin, 'please [fail]');
    await plugin.openEditorForVideo(videoId);
    const frame = inFrame(plugin);
    const reported = nextEvent(plugin, 'error');
    await frame.click('[data-action="complete"]');
    const error = await reported;
    expect(error.code).to.equal('invalid_state');
    const shown = (await frame.probe('[role="alert"][data-error="invalid_state"]'))!;
    expect(shown.lang).to.equal('de');
    expect(shown.text).to.equal(
      'Das Video wurde nicht fertiggestellt. Ihre Änderungen sind noch hier, aber noch nicht gespeichert. Das ist nicht mehr möglich: Das Video hat sich geändert. Öffnen Sie den Editor erneut, um es im aktuellen Stand zu sehen.',
    );
    // End users see no developer text.
    expect(shown.text).not.to.contain(videoId);
  });
});

describe('pictures in the studio', () => {
  /** Every picture is loaded (a width) and comes from the service's own origin, under /media/topics/. */
  const expectOwnPictures = (pictures: { src: string; width: number }[], serviceURL: string): void => {
    expect(pictures).to.have.length.greaterThan(0);
    for (const picture of pictures) {
      expect(picture.src.startsWith(`${new URL(serviceURL).origin}/media/topics/`), picture.src).to.equal(true);
      expect(picture.width, picture.src).to.be.greaterThan(0);
    }
  };

  it('the prompt view shows only the service’s copies of the topic’s pictures; an image from elsewhere, a DOM XSS sink, document.domain and a navigation of the partner’s page are refused', async () => {
    const { serviceURL } = await testConfig();
    const plugin = await createPlugin();
    await signUp(plugin);
    await plugin.openPlugin({ sourceURL: PICTURES_URL });
    const frame = inFrame(plugin);
    await frame.text('[data-view="prompt"] h2[data-topic-status="COMPLETE"]');
    // The page has a photo and an SVG: the service keeps the photo and refuses the SVG.
    const pictures = await frame.pictures('[data-view="prompt"] .thumbs img');
    expect(pictures).to.have.length(1);
    expectOwnPictures(pictures, serviceURL);

    // The test page's own origin is another site for the frame: its CSP refuses the picture.
    const policy = await frame.policy(`${location.origin}/test/fixtures/bread.jpg`);
    expect(policy.image).to.deep.include({ refused: true, directive: 'img-src' });
    // Trusted Types: enforced by every engine that has them (Chromium; Firefox and WebKit ignore
    // the directive where they lack them, and the studio works the same).
    expect(policy.sink).to.equal(policy.trustedTypes ? 'TypeError' : 'allowed');
    // The studio's sandbox (its CSP `sandbox`): no document.domain, and the partner's page cannot
    // be navigated from the frame. Without it every engine obeys the navigation, and this test
    // page is gone.
    expect(policy.domain).to.equal('SecurityError');
    expect(policy.top).to.equal('SecurityError');
  }).timeout(20000);

  it('a source page’s markup in its title and text is shown as text, never run', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    await plugin.openPlugin({ sourceURL: `${location.origin}/test/fixtures/markup-source.html` });
    const frame = inFrame(plugin);
    // Parsed as HTML, the title would have no text (an <img>) and the description a script.
    expect(await frame.text('[data-view="prompt"] h2[data-topic-status="COMPLETE"]')).to.equal(
      '<img src=x onerror=alert(1)> Bakery',
    );
    expect(await frame.text('[data-view="prompt"] h2 + p')).to.equal('<script>alert(2)</script> Fresh bread daily.');
  }).timeout(20000);

  it('the editor shows the scenes’ pictures from the service’s own origin, and a player with the preview’s captions and chapters in the studio’s language', async () => {
    const { realServiceURL } = await testConfig();
    // Real media: only real media has scenes, each with its picture.
    const plugin = await createPlugin({ real: true, locale: 'de' });
    await plugin.openEditorForVideo(await generatedVideo(plugin, undefined, PICTURES_URL));
    const frame = inFrame(plugin);
    await frame.text('#video-name');
    expectOwnPictures(await frame.pictures('[data-view="editor"] li[data-scene] img'), realServiceURL);
    await frame.probe('video track[kind="captions"][label="Untertitel"][srclang="en"][src$="/preview.vtt"]');
    await frame.probe('video track[kind="chapters"][label="Kapitel"][srclang="en"][src$="/preview-chapters.vtt"]');
  }).timeout(60000);
});
