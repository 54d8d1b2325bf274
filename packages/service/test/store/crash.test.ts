// A service killed (SIGKILL) in the middle of a burst of writes, then started again on its data file:
// every request it acknowledged (2xx) is there, every job it left PENDING or PROCESSING finishes,
// and every account.created webhook of an acknowledged account is delivered (the outbox).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { decodeJwt } from 'jose';
import { createAccountToken } from '../../../../src/server/index.js';
import type { RunningService } from '../../src/server.js';
import { runService } from '../support/child-service.js';
import { PARTNER, SECRET, api, login, serve, type ApiResult } from '../support/helpers.js';

const WORKERS = 6;
/** Acknowledged writes of the burst after which the service is killed, while the others are in flight. */
const KILL_AT = 48;
const JOB_MS = 1000;

const dir = await mkdtemp(join(tmpdir(), 'video-plugin-crash-'));
after(() => rm(dir, { recursive: true, force: true }));
const source = await serve((req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Page ${req.url}</title>`),
);
/** The partner's webhook receiver: the account IDs of the account.created events it got. */
const created = new Set<string>();
const receiver = await serve((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const event = decodeJwt(Buffer.concat(chunks).toString('utf8'))['https://video-plugin.example/sdk/event'] as {
      type: string;
      accountID: string;
    };
    if (event.type === 'account.created') created.add(event.accountID);
    res.writeHead(204).end();
  });
});

/** Resolves once `check()` returns nothing, polling every 50 ms; fails with its last answer after `ms`. */
async function until(what: string, check: () => Promise<unknown[]>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = await check();
    if (left.length === 0) return;
    if (Date.now() > deadline) assert.fail(`${what} after ${ms} ms: ${JSON.stringify(left.slice(0, 5))}`);
    await delay(50);
  }
}

const isFinal = (status: string) => status === 'COMPLETE' || status === 'FAILED';

test(
  'killed in the middle of a burst: every acknowledged write survives, every job finishes',
  { timeout: 120_000 },
  async (t) => {
    const dataFile = join(dir, 'crash.db');
    const args = ['--data', dataFile, '--job-ms', String(JOB_MS), '--webhook-url', `${receiver}/hooks`];
    const first = runService(args);
    const service = { url: await first.listening } as RunningService;

    // Before the burst: one account per worker with a COMPLETE topic and a video, to generate from and rename.
    const workers = await Promise.all(
      Array.from({ length: WORKERS }, async (_, index) => {
        const token = await createAccountToken({
          partnerID: PARTNER,
          secret: SECRET,
          account: { externalID: `w${index}` },
        });
        const { session } = (await api(service, 'POST', '/api/accounts', { body: { token } })).body;
        const { topicId } = (
          await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/${index}` } })
        ).body;
        await until('the setup topic is not COMPLETE', async () => {
          const { status } = (await api(service, 'GET', `/api/topics/${topicId}`, { session })).body.topic;
          return status === 'COMPLETE' ? [] : [status];
        });
        const generation = { topicId, aspectRatio: '16:9', duration: 5 };
        const { videoId } = (await api(service, 'POST', '/api/generations', { session, body: generation })).body;
        return {
          session: session as string,
          topicId: topicId as string,
          videoId: videoId as string,
          renamed: -1,
          tried: -1,
        };
      }),
    );

    // The burst: each worker creates an account, starts a topic search and a generation, renames its
    // video, and again, until the service dies under it.
    const acked = {
      accounts: [] as { externalID: string; id: string; session: string }[],
      topics: [] as { session: string; topicId: string }[],
      generations: [] as { session: string; requestId: string; videoId: string }[],
      renames: 0,
    };
    const triedExternalIDs: string[] = [];
    const unexpected: ApiResult[] = [];
    let acks = 0;
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    /** One request of the burst; undefined once the service is gone. Kills it at an acknowledgement from the KILL_AT-th on. */
    const call = async (method: string, path: string, options: { session?: string; body?: unknown }) => {
      if (killed) return undefined;
      inFlight++;
      let result: ApiResult;
      try {
        result = await api(service, method, path, options);
      } catch {
        return undefined; // the connection died with the service
      } finally {
        inFlight--;
      }
      if (result.status >= 300) unexpected.push(result);
      // From the KILL_AT-th acknowledgement on, at the first one with other requests in flight (under
      // load every worker may be between requests at that very moment: the kill waits for one that is not).
      else if (++acks >= KILL_AT && !killed && inFlight > 0) {
        killed = true;
        inFlightAtKill = inFlight;
        first.child.kill('SIGKILL');
      }
      return result.status < 300 ? result : undefined;
    };
    await Promise.all(
      workers.map(async (mine, index) => {
        for (let round = 0; round < 1000 && !killed; round++) {
          const externalID = `w${index}-${round}`;
          triedExternalIDs.push(externalID);
          const token = await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID } });
          const account = await call('POST', '/api/accounts', { body: { token } });
          if (!account) return;
          acked.accounts.push({ externalID, id: account.body.account.id, session: account.body.session });
          const topic = await call('POST', '/api/topics', {
            session: mine.session,
            body: { sourceURL: `${source}/${externalID}` },
          });
          if (!topic) return;
          acked.topics.push({ session: mine.session, topicId: topic.body.topicId });
          const body = { topicId: mine.topicId, aspectRatio: '4:5', duration: 15 };
          const generation = await call('POST', '/api/generations', { session: mine.session, body });
          if (!generation) return;
          acked.generations.push({ session: mine.session, ...generation.body });
          mine.tried = round;
          const rename = await call('PATCH', `/api/videos/${mine.videoId}`, {
            session: mine.session,
            body: { name: externalID },
          });
          if (!rename) return;
          mine.renamed = round;
          acked.renames++;
        }
      }),
    );
    assert.deepEqual(unexpected, [], 'every request before the kill succeeded');
    assert.ok(killed, 'the service was killed during the burst');
    assert.ok(inFlightAtKill > 0, `requests were in flight when it was killed (${inFlightAtKill})`);
    assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
    for (const [kind, count] of Object.entries(acked)) {
      assert.ok((Array.isArray(count) ? count.length : count) > 0, `some ${kind} were acknowledged`);
    }

    const second = runService(args);
    const restarted = { url: await second.listening } as RunningService;
    assert.match(second.output(), new RegExp(`took over the lock of .* from process ${first.pid}`));
    // Looked at first, while the resumed jobs (a job-ms long) run: the kill left some unfinished.
    const statuses = await Promise.all([
      ...acked.topics.map(async ({ session, topicId }) => {
        return (await api(restarted, 'GET', `/api/topics/${topicId}`, { session })).body.topic?.status;
      }),
      ...acked.generations.map(async ({ session, requestId }) => {
        return (await api(restarted, 'GET', `/api/generations/${requestId}`, { session })).body.generation?.status;
      }),
    ]);
    const unfinishedAtRestart = statuses.filter((status) => !isFinal(status)).length;

    for (const account of acked.accounts) {
      const loggedIn = await login(restarted, { externalID: account.externalID });
      assert.equal(loggedIn.status, 200, `account ${account.externalID}`);
      assert.equal(loggedIn.body.account.id, account.id);
      assert.equal((await api(restarted, 'GET', '/api/account', { session: account.session })).status, 200);
    }
    for (const { session, topicId } of acked.topics) {
      assert.equal((await api(restarted, 'GET', `/api/topics/${topicId}`, { session })).status, 200, topicId);
    }
    for (const { session, requestId, videoId } of acked.generations) {
      assert.equal((await api(restarted, 'GET', `/api/generations/${requestId}`, { session })).status, 200, requestId);
      assert.equal((await api(restarted, 'GET', `/api/videos/${videoId}`, { session })).status, 200, videoId);
    }
    for (const [index, mine] of workers.entries()) {
      const { name } = (await api(restarted, 'GET', `/api/videos/${mine.videoId}`, { session: mine.session })).body
        .video;
      // The last acknowledged name, or one sent after it whose answer the kill cut off.
      const round = name === undefined ? NaN : Number(/^w\d+-(\d+)$/.exec(name)?.[1] ?? -1);
      assert.ok(
        round >= mine.renamed && round <= mine.tried,
        `worker ${index}: "${name}", acknowledged up to ${mine.renamed}`,
      );
    }

    // Every job, acknowledged or not (an unanswered request may have been committed), reaches a final status.
    const sessions = [...workers.map((mine) => mine.session)];
    for (const externalID of triedExternalIDs) {
      const loggedIn = await login(restarted, { externalID });
      if (loggedIn.status === 200) sessions.push(loggedIn.body.session);
    }
    await until('jobs are still unfinished', async () => {
      const left: string[] = [];
      for (const session of sessions) {
        for (const topic of (await api(restarted, 'GET', '/api/topics', { session })).body.topics) {
          if (!isFinal(topic.status)) left.push(`${topic.id} ${topic.status}`);
        }
        // A video gets its thumbnail when its generation completes (none here is made to fail).
        for (const video of (await api(restarted, 'GET', '/api/videos', { session })).body.videos) {
          if (video.thumbnailURL === undefined) left.push(`the generation of ${video.id}`);
        }
      }
      for (const { session, requestId } of acked.generations) {
        const { status } = (await api(restarted, 'GET', `/api/generations/${requestId}`, { session })).body.generation;
        if (!isFinal(status)) left.push(`${requestId} ${status}`);
      }
      return left;
    });
    t.diagnostic(
      `acknowledged before the kill: ${acked.accounts.length} accounts, ${acked.topics.length} topics, ${acked.generations.length} generations, ${acked.renames} renames; ${inFlightAtKill} requests in flight at the kill; ${unfinishedAtRestart} jobs unfinished at the restart`,
    );
    assert.ok(unfinishedAtRestart > 0, 'the kill left jobs unfinished, and they finished after the restart');

    await until('account.created webhooks are missing', async () =>
      acked.accounts.filter((account) => !created.has(account.id)).map((account) => account.externalID),
    );
    second.child.kill('SIGTERM');
    assert.deepEqual(await second.exited, { code: 0, signal: null });
  },
);
