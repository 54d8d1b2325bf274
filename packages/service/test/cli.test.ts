// The video-plugin-service command: flags, environment, banner, exit codes, clean stop.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createAccountToken } from '../../../src/server/index.js';
import { parseCommandLine, USAGE } from '../src/command-line.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'video-plugin-cli-'));
after(() => rm(dir, { recursive: true, force: true }));

/** Runs the command from source; `banner()` resolves with the URL once it prints it. */
function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/service/src/cli.ts', ...args], {
    cwd: root,
    env: {
      ...process.env,
      VIDEO_PLUGIN_PORT: '',
      VIDEO_PLUGIN_PARTNER_ID: '',
      VIDEO_PLUGIN_SECRET: '',
      VIDEO_PLUGIN_WEBHOOK_SECRET: '',
      VIDEO_PLUGIN_JOB_MS: '',
      VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: '',
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url && stdout.includes('Ctrl+C')) resolve(url);
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before the banner: ${stderr}`)));
  });
  banner.catch(() => {}); // only the tests that wait for the banner care
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  after(() => child.kill());
  return { child, banner, exited, output: () => ({ stdout, stderr }) };
}

test('prints its actual URL, partner, secret and origins; serves; stops cleanly writing its data', async () => {
  const dataFile = join(dir, 'cli.db');
  const service = run([
    '--port',
    '0',
    '--partner',
    'cli-partner',
    '--secret',
    'cli-secret-0123456789abcdef0123456789',
    '--allowed-origin',
    'https://shop.example',
    '--job-ms',
    '50',
    '--data',
    dataFile,
    '--webhook-url',
    'http://127.0.0.1:9/hooks/T0/B0/path-secret?key=receiver-secret',
    '--webhook-secret',
    'cli-webhook-secret-0123456789abcdef0123',
  ]);
  const url = await service.banner;
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(new URL(url).port, '0');
  const { stdout } = service.output();
  assert.match(stdout, /partner ID: +cli-partner/);
  // A secret the operator gave is not printed (the demo secret is: it is public).
  assert.match(stdout, /secret: +\(as given; not printed\)/);
  assert.doesNotMatch(service.output().stdout + service.output().stderr, /cli-secret/);
  assert.match(stdout, /webhook secret: +\(as given; not printed\)/);
  assert.doesNotMatch(service.output().stdout + service.output().stderr, /cli-webhook-secret/);
  assert.match(stdout, /allowed origins: +https:\/\/shop\.example\n/);
  assert.match(stdout, /job time: +50 ms/);
  // Off unless asked for: a search would show whoever asks what another local port serves.
  assert.match(stdout, /local sites: +not searched \(--allow-loopback-sources to search a site on this machine\)\n/);
  // A receiver's URL is printed without the rest of its path and its query, where it may carry a
  // secret of its own (a Slack-style hook URL has it in the path).
  assert.match(stdout, /webhooks to: +http:\/\/127\.0\.0\.1:9\/hooks\/… \(the rest not shown\)\n/);
  assert.doesNotMatch(stdout, /receiver-secret|path-secret/);
  // A developer's own service names its partners to callers, and says how to stop it.
  assert.match(
    stdout,
    /partner IDs: +named to callers \(a developer's own service; --shared for a team's or a CI's\)\n/,
  );

  const token = await createAccountToken({
    partnerID: 'cli-partner',
    secret: 'cli-secret-0123456789abcdef0123456789',
    account: { externalID: 'from-cli' },
  });
  const created = await fetch(`${url}/api/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  assert.equal(created.status, 201);
  service.child.kill('SIGTERM');
  assert.equal(await service.exited, 0);
  // Stopped cleanly: the data file is whole (its WAL folded in), its lock is gone.
  assert.deepEqual(await readdir(dir), ['cli.db']);
  const db = new Database(dataFile, { readonly: true });
  const externalIDs = db.prepare('SELECT external_id FROM accounts').pluck().all();
  db.close();
  assert.deepEqual(externalIDs, ['from-cli']);
});

