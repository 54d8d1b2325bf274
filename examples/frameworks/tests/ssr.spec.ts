// The Next.js app (the `next` project only): its server-rendered HTML holds <video-plugin> with
// the attributes from the framework's state, and the page hydrates without an error or warning.
import type { VideoPluginElement } from '../../../src/element/index.js';
import { APP_PATH, expect, studioFrame, test } from './fixtures.js';

test('the server-rendered HTML holds <video-plugin> and its attributes, no stringified object', async ({ request }) => {
  const response = await request.get(APP_PATH);
  expect(response.status()).toBe(200);
  const html = await response.text();
  const tag = html.match(/<video-plugin\b[^>]*>/)?.[0];
  expect(tag, 'the server rendered the element').toBeDefined();
  expect(tag).toContain('partner-id="frameworks-partner"');
  expect(tag).toMatch(/service-url="http:\/\/127\.0\.0\.1:\d+"/);
  expect(tag).not.toContain('[object Object]');
  expect(tag).not.toMatch(/\bappearance=|\beditor=|\bonReady=/i);
});

test('the page hydrates without errors or warnings, and the element gets its properties', async ({ page }) => {
  // The `problems` fixture fails the test on any console error or warning (hydration mismatches
  // are reported there) or uncaught error.
  await page.goto(APP_PATH);
  await expect(page.locator('#events')).toHaveText('ready 1 · opened 0');
  // Hydrated: React's handlers run (the toggle changes the studio), and it set the objects as properties.
  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await expect(studioFrame(page).locator('html')).toHaveAttribute('data-scheme', 'dark');
  await expect
    .poll(() =>
      page.locator('video-plugin').evaluate((element: VideoPluginElement) => element.appearance?.colorPrimary),
    )
    .toBe('#b91c1c');
});
