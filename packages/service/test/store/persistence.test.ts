// --data FILE: an SQLite database. State survives a restart, unfinished jobs and webhook deliveries
// go on after it, one process owns a file, a 0.1 JSON data file is imported, a foreign file is
// refused, and a write that fails fails its request (503; test/faults/ fills a real disk). (packages/service/test/store/crash.test.ts kills the service.)
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { decodeJwt } from 'jose';
import { createAccountToken } from '../../../../src/server/index.js';
import { Jobs } from '../../src/jobs/jobs.js';
import type { RunningService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { runService } from '../support/child-service.js';
import { restartCases } from '../support/restart-cases.js';
import {
  EventStream,
  PARTNER,
  SECRET,
  WEBHOOK_SECRET,
  api,
  createAccount,
  login,
  serve,
  startTestService,
  statusesUntilFinal,
} from '../support/helpers.js';

/** Resolves once `condition()` holds, checking every 10 ms; fails after `timeoutMs` (a hang detector). */
async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const dir = await mkdtemp(join(tmpdir(), 'video-plugin-data-'));
after(() => rm(dir, { recursive: true, force: true }));
const source = await serve((req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Persisted page</title>'),
);

restartCases(
  'SQLite',
  source,
  async (name) => ({ dataFile: join(dir, `${name}.db`) }),
  async ({ dataFile }, session) => {
    const file = dataFile as string;

    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.startsWith('state.')),
      ['state.db'],
      'no WAL, lock or temp file is left behind',
    );
    assert.equal((await stat(file)).mode & 0o777, 0o600, 'only its owner may read the data file');
    const bytes = await readFile(file);
    assert.equal(bytes.subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
    assert.ok(!bytes.includes(session), 'session tokens are stored hashed');
  },
);

test('one service per data file: a second is refused naming the process; a dead one’s lock is taken over', async () => {
  const dataFile = join(dir, 'owned.db');
  const first = await startTestService({ dataFile });
  await assert.rejects(
    startTestService({ dataFile }),
    new RegExp(`The data file ${dataFile} is in use by another process \\(pid ${process.pid}\\)`),
  );
  const { account } = await createAccount(first, { externalID: 'owner' });
  await first.close();
  const again = await startTestService({ dataFile });
  assert.equal((await login(again, { externalID: 'owner' })).body.account.id, account.id, 'free once closed');
  await again.close();

  // As processes: the command refuses the file with status 1, naming it and the holder.
  const holder = runService(['--data', dataFile]);
  await holder.listening;
  const second = runService(['--data', dataFile]);
  assert.deepEqual(await second.exited, { code: 1, signal: null });
  assert.match(
    second.output(),
    new RegExp(`The data file ${dataFile} is in use by another process \\(pid ${holder.pid}\\)`),
  );
  await assert.rejects(startTestService({ dataFile }), new RegExp(`\\(pid ${holder.pid}\\)`));

  // Killed: its lock file stays, naming a process that is gone; the next service takes it over.
  holder.child.kill('SIGKILL');
  await holder.exited;
  assert.ok((await readdir(dir)).includes('owned.db.lock'), 'the killed process left its lock');
  const next = runService(['--data', dataFile]);
  const url = await next.listening;
  assert.match(next.output(), new RegExp(`took over the lock of ${dataFile} from process ${holder.pid}`));
  const remote = { url } as RunningService;
  assert.equal((await login(remote, { externalID: 'owner' })).status, 200);
  next.child.kill('SIGTERM');
  assert.deepEqual(await next.exited, { code: 0, signal: null });
  assert.ok(!(await readdir(dir)).includes('owned.db.lock'), 'a clean stop removes its lock');
});

test('a JSON data file of 0.1 is imported, kept as a backup, and its jobs resume', async () => {
  const dataFile = join(dir, 'old.json');
  const now = new Date().toISOString();
  const owner = { partnerID: PARTNER, accountID: 'acct_old' };
  const account = { partnerID: PARTNER, id: 'acct_old', externalID: 'veteran', createdAt: now, updatedAt: now };
  const sessionToken = 'an-old-session-token';
  const sessionHash = createHash('sha256').update(sessionToken).digest('base64url');
  const topic = {
    ...owner,
    id: 'topic_old',
    requestId: 'search_old',
    sourceURL: source,
    status: 'COMPLETE',
    title: 'Old page',
    images: [],
    createdAt: now,
    updatedAt: now,
  };
  const generation = {
    ...owner,
    requestId: 'gen_old',
    videoId: 'vid_old',
    topicId: 'topic_old',
    aspectRatio: '16:9',
    duration: 5,
    language: 'en-US',
    status: 'PROCESSING',
    createdAt: now,
    updatedAt: now,
  };
  const video = {
    ...owner,
    id: 'vid_old',
    name: 'Old video',
    topicId: 'topic_old',
    requestId: 'gen_old',
    aspectRatio: '16:9',
    duration: 5,
    language: 'en-US',
    createdAt: now,
    updatedAt: now,
    isCompleted: false,
    hasThumbnail: false,
    renders: [],
    media: 'svg',
  };
  const expiresLater = Date.now() / 1000 + 600;
  const usedToken = await createAccountToken({ partnerID: PARTNER, secret: SECRET });
  const usedJti = decodeJwt(usedToken).jti as string;
  const json = JSON.stringify({
    format: 'video-plugin-service',
    version: 1,
    accounts: [account],
    sessions: [[sessionHash, { ...owner, createdAt: now }]],
    topics: [topic],
    generations: [generation],
    videos: [video],
    usedJtis: [
      [`${PARTNER}\n${usedJti}`, expiresLater],
      [`${PARTNER}\nlong-gone`, 1000],
    ],
  });
  await writeFile(dataFile, json);

  const service = runService(['--data', dataFile, '--job-ms', '50']);
  const remote = { url: await service.listening } as RunningService;
  assert.match(
    service.output(),
    new RegExp(
      `imported the JSON data file ${dataFile} \\(video-plugin-service 0\\.1\\) into an SQLite database at the same path: 1 accounts, 1 sessions, 1 topics, 1 generations, 1 videos, 1 unexpired token IDs\\. The JSON file is kept as ${dataFile}\\.json-0\\.1\\.bak\\.`,
    ),
  );
  assert.equal(await readFile(`${dataFile}.json-0.1.bak`, 'utf8'), json, 'the old file is kept as it was');
  assert.equal((await readFile(dataFile)).subarray(0, 15).toString('latin1'), 'SQLite format 3');
  assert.equal((await login(remote, { externalID: 'veteran' })).body.account.id, 'acct_old');
  assert.equal(
    (await api(remote, 'GET', '/api/account', { session: sessionToken })).status,
    200,
    'sessions carry over',
  );
  const replay = await api(remote, 'POST', '/api/accounts', { body: { token: usedToken } });
  assert.equal(replay.body.error?.code, 'token_replayed', 'used token IDs carry over');
  // The generation that was PROCESSING completes after the import.
  const stream = await EventStream.open(remote as RunningService, sessionToken, 'generation=gen_old');
  assert.equal(
    (await statusesUntilFinal(stream, 'generation', (data) => data.requestId === 'gen_old')).at(-1),
    'COMPLETE',
  );
  stream.close();
  service.child.kill('SIGTERM');
  await service.exited;

  // Started again: the file is a database now, nothing is imported twice.
  const again = runService(['--data', dataFile]);
  await again.listening;
  assert.doesNotMatch(again.output(), /imported/);
  again.child.kill('SIGTERM');
  await again.exited;
  assert.deepEqual((await readdir(dir)).filter((name) => name.startsWith('old.json')).sort(), [
    'old.json',
    'old.json.json-0.1.bak',
  ]);
});

test('files that are not a data file of this service are refused with a clear message, and left untouched', async () => {
  const cases: [name: string, content: string, message: RegExp][] = [
    [
      'foreign.json',
      '{"hello": "world"}',
      /is not a video-plugin-service data file.*Move it away or choose another --data file/,
    ],
    [
      'notes.txt',
      'some notes\n',
      /is not a video-plugin-service data file.*Move it away or choose another --data file/,
    ],
    [
      'truncated.json',
      '{"format":"video-plugin-service","version":1,"accounts":[',
      /looks like a JSON data file of video-plugin-service 0\.1 but cannot be read .*left untouched/,
    ],
    [
      'broken.json',
      '{"format":"video-plugin-service","version":1,"accounts":{}}',
      /0\.1 data file whose "accounts" is unreadable/,
    ],
    [
      'newer.json',
      '{"format":"video-plugin-service","version":7}',
      /JSON data file of version 7, which this service cannot import/,
    ],
  ];
  const folder = await mkdtemp(join(dir, 'foreign-'));
  for (const [name, content, message] of cases) {
    const dataFile = join(folder, name);
    await writeFile(dataFile, content);
    await assert.rejects(startTestService({ dataFile }), message, name);
    assert.equal(await readFile(dataFile, 'utf8'), content, `${name} is left untouched`);
  }
  const other = join(folder, 'other.sqlite');
  const db = new Database(other);
  db.exec('CREATE TABLE notes (text TEXT)');
  db.close();
  await assert.rejects(startTestService({ dataFile: other }), /is an SQLite database of another program/);
  const names = await readdir(folder);
  assert.ok(!names.some((name) => /\.(lock|bak)$|importing|-wal$/.test(name)), `nothing left beside them: ${names}`);

  // Through the command: exit status 1 and the message, once.
  const service = runService(['--data', join(folder, 'notes.txt')]);
  assert.deepEqual(await service.exited, { code: 1, signal: null });
  assert.match(
    service.output(),
    /^video-plugin-service: The data file .*notes\.txt is not a video-plugin-service data file.*--data file\.\n$/,
  );
});

test('a change that cannot be written fails its request with 503 and Retry-After, and is not kept', async () => {
  const dataFile = join(dir, 'failing.db');
  const first = await startTestService({ dataFile });
  const { session } = await createAccount(first, { externalID: 'writer' });
  const stream = await EventStream.open(first, session);
  await stream.next((event) => event.event === 'ready');
  const { topicId } = (await api(first, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
  await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);
  stream.close();
  await first.close();
  // The disk fails on some writes: SQLite triggers that abort them, as a full disk would.
  const db = new Database(dataFile);
  db.exec(`
    CREATE TRIGGER no_doomed_account BEFORE INSERT ON accounts WHEN NEW.external_id = 'doomed'
      BEGIN SELECT RAISE(ABORT, 'simulated disk failure'); END;
    CREATE TRIGGER no_doomed_video BEFORE UPDATE ON videos WHEN json_extract(NEW.record, '$.name') = 'doomed'
      BEGIN SELECT RAISE(ABORT, 'simulated disk failure'); END;
  `);
  db.close();

  const service = await startTestService({ dataFile });
  const before = service.stats();
  const token = await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID: 'doomed' } });
  const refused = await api(service, 'POST', '/api/accounts', { body: { token } });
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get('retry-after'), '5');
  assert.equal(refused.body.error.code, 'service_unavailable');
  assert.match(
    refused.body.error.message,
    /could not save the change \(simulated disk failure\), so nothing was changed/,
  );
  assert.doesNotMatch(refused.body.error.message, new RegExp(dir), 'the answer does not reveal the file’s path');
  assert.equal((await login(service, { externalID: 'doomed' })).status, 404, 'the account does not exist');
  const { accounts, sessions } = service.stats();
  assert.deepEqual({ accounts, sessions }, { accounts: before.accounts, sessions: before.sessions });

  const { requestId, videoId } = (
    await api(service, 'POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration: 5 } })
  ).body;
  assert.ok(requestId);
  const rename = await api(service, 'PATCH', `/api/videos/${videoId}`, { session, body: { name: 'doomed' } });
  assert.equal(rename.status, 503);
  const video = (await api(service, 'GET', `/api/videos/${videoId}`, { session })).body.video;
  assert.notEqual(video.name, 'doomed', 'the name that was not saved is not shown either');
  assert.equal(
    (await api(service, 'PATCH', `/api/videos/${videoId}`, { session, body: { name: 'Fine' } })).status,
    200,
  );
  await service.close();
});

