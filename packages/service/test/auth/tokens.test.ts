// Token verification by the service, over HTTP: what is accepted, and each refusal's own code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT, base64url } from 'jose';
import {
  ACCOUNT_CLAIM,
  KIND_CLAIM,
  SERVICE_DOMAIN,
  createAccountToken,
  loginAccountToken,
  loginOrCreateAccountToken,
} from '../../../../src/server/index.js';
import { PARTNER, SECRET, api, login, startTestService } from '../support/helpers.js';

const service = await startTestService({
  partners: [
    { id: PARTNER, secret: SECRET },
    { id: 'other-partner', secret: 'other-secret-0123456789abcdef0123456789' },
  ],
});
const key = new TextEncoder().encode(SECRET);
let counter = 0;
const externalID = () => `user-${++counter}-${Date.now()}`;
const now = () => Date.now() / 1000;

/** Builds a token by hand, so that any header and claim can be set, and signs it with HS256. */
function handmade(header: Record<string, unknown>, payload: Record<string, unknown>, secret = SECRET): Promise<string> {
  return sign(`${encode(header)}.${encode(payload)}`, secret);
}
function encode(value: unknown): string {
  return base64url.encode(JSON.stringify(value));
}
async function sign(input: string, secret: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, new TextEncoder().encode(input)));
  return `${input}.${base64url.encode(signature)}`;
}
function claims(
  overrides: Record<string, unknown> = {},
  account: Record<string, unknown> = { externalID: externalID() },
) {
  const issuedAt = now();
  return {
    jti: crypto.randomUUID(),
    iss: PARTNER,
    aud: SERVICE_DOMAIN,
    iat: issuedAt,
    exp: issuedAt + 60,
    [ACCOUNT_CLAIM]: account,
    ...overrides,
  };
}
const create = (token: string, extra: Record<string, unknown> = {}) =>
  api(service, 'POST', '/api/accounts', { body: { token, ...extra } });

/** Asserts that creating with this token fails with `code`, and that no account was made. */
async function assertCreateRefused(
  token: string,
  code: string,
  account: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const result = await create(token, extra);
  assert.equal(result.body.error?.code, code, JSON.stringify(result.body));
  assert.equal(result.status, 401);
  assert.equal(result.body.session, undefined);
  if (typeof account.externalID === 'string') {
    const check = await login(service, { externalID: account.externalID });
    assert.equal(check.body.error?.code, 'account_not_found', 'the refused token created an account');
  }
}

describe('accepted tokens', () => {
  test('a token minted by video-plugin/server creates an account', async () => {
    const id = externalID();
    const token = await createAccountToken({
      partnerID: PARTNER,
      secret: SECRET,
      account: { externalID: id, firstName: 'Ada' },
    });
    const result = await create(token);
    assert.equal(result.status, 201);
    assert.equal(result.body.account.externalID, id);
    assert.equal(result.body.account.firstName, 'Ada');
    assert.match(result.body.session, /^[\w-]{40,}$/);
  });

  test('a token signed by jose directly with the same secret is accepted', async () => {
    const id = externalID();
    const token = await new SignJWT({ [ACCOUNT_CLAIM]: { externalID: id } })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(crypto.randomUUID())
      .setIssuer(PARTNER)
      .setAudience(SERVICE_DOMAIN)
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(key);
    assert.equal((await create(token)).status, 201);
    assert.equal((await login(service, { externalID: id })).status, 200);
  });

  test('fractional iat and exp are accepted', async () => {
    const issuedAt = now() + 0.123;
    const token = await handmade({ alg: 'HS256', typ: 'JWT' }, claims({ iat: issuedAt, exp: issuedAt + 59.5 }));
    const result = await create(token);
    assert.equal(result.status, 201, JSON.stringify(result.body));
  });

  test('the header may spell the type key "type"', async () => {
    const token = await handmade({ alg: 'HS256', type: 'JWT' }, claims());
    assert.equal((await create(token)).status, 201);
  });

  test('the header may leave the type out', async () => {
    const token = await handmade({ alg: 'HS256' }, claims());
    assert.equal((await create(token)).status, 201);
  });

  test('an audience array that contains the service domain is accepted', async () => {
    const token = await handmade({ alg: 'HS256', typ: 'JWT' }, claims({ aud: ['other.example', SERVICE_DOMAIN] }));
    assert.equal((await create(token)).status, 201);
  });

  test('a token that expired less than the clock skew ago is accepted', async () => {
    const token = await handmade({ alg: 'HS256', typ: 'JWT' }, claims({ iat: now() - 70, exp: now() - 10 }));
    assert.equal((await create(token)).status, 201);
  });

  test('a login token by accountID and one by externalID log in to the same account', async () => {
    const id = externalID();
    const created = await create(
      await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID: id } }),
    );
    const byAccount = await login(service, { accountID: created.body.account.id });
    const byExternal = await login(service, { externalID: id });
    assert.equal(byAccount.status, 200);
    assert.equal(byAccount.body.account.id, created.body.account.id);
    assert.equal(byExternal.body.account.id, created.body.account.id);
    assert.notEqual(byAccount.body.session, byExternal.body.session);
  });
});

