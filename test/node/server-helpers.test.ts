// video-plugin/server: the tokens it mints, and the errors its input validation gives.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { InvalidParameterError } from '../../src/errors.js';
import {
  ACCOUNT_CLAIM,
  EVENT_CLAIM,
  KIND_CLAIM,
  SERVICE_DOMAIN,
  TOKEN_KINDS,
  createAccountToken,
  listEvents,
  loginAccountToken,
  verifyWebhook,
  loginOrCreateAccountToken,
  type CreateAccountTokenOptions,
  type LoginAccountTokenOptions,
  type LoginOrCreateAccountTokenOptions,
} from '../../src/server/index.js';

const base = { partnerID: 'acme', secret: 'acme-secret-0123456789abcdef0123456789' };

describe('minted tokens', () => {
  test('the constants name the service domain, the account claim and the webhook event claim', () => {
    assert.equal(SERVICE_DOMAIN, 'video-plugin.example');
    assert.equal(ACCOUNT_CLAIM, 'https://video-plugin.example/sdk/account');
    assert.equal(EVENT_CLAIM, 'https://video-plugin.example/sdk/event');
  });

  test('an account token carries the header, the registered claims and the account fields', async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = await createAccountToken({ ...base, account: { externalID: 'u1', lastName: 'Lovelace' } });
    assert.deepEqual(decodeProtectedHeader(token), { alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode('acme-secret-0123456789abcdef0123456789'), {
      algorithms: ['HS256'],
      issuer: 'acme',
      audience: SERVICE_DOMAIN,
    });
    assert.match(String(payload.jti), /^[0-9a-f-]{36}$/);
    assert.ok(payload.iat! >= before && payload.iat! <= before + 2);
    assert.equal(payload.exp! - payload.iat!, 60);
    assert.deepEqual(payload[ACCOUNT_CLAIM], { externalID: 'u1', lastName: 'Lovelace' });
  });

  test('an account token without fields carries an empty account claim', async () => {
    assert.deepEqual(decodeJwt(await createAccountToken(base))[ACCOUNT_CLAIM], {});
  });

  test('every token gets its own jti', async () => {
    const [a, b] = await Promise.all([createAccountToken(base), createAccountToken(base)]);
    assert.notEqual(decodeJwt(a).jti, decodeJwt(b).jti);
  });

  test('expiresIn sets the lifetime in seconds', async () => {
    const payload = decodeJwt(await loginAccountToken({ ...base, accountID: 'acct_1', expiresIn: 300 }));
    assert.equal(payload.exp! - payload.iat!, 300);
  });

  test('login tokens carry exactly the ID they were given', async () => {
    assert.deepEqual(decodeJwt(await loginAccountToken({ ...base, accountID: 'acct_1' }))[ACCOUNT_CLAIM], {
      accountID: 'acct_1',
    });
    assert.deepEqual(decodeJwt(await loginAccountToken({ ...base, externalID: 'u1' }))[ACCOUNT_CLAIM], {
      externalID: 'u1',
    });
  });

  test('each token names its kind, so that the service uses it only for what it was minted for', async () => {
    assert.equal(KIND_CLAIM, 'https://video-plugin.example/sdk/kind');
    assert.deepEqual(TOKEN_KINDS, ['create', 'login', 'loginOrCreate']);
    assert.equal(decodeJwt(await createAccountToken(base))[KIND_CLAIM], 'create');
    assert.equal(decodeJwt(await loginAccountToken({ ...base, accountID: 'acct_1' }))[KIND_CLAIM], 'login');
    assert.equal(
      decodeJwt(await loginOrCreateAccountToken({ ...base, externalID: 'u1' }))[KIND_CLAIM],
      'loginOrCreate',
    );
  });

  test('a sign-in-or-sign-up token carries the externalID and the fields to create with', async () => {
    const token = await loginOrCreateAccountToken({
      ...base,
      externalID: 'u1',
      account: { firstName: 'Ada', phone: '+44 20 7946 0958' },
      expiresIn: 120,
    });
    const { payload } = await jwtVerify(token, new TextEncoder().encode('acme-secret-0123456789abcdef0123456789'), {
      algorithms: ['HS256'],
      issuer: 'acme',
      audience: SERVICE_DOMAIN,
    });
    assert.equal(payload.exp! - payload.iat!, 120);
    assert.deepEqual(payload[ACCOUNT_CLAIM], { firstName: 'Ada', phone: '+44 20 7946 0958', externalID: 'u1' });
    assert.deepEqual(decodeJwt(await loginOrCreateAccountToken({ ...base, externalID: 'u2' }))[ACCOUNT_CLAIM], {
      externalID: 'u2',
    });
  });

  test('the server entry imports no Node-only module (it runs on edge workers)', async () => {
    const dir = new URL('../../src/server/', import.meta.url);
    for (const file of await readdir(dir)) {
      const source = await readFile(new URL(file, dir), 'utf8');
      assert.doesNotMatch(source, /from ['"]node:|require\(|\bBuffer\b/, file);
    }
  });
});

/** Asserts that the call rejects with invalid_parameter naming `field`, with a message matching `message`. */
async function rejectsNaming(call: Promise<unknown>, field: string, message: RegExp) {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof InvalidParameterError, String(error));
    assert.equal(error.code, 'invalid_parameter');
    assert.deepEqual(error.data, { field });
    assert.match(error.message, message);
    return true;
  });
}

