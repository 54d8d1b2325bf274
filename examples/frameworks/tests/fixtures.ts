// What every framework test shares: the app's page opened against the local service, a token
// endpoint answered in Node (the partner's back end, minting with video-plugin/server), and the
// check that the page logged no error or warning and threw nothing.
import { test as base, expect, type Page } from '@playwright/test';
// In your repository: from 'video-plugin/server'. Here the package's source, so that the type
// check needs no build.
import { createAccountToken } from '../../../src/server/index.js';
import { PARTNER, SERVICE_PORT } from '../apps.mjs';

export { expect };

/** The app's URL: the framework state starts from these (partner-id and service-url attributes). */
export const APP_PATH = `/?partner=${PARTNER.id}&service=${encodeURIComponent(`http://127.0.0.1:${SERVICE_PORT}`)}`;

/** The studio's cross-site frame, inside <video-plugin>'s shadow root (Playwright's CSS pierces it). */
export const studioFrame = (page: Page) => page.frameLocator('video-plugin iframe');

export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') {
          problems.push(`console.${message.type()}: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      // The partner's back end: it would check who is signed in before minting.
      await page.route('**/api/video-plugin-token', async (route) =>
        route.fulfill({ json: { token: await createAccountToken({ partnerID: PARTNER.id, secret: PARTNER.secret }) } }),
      );
      await use(problems);
      expect(problems, 'the page logged no error or warning').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Signs a new account up through the app's own code (createAccount, then getVideos, on its ref) and
 * resolves to the new account's ID. It waits for a status naming an account other than the one the
 * page showed before the click: a second sign-up on the same page must not be satisfied by the
 * first one's text, which is still there until createAccount resolves (a race a busy machine lost).
 */
export async function signUp(page: Page): Promise<string> {
  const status = page.getByRole('status');
  const accountOf = (text: string | null) => /^Signed up as (\S+) with 0 videos\.$/.exec(text ?? '')?.[1];
  const before = accountOf(await status.textContent());
  await page.getByRole('button', { name: 'Sign up' }).click();
  let account: string | undefined;
  await expect
    .poll(async () => {
      account = accountOf(await status.textContent());
      return account !== undefined && account !== before;
    }, 'a status naming a newly created account')
    .toBe(true);
  return account!;
}
