// The React starter, as its user and as its partner see it: the page (React 19, StrictMode, a
// router), its Express back end, the local service and a real browser, with the studio in its
// cross-site frame.
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { signWebhookForTest } from 'video-plugin/server';
import { holdNextJob, jobsOf, partner, releaseJobs } from './partner.js';

/** The studio's iframe (inside <video-plugin>'s shadow root; Playwright's CSS pierces it). */
const studio = (page: Page) => page.frameLocator('video-plugin iframe[title="Video creation"]');
const status = (page: Page) => page.getByRole('status');
const progress = (page: Page) => page.locator('#progress-text');

const newUser = () => ({ userID: `user-${randomUUID()}`, name: 'Ada' });

/** Opens the app and signs the user in to it (the app's own login, which the studio then follows). */
async function openApp(page: Page, user: ReturnType<typeof newUser>): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Your user ID').fill(user.userID);
  await page.getByLabel('Name').fill(user.name);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The studio account ID the status names once the studio signed the user in. */
async function signedInAccount(page: Page): Promise<string> {
  await expect(status(page)).toContainText('Signed in to the studio as Ada');
  return (await status(page).textContent())!.match(/\(account (\S+)\)/)![1]!;
}

/** Goes to another route (the studio's element unmounts and ends its session), or back. */
async function goTo(page: Page, link: 'Activity' | 'Studio'): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: link }).click();
  await expect(page.locator('video-plugin')).toHaveCount(link === 'Studio' ? 1 : 0);
}

test('a route change mid-search and mid-generation, one start answer lost: each job started once, the video made and played', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
  const user = newUser();
  // The search holds while it reads the page, so that the route changes while it runs.
  await holdNextJob(user.userID, 'topicSearch', 'reading_page');
  await openApp(page, user);
  const account = await signedInAccount(page);

  await page.getByRole('button', { name: 'Make a video' }).click();
  await expect(progress(page)).toContainText('Reading your website: reading page');
  await goTo(page, 'Activity');
  // The search finishes while no studio follows it; the generation, once started, will hold.
  await releaseJobs();
  await expect.poll(async () => (await jobsOf(user.userID)).topics.map((topic) => topic.status)).toEqual(['COMPLETE']);
  await holdNextJob(user.userID, 'generation', 'writing_storyboard');

  // The generation's start reaches the service, but its answer is held until the studio that
  // asked is gone: the app never learns the generation's ID.
  let started!: () => void;
  const generationStarted = new Promise<void>((resolve) => (started = resolve));
  let lose!: () => void;
  const answerLost = new Promise<void>((resolve) => (lose = resolve));
  const starts = `${partner.serviceURL}/api/generations`;
  await page.route(starts, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const response = await route.fetch();
    started();
    await answerLost;
    await route.fulfill({ response }).catch(() => {}); // its frame is gone
  });

  // Back: a new studio signs the same account in, reads the search by its ID (COMPLETE), and
  // starts the generation the old studio never reached.
  await goTo(page, 'Studio');
  expect(await signedInAccount(page)).toBe(account);
  await generationStarted;
  await goTo(page, 'Activity');
  lose();
  await page.unroute(starts);

  // Back again: the generation's ID is unknown, so the studio starts it again, with the same
  // idempotency key: the service answers with the generation it already started.
  await goTo(page, 'Studio');
  expect(await signedInAccount(page)).toBe(account);
  await expect(progress(page)).toContainText('Making your video: writing storyboard');

  // Away and back during the generation: now followed by its ID.
  await goTo(page, 'Activity');
  await goTo(page, 'Studio');
  expect(await signedInAccount(page)).toBe(account);
  await expect(progress(page)).toContainText('Making your video: writing storyboard');
  await releaseJobs();

  // A real render of the preview takes seconds: the deadline only detects a hang.
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible({ timeout: 90_000 });
  const jobs = await jobsOf(user.userID);
  expect(jobs.topics, 'topic searches').toHaveLength(1);
  expect(jobs.videos, 'generations (each makes a video)').toHaveLength(1);

  await page.getByRole('button', { name: 'Edit' }).click();
  await studio(page).getByRole('button', { name: 'Complete video' }).click();
  await expect(status(page)).toContainText('is published', { timeout: 90_000 });
  const player = page.getByRole('region', { name: 'Your video' });
  await expect(player.locator('video')).toHaveAttribute('src', /^http:\/\/127\.0\.0\.1:\d+\//);
  await expect(player.locator('video track[kind="captions"]')).toHaveAttribute('srclang', /^en/);
  await expect.poll(() => page.evaluate(() => document.querySelector('video')!.readyState)).toBeGreaterThanOrEqual(1);

  // The back end received and verified the three webhooks of this user, once each.
  await expect
    .poll(async () => {
      const { events } = (await (await page.request.get('/api/webhook-events')).json()) as {
        events: { type: string; externalID?: string }[];
      };
      return events.filter((event) => event.externalID === user.userID).map((event) => event.type);
    })
    .toEqual(['account.created', 'video.completed', 'video.rendered']);
  // The Activity page from its URL (the back end answers every route with the app). Not the menu:
  // here Playwright's click on it, right after its click in the studio's cross-site frame had
  // scrolled the page, sometimes landed in the frame.
  await page.goto('/activity');
  await expect(page.getByRole('list', { name: 'Webhooks' })).toContainText('video.rendered');
  expect(problems).toEqual([]);
});

