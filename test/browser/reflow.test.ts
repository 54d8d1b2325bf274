// Zoom and text spacing (issue 46, item 4), in every engine: at 400 % zoom (a 1280 × 1024 window
// is then 320 × 256 CSS px) and with WCAG 1.4.12's text-spacing overrides (line height 1.5,
// paragraphs 2 em apart, letters 0.12 em, words 0.16 em, a style sheet in the frame), nothing in
// any view of the studio, in any of its six languages, is cut off or overlaps: no element wider than the frame, none that hides
// overflowing content, no text outside its box, no two siblings on top of each other, no option of
// a select longer than its closed select shows (test/harness/wtr/frame-audit.mjs). In the element's inline display (a fixed height, and
// height="auto") and its modal display, which at 320 px is 288 × 224 px (100vw and 100vh less
// 32 px, src/element/styles.ts: set here through the dialog's custom properties, so that every
// engine shows the size a zoomed window would). Screenshots of each view go to
// .test-results/screenshots/<engine>-reflow-*.png.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../src/element/index.js';
import { CATALOGUES } from '../../packages/service/src/pages/i18n.js';
import type { VideoPluginElement } from '../../src/element/video-plugin-element.js';
import { clipped, screenshot, textSpacing } from '../support/audit.js';
import { element, removeElements } from '../support/element.js';
import { BUSINESS_URL, channelOf, inFrame, statusLog, testConfig, token, until } from '../support/plugin.js';

afterEach(removeElements);

const LOCALES = Object.keys(CATALOGUES);

/** How each display mode is given the room it has at 400 % zoom. */
const DISPLAYS: { name: string; attributes: Record<string, string>; style: string }[] = [
  { name: 'inline', attributes: {}, style: 'width:320px' },
  {
    name: 'inline, height="auto"',
    attributes: { height: 'auto' },
    // The default max, the window's height: as a zoomed window has it (100vh).
    style: 'width:320px;--video-plugin-min-height:0px',
  },
  {
    name: 'modal',
    attributes: { display: 'modal' },
    style: '--video-plugin-dialog-width:288px;--video-plugin-dialog-height:224px',
  },
];

async function studio(display: (typeof DISPLAYS)[number], serviceURL: string, attributes: Record<string, string> = {}) {
  const el = await element({ 'service-url': serviceURL, ...display.attributes, ...attributes });
  el.style.cssText = display.style;
  await el.ready;
  return el;
}

const iframeOf = (el: VideoPluginElement) => el.plugin!.iframe;

/**
 * Checks the view shown once `selector` is in the frame: text spacing on, nothing cut off or on top
 * of anything, then a screenshot once the frame has its height (auto: the content's).
 */
async function expectReflows(el: VideoPluginElement, display: string, view: string, selector: string): Promise<void> {
  const iframe = iframeOf(el);
  await inFrame(el.plugin!).text(selector);
  await textSpacing(iframe);
  const width = display === 'modal' ? 288 : 320;
  expect(iframe.getBoundingClientRect().width, `${view}: the frame's width`).to.equal(width);
  // Each language (the longest words decide), English last: the screenshots are in English.
  for (const locale of [...LOCALES.filter((l) => l !== 'en'), 'en']) {
    await el.plugin!.update({ locale });
    const { problems, truncated } = await clipped(iframe, selector);
    expect(problems, `${view} (${display}, ${locale}) at ${width} px with text spacing`).to.deep.equal([]);
    // Every option of every select fits its closed select, whichever the user chooses.
    expect(truncated, `${view} (${display}, ${locale}): selects cut off`).to.deep.equal([]);
  }
  if (el.getAttribute('height') === 'auto') {
    const channel = channelOf(el.plugin!);
    await until(
      'the frame to take the content’s height',
      async () => {
        const fit = await executeServerCommand<{ contentHeight: number }, Record<string, string>>('frame-fit', {
          channel,
          selector,
        });
        const wanted = Math.min(innerHeight, Math.ceil(fit.contentHeight));
        return Math.abs(iframe.getBoundingClientRect().height - wanted) < 1;
      },
      8000,
    );
  }
  const name = `reflow-${display.replace(/\W+/g, '-')}-${view.replace(/\W+/g, '-')}`;
  expect(await screenshot(iframe, name)).to.match(/\.png$/);
}

/**
 * Clicks `selector` until `shows` is in the frame: with height="auto" the frame can still be
 * changing height under the click (it follows the content a frame later), and a click that lands
 * beside the button is tried again.
 */
async function clickFor(el: VideoPluginElement, selector: string, shows: string): Promise<void> {
  const frame = inFrame(el.plugin!);
  for (let attempt = 1; ; attempt++) {
    await frame.click(selector);
    try {
      await frame.text(shows, 3000);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

for (const display of DISPLAYS) {
  describe(`320 px with text spacing, ${display.name}`, () => {
    it('sign-in, then the search step with the sign-out control', async () => {
      const { serviceURL } = await testConfig();
      const el = await studio(display, serviceURL, { 'auth-mode': 'uncontrolled' });
      await el.openPlugin();
      await expectReflows(el, display.name, 'sign-in', '[data-view="signIn"]');
      await inFrame(el.plugin!).fill('#email', `reflow-${crypto.randomUUID()}@example.com`);
      await inFrame(el.plugin!).click('[data-view="signIn"] button[type="submit"]');
      await expectReflows(el, display.name, 'search', '[data-view="search"] button.secondary');
    }).timeout(40000);

    it('a search’s topic while it runs, a running generation', async () => {
      const { slowServiceURL } = await testConfig();
      const el = await studio(display, slowServiceURL);
      await el.createAccount(await token('create'));
      const { topicId } = await el.startTopicSearch(BUSINESS_URL);
      await statusLog((cb) => el.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('PROCESSING');
      await el.openPlugin({ topicId });
      await expectReflows(el, display.name, 'prompt-reading', '[data-view="prompt"] [data-topic-status="PROCESSING"]');
      await statusLog((cb) => el.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
      const { requestId } = await el.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
      await statusLog((cb) => el.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('PROCESSING');
      await el.openPlugin({ generationRequestId: requestId });
      await expectReflows(el, display.name, 'preview-generating', '[data-view="preview"] [data-loading]');
    }).timeout(60000);

    it('the prompt, the preview, the editor with its scenes, the confirmation dialog, the render', async () => {
      const { realServiceURL } = await testConfig();
      const el = await studio(display, realServiceURL);
      el.editor = { labels: { completeVideoConfirmation: { shouldShow: true } } };
      await el.createAccount(await token('create'));
      const { topicId } = await el.startTopicSearch(BUSINESS_URL);
      await statusLog((cb) => el.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
      const { requestId } = await el.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
      await el.openPlugin({ topicId });
      await expectReflows(el, display.name, 'prompt', '[data-view="prompt"] h2[data-topic-status="COMPLETE"]');
      await statusLog((cb) => el.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');
      await el.openPlugin({ generationRequestId: requestId });
      await expectReflows(el, display.name, 'preview', '[data-view="preview"] [data-action="open-editor"]');
      await inFrame(el.plugin!).click('[data-action="open-editor"]');
      await expectReflows(el, display.name, 'editor', '[data-view="editor"] .scenes li');
      await clickFor(el, '[data-action="complete"]', '[data-view="editor"] [role="dialog"]');
      await expectReflows(el, display.name, 'dialog', '[data-view="editor"] [role="dialog"]');
      await inFrame(el.plugin!).click('[data-confirm]');
      await expectReflows(el, display.name, 'completed', '[data-view="editor"] [data-render-status="COMPLETE"]');
    }).timeout(120000);
  });
}
