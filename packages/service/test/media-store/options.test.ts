// `--media-store` / VIDEO_PLUGIN_MEDIA_STORE / `startService({ mediaStore })`: what a good value
// gives, and the message of each bad one (a usage error naming the flag and what to write, exit 2);
// the banner names the bucket and the endpoint, never a credential.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, UsageError } from '../../src/command-line.js';
import { resolveConfig } from '../../src/config.js';
import { startService } from '../../src/server.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const GOOD = 's3://video-media?endpoint=http://127.0.0.1:4568&region=eu-west-1';

test('a good value: the flag, its environment twin and startService read it alike', () => {
  const { options } = parseCommandLine(['--media-store', GOOD]) as { options: { mediaStore?: string } };
  assert.equal(options.mediaStore, GOOD);
  const fromEnv = parseCommandLine([], { VIDEO_PLUGIN_MEDIA_STORE: GOOD }) as { options: { mediaStore?: string } };
  assert.equal(fromEnv.options.mediaStore, GOOD);
  // The flag wins over the environment.
  const both = parseCommandLine(['--media-store', GOOD], { VIDEO_PLUGIN_MEDIA_STORE: 's3://other' }) as {
    options: { mediaStore?: string };
  };
  assert.equal(both.options.mediaStore, GOOD);
  assert.deepEqual(resolveConfig({ mediaStore: GOOD }).mediaStore, {
    bucket: 'video-media',
    endpoint: 'http://127.0.0.1:4568',
    region: 'eu-west-1',
  });
  // Without an endpoint: AWS S3 itself, in the default region.
  assert.deepEqual(resolveConfig({ mediaStore: 's3://video-media' }).mediaStore, {
    bucket: 'video-media',
    endpoint: undefined,
    region: 'us-east-1',
  });
  // Without the option: the media folder, as always.
  assert.equal(resolveConfig({}).mediaStore, undefined);
  assert.equal((parseCommandLine([]) as { options: { mediaStore?: string } }).options.mediaStore, undefined);
});

test('each bad value is a usage error naming the flag and what to write', () => {
  const cases: [string, RegExp][] = [
    ['', /--media-store must not be empty/],
    ['https://video-media', /--media-store must be an S3 bucket URL starting with s3:\/\//],
    ['video-media', /--media-store must be an S3 bucket URL starting with s3:\/\//],
    ['s3://', /--media-store names no bucket/],
    ['s3://?endpoint=http://127.0.0.1:4568', /--media-store names no bucket/],
    ['s3://Video_Media', /names the bucket "Video_Media", which is no S3 bucket name/],
    ['s3://ab', /names the bucket "ab", which is no S3 bucket name/],
    ['s3://key:secret@video-media', /must not carry credentials/],
    ['s3://video-media/some/prefix', /without a port, path or fragment/],
    ['s3://video-media?endpoint=ftp://127.0.0.1', /has an endpoint that is not http or https/],
    ['s3://video-media?endpoint=not%20a%20url', /has an endpoint that is not a URL/],
    ['s3://video-media?endpoint=http://user:pw@127.0.0.1:4568', /has an endpoint that carries credentials/],
    ['s3://video-media?region=EU%20West', /has the region "EU West", which is no region name/],
    ['s3://video-media?bucket=x', /has "bucket", which it does not know: only endpoint and region/],
  ];
  for (const [value, message] of cases) {
    assert.throws(
      () => parseCommandLine(['--media-store', value]),
      (error: unknown) => {
        assert.ok(error instanceof UsageError, value);
        assert.match(error.message, message, value);
        // What to write instead, in every message but the empty one's.
        if (value !== '') assert.match(error.message, /write s3:\/\/BUCKET\?endpoint=/, value);
        return true;
      },
    );
  }
  assert.throws(
    () => parseCommandLine([], { VIDEO_PLUGIN_MEDIA_STORE: 'http://bucket' }),
    /^Error: VIDEO_PLUGIN_MEDIA_STORE must be an S3 bucket URL starting with s3:\/\//,
  );
});

test('startService refuses a bad mediaStore with invalid_parameter naming the field', async () => {
  await assert.rejects(startService({ port: 0, mediaStore: 's3://' }), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'invalid_parameter');
    assert.match(error.message, /mediaStore/);
    assert.match(error.message, /names no bucket/);
    return true;
  });
});

test('the command: a bad value exits 2 with the message; a good one prints the bucket and endpoint, no credential', async () => {
  const run = (args: string[]) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/service/src/cli.ts', ...args], {
      cwd: root,
      env: {
        ...process.env,
        VIDEO_PLUGIN_PORT: '',
        VIDEO_PLUGIN_MEDIA_STORE: '',
        AWS_ACCESS_KEY_ID: 'AKIA-TEST-ACCESS-KEY',
        AWS_SECRET_ACCESS_KEY: 'test-secret-access-key-not-to-print',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, exited, output: () => output };
  };
  const bad = run(['--port', '0', '--media-store', 's3://video-media?endpoint=ftp://x']);
  assert.equal(await bad.exited, 2);
  assert.match(bad.output(), /--media-store has an endpoint that is not http or https/);

  const good = run(['--port', '0', '--media', 'placeholder', '--media-store', GOOD]);
  const banner = await new Promise<string>((resolve, reject) => {
    good.child.stdout.on('data', () => {
      if (good.output().includes('Ctrl+C')) resolve(good.output());
    });
    void good.exited.then((code) => reject(new Error(`exited with ${code}: ${good.output()}`)));
  });
  good.child.kill('SIGTERM');
  assert.equal(await good.exited, 0);
  assert.match(banner, /media store: {5}s3:\/\/video-media at http:\/\/127\.0\.0\.1:4568\n/);
  assert.ok(!good.output().includes('test-secret-access-key-not-to-print'));
  assert.ok(!good.output().includes('AKIA-TEST-ACCESS-KEY'));
});
