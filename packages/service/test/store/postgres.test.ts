// --database postgres://…: the records on PostgreSQL, a server of this file's own (support/postgres.ts).
// The restart cases of the SQLite data file hold unchanged; migrations run once under an advisory
// lock when two processes start together; a newer schema is refused; a server that is down at start
// ends the command with status 2 naming its host and never the password; a server lost while the
// service runs makes changes answer 503 with Retry-After, as a full disk does, until it is back.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { runService } from '../support/child-service.js';
import {
  EventStream,
  api,
  createAccount,
  login,
  serve,
  startTestService,
  statusesUntilFinal,
  within,
} from '../support/helpers.js';
import { postgresMissing, startPostgres } from '../support/postgres.js';
import { restartCases } from '../support/restart-cases.js';
import { parseCommandLine } from '../../src/command-line.js';
import { SCHEMA_VERSION } from '../../src/store/postgres.js';
import { Store, type AccountRecord } from '../../src/store/store.js';

const psql = promisify(execFile);
const missing = postgresMissing();
// A time limit per test: a job that never ends fails its test instead of stalling the run.
const skip = missing ? { skip: missing } : { timeout: 120_000 };

const dir = await mkdtemp(join(tmpdir(), 'video-plugin-pg-media-'));
after(() => rm(dir, { recursive: true, force: true }));
const server = missing ? undefined : await startPostgres();
const source = await serve((req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Persisted page</title>'),
);

let databases = 0;
/** A new empty database on the test server, and a media folder of its own. */
async function place(name: string) {
  const database = await server!.database(`${name}_${++databases}`);
  return { database, mediaDir: join(dir, `${name}-${databases}`) };
}

/** One SQL statement through psql, its output. */
async function sql(url: string, statement: string): Promise<string> {
  return (await psql('psql', [url, '-Atqc', statement])).stdout.trim();
}

if (server) {
  restartCases('PostgreSQL', source, place, async ({ database }, session) => {
    // Session tokens are stored hashed, there as in the data file.
    assert.equal(
      await sql(database as string, `SELECT count(*) FROM video_plugin.sessions WHERE token_hash = '${session}'`),
      '0',
    );
    assert.equal(
      await sql(database as string, 'SELECT version FROM video_plugin.schema_version'),
      String(SCHEMA_VERSION),
    );
  });
}

test(
  'two processes started together on an empty database: both serve, and the schema was made once, under its lock',
  skip,
  async () => {
    const { database, mediaDir } = await place('together');
    const args = ['--database', database, '--media-dir', mediaDir];
    const [a, b] = [runService(args), runService(args)];
    await Promise.all([a.listening, b.listening]);
    for (const child of [a, b]) assert.doesNotMatch(child.output(), /already exists|duplicate key|rror/);
    assert.equal(await sql(database, 'SELECT version FROM video_plugin.schema_version'), String(SCHEMA_VERSION));
    assert.equal(await sql(database, 'SELECT count(*) FROM video_plugin.schema_version'), '1');
    for (const child of [a, b]) child.child.kill('SIGTERM');
    assert.deepEqual(await Promise.all([a.exited, b.exited]), [
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  },
);

test('a database written by a newer service is refused, and left as it is', skip, async () => {
  const { database, mediaDir } = await place('newer');
  const first = runService(['--database', database, '--media-dir', mediaDir]);
  await first.listening;
  first.child.kill('SIGTERM');
  await first.exited;
  await sql(database, 'UPDATE video_plugin.schema_version SET version = 99');
  // As the command says it (exit status 1), the way an operator meets it.
  const refused = runService(['--database', database, '--media-dir', mediaDir]);
  assert.deepEqual(await refused.exited, { code: 1, signal: null });
  assert.match(
    refused.output(),
    new RegExp(
      `The database postgres://test@127\\.0\\.0\\.1:${server!.port}/newer_\\d+ was written by a newer video-plugin-service \\(schema version 99; this one knows up to ${SCHEMA_VERSION}\\)`,
    ),
  );

  assert.equal(await sql(database, 'SELECT version FROM video_plugin.schema_version'), '99');
});

test(
  'a server that is down at start: exit status 2 within seconds, naming the host, never the password',
  skip,
  async () => {
    const { database, mediaDir } = await place('down');
    const url = new URL(database);
    url.password = 'never-print-me';
    url.port = String(server!.port + 1 === 65536 ? 1 : server!.port + 1);
    const started = Date.now();
    const child = runService(['--database', url.href, '--media-dir', mediaDir]);
    assert.deepEqual(await child.exited, { code: 2, signal: null });
    assert.ok(Date.now() - started < 20_000, 'it does not wait for long');
    assert.match(
      child.output(),
      new RegExp(
        `Cannot reach the database at postgres://test@127\\.0\\.0\\.1:${url.port}/down_\\d+ \\(connect ECONNREFUSED`,
      ),
    );
    assert.match(child.output(), new RegExp(`Start PostgreSQL on 127\\.0\\.0\\.1:${url.port}`));
    assert.doesNotMatch(child.output(), /never-print-me/);
  },
);

test('the banner names the database without its password', skip, async () => {
  const { database, mediaDir } = await place('banner');
  const url = new URL(database);
  url.password = 'never-print-me';
  const child = runService(['--database', url.href, '--media-dir', mediaDir]);
  await child.listening;
  assert.match(
    child.output(),
    new RegExp(
      `data: {12}PostgreSQL postgres://test@127\\.0\\.0\\.1:${server!.port}/banner_\\d+ \\(password not printed\\)`,
    ),
  );
  assert.doesNotMatch(child.output(), /never-print-me/);
  child.child.kill('SIGTERM');
  await child.exited;
});

test(
  'the built package starts its driver worker from dist/ (what npm start and the published command run)',
  skip,
  async () => {
    const { database, mediaDir } = await place('built');
    const bin = fileURLToPath(new URL('../../bin/video-plugin-service.js', import.meta.url));
    const args = [bin, '--port', '0', '--media', 'placeholder', '--database', database, '--media-dir', mediaDir];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const listening = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk) => {
        output += chunk;
        if (output.includes('listening on')) resolve();
      });
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await Promise.race([listening, exited.then(() => assert.fail(`it exited: ${output}`))]);
      assert.equal(await sql(database, 'SELECT version FROM video_plugin.schema_version'), String(SCHEMA_VERSION));
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  },
);

test(
  'the server lost while the service runs: changes answer 503 with Retry-After, reads go on, and all resumes when it is back',
  skip,
  async () => {
    const where = await place('lost');
    const service = await startTestService(where);
    const { session } = await createAccount(service, { externalID: 'steady' });
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const { topicId } = (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } })).body;
    await statusesUntilFinal(stream, 'topic', (data) => data.id === topicId);

    await server!.stop();
    try {
      const refused = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } });
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '5');
      assert.equal(refused.body.error.code, 'service_unavailable');
      assert.match(
        refused.body.error.message,
        /could not save the change \(the database cannot be reached\), so nothing was changed/,
      );
      assert.match(refused.body.error.message, /the service's database needs attention/);
      assert.doesNotMatch(
        refused.body.error.message,
        /127\.0\.0\.1|ECONNREFUSED/,
        'the page is not told where the database is',
      );
      const renamed = await api(service, 'PATCH', '/api/account', { session, body: { city: 'Nowhere' } });
      assert.equal(renamed.status, 503);
      const read = await api(service, 'GET', `/api/topics/${topicId}`, { session });
      assert.equal(read.status, 200, 'reads are answered from what was saved');
      assert.equal(
        (await api(service, 'GET', '/api/account', { session })).body.account.city,
        undefined,
        'the change that failed is not shown',
      );
    } finally {
      await within(server!.start(), 60_000, 'PostgreSQL starting again');
    }

    // Back: within a second (the store reads its records again first), the next change is saved and
    // a job runs to its end. The client retries as the 503's Retry-After tells it to, here faster.
    const back = Date.now();
    let answer = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } });
    while (answer.status === 503 && Date.now() - back < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: source } });
    }
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.ok(Date.now() - back < 3000, `writes resumed ${Date.now() - back} ms after the server was back`);
    const again = answer.body.topicId as string;
    assert.ok(again);
    await within(
      statusesUntilFinal(stream, 'topic', (data) => data.id === again),
      60_000,
      'the search after',
    ).catch(async (error: Error) => {
      const topic = (await api(service, 'GET', `/api/topics/${again}`, { session })).body;
      const job = await sql(
        where.database as string,
        `SELECT state, retry_count, started_on, output FROM video_plugin_jobs.job WHERE data->>'id' = '${again}'`,
      ).catch((failed: Error) => failed.message);
      throw new Error(
        `${error.message}: ${JSON.stringify(topic)}, ${JSON.stringify(service.stats())}; its job: ${job}`,
      );
    });
    assert.equal(service.stats().topics, 2, 'the search refused while the server was down was not kept');
    assert.equal((await login(service, { externalID: 'steady' })).status, 200);
    stream.close();
  },
);

