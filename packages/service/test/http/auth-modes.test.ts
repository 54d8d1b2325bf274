// Each partner declares how its users may sign in (config.ts AUTH_MODES). A JWT-only partner's
// studio sign-in answers 403 and creates nothing, enters nothing and fires no webhook.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommandLine, UsageError } from '../../src/command-line.js';
import { createAccountToken, loginAccountToken } from '../../../../src/server/index.js';
import { api, serve, startTestService } from '../support/helpers.js';

test("a JWT-only partner's sign-in answers 403, creates no account and fires no webhook", async () => {
  const received: string[] = [];
  const receiver = await serve((req, res) => {
    received.push(req.url ?? '');
    res.writeHead(204).end();
  });
  const service = await startTestService({
    partners: [
      {
        id: 'jwt-only',
        secret: 'jwt-only-secret-0123456789abcdef0123456789',
        authModes: ['jwt'],
        webhookSecrets: ['jwt-only-webhook-secret-0123456789abcdef'],
        webhookURLs: [`${receiver}/hooks`],
      },
      {
        id: 'open',
        secret: 'open-secret-0123456789abcdef0123456789',
        webhookSecrets: ['open-webhook-secret-0123456789abcdef'],
        webhookURLs: [`${receiver}/hooks`],
      },
    ],
  });
  const refused = await api(service, 'POST', '/api/partners/jwt-only/sign-in', {
    body: { emailAddress: 'victim@example.com' },
  });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'account_methods_disabled');
  assert.match(
    refused.body.error.message,
    /"jwt-only" does not allow authMode 'uncontrolled' \(the studio's own sign-in\)/,
  );
  assert.match(refused.body.error.message, /--auth-mode uncontrolled/);
  assert.equal(service.stats().accounts, 0);
  // A partner with both modes (the local default) still signs in; its webhook is the only one sent.
  const allowed = await api(service, 'POST', '/api/partners/open/sign-in', { body: { emailAddress: 'a@example.com' } });
  assert.equal(allowed.status, 201);
  await service.webhooks.settled();
  assert.equal(service.webhooks.deliveries.filter((attempt) => attempt.outcome === 'delivered').length, 1);
  assert.deepEqual(
    service.webhooks.deliveries.map((attempt) => attempt.partnerID),
    service.webhooks.deliveries.map(() => 'open'),
  );
  assert.equal(service.partners.find((partner) => partner.id === 'jwt-only')?.authModes.join(), 'jwt');
});

test('--auth-mode is repeatable, and anything but jwt or uncontrolled is refused naming the flag', () => {
  const line = parseCommandLine(['--auth-mode', 'jwt']);
  assert.ok(!line.help);
  assert.deepEqual(line.options.partners?.[0]?.authModes, ['jwt']);
  assert.throws(
    () => parseCommandLine(['--auth-mode', 'open']),
    (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /--auth-mode must be jwt or uncontrolled \(got "open"\)/);
      return true;
    },
  );
});

test("an uncontrolled-only partner's tokens answer 403 naming the mode, and are not used up", async () => {
  const service = await startTestService({
    partners: [{ id: 'studio-only', secret: 'studio-only-secret-0123456789abcdef', authModes: ['uncontrolled'] }],
  });
  const secret = 'studio-only-secret-0123456789abcdef';
  const create = await createAccountToken({ partnerID: 'studio-only', secret, account: { externalID: 'x' } });
  const login = await loginAccountToken({ partnerID: 'studio-only', secret, externalID: 'x' });
  for (const [path, token] of [
    ['/api/accounts', create],
    ['/api/sessions', login],
  ] as const) {
    const refused = await api(service, 'POST', path, { body: { token } });
    assert.equal(refused.status, 403, path);
    assert.equal(refused.body.error.code, 'account_methods_disabled');
    assert.match(refused.body.error.message, /does not allow authMode 'jwt'.*--auth-mode jwt/);
    assert.deepEqual(refused.body.error.data, {
      partnerID: 'studio-only',
      authMode: 'jwt',
      authModes: ['uncontrolled'],
    });
  }
  assert.equal(service.stats().accounts, 0);
  assert.equal(service.stats().usedJtis, 0, 'a refused token is not used up');
});

test("the studio's handshake check refuses an authMode the partner did not enable, after the origin check", async () => {
  const service = await startTestService({
    partners: [{ id: 'jwt-only', secret: 'jwt-only-secret-0123456789abcdef', authModes: ['jwt'] }],
  });
  const check = (query: string) => api(service, 'GET', `/api/partners/jwt-only/origin-check?${query}`);
  const origin = encodeURIComponent('http://localhost:5173');
  assert.deepEqual((await check(`origin=${origin}&authMode=jwt`)).body, { allowed: true });
  const refused = await check(`origin=${origin}&authMode=uncontrolled`);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'account_methods_disabled');
  assert.match(refused.body.error.message, /authMode 'uncontrolled'.*Create the Plugin with authMode 'jwt'/);
  // An origin that is not allowed is refused as such, whatever the mode.
  const elsewhere = encodeURIComponent('https://evil.example');
  const notAllowed = (await check(`origin=${elsewhere}&authMode=uncontrolled`)).body;
  assert.deepEqual([notAllowed.allowed, notAllowed.refusal.code], [false, 'origin_not_allowed']);
  assert.equal((await check(`origin=${origin}&authMode=open`)).body.error.data.field, 'authMode');
});