test('webhook deliveries not over at a stop are tried again after the restart', async () => {
  let up = false;
  const posts: string[] = [];
  const receiver = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      posts.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(up ? 204 : 503).end();
    });
  });
  const dataFile = join(dir, 'outbox.db');
  const options = {
    dataFile,
    // A retry that would come in a minute: the stop comes first.
    webhookRetryMs: 60_000,
    partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET], webhookURLs: [`${receiver}/hooks`] }],
  };
  const first = await startTestService(options);
  const { account } = await createAccount(first);
  await until(() => first.webhooks.deliveries.length > 0);
  assert.equal(first.webhooks.deliveries[0]?.outcome, 'retrying');
  await first.close();
  assert.equal(first.webhooks.deliveries.at(-1)?.outcome, 'abandoned');

  up = true;
  const second = await startTestService(options);
  await second.webhooks.settled();
  const [attempt] = second.webhooks.deliveries;
  assert.equal(attempt?.outcome, 'delivered');
  assert.equal(attempt?.attempt, 2, 'the count of tries goes on');
  assert.equal(attempt?.eventID, first.webhooks.deliveries[0]?.eventID, 'the same event');
  assert.equal(posts.length, 2);
  const event = decodeJwt(posts[1] as string)['https://video-plugin.example/sdk/event'] as { accountID: string };
  assert.equal(event.accountID, account.id);
  await second.close();

  const third = await startTestService(options);
  await third.webhooks.settled();
  assert.equal(third.webhooks.deliveries.length, 0, 'a delivered event is not sent again');
  assert.equal(posts.length, 2);
  await third.close();
});

