// `video-plugin-service sandbox create|reset`, a client of a running service's sandbox routes, and
// the `--sandboxes` flags of the service itself.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, USAGE, UsageError } from '../src/command-line.js';
import { parseSandboxCommand, SANDBOX_USAGE } from '../src/sandbox-command.js';
import { api, createAccount, startTestService } from './support/helpers.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const OPERATOR_KEY = 'cli-operator-key-0123456789abcdef0123456789';

const service = await startTestService({ sandboxes: { operatorKey: OPERATOR_KEY } });

/** Runs `video-plugin-service sandbox …` from source; resolves with its exit code and output. */
function sandbox(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/service/src/cli.ts', 'sandbox', ...args], {
    cwd: root,
    env: { ...process.env, VIDEO_PLUGIN_URL: '', VIDEO_PLUGIN_OPERATOR_KEY: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('video-plugin-service sandbox', () => {
  test('create prints the new sandbox as JSON, and the sandbox works; reset ends it', async () => {
    const made = await sandbox(['create', '--url', service.url, '--operator-key', OPERATOR_KEY]);
    assert.equal(made.code, 0, made.stderr);
    const credentials = JSON.parse(made.stdout) as { partnerID: string; secret: string; webhookSecret: string };
    assert.deepEqual(Object.keys(credentials).sort(), ['expiresAt', 'partnerID', 'secret', 'webhookSecret']);
    const { session } = await createAccount(service, {}, credentials.partnerID, credentials.secret);

    const reset = await sandbox(['reset', credentials.partnerID, '--url', service.url, '--operator-key', OPERATOR_KEY]);
    assert.equal(reset.code, 0, reset.stderr);
    assert.equal(reset.stdout, '');
    const refused = await api(service, 'GET', '/api/account', { session });
    assert.equal(refused.body.error.code, 'sandbox_expired');
  });

  test('takes the URL and the operator key from VIDEO_PLUGIN_URL and VIDEO_PLUGIN_OPERATOR_KEY, and passes the origins', async () => {
    const made = await sandbox(['create', '--allowed-origin', 'https://ci.example'], {
      VIDEO_PLUGIN_URL: service.url,
      VIDEO_PLUGIN_OPERATOR_KEY: OPERATOR_KEY,
    });
    assert.equal(made.code, 0, made.stderr);
    const { partnerID } = JSON.parse(made.stdout) as { partnerID: string };
    const check = await api(service, 'GET', `/api/partners/${partnerID}/origin-check?origin=https://ci.example`);
    assert.equal(check.body.allowed, true);
  });

  test('a refusal of the service exits 1 with its code on stderr; a wrong command line exits 2', async () => {
    const wrong = await sandbox(['create', '--url', service.url, '--operator-key', 'not-the-operator-key']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /not_authenticated: The operator key is wrong/);
    assert.equal(wrong.stdout, '');
    const bad = await sandbox([
      'create',
      '--url',
      service.url,
      '--operator-key',
      OPERATOR_KEY,
      '--webhook-url',
      'ftp://x',
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /invalid_parameter: .*webhookURLs\.0/);
    const none = await sandbox(['create', '--url', service.url]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--operator-key/);
  });

  test('parses its arguments, refusing what it cannot use', () => {
    assert.deepEqual(parseSandboxCommand(['--help']), { help: true });
    assert.match(SANDBOX_USAGE, /sandbox create/);
    assert.deepEqual(parseSandboxCommand(['create', '--operator-key', 'k', '--url', 'http://127.0.0.1:9/']), {
      help: false,
      action: 'create',
      url: 'http://127.0.0.1:9',
      operatorKey: 'k',
      body: {},
    });
    for (const [args, message] of [
      [[], /create or reset/],
      [['destroy'], /create or reset/],
      [['create', 'extra', '--operator-key', 'k'], /no argument/],
      [['reset', '--operator-key', 'k'], /one PARTNER_ID/],
      [
        ['reset', 'sandbox_1', '--operator-key', 'k', '--allowed-origin', 'https://a.example'],
        /options of sandbox create/,
      ],
      [['create', '--operator-key', 'k', '--url', 'ftp://host'], /--url/],
    ] as const) {
      assert.throws(
        () => parseSandboxCommand(args),
        (error: Error) => error instanceof UsageError && message.test(error.message),
      );
    }
  });
});

describe("the service's --sandboxes flags", () => {
  test('a service started with --sandboxes says so without printing the key, and sandbox create works against it', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/service/src/cli.ts', '--port', '0', '--media', 'placeholder', '--sandboxes'],
      { cwd: root, env: { ...process.env, VIDEO_PLUGIN_PORT: '', VIDEO_PLUGIN_OPERATOR_KEY: OPERATOR_KEY } },
    );
    after(() => child.kill());
    let stdout = '';
    const banner = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
        if (stdout.includes('Ctrl+C')) resolve(stdout);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    assert.match(
      banner,
      /sandboxes: +POST \/api\/sandboxes with the operator key \(as given; not printed\): at most 32 at once/,
    );
    assert.ok(!banner.includes(OPERATOR_KEY), 'the operator key was printed');
    const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1] ?? '';
    const made = await sandbox(['create'], { VIDEO_PLUGIN_URL: url, VIDEO_PLUGIN_OPERATOR_KEY: OPERATOR_KEY });
    assert.equal(made.code, 0, made.stderr);
    assert.match(JSON.parse(made.stdout).partnerID, /^sandbox_/);
  });

  test('--sandboxes opens the door with --operator-key or VIDEO_PLUGIN_OPERATOR_KEY, and the limits', () => {
    const line = parseCommandLine([
      '--sandboxes',
      '--operator-key',
      OPERATOR_KEY,
      '--sandboxes-max',
      '16',
      '--sandbox-ttl-ms',
      '60000',
      '--sandbox-jobs',
      '5',
    ]);
    assert.ok(!line.help);
    assert.deepEqual(line.options.sandboxes, { operatorKey: OPERATOR_KEY, max: 16, ttlMs: 60000, jobsPerSandbox: 5 });
    const fromEnv = parseCommandLine(['--sandboxes'], { VIDEO_PLUGIN_OPERATOR_KEY: OPERATOR_KEY });
    assert.ok(!fromEnv.help);
    assert.deepEqual(fromEnv.options.sandboxes, { operatorKey: OPERATOR_KEY });
    // The key in the environment alone opens nothing.
    const off = parseCommandLine([], { VIDEO_PLUGIN_OPERATOR_KEY: OPERATOR_KEY });
    assert.ok(!off.help);
    assert.equal(off.options.sandboxes, undefined);
    assert.match(USAGE, /--sandboxes/);
  });

  test('refuses --sandboxes without a key or with a short one, and the sandbox flags without --sandboxes', () => {
    for (const [args, message] of [
      [['--sandboxes'], /--operator-key KEY/],
      [['--sandboxes', '--operator-key', 'short'], /--operator-key .*32/],
      [['--operator-key', OPERATOR_KEY], /--operator-key needs --sandboxes/],
      [['--sandboxes-max', '3'], /--sandboxes-max needs --sandboxes/],
      [['--sandboxes', '--operator-key', OPERATOR_KEY, '--sandbox-jobs', '0'], /--sandbox-jobs must be at least 1/],
    ] as const) {
      assert.throws(
        () => parseCommandLine(args),
        (error: Error) => error instanceof UsageError && message.test(error.message),
      );
    }
  });
});