describe('input validation names the field', () => {
  test('an unknown account field', async () => {
    const options = { ...base, account: { nickname: 'x' } } as unknown as CreateAccountTokenOptions;
    await rejectsNaming(
      createAccountToken(options),
      'account.nickname',
      /"account\.nickname" is not an allowed field \(allowed: firstName, .*externalID\)/,
    );
  });

  test('an unknown option', async () => {
    const options = { ...base, expiresin: 5 } as unknown as CreateAccountTokenOptions;
    await rejectsNaming(createAccountToken(options), 'expiresin', /"expiresin" is not an allowed field/);
  });

  test('an empty secret, without echoing it', async () => {
    await rejectsNaming(createAccountToken({ ...base, secret: '' }), 'secret', /"secret" must be at least 32 bytes/);
  });

  test('a secret of 16 bytes is refused by every helper, naming the option, the rule and the fix (RFC 7518 §3.2)', async () => {
    const secret = '0123456789abcdef';
    const fix = /" must be at least 32 bytes \(it has 16; RFC 7518 §3\.2.*openssl rand -base64 32/;
    await rejectsNaming(createAccountToken({ ...base, secret }), 'secret', fix);
    await rejectsNaming(loginAccountToken({ ...base, secret, accountID: 'acct_1' }), 'secret', fix);
    await rejectsNaming(loginOrCreateAccountToken({ ...base, secret, externalID: 'u1' }), 'secret', fix);
    await rejectsNaming(verifyWebhook('a.b.c', { partnerID: 'acme', secret }), 'secret', fix);
    await rejectsNaming(verifyWebhook('a.b.c', { partnerID: 'acme', secret: [base.secret, secret] }), 'secret.1', fix);
    const pages = listEvents({ partnerID: 'acme', secret, serviceURL: 'http://127.0.0.1:1' });
    await rejectsNaming(pages.next(), 'secret', fix);
    // 31 bytes of UTF-8 (not characters) are still too few; 32 are enough.
    await rejectsNaming(createAccountToken({ ...base, secret: `${'é'.repeat(15)}x` }), 'secret', /it has 31/);
    assert.match(await createAccountToken({ ...base, secret: 'é'.repeat(16) }), /^ey/);
  });

  test('a secret of the wrong type is not echoed', async () => {
    const options = { ...base, secret: 12345 } as unknown as CreateAccountTokenOptions;
    await assert.rejects(createAccountToken(options), (error: Error) => !error.message.includes('12345'));
  });

  test('an empty partnerID', async () => {
    await rejectsNaming(createAccountToken({ ...base, partnerID: '' }), 'partnerID', /"partnerID" must not be empty/);
  });

  for (const expiresIn of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
    test(`expiresIn ${expiresIn}`, async () => {
      await rejectsNaming(
        createAccountToken({ ...base, expiresIn }),
        'expiresIn',
        /"expiresIn" must be a (positive|finite) number/,
      );
    });
  }

  test('a field of the wrong type', async () => {
    const options = { ...base, account: { firstName: 42 } } as unknown as CreateAccountTokenOptions;
    await rejectsNaming(createAccountToken(options), 'account.firstName', /must be a string \(got 42\)/);
  });

  test('a login with neither accountID nor externalID', async () => {
    await rejectsNaming(
      loginAccountToken(base as LoginAccountTokenOptions),
      'accountID',
      /give "accountID" .* or "externalID"/,
    );
  });

  test('a login with both accountID and externalID', async () => {
    const options = { ...base, accountID: 'a', externalID: 'b' } as unknown as LoginAccountTokenOptions;
    await rejectsNaming(loginAccountToken(options), 'externalID', /only one of "accountID" or "externalID"/);
  });

  test('a login with an empty externalID', async () => {
    await rejectsNaming(loginAccountToken({ ...base, externalID: '' }), 'externalID', /"externalID" must not be empty/);
  });

  test('a sign-in-or-sign-up token without externalID', async () => {
    const options = { ...base, account: { firstName: 'Ada' } } as unknown as LoginOrCreateAccountTokenOptions;
    await rejectsNaming(loginOrCreateAccountToken(options), 'externalID', /"externalID" is required/);
  });

  test('a sign-in-or-sign-up token with an empty externalID', async () => {
    await rejectsNaming(
      loginOrCreateAccountToken({ ...base, externalID: '' }),
      'externalID',
      /"externalID" must not be empty/,
    );
  });

  test('a sign-in-or-sign-up token with externalID among the account fields', async () => {
    const options = { ...base, externalID: 'u1', account: { externalID: 'u1' } } as LoginOrCreateAccountTokenOptions;
    await rejectsNaming(loginOrCreateAccountToken(options), 'account.externalID', /is not an allowed field/);
  });

  test('a sign-in-or-sign-up token with an unknown account field', async () => {
    const options = { ...base, externalID: 'u1', account: { nickname: 'x' } } as LoginOrCreateAccountTokenOptions;
    await rejectsNaming(loginOrCreateAccountToken(options), 'account.nickname', /allowed: firstName/);
  });
});