test('a job starts only once its record is committed: none runs for a transaction that failed', async () => {
  const store = await Store.open(join(dir, 'rolled-back.db'));
  const jobs = new Jobs(store, { jobMs: 50, fetchTimeoutMs: 10_000, media: 'placeholder', mediaDir: dir });
  try {
    const owner = { partnerID: PARTNER, accountID: 'acc_rolled_back' };
    let started: string | undefined;
    assert.throws(
      () =>
        store.transaction(() => {
          started = jobs.startTopicSearch(owner, `${source}/rolled-back`).id;
          assert.equal(jobs.running, 0, 'not started inside the transaction');
          throw new Error('the request failed after starting the search');
        }),
      /the request failed/,
    );
    assert.ok(started);
    assert.equal(store.topics.has(started), false, 'the topic was taken back');
    assert.equal(jobs.running, 0, 'and no job searches it');
    const kept = store.transaction(() => jobs.startTopicSearch(owner, `${source}/kept`));
    assert.equal(jobs.running, 1, 'a committed search runs');
    await until(() => store.topics.get(kept.id)?.status === 'COMPLETE');
  } finally {
    await jobs.close();
    await store.close();
  }
});

test('an existing data file readable by others is brought to 0600; a symbolic link is refused, naming the file', async () => {
  const loose = join(dir, 'loose.db');
  await writeFile(loose, '');
  await chmod(loose, 0o644);
  const service = await startTestService({ dataFile: loose });
  await service.close();
  assert.equal((await stat(loose)).mode & 0o777, 0o600);

  const target = join(dir, 'target.db');
  const linked = join(dir, 'linked.db');
  await writeFile(target, '');
  await symlink(target, linked);
  await assert.rejects(startTestService({ dataFile: linked }), /linked\.db is a symbolic link/);
  assert.equal((await stat(target)).size, 0, 'nothing was written through the link');
});