test('takes its settings from the environment, with flags winning', async () => {
  const service = run(['--partner', 'flag-partner'], {
    VIDEO_PLUGIN_PORT: '0',
    VIDEO_PLUGIN_PARTNER_ID: 'env-partner',
    VIDEO_PLUGIN_SECRET: 'env-secret-0123456789abcdef0123456789',
    VIDEO_PLUGIN_JOB_MS: '1234',
    VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: '4000,5173',
  });
  await service.banner;
  const { stdout } = service.output();
  assert.match(stdout, /partner ID: +flag-partner/);
  assert.match(stdout, /secret: +\(as given; not printed\)/);
  assert.doesNotMatch(stdout, /env-secret/);
  assert.match(stdout, /job time: +1234 ms/);
  assert.match(stdout, /local sites: +searched on ports 4000, 5173 only \(--allow-loopback-port\)\n/);
  assert.match(stdout, /allowed origins: +http:\/\/localhost:\*, http:\/\/127\.0\.0\.1:\*/);
  service.child.kill('SIGINT');
  assert.equal(await service.exited, 0);
});

test('the demo partner prints its public demo webhook secret', async () => {
  const service = run(['--port', '0']);
  await service.banner;
  assert.match(
    service.output().stdout,
    /webhook secret: +video-plugin-demo-webhook-secret-not-for-production \(the demo webhook secret\)/,
  );
  service.child.kill('SIGINT');
  assert.equal(await service.exited, 0);
});

test('a --secret shorter than 32 bytes exits 2 naming the flag and the fix, without echoing it', async () => {
  const service = run(['--port', '0', '--secret', 'short-cli-secret']);
  assert.equal(await service.exited, 2);
  const { stderr } = service.output();
  assert.match(stderr, /--secret must be at least 32 bytes \(it has 16; RFC 7518 §3\.2.*openssl rand -base64 32/);
  assert.doesNotMatch(stderr, /short-cli-secret/);
});

test('--webhook-secret is repeatable (the first signs), at least 32 bytes, never the --secret; the retry flags shorten the schedule', () => {
  const secret = 'cli-secret-0123456789abcdef0123456789';
  const [newer, older] = ['newer-webhook-secret-0123456789abcdef', 'older-webhook-secret-0123456789abcdef'];
  const parsed = parseCommandLine(
    ['--secret', secret, '--webhook-secret', newer, '--webhook-secret', older, '--webhook-retry-ms', '10'].concat([
      '--webhook-max-retry-ms',
      '100',
      '--webhook-retry-for-ms',
      '5000',
    ]),
  );
  assert.ok(!parsed.help);
  assert.deepEqual(parsed.options.partners?.[0]?.webhookSecrets, [newer, older]);
  assert.deepEqual(
    [parsed.options.webhookRetryMs, parsed.options.webhookMaxRetryMs, parsed.options.webhookRetryForMs],
    [10, 100, 5000],
  );
  const env = parseCommandLine(['--secret', secret], { VIDEO_PLUGIN_WEBHOOK_SECRET: older });
  assert.deepEqual(!env.help && env.options.partners?.[0]?.webhookSecrets, [older]);
  assert.throws(
    () => parseCommandLine(['--webhook-secret', 'short']),
    /^Error: --webhook-secret must be at least 32 bytes/,
  );
  assert.throws(
    () => parseCommandLine(['--secret', secret, '--webhook-secret', secret]),
    /--webhook-secret must differ from --secret/,
  );
  assert.throws(
    () => parseCommandLine(['--webhook-retry-for-ms', String(31 * 86_400_000)]),
    /--webhook-retry-for-ms must be a whole number/,
  );
});

test('--help prints the usage and exits 0', async () => {
  const service = run(['--help']);
  assert.equal(await service.exited, 0);
  assert.match(service.output().stdout, /Usage: video-plugin-service[\s\S]*--allowed-origin ORIGIN/);
});

test('a bad flag exits 2 with a message saying what is wrong', async () => {
  const service = run(['--port', 'eighty']);
  assert.equal(await service.exited, 2);
  assert.match(service.output().stderr, /--port must be a whole number from 0 to 65535 \(got "eighty"\)/);
});

test('the command line is parsed into service options', () => {
  assert.deepEqual(
    parseCommandLine([
      '--allowed-origin',
      'https://a.example',
      '--allowed-origin',
      'http://localhost:*',
      '--host',
      '0.0.0.0',
    ]),
    {
      help: false,
      options: {
        host: '0.0.0.0',
        partners: [
          {
            id: 'demo-partner',
            secret: 'video-plugin-demo-secret-not-for-production',
            allowedOrigins: ['https://a.example', 'http://localhost:*'],
          },
        ],
      },
    },
  );
  for (const argv of [
    ['--unknown'],
    ['--job-ms', '-1'],
    ['--allowed-origin', 'shop.example'],
    ['--secret', ''],
    ['extra'],
  ]) {
    assert.throws(() => parseCommandLine(argv), { name: 'Error' }, argv.join(' '));
  }
});

test('the banner of a --shared service says that it names no partner ID', async () => {
  const service = run(['--port', '0', '--shared']);
  await service.banner;
  assert.match(
    service.output().stdout,
    /partner IDs: +not named to callers \(--shared: health, diagnose and partner_not_found list none\)\n/,
  );
});

test('--shared (or VIDEO_PLUGIN_SHARED=1) marks a service for shared use; off by default; a bad value names the variable', () => {
  const options = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const line = parseCommandLine(argv, env);
    assert.equal(line.help, false);
    return line.help ? undefined : line.options.shared;
  };
  assert.equal(options([]), undefined);
  assert.equal(options(['--shared']), true);
  assert.equal(options([], { VIDEO_PLUGIN_SHARED: '1' }), true);
  assert.equal(options([], { VIDEO_PLUGIN_SHARED: 'true' }), true);
  assert.equal(options([], { VIDEO_PLUGIN_SHARED: '0' }), undefined);
  assert.equal(options([], { VIDEO_PLUGIN_SHARED: '' }), undefined);
  assert.equal(options(['--shared'], { VIDEO_PLUGIN_SHARED: '0' }), true);
  assert.throws(
    () => parseCommandLine([], { VIDEO_PLUGIN_SHARED: 'yes please' }),
    /VIDEO_PLUGIN_SHARED must be 1 or true/,
  );
  assert.match(USAGE, /--shared .*\n.*never names its partners/s);
});

