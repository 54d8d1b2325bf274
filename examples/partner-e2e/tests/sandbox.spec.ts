// A partner's suite on one shared service, with video-plugin/testing (docs/testing-your-integration.md):
// every test gets a sandbox of its own (its own partner: accounts, jobs, events, files), reset when
// it ends, so tests run in parallel on one service and none sees another's records. Jobs move on
// the sandbox's step clock (`--clock manual`) and fail on purpose (`--test-controls`): no test here
// sleeps or polls (a lint rule keeps it so), each waits for a status.
import { test as base, expect, type Page } from '@playwright/test';
import { createAccountToken, loginAccountToken } from 'video-plugin/server';
import { sandboxFixtures, waitForStatus, type TestSandbox } from 'video-plugin/testing';
import { OPERATOR_KEY, SANDBOX_SERVICE_URL } from '../playwright.config.js';

/** The step clock's step: one job's time (`--job-ms 2000`). */
const STEP_MS = 2000;

const test = base.extend<{ sandbox: TestSandbox }>(
  sandboxFixtures({ serviceURL: SANDBOX_SERVICE_URL, operatorKey: OPERATOR_KEY }),
);

// The app's page asks its back end for the partner ID and for tokens: in these tests the sandbox's
// answer them, as the app's back end would with the sandbox's credentials in its configuration.
test.beforeEach(async ({ page, sandbox }) => {
  await page.route('**/config.json', (route) =>
    route.fulfill({ json: { partnerID: sandbox.partnerID, serviceURL: sandbox.serviceURL } }),
  );
  await page.route('**/api/video-plugin-token', async (route) => {
    const { kind, accountID } = route.request().postDataJSON() as { kind: string; accountID?: string };
    const { partnerID, secret } = sandbox;
    const token =
      kind === 'create'
        ? await createAccountToken({ partnerID, secret })
        : await loginAccountToken({ partnerID, secret, accountID: accountID! });
    await route.fulfill({ json: { token } });
  });
});

async function signUp(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign up for videos' }).click();
  await expect(page.getByRole('status')).toContainText('Signed up as');
}

type Update = { status: string; error?: { code: string; message: string } };

/**
 * Starts a topic search from the page's code (the element's API), and follows it on the SDK's own
 * status iterator in the page until it ends: the promise settles with its last update.
 */
async function searchInPage(page: Page): Promise<{ topicId: string; ended: Promise<Update> }> {
  const topicId = await page.evaluate(async (sourceURL) => {
    const el = document.querySelector('video-plugin') as HTMLElement & {
      startTopicSearch(url: string): Promise<{ topicId: string }>;
    };
    return (await el.startTopicSearch(sourceURL)).topicId;
  }, new URL('/business.html', page.url()).href);
  const ended = page.evaluate(async (id) => {
    const el = document.querySelector('video-plugin') as HTMLElement & {
      topicSearchStatus(id: string): AsyncIterable<Update>;
    };
    let last: Update = { status: 'PENDING' };
    for await (const update of el.topicSearchStatus(id)) last = update;
    return last;
  }, topicId);
  return { topicId, ended };
}

test('a topic search runs on the sandbox’s clock: PENDING until the test moves it, then COMPLETE', async ({
  page,
  sandbox,
}) => {
  await signUp(page);
  const { ended } = await searchInPage(page);
  // Nothing moves by itself: the search waits for the clock.
  const { waiting } = await sandbox.advanceClock(0);
  expect(waiting).toBeGreaterThan(0);
  const last = await sandbox.advanceUntil(ended, { stepMs: STEP_MS });
  expect(last.status).toBe('COMPLETE');
});

test('a search that cannot reach the site reaches the page as FAILED source_unreachable', async ({ page, sandbox }) => {
  await signUp(page);
  await sandbox.forceOutcome({ job: 'topicSearch', outcome: { fail: 'source_unreachable' } });
  const { ended } = await searchInPage(page);
  const last = await sandbox.advanceUntil(ended, { stepMs: STEP_MS });
  expect(last.status).toBe('FAILED');
  expect(last.error?.code).toBe('source_unreachable');
});

test('a stalled search stays PROCESSING however far the clock goes, until the test releases it', async ({
  page,
  sandbox,
}) => {
  await signUp(page);
  await sandbox.forceOutcome({ job: 'topicSearch', outcome: { stall: 'collecting_images' } });
  const { topicId, ended } = await searchInPage(page);
  for (let step = 0; step < 5; step++) await sandbox.advanceClock(STEP_MS);
  const now = await page.evaluate(async (id) => {
    const el = document.querySelector('video-plugin') as HTMLElement & {
      topicSearchStatus(id: string): AsyncIterable<{ status: string }>;
    };
    for await (const update of el.topicSearchStatus(id)) return update.status; // the current status
    return 'none';
  }, topicId);
  expect(now).toBe('PROCESSING');
  await sandbox.releaseOutcomes();
  expect((await sandbox.advanceUntil(ended, { stepMs: STEP_MS })).status).toBe('COMPLETE');
});

test('a sandbox’s user signs in over the HTTP API too, and waitForStatus names a failure at once', async ({
  sandbox,
  baseURL,
}) => {
  const user = await sandbox.signIn('api-user');
  await sandbox.forceOutcome({ job: 'topicSearch', outcome: { fail: 'source_timeout' } });
  const { topicId } = await user.api<{ topicId: string }>('POST', '/api/topics', {
    sourceURL: new URL('/business.html', baseURL).href,
  });
  const wait = waitForStatus(user.statuses('topic', topicId), 'COMPLETE', 'the search');
  await expect(sandbox.advanceUntil(wait, { stepMs: STEP_MS })).rejects.toThrow(
    /the search ended FAILED \(source_timeout/,
  );
});
