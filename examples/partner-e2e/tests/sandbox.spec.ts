// A partner's suite on one shared service, with video-plugin/testing (docs/testing-your-integration.md):
// every test gets a sandbox of its own (its own partner: accounts, jobs, events, files), reset when
// it ends, so tests run in parallel on one service and none sees another's records. Jobs move on
// the sandbox's step clock (`--clock manual`) and fail on purpose (`--test-controls`): no test here
// sleeps or polls (a lint rule keeps it so), each waits for a status.
import { test as base, expect, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createAccountToken, loginAccountToken } from 'video-plugin/server';
import { createSandbox, sandboxFixtures, waitForStatus, type TestSandbox, type TestUser } from 'video-plugin/testing';
import { OPERATOR_KEY, SANDBOX_SERVICE_URL } from '../playwright.config.js';

/** The step clock's step: one job's time (`--job-ms 2000`). */
const STEP_MS = 2000;

// A sandbox per test on the run's one shared service (playwright.config.ts).
const shared = base.extend<{ sandbox: TestSandbox }>(
  sandboxFixtures({ serviceURL: SANDBOX_SERVICE_URL, operatorKey: OPERATOR_KEY }),
);
// The way this replaces, kept only to be measured against it (`npm run bench:sandboxes --
// --service-per-worker`, BENCHMARKS.md): every worker starts a service of its own.
const perWorker = base.extend<{ sandbox: TestSandbox }, { workerService: string }>({
  workerService: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const service = spawn(
        process.execPath,
        [
          // In your repo: node_modules/video-plugin-service/bin/video-plugin-service.js.
          fileURLToPath(new URL('../../../packages/service/bin/video-plugin-service.js', import.meta.url)),
          ...['--port', '0', '--sandboxes', '--test-controls', '--clock', 'manual'],
          ...['--job-ms', String(STEP_MS), '--media', 'placeholder'],
          '--allow-loopback-sources', // the app it searches runs on this machine
        ],
        { env: { ...process.env, VIDEO_PLUGIN_OPERATOR_KEY: OPERATOR_KEY }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const exited = once(service, 'exit');
      // A worker that Playwright stops without its teardown (a test over its time) takes it along.
      const stop = () => service.kill('SIGKILL');
      process.once('exit', stop);
      // Its first line names the address: "video-plugin-service listening on http://127.0.0.1:PORT".
      let url: string | undefined;
      for await (const line of createInterface({ input: service.stdout! })) {
        url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
        if (url) break;
      }
      if (!url) throw new Error('video-plugin-service stopped before it listened');
      service.stdout!.resume(); // the rest of its log is read and dropped, so that it never blocks
      await use(url);
      process.off('exit', stop);
      service.kill('SIGTERM');
      await exited;
    },
    { scope: 'worker' },
  ],
  sandbox: async ({ workerService }, use) => {
    const sandbox = await createSandbox({ serviceURL: workerService, operatorKey: OPERATOR_KEY });
    await use(sandbox);
    await sandbox.reset();
  },
});
const test = process.env.VIDEO_PLUGIN_SERVICE_PER_WORKER === '1' ? perWorker : shared;

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

test('two sandboxes on one service see nothing of each other, and resetting one leaves the other’s jobs running', async ({
  sandbox,
  baseURL,
  request,
}) => {
  const other = await createSandbox({ serviceURL: sandbox.serviceURL, operatorKey: OPERATOR_KEY });
  try {
    // The same user of the partner's app in both: two accounts, one per sandbox.
    const [mine, theirs] = await Promise.all([sandbox.signIn('same-user'), other.signIn('same-user')]);
    expect(theirs.accountID).not.toBe(mine.accountID);

    // Each makes a video on its own clock: a topic search, then a generation, to COMPLETE.
    const sourceURL = new URL('/business.html', baseURL).href;
    const makeVideo = async (box: TestSandbox, user: TestUser) => {
      const { topicId } = await user.api<{ topicId: string }>('POST', '/api/topics', { sourceURL });
      await box.advanceUntil(user.waitForStatus('topic', topicId, 'COMPLETE'), { stepMs: STEP_MS });
      const { requestId, videoId } = await user.api<{ requestId: string; videoId: string }>(
        'POST',
        '/api/generations',
        { topicId, aspectRatio: '16:9', duration: 5 },
      );
      await box.advanceUntil(user.waitForStatus('generation', requestId, 'COMPLETE'), { stepMs: STEP_MS });
      const { video } = await user.api<{ video: { thumbnailURL?: string } }>('GET', `/api/videos/${videoId}`);
      expect(video.thumbnailURL).toBeTruthy();
      return { topicId, videoId, thumbnailURL: video.thumbnailURL! };
    };
    const [myVideo, theirVideo] = await Promise.all([makeVideo(sandbox, mine), makeVideo(other, theirs)]);

    // Records: each account lists its own video only, and the other's IDs are unknown to it.
    const { videos } = await mine.api<{ videos: { id: string }[] }>('GET', '/api/videos');
    expect(videos.map((video) => video.id)).toEqual([myVideo.videoId]);
    await expect(mine.api('GET', `/api/videos/${theirVideo.videoId}`)).rejects.toMatchObject({
      code: 'video_not_found',
    });
    await expect(mine.api('GET', `/api/topics/${theirVideo.topicId}`)).rejects.toMatchObject({
      code: 'topic_not_found',
    });
    // Events: each event log holds its own account's events only.
    const accountsIn = async (box: TestSandbox) => [...new Set((await box.events()).map((event) => event.accountID))];
    expect(await accountsIn(sandbox)).toEqual([mine.accountID]);
    expect(await accountsIn(other)).toEqual([theirs.accountID]);

    // Files: each video's thumbnail is served (until its sandbox ends).
    expect((await request.get(theirVideo.thumbnailURL)).status()).toBe(200);

    // A search of each waits on its clock; the other sandbox is reset meanwhile.
    const { topicId: waiting } = await mine.api<{ topicId: string }>('POST', '/api/topics', { sourceURL });
    await theirs.api('POST', '/api/topics', { sourceURL });
    await other.reset();
    // The reset one is gone: its session, its records and its files.
    await expect(theirs.api('GET', '/api/videos')).rejects.toMatchObject({ code: 'sandbox_expired' });
    expect((await request.get(theirVideo.thumbnailURL)).status()).toBe(404);
    // This one goes on: its search completes, its file is still served.
    const done = await sandbox.advanceUntil(mine.waitForStatus('topic', waiting, ['COMPLETE', 'FAILED']), {
      stepMs: STEP_MS,
    });
    expect(done.status).toBe('COMPLETE');
    expect((await request.get(myVideo.thumbnailURL)).status()).toBe(200);
  } finally {
    await other.reset();
  }
});
