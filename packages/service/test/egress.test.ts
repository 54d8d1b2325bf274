// The guarded outbound fetch (egress.ts): which addresses the service connects to, that every
// redirect hop is checked, and that a refused address, a closed port and an address that drops the
// connection give whoever asked the same answer.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { EgressError, egressPolicy, embeddedIPv4, guardedFetch, refusal, sourcePolicy } from '../src/egress.js';
import { downloadImage } from '../src/media/images.js';
import { parseCommandLine, UsageError } from '../src/command-line.js';
import { resolveConfig } from '../src/config.js';

const local = egressPolicy('127.0.0.1', false, () => 8001);
const elsewhere = egressPolicy('0.0.0.0', false, () => 8001);
const withPrivate = egressPolicy('127.0.0.1', true, () => 8001);

describe('the policy', () => {
  test('link-local (cloud metadata), this-network, multicast and reserved ranges are always refused', () => {
    for (const address of [
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      'fe80::1',
      'ff02::1',
      '::',
      'fd00:ec2::254',
    ]) {
      assert.ok(refusal(address, 80, withPrivate), `${address} refused`);
    }
  });

  test('IPv4 inside IPv6 (mapped, NAT64) is judged as IPv4', () => {
    assert.equal(embeddedIPv4('::ffff:169.254.169.254'), '169.254.169.254');
    assert.equal(embeddedIPv4('::ffff:a9fe:a9fe'), '169.254.169.254');
    assert.equal(embeddedIPv4('64:ff9b::a9fe:a9fe'), '169.254.169.254');
    assert.ok(refusal('::ffff:a9fe:a9fe', 80, withPrivate));
    assert.ok(refusal('::ffff:10.0.0.1', 80, local));
    assert.ok(refusal('::ffff:127.0.0.1', 80, elsewhere));
  });

  test('sources reach loopback only when allowed (any port but the own, or the ports named)', () => {
    const closed = sourcePolicy(false, false, () => 8001);
    const any = sourcePolicy(true, false, () => 8001);
    const some = sourcePolicy([4000, 5173], false, () => 8001);
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      assert.match(refusal(address, 4000, closed)!, /is loopback: start the service with --allow-loopback-sources/);
      assert.equal(refusal(address, 4000, any), undefined, address);
      assert.equal(refusal(address, 4000, some), undefined, address);
      assert.match(refusal(address, 8080, some)!, /not allowed \(--allow-loopback-port allows 4000, 5173\)/);
      assert.match(refusal(address, 8001, any)!, /the service itself/);
    }
    // The option does not open anything else.
    assert.match(refusal('10.0.0.1', 4000, any)!, /private address/);
    assert.match(refusal('169.254.169.254', 80, any)!, /never connects/);
  });

  test('--allow-loopback-sources, --allow-loopback-port and VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES set allowLoopbackSources', () => {
    const options = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
      const line = parseCommandLine(argv, env);
      assert.ok(!line.help);
      return line.options.allowLoopbackSources;
    };
    assert.equal(options([]), undefined);
    assert.equal(options(['--allow-loopback-sources']), true);
    assert.deepEqual(options(['--allow-loopback-port', '4000', '--allow-loopback-port', '5173']), [4000, 5173]);
    assert.equal(options([], { VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: '1' }), true);
    assert.equal(options([], { VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: 'true' }), true);
    assert.equal(options([], { VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: '0' }), undefined);
    assert.deepEqual(options([], { VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: '4000, 5173' }), [4000, 5173]);
    assert.deepEqual(
      options(['--allow-loopback-port', '3000'], { VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: '1' }),
      [3000],
      'the flag wins',
    );
    assert.throws(
      () => parseCommandLine(['--allow-loopback-port', '70000']),
      (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.match(
          error.message,
          /--allow-loopback-port must be a port, a whole number from 1 to 65535 \(got "70000"\)/,
        );
        return true;
      },
    );
    assert.throws(
      () => parseCommandLine([], { VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES: 'yes' }),
      /VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES \(1, or ports separated by commas\) must be a port/,
    );
    assert.throws(
      () => parseCommandLine(['--allow-loopback-sources', '--allow-loopback-port', '4000']),
      /give one of them/,
    );
    assert.equal(resolveConfig().allowLoopbackSources, false, 'off by default');
    for (const bad of [[], [0], [65536], [1.5], 'yes']) {
      assert.throws(() => resolveConfig({ allowLoopbackSources: bad as never }), /allowLoopbackSources/);
    }
  });

  test('webhooks reach loopback only while the service listens on loopback, and never its own port', () => {
    assert.equal(refusal('127.0.0.1', 8080, local), undefined);
    assert.equal(refusal('::1', 8080, local), undefined);
    assert.match(refusal('127.0.0.1', 8001, local)!, /the service itself/);
    assert.match(refusal('127.0.0.1', 8080, elsewhere)!, /loopback/);
    assert.equal(egressPolicy('localhost', false, () => 0).loopback, true);
    assert.equal(egressPolicy('::1', false, () => 0).loopback, true);
    assert.equal(egressPolicy('192.168.1.5', false, () => 0).loopback, false);
  });

  test('private ranges only with --allow-private-sources', () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.0.10', '100.64.0.1', 'fd12::1']) {
      assert.match(refusal(address, 80, local)!, /--allow-private-sources/);
      assert.equal(refusal(address, 80, withPrivate), undefined);
    }
    assert.equal(refusal('93.184.216.34', 443, local), undefined);
    const line = parseCommandLine(['--allow-private-sources']);
    assert.ok(!line.help && line.options.allowPrivateSources === true);
  });
});

