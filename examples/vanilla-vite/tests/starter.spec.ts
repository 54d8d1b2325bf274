// The starter, as its user and as its partner see it: the page, its back end, the local service
// and a real browser, with the studio in its cross-site frame.
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';

/** The studio's iframe (inside <video-plugin>'s shadow root; Playwright's CSS pierces it). */
const studio = (page: Page) => page.frameLocator('video-plugin iframe[title="Video creation"]');

const newUser = () => ({ userID: `user-${randomUUID()}`, name: 'Ada', email: 'ada@example.com' });

/** Opens the page and signs the user in; resolves to the studio's account ID. */
async function signIn(page: Page, user: ReturnType<typeof newUser>): Promise<string> {
  await page.goto('/');
  await page.getByLabel('Your user ID').fill(user.userID);
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // A fresh page: the status is empty until this sign-in answers.
  await expect(page.getByRole('status')).toContainText('Signed in to the studio as');
  return (await page.getByRole('status').textContent())!.match(/\(account (\S+)\)/)![1]!;
}

test('sign in or sign up: the first visit creates the account, the next signs in to it, with no error logged', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  const user = newUser();
  const created = await signIn(page, user);
  await expect(page.getByRole('status')).toContainText(`as ${user.name} `);
  const again = await signIn(page, user);
  expect(again).toBe(created);
  expect(problems).toEqual([]);
});

test('make a video with a progress bar, edit it, complete it, and play it with captions and a transcript', async ({
  page,
}) => {
  await signIn(page, newUser());

  // Every value the progress bar shows, from the first.
  await page.evaluate(() => {
    const bar = document.querySelector('progress')!;
    const seen: number[] = [];
    Object.assign(window, { progressSeen: seen });
    new MutationObserver(() => seen.push(bar.value)).observe(bar, { attributeFilter: ['value'] });
  });
  await page.getByRole('button', { name: 'Make a video' }).click();
  // Shown only once the generation is COMPLETE (hidden until then, and again at each start). A real
  // render of the preview takes seconds: the deadline only detects a hang.
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible({ timeout: 60_000 });
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
  expect(seen.at(-1)).toBe(1);
  expect(
    seen.some((value) => value > 0 && value < 1),
    `progress values: ${seen.join(', ')}`,
  ).toBe(true);

  await page.getByRole('button', { name: 'Edit' }).click();
  await studio(page).getByRole('button', { name: 'Complete video' }).click();
  // The final render (real media) takes seconds too; "is published" is only written by videoRendered.
  await expect(page.getByRole('status')).toContainText('is published', { timeout: 60_000 });

  // The player, from the videoRendered payload: the video, its captions track, its transcript.
  const player = page.getByRole('region', { name: 'Your video' });
  await expect(player.locator('video')).toHaveAttribute('src', /^http:\/\/127\.0\.0\.1:\d+\//);
  await expect(player.locator('video track[kind="captions"]')).toHaveAttribute('srclang', /^en/);
  await expect
    .poll(() => page.evaluate(() => document.querySelector<HTMLVideoElement>('#player video')!.readyState))
    .toBeGreaterThanOrEqual(1);
  // The captions loaded (readyState 2) and the transcript says what the first caption says.
  await expect
    .poll(() => page.evaluate(() => document.querySelector<HTMLTrackElement>('#player track')!.readyState))
    .toBe(2);
  const firstCue = await page.evaluate(
    () => (document.querySelector<HTMLTrackElement>('#player track')!.track.cues![0] as VTTCue).text,
  );
  expect(firstCue.length).toBeGreaterThan(0);
  await player.getByText('Transcript').click();
  await expect(player.locator('#transcript')).toContainText(firstCue.split('\n')[0]!);
});
