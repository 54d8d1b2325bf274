// GET /api/diagnose: what video-plugin/diagnose asks the service from the partner's page — the
// request's Origin against the partner's allow-list, the plugin page's frame-ancestors, the
// versions — readable cross-origin (CORS), with nothing secret in it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { VERSION } from '../../../../src/version.js';
import { PROTOCOL_VERSION } from '../../../../src/wire/protocol.js';
import { PARTNER, SECRET, api, startTestService } from '../support/helpers.js';

const service = await startTestService({
  partners: [
    { id: PARTNER, secret: SECRET, allowedOrigins: ['https://shop.example', 'http://localhost:*'] },
    {
      id: 'strict-partner',
      secret: 'strict-secret-0123456789abcdef0123456789',
      allowedOrigins: ['https://admin.example'],
    },
  ],
});

const diagnose = (query: string, origin?: string) =>
  api(service, 'GET', `/api/diagnose${query}`, origin ? { headers: { origin } } : {});

describe('GET /api/diagnose', () => {
  test("says whether the request's Origin is allowed for the partner, with the versions and frame-ancestors", async () => {
    const allowed = await diagnose(`?partnerID=${PARTNER}`, 'http://localhost:8000');
    assert.equal(allowed.status, 200);
    assert.deepEqual(allowed.body, {
      service: 'video-plugin-service',
      version: VERSION,
      protocolVersion: PROTOCOL_VERSION,
      partnerID: PARTNER,
      origin: 'http://localhost:8000',
      originAllowed: true,
      // This partner's origins only: strict-partner's are not named (issue 29, finding 8).
      frameAncestors: ['https://shop.example', 'http://localhost:*'],
      pluginURL: `${service.url}/plugin?partner=${PARTNER}`,
    });
    const refused = await diagnose('?partnerID=strict-partner', 'http://localhost:8000');
    assert.equal(refused.body.originAllowed, false);
    assert.equal(refused.body.origin, 'http://localhost:8000');
  });

  test('the frame-ancestors it reports are the ones the plugin page is sent', async () => {
    const { body } = await diagnose(`?partnerID=${PARTNER}`, 'https://shop.example');
    const page = await fetch(`${service.url}/plugin?partner=${PARTNER}`);
    const directives = (page.headers.get('content-security-policy') ?? '').split(/;\s*/);
    assert.ok(directives.includes(`frame-ancestors ${body.frameAncestors.join(' ')}`), directives.join('; '));
  });

  test('is readable by any page: CORS on answers and on errors, and the answer varies by Origin', async () => {
    const ok = await diagnose(`?partnerID=${PARTNER}`, 'https://elsewhere.example');
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    assert.match(ok.headers.get('vary') ?? '', /Origin/);
    assert.equal(ok.headers.get('access-control-allow-credentials'), null);
    assert.equal(ok.headers.get('cache-control'), 'no-store');
    assert.equal(ok.body.originAllowed, false);
    // What the handshake refuses with, word for word: the SDK rejects with it when the browser
    // stopped its frame at frame-ancestors (src/wire/host.ts).
    assert.deepEqual(ok.body.refusal, {
      code: 'origin_not_allowed',
      message: `The page origin https://elsewhere.example is not allowed for partner ${PARTNER}. Add it to the partner's allowed origins (the local service: --allowed-origin https://elsewhere.example).`,
      data: { origin: 'https://elsewhere.example', partnerID: PARTNER },
    });
    const error = await diagnose('?partnerID=nobody', 'https://shop.example');
    assert.equal(error.headers.get('access-control-allow-origin'), '*');
    assert.equal(error.body.error.code, 'partner_not_found');
  });

  test('an unknown partner is answered 200 with the error (no failed request in the page console), naming the partners it knows', async () => {
    const { status, body } = await diagnose(`?partnerID=${PARTNER}x`, 'https://shop.example');
    assert.equal(status, 200);
    assert.equal(body.error.code, 'partner_not_found');
    assert.deepEqual(body.error.data, { partnerID: `${PARTNER}x`, partners: [PARTNER, 'strict-partner'] });
    assert.match(
      body.error.message,
      new RegExp(`no partner "${PARTNER}x" \\(it knows "${PARTNER}", "strict-partner"\\)`),
    );
    assert.match(
      body.error.message,
      /Check the partner ID given to the Plugin \(partner-id on <video-plugin>\) and the iss of your tokens/,
    );
    // Only the answer (the service has no other field to say): no origin, no frame-ancestors.
    assert.deepEqual(Object.keys(body), ['error']);
  });

  test('without an Origin header (curl) it takes ?origin=, else says null', async () => {
    const query = await diagnose(`?partnerID=${PARTNER}&origin=${encodeURIComponent('https://shop.example')}`);
    assert.equal(query.body.origin, 'https://shop.example');
    assert.equal(query.body.originAllowed, true);
    const none = await diagnose(`?partnerID=${PARTNER}`);
    assert.equal(none.body.origin, null);
    assert.equal(none.body.originAllowed, null);
    // The browser's Origin wins over the query: a page cannot ask on behalf of another origin.
    const both = await diagnose(
      `?partnerID=${PARTNER}&origin=${encodeURIComponent('https://shop.example')}`,
      'https://evil.example',
    );
    assert.equal(both.body.origin, 'https://evil.example');
    assert.equal(both.body.originAllowed, false);
  });

  test('a missing partnerID is invalid_parameter naming it; other methods are 405', async () => {
    const missing = await diagnose('');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'invalid_parameter');
    assert.equal(missing.body.error.data.field, 'partnerID');
    const post = await api(service, 'POST', `/api/diagnose?partnerID=${PARTNER}`, { body: {} });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
  });

  test('carries no secret and no allowed origin beyond the plugin page header', async () => {
    const { body } = await diagnose(`?partnerID=${PARTNER}`, 'https://shop.example');
    const text = JSON.stringify(body);
    assert.ok(!text.includes(SECRET));
    assert.ok(!text.includes('strict-secret'));
    assert.deepEqual(Object.keys(body).sort(), [
      'frameAncestors',
      'origin',
      'originAllowed',
      'partnerID',
      'pluginURL',
      'protocolVersion',
      'service',
      'version',
    ]);
  });
});

