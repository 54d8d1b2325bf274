// The app in development (`npm run dev`): React's development build, where StrictMode mounts each
// component, runs its effects and calls its ref callbacks twice. The element stays in the page, so
// the studio connects once, `ready` fires once and the app signs in once; the job's effect, run
// twice, starts one search and one generation.
import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { jobsOf } from './partner.js';

test('in development, with StrictMode mounting twice: one studio, one sign-in, one search and one video', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
  const tokens: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/video-plugin-token')) tokens.push(request.url());
  });
  await page.addInitScript(() => {
    // Counts the studio's `ready` events (they do not bubble to a listener on the document).
    const counts = { ready: 0 };
    Object.assign(window, { studioCounts: counts });
    const original = EventTarget.prototype.dispatchEvent;
    EventTarget.prototype.dispatchEvent = function (event) {
      if (event.type === 'ready' && (this as Element).localName === 'video-plugin') counts.ready++;
      return original.call(this, event);
    };
  });
  const userID = `user-${randomUUID()}`;
  await page.goto('/');
  await page.getByLabel('Your user ID').fill(userID);
  await page.getByLabel('Name').fill('Ada');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status')).toContainText('Signed in to the studio as Ada');

  await page.getByRole('button', { name: 'Make a video' }).click();
  // A real render of the preview takes seconds: the deadline only detects a hang.
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible({ timeout: 90_000 });
  expect(await page.evaluate(() => (window as unknown as { studioCounts: { ready: number } }).studioCounts)).toEqual({
    ready: 1,
  });
  expect(tokens, 'token requests (one per sign-in)').toHaveLength(1);
  const jobs = await jobsOf(userID);
  expect(jobs.topics, 'topic searches').toHaveLength(1);
  expect(jobs.videos, 'generations (each makes a video)').toHaveLength(1);
  expect(problems).toEqual([]);
});