describe('guardedFetch', () => {
  let server: Server;
  let base: string;
  let hits: string[];
  before(async () => {
    hits = [];
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/to-metadata')
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/encodings') {
        return res.writeHead(200, { 'content-encoding': Array(1000).fill('gzip').join(', ') }).end('not gzip');
      }
      if (req.url === '/to-private') return res.writeHead(302, { location: 'http://10.0.0.1/image.png' }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());
  const signal = () => AbortSignal.timeout(5000);

  test('an allowed address answers as fetch would, by IP and by a name that resolves to it', async () => {
    const response = await guardedFetch(new URL(`${base}/x`), { signal: signal() }, local);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'hello');
    const byName = await guardedFetch(new URL(base.replace('127.0.0.1', 'localhost')), { signal: signal() }, local);
    assert.equal(byName.status, 200);
    await byName.body?.cancel();
  });

  test('a name that resolves to loopback is refused when the service does not listen on loopback', async () => {
    const before = hits.length;
    await assert.rejects(
      guardedFetch(new URL(base.replace('127.0.0.1', 'localhost')), { signal: signal() }, elsewhere),
      (error: unknown) => {
        assert.ok(error instanceof EgressError);
        assert.equal(error.message, `${base.replace('127.0.0.1', 'localhost')}/ could not be reached.`);
        assert.match(error.detail, /loopback/);
        return true;
      },
    );
    assert.equal(hits.length, before, 'no request reached the server');
  });

  test('an address in the URL itself is checked before any connection (no lookup happens for it)', async () => {
    for (const url of [
      'http://169.254.169.254/latest/',
      'http://10.0.0.1/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://0x7f000001:8001/',
    ]) {
      await assert.rejects(guardedFetch(new URL(url), { signal: signal() }, local), (error: unknown) => {
        assert.ok(error instanceof EgressError, url);
        assert.match(error.detail, /never connects|private address|the service itself/);
        return true;
      });
    }
  });

  test('a chain of 1000 content encodings is not unpacked: the bytes arrive as sent, at once', async () => {
    const started = Date.now();
    const response = await guardedFetch(new URL(`${base}/encodings`), { signal: signal() }, local);
    assert.equal(await response.text(), 'not gzip');
    assert.ok(Date.now() - started < 2000);
  });

  test('a redirect is not followed: it is the caller that follows, each hop checked', async () => {
    const response = await guardedFetch(new URL(`${base}/to-metadata`), { signal: signal() }, local);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), 'http://169.254.169.254/latest/meta-data/');
  });

  test('an image that redirects to the metadata address or a private one is skipped, never fetched', async (t: TestContext) => {
    t.mock.method(console, 'warn', () => {});
    const dir = await mkdtemp(join(tmpdir(), 'video-plugin-egress-'));
    try {
      for (const path of ['/to-metadata', '/to-private']) {
        const result = await downloadImage(`${base}${path}`, dir, 0, { timeoutMs: 2000, egress: local });
        assert.ok('skipped' in result, path);
        assert.match(result.skipped, /^unreachable \(.*(never connects|private address)/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
