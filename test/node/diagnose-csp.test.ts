// The CSP reading of video-plugin/diagnose (src/diagnose/csp.ts): source expressions matched as
// CSP Level 3 matches them, the directive that governs a request, and the directive to put in its
// place. The browser suite proves the common pages end to end; these are the corners.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allows, blockedBy, governing, parsePolicies } from '../../src/diagnose/csp.js';

const page = 'http://localhost:8000';
const service = new URL('http://127.0.0.1:8001/plugin');
const hosted = new URL('https://app.video-plugin.example/plugin');
const ok = (sources: string, url: URL, self = page) => allows(sources.split(' '), url, self);

describe('diagnose: CSP source expressions', () => {
  test("'self', *, 'none' and keywords", () => {
    assert.equal(ok("'self'", new URL('http://localhost:8000/x')), true);
    assert.equal(
      ok("'self'", new URL('https://localhost:8000/x')),
      true,
      "an http page's 'self' allows its https twin",
    );
    assert.equal(ok("'self'", service), false);
    assert.equal(ok('*', service), true);
    assert.equal(ok('*', new URL('data:text/html,x')), false);
    assert.equal(ok("'none'", service), false);
    assert.equal(ok("'unsafe-inline' 'nonce-abc' 'sha256-xyz' 'strict-dynamic'", service), false);
  });

  test('schemes: http: also allows https:, https: does not allow http:', () => {
    assert.equal(ok('http:', hosted), true);
    assert.equal(ok('https:', hosted), true);
    assert.equal(ok('https:', service), false);
  });

  test('hosts, wildcard subdomains, ports and paths', () => {
    assert.equal(ok('https://app.video-plugin.example', hosted), true);
    assert.equal(ok('app.video-plugin.example', hosted, 'https://shop.example'), true);
    assert.equal(ok('APP.Video-Plugin.example', hosted, 'https://shop.example'), true);
    assert.equal(ok('*.video-plugin.example', hosted, 'https://shop.example'), true);
    assert.equal(ok('*.video-plugin.example', new URL('https://video-plugin.example/'), 'https://shop.example'), false);
    assert.equal(ok('https://app.video-plugin.example:443', hosted), true);
    assert.equal(ok('https://app.video-plugin.example:8443', hosted), false);
    assert.equal(ok('http://127.0.0.1', service), false, 'no port: only the default one');
    assert.equal(ok('http://127.0.0.1:*', service), true);
    assert.equal(ok('http://127.0.0.1:8001', service), true);
    assert.equal(ok('http://127.0.0.1:8001/plugin', service), true);
    assert.equal(ok('http://127.0.0.1:8001/plug', service), false);
    assert.equal(ok('http://127.0.0.1:8001/', service), true);
    assert.equal(ok('http://127.0.0.1:8001/api/', service), false);
    assert.equal(ok('https://app.video-plugin.example', new URL('http://app.video-plugin.example/')), false);
  });
});

describe('diagnose: policies and their fallbacks', () => {
  test('a header may carry several policies; names are case-insensitive and the first of two wins', () => {
    const policies = parsePolicies("default-src 'self'; FRAME-SRC https://a.example; frame-src *, img-src *", 'header');
    assert.equal(policies.length, 2);
    assert.deepEqual(governing(policies[0]!, 'frame-src'), { name: 'frame-src', sources: ['https://a.example'] });
    assert.equal(governing(policies[1]!, 'frame-src'), undefined);
  });

  test('frame-src falls back to child-src, then default-src; a <meta> cannot carry frame-ancestors', () => {
    const [child] = parsePolicies("default-src 'self'; child-src https://a.example", 'header');
    assert.equal(governing(child!, 'frame-src')!.name, 'child-src');
    const [meta] = parsePolicies("frame-ancestors 'none'; default-src *", 'meta');
    assert.equal(meta!.directives.has('frame-ancestors'), false);
  });

  test('blockedBy: every policy must allow; the fix keeps what the directive allowed, plus the origin', () => {
    const policies = [
      ...parsePolicies("default-src 'self' https://cdn.example", 'header'),
      ...parsePolicies("frame-src 'none'", 'meta'),
      ...parsePolicies('img-src *', 'meta'),
    ];
    const blocked = blockedBy(policies, 'frame-src', service, page);
    assert.deepEqual(
      blocked.map((b) => [b.policy.from, b.decidedBy, b.fix]),
      [
        ['header', 'default-src', "frame-src 'self' https://cdn.example http://127.0.0.1:8001"],
        ['meta', 'frame-src', 'frame-src http://127.0.0.1:8001'],
      ],
    );
    assert.deepEqual(blockedBy(policies, 'img-src', service, page).length, 1, 'the header still blocks images');
  });

  test('a more specific script directive is the one to change', () => {
    const policies = parsePolicies("script-src 'self' https://cdn.example; script-src-elem 'self'", 'header');
    const [blocked] = blockedBy(policies, 'script-src', new URL('https://cdn.jsdelivr.net/npm/x.js'), page);
    assert.equal(blocked!.fix, "script-src-elem 'self' https://cdn.jsdelivr.net");
  });
});
