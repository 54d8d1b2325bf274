// The studio fits its content (issue 21, item 1), in every engine: with
// `height: 'auto'` (the Plugin's option, the element's attribute) the iframe takes the studio's
// content height between its min and max, follows it without a feedback loop, and never shows a
// second scrollbar; and the studio's screens are usable from 360 px wide: nothing overflows
// sideways and every control is a touch target of at least 44 × 44 px. Screenshots of each screen
// at 360, 768 and 1280 px go to .test-results/screenshots/ (frame-commands.mjs).
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { InvalidParameterError } from '../../src/errors.js';
import '../../src/element/index.js';
import { Plugin } from '../../src/plugin.js';
import type { VideoPluginElement } from '../../src/element/video-plugin-element.js';
import type { VideoPluginError } from '../../src/errors.js';
import {
  BUSINESS_URL,
  cleanupPlugins,
  createPlugin,
  inFrame,
  signUp,
  statusLog,
  testConfig,
  thrown,
  token,
  until,
} from '../support/plugin.js';

/** What the frame-fit command reads inside the studio (test/harness/wtr/frame-commands.mjs). */
interface Fit {
  clientWidth: number;
  scrollWidth: number;
  /** The page's natural height: what it reports in auto mode. */
  contentHeight: number;
  scrollHeight: number;
  /** The frame's own height and width (its viewport, scrollbars included). */
  frameHeight: number;
  frameWidth: number;
  /** Whether the page is in auto mode. */
  fit: boolean;
  /** The rendered controls smaller than 44 × 44 px. */
  small: string[];
}

const containers: HTMLElement[] = [];
afterEach(async () => {
  await cleanupPlugins();
  for (const container of containers.splice(0)) container.remove();
});

/** A container of `width` px in the page, with `style` (e.g. the min and max custom properties). */
function container(width: number, style = ''): HTMLElement {
  const div = document.createElement('div');
  div.style.cssText = `width:${width}px;${style}`;
  containers.push(div);
  document.body.append(div);
  return div;
}

function fitOf(iframe: HTMLIFrameElement, selector: string): Promise<Fit> {
  const channel = new URLSearchParams(new URL(iframe.src).hash.slice(1)).get('channel')!;
  return executeServerCommand<Fit, { channel: string; selector: string }>('frame-fit', { channel, selector });
}

function screenshot(iframe: HTMLIFrameElement, name: string): Promise<string> {
  const channel = new URLSearchParams(new URL(iframe.src).hash.slice(1)).get('channel')!;
  return executeServerCommand<string, { channel: string; value: string }>('frame-screenshot', {
    channel,
    value: name,
  });
}

/** `count` animation frames of this page: a quiet spell in which a loop would show. */
async function frames(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
}

/** Counts the heights the host applies to an iframe (each height message that changed it). */
function heightLog(iframe: HTMLIFrameElement) {
  const heights: string[] = [];
  const observer = new MutationObserver(() => {
    if (iframe.style.height !== heights.at(-1)) heights.push(iframe.style.height);
  });
  observer.observe(iframe, { attributeFilter: ['style'] });
  return { heights, stop: () => observer.disconnect() };
}

const height = (iframe: HTMLIFrameElement) => iframe.getBoundingClientRect().height;

/**
 * The iframe has settled on the studio's content: its height is the content's (rounded up) within
 * `min` and `max`, and the studio itself does not scroll unless clamped at the max.
 */
