// Names and languages (issue 46, item 5), in every engine: every view of the studio (sign-in,
// search, the prompt of a running search, the prompt, a running generation, the preview, the editor with its
// scenes, the confirmation dialog, the completed video's render) in each of its six languages,
// switched live with update({ locale }), passes axe-core's WCAG 2.2 AA rules (wcag2a, wcag2aa,
// wcag21a, wcag21aa, wcag22aa) with no violation; the page's lang is the locale; every control has
// a name, in that language (not the English one), that contains the words it shows; the page's
// title is the studio's, in that language; the headings make an outline (one h1, no level skipped). axe runs inside the cross-origin frame (test/harness/wtr/frame-audit.mjs).
import { expect } from '@open-wc/testing';
import { CATALOGUES } from '../../packages/service/src/pages/i18n.js';
import type { Plugin } from '../../src/plugin.js';
import { axe, outlineFaults, type Audit } from '../support/audit.js';
import { BUSINESS_URL, cleanupPlugins, createPlugin, inFrame, signUp, statusLog } from '../support/plugin.js';

const LOCALES = Object.keys(CATALOGUES);

afterEach(cleanupPlugins);

/**
 * Names that are the same in every language: a web address or a file format shown as itself, and
 * the empty name of a decorative picture (alt="").
 */
const NEUTRAL = /^(|https?:\/\/\S+|mp4)$/;

/** The view's audit in `locale`: no axe violation, the lang, named controls, an outline. */
function expectAccessible(audit: Audit, view: string, locale: string): void {
  const where = `${view} (${locale})`;
  const violations = audit.violations.map(({ id, help, nodes }) => `${id}: ${help}\n    ${nodes.join('\n    ')}`);
  expect(violations, `${where}: axe-core's WCAG 2.2 AA violations`).to.deep.equal([]);
  expect(audit.lang, `${where}: <html lang>`).to.equal(locale);
  expect(audit.title, `${where}: the page's title`).to.equal(CATALOGUES[locale]!['studio.title']);
  // A symbol is no name ("✕", "↑"): a screen reader says "times" or "upwards arrow".
  const unnamed = audit.names.filter(({ control, name }) => !/[\p{L}\p{N}]/u.test(name) && !control.startsWith('img'));
  expect(unnamed, `${where}: controls without a name in words`).to.deep.equal([]);
  // 2.5.3: a control that shows words is named with them (a voice user says what they see).
  const mismatched = audit.names.filter(
    ({ name, text }) => /\p{L}/u.test(text) && !name.toLowerCase().includes(text.toLowerCase()),
  );
  expect(mismatched, `${where}: names without the words shown`).to.deep.equal([]);
  expect(outlineFaults(audit.headings), `${where}: headings ${audit.headings.join(' ')}`).to.deep.equal([]);
}

/**
 * Audits the view shown (once `selector` is in the frame) in each language: English first, then
 * each other language, whose controls are English's, each named otherwise than in English.
 */
async function inEveryLanguage(plugin: Plugin, view: string, selector: string, before?: () => Promise<void>) {
  let english: Audit | undefined;
  for (const locale of LOCALES.includes('en') ? ['en', ...LOCALES.filter((l) => l !== 'en')] : LOCALES) {
    await plugin.update({ locale });
    await before?.();
    const audit = await axe(plugin.iframe, selector);
    expectAccessible(audit, view, locale);
    if (locale === 'en') english = audit;
    else if (english) {
      expect(
        audit.names.map(({ control }) => control),
        `${view} (${locale}): the same controls as in English`,
      ).to.deep.equal(english.names.map(({ control }) => control));
      const untranslated = audit.names.filter(({ name }, i) => !NEUTRAL.test(name) && name === english!.names[i]!.name);
      expect(untranslated, `${view} (${locale}): names left in English`).to.deep.equal([]);
    }
  }
}

describe('axe-core, WCAG 2.2 AA, in every view and language', () => {
  it('the studio’s sign-in, then its search step with the sign-out control', async () => {
    const plugin = await createPlugin({ authMode: 'uncontrolled' });
    await plugin.openPlugin();
    await inEveryLanguage(plugin, 'sign-in', '[data-view="signIn"]');
    await plugin.update({ locale: 'en' });
    await inFrame(plugin).fill('#email', `axe-${crypto.randomUUID()}@example.com`);
    await inFrame(plugin).click('[data-view="signIn"] button[type="submit"]');
    await inEveryLanguage(plugin, 'search', '[data-view="search"]');
  }).timeout(60000);

  it('a search’s topic while it runs, a running generation (their progress bars)', async () => {
    // Jobs that take seconds: each language gets its own job, audited while it runs.
    const plugin = await createPlugin({ slow: true });
    await signUp(plugin);
    let topicId = '';
    await inEveryLanguage(
      plugin,
      'prompt, reading',
      '[data-view="prompt"] [data-topic-status="PROCESSING"]',
      async () => {
        ({ topicId } = await plugin.startTopicSearch(BUSINESS_URL));
        await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('PROCESSING');
        await plugin.openPlugin({ topicId });
      },
    );
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    await inEveryLanguage(plugin, 'preview, generating', '[data-view="preview"] [data-loading]', async () => {
      const { requestId } = await plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
      await statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('PROCESSING');
      await plugin.openPlugin({ generationRequestId: requestId });
    });
  }).timeout(120000);

  it('the prompt, the preview (player), the editor (scenes), the confirmation dialog, the render', async () => {
    const plugin = await createPlugin({
      real: true,
      editor: { labels: { completeVideoConfirmation: { shouldShow: true } } },
    });
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    const { requestId } = await plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    await plugin.openPlugin({ topicId });
    await inEveryLanguage(plugin, 'prompt', '[data-view="prompt"] h2[data-topic-status="COMPLETE"]');
    await statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');
    await plugin.openPlugin({ generationRequestId: requestId });
    await inEveryLanguage(plugin, 'preview', '[data-view="preview"] [data-action="open-editor"]');
    await plugin.update({ locale: 'en' });
    await inFrame(plugin).click('[data-action="open-editor"]');
    await inEveryLanguage(plugin, 'editor', '[data-view="editor"] .scenes li');
    await inFrame(plugin).click('[data-action="complete"]');
    await inEveryLanguage(plugin, 'confirmation dialog', '[data-view="editor"] [role="dialog"]');
    await inFrame(plugin).click('[data-confirm]');
    await inEveryLanguage(plugin, 'editor, completed', '[data-view="editor"] [data-render-status="COMPLETE"]');
  }).timeout(180000);
});