describe('refused tokens: each failure has its own code and creates nothing', () => {
  test('a wrong secret: token_bad_signature', async () => {
    const account = { externalID: externalID() };
    await assertCreateRefused(
      await handmade({ alg: 'HS256', typ: 'JWT' }, claims({}, account), 'not-the-secret-0123456789abcdef0123456789'),
      'token_bad_signature',
      account,
    );
  });

  test('a changed payload under the old signature: token_bad_signature', async () => {
    const account = { externalID: externalID() };
    const [header, , signature] = (await handmade({ alg: 'HS256', typ: 'JWT' }, claims())).split('.');
    await assertCreateRefused(`${header}.${encode(claims({}, account))}.${signature}`, 'token_bad_signature', account);
  });

  test('alg "none": token_algorithm_not_allowed', async () => {
    const account = { externalID: externalID() };
    const token = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims({}, account))}.`;
    await assertCreateRefused(token, 'token_algorithm_not_allowed', account);
  });

  test('alg HS512 (even correctly signed): token_algorithm_not_allowed', async () => {
    const account = { externalID: externalID() };
    const token = await new SignJWT(claims({}, account)).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(key);
    await assertCreateRefused(token, 'token_algorithm_not_allowed', account);
  });

  test('an issuer the service does not know: token_unknown_issuer', async () => {
    const account = { externalID: externalID() };
    await assertCreateRefused(
      await handmade({ alg: 'HS256', typ: 'JWT' }, claims({ iss: 'nobody' }, account)),
      'token_unknown_issuer',
      account,
    );
  });

  test("another partner's token in this partner's plugin: token_unknown_issuer", async () => {
    const account = { externalID: externalID() };
    const token = await createAccountToken({
      partnerID: 'other-partner',
      secret: 'other-secret-0123456789abcdef0123456789',
      account,
    });
    const result = await create(token, { partnerID: PARTNER });
    assert.equal(result.body.error.code, 'token_unknown_issuer');
    assert.match(result.body.error.message, /other-partner/);
  });

  test('a wrong audience: token_wrong_audience', async () => {
    const account = { externalID: externalID() };
    await assertCreateRefused(
      await handmade({ alg: 'HS256', typ: 'JWT' }, claims({ aud: 'evil.example' }, account)),
      'token_wrong_audience',
      account,
    );
  });

  test('an expired token: token_expired', async () => {
    const account = { externalID: externalID() };
    const token = await handmade({ alg: 'HS256', typ: 'JWT' }, claims({ iat: now() - 300, exp: now() - 120 }, account));
    await assertCreateRefused(token, 'token_expired', account);
  });

  test('a token issued in the future: token_issued_in_future', async () => {
    const account = { externalID: externalID() };
    const token = await handmade({ alg: 'HS256', typ: 'JWT' }, claims({ iat: now() + 600, exp: now() + 660 }, account));
    await assertCreateRefused(token, 'token_issued_in_future', account);
  });

  for (const claim of ['jti', 'iss', 'aud', 'iat', 'exp', ACCOUNT_CLAIM]) {
    test(`a token without ${claim}: token_missing_claims`, async () => {
      const account = { externalID: externalID() };
      const payload: Record<string, unknown> = claims({}, account);
      delete payload[claim];
      const result = await create(await handmade({ alg: 'HS256', typ: 'JWT' }, payload));
      assert.equal(result.body.error.code, 'token_missing_claims');
      assert.deepEqual(result.body.error.data.claims, [claim]);
      assert.equal((await login(service, account)).body.error.code, 'account_not_found');
    });
  }

  test('a token used twice: token_replayed', async () => {
    const token = await createAccountToken({ partnerID: PARTNER, secret: SECRET });
    assert.equal((await create(token)).status, 201);
    const again = await create(token);
    assert.equal(again.body.error.code, 'token_replayed');
  });

  test('one token sent twice at once: exactly one wins', async () => {
    const id = externalID();
    await create(await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { externalID: id } }));
    const token = await loginAccountToken({ partnerID: PARTNER, secret: SECRET, externalID: id });
    const send = () => api(service, 'POST', '/api/sessions', { body: { token } });
    const results = await Promise.all([send(), send(), send()]);
    assert.deepEqual(results.map((result) => result.status).sort(), [200, 401, 401]);
    assert.ok(
      results.filter((result) => result.status === 401).every((result) => result.body.error.code === 'token_replayed'),
    );
  });

  for (const [name, token] of [
    ['not a JWT at all', 'hello'],
    ['two parts', 'abc.def'],
    ['a header that is not JSON', `${base64url.encode('nope')}.${encode({})}.sig`],
    ['a payload that is an array', `${encode({ alg: 'HS256' })}.${encode([1])}.sig`],
  ] as const) {
    test(`${name}: token_malformed`, async () => {
      const result = await create(token);
      assert.equal(result.status, 401);
      assert.equal(result.body.error.code, 'token_malformed');
    });
  }

  test('a timestamp that is not a number: token_malformed naming the claim', async () => {
    const account = { externalID: externalID() };
    const token = await handmade({ alg: 'HS256', typ: 'JWT' }, claims({ exp: 'tomorrow' }, account));
    await assertCreateRefused(token, 'token_malformed', account);
  });

  test('a header type other than JWT: token_malformed', async () => {
    const account = { externalID: externalID() };
    await assertCreateRefused(
      await handmade({ alg: 'HS256', typ: 'JWE' }, claims({}, account)),
      'token_malformed',
      account,
    );
  });

  test('an unknown account field: token_malformed naming the field', async () => {
    const account = { externalID: externalID(), nickname: 'x' };
    const result = await create(await handmade({ alg: 'HS256', typ: 'JWT' }, claims({}, account)));
    assert.equal(result.body.error.code, 'token_malformed');
    assert.equal(result.body.error.data.field, 'nickname');
    assert.equal((await login(service, { externalID: account.externalID })).body.error.code, 'account_not_found');
  });

  test('a token over 8 KB: token_too_large', async () => {
    const account = { externalID: externalID(), companyName: 'x'.repeat(200) };
    const token = await handmade({ alg: 'HS256', typ: 'JWT', padding: 'p'.repeat(9000) }, claims({}, account));
    await assertCreateRefused(token, 'token_too_large', account);
  });

  test('a login token with neither accountID nor externalID: token_missing_claims', async () => {
    const result = await api(service, 'POST', '/api/sessions', {
      body: { token: await handmade({ alg: 'HS256' }, claims({}, {})) },
    });
    assert.equal(result.body.error.code, 'token_missing_claims');
  });

  test('a login token with both accountID and externalID: token_malformed', async () => {
    const token = await handmade({ alg: 'HS256' }, claims({}, { accountID: 'a', externalID: 'b' }));
    const result = await api(service, 'POST', '/api/sessions', { body: { token } });
    assert.equal(result.body.error.code, 'token_malformed');
    assert.equal(result.body.session, undefined);
  });
});

describe('token kinds: each token does only what it was minted for', () => {
  const signing = { partnerID: PARTNER, secret: SECRET };
  const sessions = (token: string) => api(service, 'POST', '/api/sessions', { body: { token } });

  test('a sign-in-or-sign-up token creates the account on the first visit and logs in to it after', async () => {
    const id = externalID();
    const mint = () => loginOrCreateAccountToken({ ...signing, externalID: id, account: { firstName: 'Ada' } });
    const first = await sessions(await mint());
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.account.externalID, id);
    assert.equal(first.body.account.firstName, 'Ada');
    assert.ok(first.body.session);
    const second = await sessions(await mint());
    assert.equal(second.status, 200);
    assert.equal(second.body.account.id, first.body.account.id);
    assert.notEqual(second.body.session, first.body.session);
    // The fields only create: an existing account keeps its own.
    const renamed = await sessions(
      await loginOrCreateAccountToken({ ...signing, externalID: id, account: { firstName: 'Grace' } }),
    );
    assert.equal(renamed.body.account.firstName, 'Ada');
  });

  test('a sign-in-or-sign-up token logs in to an account made by createAccount with that externalID', async () => {
    const id = externalID();
    const made = await create(await createAccountToken({ ...signing, account: { externalID: id } }));
    const result = await sessions(await loginOrCreateAccountToken({ ...signing, externalID: id }));
    assert.equal(result.status, 200);
    assert.equal(result.body.account.id, made.body.account.id);
  });

  test('two first visits at once make one account', async () => {
    const id = externalID();
    const tokens = await Promise.all([1, 2].map(() => loginOrCreateAccountToken({ ...signing, externalID: id })));
    const results = await Promise.all(tokens.map(sessions));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 201]);
    assert.equal(results[0]!.body.account.id, results[1]!.body.account.id);
  });

  test('a create token does not log in, even to an existing account with its externalID', async () => {
    const id = externalID();
    assert.equal((await create(await createAccountToken({ ...signing, account: { externalID: id } }))).status, 201);
    const result = await sessions(await createAccountToken({ ...signing, account: { externalID: id } }));
    assert.equal(result.status, 401);
    assert.equal(result.body.error.code, 'token_malformed');
    assert.equal(result.body.error.data.claim, KIND_CLAIM);
    assert.match(result.body.error.message, /"create" token .*loginAccount takes/);
    assert.equal(result.body.session, undefined);
  });

  test('a login token does not create, even with an externalID no account has', async () => {
    const id = externalID();
    const result = await create(await loginAccountToken({ ...signing, externalID: id }));
    assert.equal(result.status, 401);
    assert.equal(result.body.error.code, 'token_malformed');
    assert.equal(result.body.error.data.claim, KIND_CLAIM);
    assert.match(result.body.error.message, /createAccount takes "create" \(createAccountToken\)/);
    assert.equal((await login(service, { externalID: id })).body.error?.code, 'account_not_found');
  });

  test('a sign-in-or-sign-up token does not work with createAccount', async () => {
    const id = externalID();
    const result = await create(await loginOrCreateAccountToken({ ...signing, externalID: id }));
    assert.equal(result.body.error.code, 'token_malformed');
    assert.equal((await login(service, { externalID: id })).body.error?.code, 'account_not_found');
  });

  test('a sign-in-or-sign-up token without externalID is refused naming it', async () => {
    const token = await handmade({ alg: 'HS256' }, claims({ [KIND_CLAIM]: 'loginOrCreate' }, { firstName: 'Ada' }));
    const result = await sessions(token);
    assert.equal(result.body.error.code, 'token_malformed');
    assert.match(result.body.error.message, /"externalID" is required/);
  });

  test('an unknown kind is refused naming the claim', async () => {
    const result = await sessions(await handmade({ alg: 'HS256' }, claims({ [KIND_CLAIM]: 'admin' })));
    assert.equal(result.body.error.code, 'token_malformed');
    assert.equal(result.body.error.data.claim, KIND_CLAIM);
  });

  test('a token made by hand without a kind works as the reference describes, for the operation it is sent to', async () => {
    const id = externalID();
    assert.equal((await create(await handmade({ alg: 'HS256' }, claims({}, { externalID: id })))).status, 201);
    assert.equal((await sessions(await handmade({ alg: 'HS256' }, claims({}, { externalID: id })))).status, 200);
  });
});

describe('tokens without a kind claim: accepted until they are refused, with a warning', () => {
  const OTHER_SECRET = 'second-partner-secret-0123456789abcdef';
  const partners = [
    { id: 'kindless-a', secret: SECRET },
    { id: 'kindless-b', secret: OTHER_SECRET },
  ];

  test('each partner is warned once in the log, naming it and the helper; every kindless answer carries the header', async (t) => {
    const warnings: string[] = [];
    t.mock.method(console, 'warn', (line: unknown) => warnings.push(String(line)));
    const own = await startTestService({ partners });
    const post = (path: string, token: string) => api(own, 'POST', path, { body: { token } });
    const kindless = (iss: string, account: Record<string, unknown>, secret = SECRET) =>
      handmade({ alg: 'HS256' }, claims({ iss }, account), secret);
    const id = externalID();

    const created = await post('/api/accounts', await kindless('kindless-a', { externalID: id }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.headers.get('video-plugin-warning') ?? '', /createAccountToken/);
    for (let round = 0; round < 2; round++) {
      const loggedIn = await post('/api/sessions', await kindless('kindless-a', { externalID: id }));
      assert.equal(loggedIn.status, 200, JSON.stringify(loggedIn.body));
      assert.equal(loggedIn.body.account.id, created.body.account.id);
      assert.match(
        loggedIn.headers.get('video-plugin-warning') ?? '',
        /loginAccount .* "login" token\. From video-plugin 0\.3\.0 .* loginAccountToken or loginOrCreateAccountToken/,
      );
    }
    const minted = await post(
      '/api/sessions',
      await loginAccountToken({ partnerID: 'kindless-a', secret: SECRET, externalID: id }),
    );
    assert.equal(minted.status, 200);
    assert.equal(minted.headers.get('video-plugin-warning'), null, 'a token with its kind gets no warning');
    const other = await post('/api/accounts', await kindless('kindless-b', { externalID: id }, OTHER_SECRET));
    assert.equal(other.status, 201);

    const lines = warnings.filter((line) => line.includes(KIND_CLAIM));
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /^video-plugin-service: partner "kindless-a" sent createAccount a token without the claim/);
    assert.match(lines[0]!, /refused \(token_malformed\)\. Mint it with createAccountToken of video-plugin\/server/);
    assert.match(lines[1]!, /^video-plugin-service: partner "kindless-b" sent createAccount/);
  });
});