test('a fault the user retries from: after "Try again" the app signs in again and works', async ({ page }) => {
  const user = newUser();
  // The service cannot be reached: neither its page nor the SDK's question why.
  const down = `${partner.serviceURL}/**`;
  await page.route(down, (route) => route.abort('connectionrefused'));
  await openApp(page, user);
  await expect(status(page)).toContainText('The studio reported a problem: Nothing answers');
  await expect(page.getByRole('button', { name: 'Make a video' })).toBeDisabled();
  const retry = page.locator('video-plugin').getByRole('button', { name: 'Try again' });

  // Still down: a second fault, and the button stays.
  await page.evaluate(() => {
    const element = document.querySelector('video-plugin')!;
    Object.assign(window, { faults: 0 });
    element.addEventListener('error', () => (window as unknown as { faults: number }).faults++);
  });
  await retry.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { faults: number }).faults)).toBe(1);
  await expect(page.getByRole('button', { name: 'Make a video' })).toBeDisabled();

  // Back up: the next "Try again" connects a new studio, whose `ready` signs the user in.
  await page.unroute(down);
  await retry.click();
  await signedInAccount(page);
  await page.getByRole('button', { name: 'Make a video' }).click();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible({ timeout: 90_000 });
  expect((await jobsOf(user.userID)).videos).toHaveLength(1);
});

test('the webhook receiver keeps a webhook signed with the webhook secret once, and refuses one signed with another', async ({
  request,
}) => {
  const event = {
    type: 'account.created' as const,
    accountID: 'acct_webhook_test',
    externalID: `user-${randomUUID()}`,
    data: { via: 'token' as const, account: {} },
  };
  const forged = await signWebhookForTest(event, 'not-the-webhook-secret-but-long-enough-0123456789', {
    partnerID: partner.id,
  });
  const refused = await request.post('/api/webhooks', { headers: forged.headers, data: forged.body });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { code: string }).code).toBe('webhook_signature_invalid');

  // The same event twice (a retry carries its ID): kept once.
  const signed = await signWebhookForTest(event, partner.webhookSecret, {
    partnerID: partner.id,
    id: `evt_${randomUUID()}`,
  });
  for (let delivery = 0; delivery < 2; delivery++) {
    const answer = await request.post('/api/webhooks', { headers: signed.headers, data: signed.body });
    expect(answer.status()).toBe(204);
  }
  const { events } = (await (await request.get('/api/webhook-events')).json()) as { events: { externalID?: string }[] };
  expect(events.filter((received) => received.externalID === event.externalID)).toHaveLength(1);
});