async function settled(
  iframe: HTMLIFrameElement,
  selector: string,
  min: number,
  max = Infinity,
  width = iframe.getBoundingClientRect().width,
): Promise<Fit> {
  let fit!: Fit;
  try {
    await until(
      `the iframe to fit ${selector}`,
      async () => {
        fit = await fitOf(iframe, selector);
        const wanted = Math.min(max, Math.max(min, Math.ceil(fit.contentHeight)));
        const fits = Math.abs(height(iframe) - wanted) < 1 && Math.abs(fit.frameHeight - wanted) < 1;
        return fits && fit.frameWidth === width;
      },
      8000,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}: iframe ${height(iframe)} px, ${JSON.stringify(fit)}`, {
      cause: error,
    });
  }
  return fit;
}

async function topicOf(plugin: Plugin | VideoPluginElement): Promise<string> {
  const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
  await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
  return topicId;
}

describe("Plugin height: 'auto'", () => {
  it('sizes the iframe to the studio, between the min (400px) and the max (100vh) by default', async () => {
    const box = container(768, '--video-plugin-max-height:none');
    const plugin = await createPlugin({ domElement: box, height: 'auto' });
    await signUp(plugin);
    expect(plugin.iframe.style.minHeight).to.match(/^var\(--video-plugin-min-height, ?400px\)$/);
    expect(plugin.iframe.style.maxHeight).to.match(/^var\(--video-plugin-max-height, ?100vh\)$/);
    await plugin.openPlugin();
    // The search step is shorter than the default min: the iframe stays at 400px, no inner scroll.
    const search = await settled(plugin.iframe, '[data-view="search"]', 400);
    expect(search.fit).to.equal(true);
    expect(search.contentHeight).to.be.below(400);
    expect(height(plugin.iframe)).to.equal(400);
    // The prompt step is taller: the iframe grows to it, and the page (not the frame) scrolls.
    await plugin.openPlugin({ topicId: await topicOf(plugin) });
    const selector = '[data-view="prompt"] h2[data-topic-status="COMPLETE"]';
    const prompt = await settled(plugin.iframe, selector, 400);
    expect(prompt.contentHeight).to.be.above(400);
    expect(prompt.scrollHeight, 'the studio has no scrollbar of its own').to.be.at.most(prompt.frameHeight);
    expect(box.getBoundingClientRect().height).to.equal(height(plugin.iframe));
    // Without a max of the partner's, the window's height is the max.
    box.style.removeProperty('--video-plugin-max-height');
    await settled(plugin.iframe, selector, 400, innerHeight);
  });

  it('clamps at the max: taller content scrolls inside the studio, and the heights settle', async () => {
    const box = container(768, '--video-plugin-min-height:120px;--video-plugin-max-height:300px');
    const plugin = await createPlugin({ domElement: box, height: 'auto' });
    await signUp(plugin);
    const topicId = await topicOf(plugin);
    const log = heightLog(plugin.iframe);
    await plugin.openPlugin({ topicId });
    const fit = await settled(plugin.iframe, '[data-view="prompt"] h2[data-topic-status="COMPLETE"]', 120, 300);
    expect(height(plugin.iframe)).to.equal(300);
    expect(fit.scrollHeight).to.be.above(300);
    // A feedback loop would keep sending: after a quiet spell nothing more has come.
    await frames(30);
    await plugin.getVideos();
    const sent = log.heights.length;
    await frames(30);
    await plugin.getVideos();
    expect(log.heights.length).to.equal(sent);
    expect(sent, log.heights.join(' ')).to.be.within(1, 4);
    log.stop();
  });

  it('follows a host that changes width (the text re-wraps), with a bounded number of heights', async () => {
    const box = container(360, '--video-plugin-min-height:0px;--video-plugin-max-height:none');
    const plugin = await createPlugin({ domElement: box, height: 'auto' });
    await signUp(plugin);
    const topicId = await topicOf(plugin);
    await plugin.openPlugin({ topicId });
    const selector = '[data-view="prompt"] h2[data-topic-status="COMPLETE"]';
    const narrow = await settled(plugin.iframe, selector, 0);
    for (const width of [1280, 768, 360]) {
      const log = heightLog(plugin.iframe);
      box.style.width = `${width}px`;
      const fit = await settled(plugin.iframe, selector, 0, Infinity, width);
      expect(fit.scrollHeight).to.be.at.most(fit.frameHeight);
      await frames(20);
      await plugin.getVideos();
      expect(log.heights.length, `${width}px: ${log.heights.join(' ')}`).to.be.at.most(3);
      log.stop();
    }
    // Back at 360px: the same height as at first.
    expect(Math.abs(height(plugin.iframe) - Math.ceil(narrow.contentHeight))).to.be.below(1);
  });

  it('leaves a fixed-height iframe alone, and ignores auto without domElement (the overlay)', async () => {
    const box = container(768, 'height:500px');
    const fixed = await createPlugin({ domElement: box });
    await signUp(fixed);
    await fixed.openPlugin();
    const fit = await fitOf(fixed.iframe, '[data-view="search"]');
    expect(fit.fit).to.equal(false);
    expect(height(fixed.iframe)).to.equal(500);
    expect(fixed.iframe.style.minHeight).to.equal('');
    const overlay = await createPlugin({ height: 'auto' });
    await signUp(overlay);
    await overlay.openPlugin();
    expect((await fitOf(overlay.iframe, '[data-view="search"]')).fit).to.equal(false);
    expect(height(overlay.iframe)).to.equal(innerHeight);
  });

  it('refuses another height value, naming the option', async () => {
    const { serviceURL } = await testConfig();
    for (const value of ['fixed', 500, 'AUTO']) {
      const error = thrown(() => new Plugin('test-partner', { serviceURL, height: value as never }));
      expect(error).to.be.instanceOf(InvalidParameterError);
      expect(error.data?.field).to.equal('options.height');
      expect(error.message).to.match(/options\.height must be one of "auto"/);
    }
  });
});

describe('<video-plugin height="auto">', () => {
  const elements: VideoPluginElement[] = [];
  afterEach(() => {
    for (const el of elements.splice(0)) el.remove();
  });

  async function element(attributes: Record<string, string>, style = ''): Promise<VideoPluginElement> {
    const { serviceURL } = await testConfig();
    const el = document.createElement('video-plugin');
    el.setAttribute('partner-id', 'test-partner');
    el.setAttribute('service-url', serviceURL);
    for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
    el.style.cssText = style;
    elements.push(el);
    document.body.append(el);
    await el.updateComplete;
    return el;
  }

  it('grows the element with the studio, between --video-plugin-min-height and --video-plugin-max-height', async () => {
    const el = await element(
      { height: 'auto' },
      'width:768px;--video-plugin-min-height:200px;--video-plugin-max-height:none',
    );
    await el.ready;
    // Closed and without children, it takes no room: the min is the studio's (stage.test.ts has each state).
    expect(el.getBoundingClientRect().height).to.equal(0);
    await el.createAccount(await token('create'));
    await el.openPlugin({ topicId: await topicOf(el) });
    const iframe = el.plugin!.iframe;
    const fit = await settled(iframe, '[data-view="prompt"] h2[data-topic-status="COMPLETE"]', 200);
    expect(el.getBoundingClientRect().height).to.equal(height(iframe));
    expect(fit.scrollHeight).to.be.at.most(fit.frameHeight);
    // The max, live (CSS): the element and the studio stop at it; the studio scrolls inside.
    el.style.setProperty('--video-plugin-max-height', '320px');
    await until('the max to apply', () => height(iframe) === 320, 8000);
    expect(el.getBoundingClientRect().height).to.equal(320);
  });

  it('is ignored in modal display (the dialog keeps its size), and refuses another value', async () => {
    const el = await element({ height: 'auto', display: 'modal' });
    await el.createAccount(await token('create'));
    await el.openPlugin();
    const iframe = el.plugin!.iframe;
    expect((await fitOf(iframe, '[data-view="search"]')).fit).to.equal(false);
    const dialog = el.shadowRoot!.querySelector('dialog')!;
    expect(height(iframe)).to.equal(dialog.getBoundingClientRect().height);
    await el.close();

    const errors: VideoPluginError[] = [];
    const bad = await element({ height: '500px' });
    bad.addEventListener('error', (event) => errors.push((event as CustomEvent<VideoPluginError>).detail));
    bad.setAttribute('height', 'tall');
    await bad.updateComplete;
    expect(errors.at(-1)?.data?.field).to.equal('height');
    expect(errors.at(-1)?.message).to.match(/the height attribute must be one of "auto"/);
  });
});

describe('the studio at 360, 768 and 1280 px', () => {
  for (const width of [360, 768, 1280]) {
    it(`${width}px: no sideways scroll, every control at least 44 × 44 px (AI page, preview, editor)`, async () => {
      const box = container(width, '--video-plugin-max-height:none');
      const plugin = await createPlugin({ domElement: box, height: 'auto' });
      await signUp(plugin);
      const topicId = await topicOf(plugin);
      const { requestId, videoId } = await plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
      const screens: [string, () => Promise<void>, string][] = [
        ['search', () => plugin.openPlugin(), '[data-view="search"]'],
        ['prompt', () => plugin.openPlugin({ topicId }), '[data-view="prompt"] h2[data-topic-status="COMPLETE"]'],
        [
          'preview',
          async () => {
            await statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');
            await plugin.openPlugin({ generationRequestId: requestId });
          },
          '[data-view="preview"] [data-action="open-editor"]',
        ],
        ['editor', () => plugin.openEditorForVideo(videoId), '[data-view="editor"] [data-action="complete"]'],
      ];
      for (const [name, open, selector] of screens) {
        await open();
        const fit = await settled(plugin.iframe, selector, 400);
        expect(fit.frameWidth, name).to.equal(width);
        expect(fit.scrollWidth, `${name} at ${width}px overflows sideways`).to.be.at.most(fit.clientWidth);
        expect(fit.small, `${name} at ${width}px: controls under 44 × 44 px`).to.deep.equal([]);
        expect(fit.scrollHeight, `${name}: no scrollbar of its own`).to.be.at.most(fit.frameHeight);
        expect(await screenshot(plugin.iframe, `fit-${name}-${width}`)).to.match(/\.png$/);
      }
      // The studio's own sign-in (authMode uncontrolled), then its search step with the sign-out control,
      // in place of the first studio (WebDriver types only into a field it can scroll to).
      await plugin.cleanup();
      box.remove();
      const own = await createPlugin({ domElement: container(width), height: 'auto', authMode: 'uncontrolled' });
      await own.openPlugin();
      const check = async (selector: string) => {
        const fit = await settled(own.iframe, selector, 400);
        expect(fit.scrollWidth, `${selector} at ${width}px overflows sideways`).to.be.at.most(fit.clientWidth);
        expect(fit.small, `${selector} at ${width}px: controls under 44 × 44 px`).to.deep.equal([]);
      };
      await check('[data-view="signIn"]');
      await inFrame(own).fill('#email', `narrow-${crypto.randomUUID()}@example.com`);
      await inFrame(own).click('[data-view="signIn"] button[type="submit"]');
      await check('[data-view="search"]');
    }).timeout(40000);
  }
});