test('a symbolic link planted at the lock file or its temporary name is not written through', async () => {
  const dataFile = join(dir, 'planted.db');
  const victim = join(dir, 'victim.txt');
  await writeFile(victim, 'untouched');
  await symlink(victim, `${dataFile}.lock.${process.pid}.tmp`);
  await symlink(victim, `${dataFile}.lock`);
  const service = await startTestService({ dataFile });
  await service.close();
  assert.equal(await readFile(victim, 'utf8'), 'untouched');
});

test('kept images and renders are readable by the service user only', async () => {
  const { downloadImage } = await import('../../src/media/images.js');
  const { egressPolicy } = await import('../../src/egress.js');
  const sharp = (await import('sharp')).default;
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  const site = await serve((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png));
  const folder = join(dir, 'media-modes', 'topic');
  const kept = await downloadImage(`${site}/a.png`, folder, 0, {
    timeoutMs: 5000,
    egress: egressPolicy('127.0.0.1', false, () => 0),
  });
  assert.ok('file' in kept, JSON.stringify(kept));
  assert.equal((await stat(kept.file)).mode & 0o777, 0o600);
  assert.equal((await stat(folder)).mode & 0o777, 0o700);
});

test('close() resolves once every running job has settled: none writes after the service is gone', async () => {
  const store = await Store.open();
  // Jobs that would take ten minutes: close() interrupts them in their wait.
  const jobs = new Jobs(store, { jobMs: 600_000, fetchTimeoutMs: 1000, media: 'placeholder', mediaDir: dir });
  const owner = { partnerID: PARTNER, accountID: 'acc_closing' };
  for (let i = 0; i < 3; i++) store.transaction(() => jobs.startTopicSearch(owner, `${source}/closing-${i}`));
  assert.equal(jobs.running, 3);
  await jobs.close();
  assert.equal(jobs.running, 0, 'no job is still between two awaits');
  await store.close();
});