test('the media flags: --media, --media-dir, --render-concurrency', () => {
  const parsed = parseCommandLine(['--media', 'placeholder', '--media-dir', '/tmp/m', '--render-concurrency', '3']);
  assert.deepEqual(
    parsed.help === false && [parsed.options.media, parsed.options.mediaDir, parsed.options.renderConcurrency],
    ['placeholder', '/tmp/m', 3],
  );
  assert.throws(() => parseCommandLine(['--media', 'fake']), /--media must be real or placeholder \(got "fake"\)/);
  assert.throws(() => parseCommandLine(['--media-dir', '']), /--media-dir must name a folder/);
  assert.throws(() => parseCommandLine(['--render-concurrency', '0']), /--render-concurrency must be at least 1/);
  assert.throws(
    () => parseCommandLine(['--render-concurrency', 'many']),
    /--render-concurrency must be a whole number/,
  );
});

test('--webhook-url is repeatable and goes to the partner; anything but http(s) is refused naming the flag', () => {
  const parsed = parseCommandLine([
    '--partner',
    'acme',
    '--webhook-url',
    'https://acme.example/hooks',
    '--webhook-url',
    'http://127.0.0.1:9000/hooks',
  ]);
  assert.deepEqual(parsed.help === false && parsed.options.partners?.[0]?.webhookURLs, [
    'https://acme.example/hooks',
    'http://127.0.0.1:9000/hooks',
  ]);
  const none = parseCommandLine([]);
  assert.equal(none.help === false && none.options.partners?.[0]?.webhookURLs, undefined);
  for (const url of ['ftp://acme.example/hooks', 'acme.example/hooks', 'javascript:alert(1)', '']) {
    assert.throws(
      () => parseCommandLine(['--webhook-url', url]),
      (error: Error) =>
        error.name === 'Error' && /^--webhook-url must be an absolute http or https URL/.test(error.message),
      url,
    );
  }
});

test('--help lists --webhook-url', () => {
  assert.match(USAGE, /--webhook-url URL/);
});

test('says in its banner when the test controls or the step clock are on, and only then', async () => {
  const on = run(['--port', '0', '--test-controls', '--clock', 'manual']);
  await on.banner;
  assert.match(on.output().stdout, /test controls: +on, for tests only/);
  assert.match(on.output().stdout, /clock: +manual/);
  on.child.kill('SIGTERM');
  assert.equal(await on.exited, 0);
  const off = run(['--port', '0']);
  await off.banner;
  assert.doesNotMatch(off.output().stdout, /test controls|clock:/);
  off.child.kill('SIGTERM');
  assert.equal(await off.exited, 0);
});
