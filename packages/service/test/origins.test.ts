// A partner's allowed origins (origins.ts): the patterns `--allowed-origin` takes, which page
// origins they let in, and the `frame-ancestors` sources the plugin page is served with. The same
// rules over HTTP: http/static.test.ts (the header), http/diagnose-endpoint.test.ts; in a browser,
// a refused page origin: test/browser/wire.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { frameAncestorSources, isOriginAllowed, parseOriginPattern, type OriginPattern } from '../src/origins.js';

function pattern(text: string): OriginPattern {
  const parsed = parseOriginPattern(text);
  assert.equal(typeof parsed, 'object', `${text} parses: ${String(parsed)}`);
  return parsed as OriginPattern;
}

describe('parseOriginPattern', () => {
  test('an origin, with its default port when none is written; normalised to lower case without a slash', () => {
    assert.deepEqual(parseOriginPattern('https://Shop.Example/'), {
      source: 'https://shop.example',
      scheme: 'https',
      host: 'shop.example',
      port: 443,
    });
    assert.deepEqual(parseOriginPattern('http://localhost:8000'), {
      source: 'http://localhost:8000',
      scheme: 'http',
      host: 'localhost',
      port: 8000,
    });
    assert.equal(pattern('http://[::1]:8080').host, '[::1]');
  });

  test('a port wildcard, and * for any http or https origin', () => {
    assert.equal(pattern('http://localhost:*').port, '*');
    assert.deepEqual(parseOriginPattern('*'), { source: '*', scheme: '*', host: '*', port: '*' });
  });

  test('anything else is refused with an explanation that shows what to write', () => {
    for (const text of ['shop.example', 'ftp://shop.example', 'https://shop.example/path', 'https://*.example', '']) {
      const refused = parseOriginPattern(text);
      assert.equal(typeof refused, 'string', text);
      assert.match(
        refused as string,
        /is not an origin pattern; write scheme:\/\/host\[:port\], e\.g\. https:\/\/shop\.example/,
      );
    }
    assert.equal(parseOriginPattern('http://localhost:70000'), '"http://localhost:70000" has a port above 65535');
  });
});

describe('isOriginAllowed', () => {
  const allowed = [pattern('https://shop.example'), pattern('http://localhost:*')];

  test('lets in an origin that matches a pattern: scheme, host and port', () => {
    assert.equal(isOriginAllowed(allowed, 'https://shop.example'), true);
    assert.equal(isOriginAllowed(allowed, 'https://shop.example:443'), true);
    assert.equal(isOriginAllowed(allowed, 'http://localhost:8000'), true);
    assert.equal(isOriginAllowed(allowed, 'http://localhost:80'), true);
  });

  test('keeps out another scheme, host or port, a subdomain, and a page origin that is itself a pattern', () => {
    for (const origin of [
      'http://shop.example',
      'https://shop.example:8443',
      'https://www.shop.example',
      'https://shop.example.evil.test',
      'http://127.0.0.1:8000',
      'http://localhost:*',
      '*',
      'null',
    ]) {
      assert.equal(isOriginAllowed(allowed, origin), false, origin);
    }
  });

  test('* lets in any http or https origin, and nothing else', () => {
    assert.equal(isOriginAllowed([pattern('*')], 'https://anything.example:9443'), true);
    assert.equal(isOriginAllowed([pattern('*')], 'file://'), false);
    assert.equal(isOriginAllowed([], 'https://shop.example'), false);
  });
});

describe('frameAncestorSources', () => {
  test("every partner's allowed origins, once each, as CSP sources", () => {
    assert.deepEqual(
      frameAncestorSources([
        { allowedOrigins: [pattern('https://shop.example'), pattern('http://localhost:*')] },
        { allowedOrigins: [pattern('https://shop.example'), pattern('https://blog.example:8443')] },
      ]),
      ['https://shop.example', 'http://localhost:*', 'https://blog.example:8443'],
    );
  });

  test("'none' when no partner allows any origin: nobody may frame the page", () => {
    assert.deepEqual(frameAncestorSources([]), ["'none'"]);
    assert.deepEqual(frameAncestorSources([{ allowedOrigins: [] }]), ["'none'"]);
  });
});
