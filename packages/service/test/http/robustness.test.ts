// Bad requests get a 4xx JSON error with a code, never a crash; concurrent requests all succeed.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { createAccountToken } from '../../../../src/server/index.js';
import { PARTNER, SECRET, api, createAccount, startTestService } from '../support/helpers.js';

const service = await startTestService();
const { session } = await createAccount(service);

/** Asserts the error, then that the service still answers. */
async function assertRefused(result: Awaited<ReturnType<typeof api>>, status: number, code: string) {
  assert.equal(result.status, status, JSON.stringify(result.body));
  assert.equal(result.body.error.code, code);
  assert.equal(typeof result.body.error.message, 'string');
  assert.equal((await api(service, 'GET', '/api/health')).body.status, 'ok');
}

test('invalid JSON is bad_request', async () => {
  await assertRefused(
    await api(service, 'PATCH', '/api/account', { session, raw: '{"city": "Par' }),
    400,
    'bad_request',
  );
});

test('a body that is not an object is invalid_parameter', async () => {
  for (const raw of ['[1,2]', '"text"', 'null', '42']) {
    await assertRefused(await api(service, 'POST', '/api/topics', { session, raw }), 400, 'invalid_parameter');
  }
});

test('a missing body where one is needed is invalid_parameter', async () => {
  await assertRefused(await api(service, 'POST', '/api/accounts'), 400, 'invalid_parameter');
});

test('a field of the wrong type is invalid_parameter naming it', async () => {
  const result = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: 42 } });
  assert.equal(result.body.error.data.field, 'sourceURL');
  await assertRefused(result, 400, 'invalid_parameter');
});

test('a body over 64 KB is payload_too_large', async () => {
  const result = await api(service, 'PATCH', '/api/account', { session, body: { city: 'x'.repeat(70 * 1024) } });
  await assertRefused(result, 413, 'payload_too_large');
});

test('a chunked body over 64 KB (no Content-Length) is payload_too_large', async () => {
  const { port } = new URL(service.url);
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'PATCH',
        path: '/api/account',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    for (let i = 0; i < 80; i++) req.write('x'.repeat(1024));
    req.end();
  });
  assert.equal(answer.status, 413);
  assert.equal(JSON.parse(answer.body).error.code, 'payload_too_large');
  assert.equal((await api(service, 'GET', '/api/health')).status, 200);
});

test('a body that is not declared as JSON is refused with 415', async () => {
  const result = await api(service, 'PATCH', '/api/account', {
    session,
    raw: '{"city":"Paris"}',
    headers: { 'content-type': 'text/plain' },
  });
  await assertRefused(result, 415, 'bad_request');
  assert.equal((await api(service, 'GET', '/api/account', { session })).body.account.city, undefined);
});

test('an unknown route is not_found and a wrong method is 405 with Allow', async () => {
  await assertRefused(await api(service, 'GET', '/api/nothing-here'), 404, 'not_found');
  const wrongMethod = await api(service, 'PUT', '/api/videos', { session });
  assert.equal(wrongMethod.headers.get('allow'), 'GET');
  await assertRefused(wrongMethod, 405, 'bad_request');
});

test('a malformed percent-encoding in a path is not_found', async () => {
  await assertRefused(await api(service, 'GET', '/api/videos/%E0%A4%A', { session }), 404, 'not_found');
});

test('API answers are never cached and carry no permissive CORS headers', async () => {
  const result = await api(service, 'GET', '/api/account', { session, headers: { origin: 'https://evil.example' } });
  assert.equal(result.headers.get('cache-control'), 'no-store');
  assert.equal(result.headers.get('access-control-allow-origin'), null);
});

test('50 concurrent requests are all answered correctly', async () => {
  const tokens = await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID: `concurrent-${i}` } }),
    ),
  );
  const results = await Promise.all([
    ...tokens.map((token) => api(service, 'POST', '/api/accounts', { body: { token } })),
    ...Array.from({ length: 25 }, (_, i) =>
      api(service, 'PATCH', '/api/account', { session, body: { state: `S${i}` } }),
    ),
  ]);
  const created = results.slice(0, 25);
  assert.ok(created.every((result) => result.status === 201));
  assert.equal(new Set(created.map((result) => result.body.account.id)).size, 25);
  assert.deepEqual(
    created.map((result) => result.body.account.externalID),
    tokens.map((_, i) => `concurrent-${i}`),
  );
  assert.ok(results.slice(25).every((result) => result.status === 200 && /^S\d+$/.test(result.body.account.state)));
});