test(
  'changes removed before a process read them: it reads every record again instead of going on without them',
  skip,
  async () => {
    const { database } = await place('behind');
    const [a, b] = [await Store.open(undefined, database), await Store.open(undefined, database)];
    try {
      const account = (id: string): AccountRecord => ({
        partnerID: 'p',
        id,
        companyName: id,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      });
      // All in one turn of the event loop: B's listener cannot read A's commit before its row is removed.
      a.addAccount(account('acct_missed'));
      // What the hourly pruning does to rows older than an hour.
      execFileSync('psql', [
        database,
        '-qc',
        `WITH gone AS (DELETE FROM video_plugin.changes RETURNING position)
           UPDATE video_plugin.changes_removed SET position = (SELECT max(position) FROM gone)`,
      ]);
      b.refresh();
      assert.equal(b.findAccount('p', 'acct_missed')?.companyName, 'acct_missed', 'B read the records again');
      // And goes on from there: A's next change reaches B through the changes again.
      a.addAccount(account('acct_next'));
      b.refresh();
      assert.equal(b.findAccount('p', 'acct_next')?.companyName, 'acct_next');
      // A write on B is decided on what it has read: an account A made is there, the next write is saved.
      b.addAccount(account('acct_from_b'));
      a.refresh();
      assert.ok(a.findAccount('p', 'acct_from_b'));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  },
);

test('--database: its URL is checked, it needs --media-dir and excludes --data; the environment twin', () => {
  const usage = (args: string[], env = {}) => assert.throws(() => parseCommandLine(args, env));
  usage(['--database', 'not a url', '--media-dir', 'm'], {});
  assert.throws(
    () => parseCommandLine(['--database', 'mysql://h/db', '--media-dir', 'm']),
    /--database must be a postgres:\/\/ URL \(got mysql:\/\/…\)/,
  );
  assert.throws(() => parseCommandLine(['--database', 'postgres://u:p@h/db']), /--database needs --media-dir DIR/);
  assert.throws(
    () => parseCommandLine(['--database', 'postgres://u:p@h/db', '--media-dir', 'm', '--data', 'f']),
    /two places for the same data/,
  );
  assert.throws(
    () => parseCommandLine(['--media-dir', 'm'], { VIDEO_PLUGIN_DATABASE_URL: 'http://h/db' }),
    /VIDEO_PLUGIN_DATABASE_URL must be a postgres:\/\/ URL/,
  );
  const parsed = parseCommandLine(['--media-dir', 'm'], { VIDEO_PLUGIN_DATABASE_URL: 'postgres://u:secret@h/db' });
  assert.equal(parsed.help === false && parsed.options.database, 'postgres://u:secret@h/db');
  for (const args of [
    ['--database', 'postgres://u:secret@h/db'],
    ['--database', 'ftp://u:secret@h/db', '--media-dir', 'm'],
  ]) {
    assert.throws(
      () => parseCommandLine(args),
      (error: Error) => !error.message.includes('secret'),
      'no message repeats the password',
    );
  }
});