describe('who is told the partner IDs', () => {
  test("a developer's own service (the default) lists its partners in GET /api/health", async () => {
    const health = await api(service, 'GET', '/api/health');
    assert.deepEqual(health.body.partners, [PARTNER, 'strict-partner']);
  });

  test('a shared service names no partner: not in /api/health, the diagnose answer or the origin check, yet says what to check', async () => {
    const shared = await startTestService({
      shared: true,
      partners: [
        { id: PARTNER, secret: SECRET },
        { id: 'strict-partner', secret: 'strict-secret-0123456789abcdef0123456789' },
      ],
    });
    const health = await api(shared, 'GET', '/api/health');
    assert.equal(health.status, 200);
    assert.deepEqual(Object.keys(health.body).sort(), ['jobMs', 'status']);
    const answers = [
      await api(shared, 'GET', `/api/diagnose?partnerID=${PARTNER}x`, { headers: { origin: 'https://shop.example' } }),
      await api(shared, 'GET', `/api/partners/${PARTNER}x/origin-check?origin=https%3A%2F%2Fshop.example`),
      await api(shared, 'POST', `/api/partners/${PARTNER}x/sign-in`, { body: { emailAddress: 'a@b.c' } }),
    ];
    for (const answer of answers) {
      const error = answer.body.error;
      assert.equal(error.code, 'partner_not_found');
      assert.deepEqual(error.data, { partnerID: `${PARTNER}x` });
      assert.ok(!error.message.includes('strict-partner'), error.message);
      assert.ok(!error.message.includes(`"${PARTNER}"`), error.message);
      assert.match(error.message, /no partner "[^"]+"\. Check the partner ID given to the Plugin .*your dashboard/);
    }
    // The partner's own ID is still answered to anyone who knows it.
    const known = await api(shared, 'GET', `/api/diagnose?partnerID=${PARTNER}`, {
      headers: { origin: 'http://localhost:8000' },
    });
    assert.equal(known.body.partnerID, PARTNER);
    assert.equal(known.body.originAllowed, true);
  });
});
