// What a partner checks about their integration: their users can sign up, open the studio and
// use it, and the partner's code hears the studio's events. Everything runs for real: the
// partner's page and back end, the local stand-in of the service, a real browser.
import { expect, test } from '@playwright/test';
/** The studio's iframe (inside <video-plugin>'s shadow root; Playwright's CSS pierces it). */
const studio = (page) => page.frameLocator('video-plugin iframe[title="Video creation"]');
async function signUp(page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign up for videos' }).click();
  await expect(page.getByRole('status')).toContainText('Signed up as');
  return (await page.getByRole('status').textContent()).match(/Signed up as (\S+)/)[1];
}
test('a user signs up, opens the studio and starts from their website', async ({ page }) => {
  await signUp(page);
  await expect(page.getByRole('status')).toContainText('with 0 videos');
  await page.getByRole('button', { name: 'Make a video' }).click();
  await expect(page.getByRole('status')).toHaveText('Studio open.');
  // Inside the cross-site frame, as the user: type the website and search.
  await studio(page).getByLabel('Website URL').fill(new URL('/business.html', page.url()).href);
  await studio(page).getByRole('button', { name: 'Search' }).click();
  await expect(studio(page).getByRole('heading', { name: 'Harbor Coffee Roasters' })).toBeVisible();
  await expect(studio(page).getByRole('button', { name: 'Generate video' })).toBeEnabled();
  // The generated video is saved on the account, and the partner's page heard about it.
  await studio(page).getByRole('button', { name: 'Generate video' }).click();
  await expect(page.getByRole('list', { name: 'Your videos' }).getByRole('listitem')).toHaveCount(1);
});
test("the partner's code drives a topic search to COMPLETE through the element's API", async ({ page }) => {
  await signUp(page);
  const status = await page.evaluate(async (sourceURL) => {
    const el = document.querySelector('video-plugin');
    const { topicId } = await el.startTopicSearch(sourceURL);
    return new Promise((resolve) => {
      el.subscribeToTopicSearchStatusUpdates(topicId, ({ status }) => {
        if (status === 'COMPLETE' || status === 'FAILED') resolve(status);
      });
    });
  }, new URL('/business.html', page.url()).href);
  expect(status).toBe('COMPLETE');
});
test('a reload of the studio frame keeps the user signed in (getLoginToken), even with no storage', async ({
  page,
}) => {
  const accountID = await signUp(page);
  // The page moves the studio in its layout (a plain append, not moveBefore): the frame reloads.
  // In this browser the frame has no storage, so the page's getLoginToken signs the same account
  // back in before the next call goes out.
  const after = await page.evaluate(async () => {
    const el = document.querySelector('video-plugin');
    const frame = el.shadowRoot.querySelector('iframe');
    const reloaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    document.body.prepend(el);
    await reloaded;
    return (await el.getAccountInfo()).id;
  });
  expect(after).toBe(accountID);
});
//# sourceMappingURL=studio.spec.js.map
