// The same app in every framework (examples/frameworks/*, apps.mjs), driving <video-plugin> the
// framework's own way: attributes and properties from its state, events into its handlers,
// methods through its ref, and the element removed and inserted again by a conditional.
import type { VideoPluginElement } from '../../../src/element/index.js';
import { APP_PATH, expect, signUp, studioFrame, test } from './fixtures.js';

test.beforeEach(async ({ page }) => {
  await page.goto(APP_PATH);
  // The element connected and the framework's `ready` handler ran, once.
  await expect(page.locator('#events')).toHaveText('ready 1 · opened 0');
});

test('attributes from framework state reach the element and change the studio live', async ({ page }) => {
  const studio = page.locator('video-plugin');
  await expect(studio).toHaveAttribute('partner-id', 'frameworks-partner');
  await expect(studio).toHaveAttribute('service-url', /^http:\/\/127\.0\.0\.1:\d+$/);
  expect(await studio.evaluate((element: VideoPluginElement) => [element.partnerID, element.serviceURL])).toEqual([
    'frameworks-partner',
    expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
  ]);
  const html = studioFrame(page).locator('html');
  await expect(html).toHaveAttribute('data-scheme', 'light');
  await expect(html).toHaveAttribute('lang', 'en');

  // A framework renders its state change when it chooses (Angular's zoneless change detection in
  // a later task, React and Vue in a microtask): poll, never read once right after the click.
  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await expect.poll(() => studio.evaluate((element: VideoPluginElement) => element.theme)).toBe('dark');
  await expect(html).toHaveAttribute('data-scheme', 'dark');
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await expect.poll(() => studio.evaluate((element: VideoPluginElement) => element.locale)).toBe('de');
  await expect(html).toHaveAttribute('lang', 'de');
  // Live: the same session, no reconnection.
  await expect(page.locator('#events')).toHaveText('ready 1 · opened 0');
});

test('appearance and editor are set as object properties, not stringified attributes', async ({ page }) => {
  const studio = page.locator('video-plugin');
  const set = await studio.evaluate((element: VideoPluginElement) => ({
    appearance: element.appearance,
    editorTitle: element.editor?.labels?.completeVideoConfirmation?.title,
    attributes: element.getAttributeNames().filter((name) => /appearance|editor|object/i.test(name)),
    objectInMarkup: element.outerHTML.includes('[object Object]'),
  }));
  expect(set).toEqual({
    appearance: { colorPrimary: '#b91c1c', borderRadius: 12 },
    editorTitle: 'Finish this video?',
    attributes: [],
    objectInMarkup: false,
  });
  // And the studio got them: the partner's colour and radius on its root.
  const root = studioFrame(page).locator('html');
  await expect
    .poll(() =>
      root.evaluate((html) => [
        html.style.getPropertyValue('--vp-primary'),
        html.style.getPropertyValue('--vp-radius'),
      ]),
    )
    .toEqual(['#b91c1c', '12px']);
});

test('methods through the ref, events into the framework handlers', async ({ page }) => {
  await signUp(page);
  await page.getByRole('button', { name: 'Open studio' }).click();
  await expect(page.locator('#events')).toHaveText('ready 1 · opened 1');
  await expect(studioFrame(page).getByLabel('Website URL')).toBeVisible();
});

test('removed by a conditional, the element ends its session; inserted again, it starts a new one', async ({
  page,
}) => {
  await signUp(page);
  const removed = await page.locator('video-plugin').elementHandle();
  await page.getByRole('button', { name: 'Remove studio' }).click();
  await expect(page.locator('video-plugin')).toHaveCount(0);
  // The session ended: no Plugin, no iframe left in the removed element.
  await expect
    .poll(() =>
      removed!.evaluate((element: VideoPluginElement) => ({
        plugin: element.plugin === undefined,
        frame: element.shadowRoot!.querySelector('iframe') !== null,
      })),
    )
    .toEqual({ plugin: true, frame: false });

  await page.getByRole('button', { name: 'Insert studio' }).click();
  await expect(page.locator('#events')).toHaveText('ready 2 · opened 0');
  expect(await page.locator('video-plugin').evaluate((element, old) => element !== old, removed)).toBe(true);
  // A new session: nobody is logged in, and the app's calls work through the new ref.
  expect(
    await page
      .locator('video-plugin')
      .evaluate((element: VideoPluginElement) => element.getVideos().then((v) => v.length)),
  ).toBe(0);
  await signUp(page);
  await page.getByRole('button', { name: 'Open studio' }).click();
  await expect(page.locator('#events')).toHaveText('ready 2 · opened 1');
});
