// The Host allowlist (http/hosts.ts): DNS rebinding. A request whose Host is a name that could have
// been rebound to this machine gets 403 on every route and on the socket upgrade; IP addresses,
// localhost and the --public-host names are answered.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, describe, test } from 'node:test';
import { hostAllowed, hostName } from '../../src/http/hosts.js';
import { parseCommandLine } from '../../src/command-line.js';
import { startTestService } from '../support/helpers.js';

const service = await startTestService({ publicHosts: ['Video.Example.com'] });
after(() => service.close());
const port = Number(new URL(service.url).port);

/** Sends one raw request with `host` and resolves to its status line's code. */
function statusWith(host: string, path: string, extra = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${extra}\r\n`);
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', reject);
  });
}

const upgrade =
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
  `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://127.0.0.1:${port}\r\n`;

describe('the Host allowlist', () => {
  for (const path of ['/api/health', '/plugin?partner=demo-partner', '/media/x.mp4', '/assets/app.js', '/']) {
    test(`a rebound name gets 403 on ${path}, with a message saying how to allow it`, async () => {
      assert.equal(await statusWith(`attacker.example:${port}`, path), 403);
    });
  }

  test('the refusal is JSON naming the Host and --public-host', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`GET /api/health HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n`);
      });
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
      error: { code: string; message: string };
    };
    assert.equal(body.error.code, 'origin_not_allowed');
    assert.match(body.error.message, /"attacker\.example"/);
    assert.match(body.error.message, /--public-host attacker\.example/);
  });

  test('a rebound name gets 403 on the socket upgrade', async () => {
    assert.equal(await statusWith(`attacker.example:${port}`, '/api/live', upgrade), 403);
    // The same upgrade with an IP address as Host is taken over (101).
    assert.equal(await statusWith(`127.0.0.1:${port}`, '/api/live', upgrade), 101);
  });

  for (const host of [
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    `[::1]:${port}`,
    `app.localhost:${port}`,
    'video.example.com',
    `VIDEO.EXAMPLE.COM:${port}`,
  ]) {
    test(`${host} is answered`, async () => {
      assert.equal(await statusWith(host, '/api/health'), 200);
    });
  }

  test('hostName and hostAllowed', () => {
    assert.equal(hostName('Example.COM:8080'), 'example.com');
    assert.equal(hostName('[::1]:8001'), '::1');
    assert.equal(hostName('10.0.0.1'), '10.0.0.1');
    assert.equal(hostAllowed(undefined, []), true);
    assert.equal(hostAllowed('192.168.1.20:8001', []), true);
    assert.equal(hostAllowed('localhost.attacker.example', []), false);
    assert.equal(hostAllowed('127.0.0.1.nip.io', []), false);
    assert.equal(hostAllowed('video.example.com', ['video.example.com']), true);
  });

  test('--public-host is repeatable and reaches the options', () => {
    const line = parseCommandLine(['--public-host', 'a.example', '--public-host', 'b.example']);
    assert.ok(!line.help);
    assert.deepEqual(line.options.publicHosts, ['a.example', 'b.example']);
  });

  test('a public host with a scheme or port is refused, naming the field', async () => {
    await assert.rejects(startTestService({ publicHosts: ['https://video.example.com'] }), (error: Error) => {
      assert.match(error.message, /publicHosts/);
      assert.match(error.message, /host name without scheme or port/);
      return true;
    });
  });
});
