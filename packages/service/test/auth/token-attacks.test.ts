// Attacks on the service's token check, over real HTTP. tokens.test.ts covers each refusal code once;
// this file tries the variants an attacker would (forged and spliced signatures, every spelling of
// `alg: none`, algorithm confusion, claims edited under the old signature, time claims, another
// partner's tokens, jti races, size limits), at both token routes. Every refusal is checked on the
// service's own counts: no account, no session, and no jti consumed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT, base64url, exportJWK, generateKeyPair } from 'jose';
import {
  ACCOUNT_CLAIM,
  MAX_TOKEN_LIFETIME_SECONDS,
  SERVICE_DOMAIN,
  createAccountToken,
  loginAccountToken,
} from '../../../../src/server/index.js';
import {
  PARTNER,
  SECRET,
  api,
  createAccount,
  startTestService,
  OTHER,
  OTHER_SECRET,
  TWO_PARTNERS,
} from '../support/helpers.js';

const service = await startTestService({
  partners: TWO_PARTNERS,
});

type Route = 'create' | 'login';
const PATHS: Record<Route, string> = { create: '/api/accounts', login: '/api/sessions' };
const ROUTES: Route[] = ['create', 'login'];

/** The account an attacker wants in: it exists, so a login token naming it is a real threat. */
const victim = (await createAccount(service, { externalID: 'victim', emailAddress: 'victim@example.com' })).account;

let counter = 0;
const now = () => Date.now() / 1000;
const encode = (value: unknown) => base64url.encode(JSON.stringify(value));

/** The account claim of a route: a fresh user to create, or the victim to log in as. */
const accountFor = (route: Route) =>
  route === 'create' ? { externalID: `new-${++counter}` } : { externalID: 'victim' };

function claims(route: Route, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const issuedAt = now();
  return {
    jti: crypto.randomUUID(),
    iss: PARTNER,
    aud: SERVICE_DOMAIN,
    iat: issuedAt,
    exp: issuedAt + 60,
    [ACCOUNT_CLAIM]: accountFor(route),
    ...overrides,
  };
}

async function hmac(input: string, secret: string, hash = 'SHA-256'): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash }, false, [
    'sign',
  ]);
  return base64url.encode(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input))));
}

/** A token built by hand: any header and claims, HMAC-SHA-256 signed with `secret`. */
async function handmade(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret = SECRET,
): Promise<string> {
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${await hmac(input, secret)}`;
}

const HS256 = { alg: 'HS256', typ: 'JWT' };
const send = (route: Route, token: string, extra: Record<string, unknown> = {}) =>
  api(service, 'POST', PATHS[route], { body: { token, ...extra } });

/** What a refused token must leave alone. */
function counts() {
  const { accounts, sessions, usedJtis } = service.stats();
  return { accounts, sessions, usedJtis };
}

/** Sends `token` and asserts it is refused with `code` and changes nothing; returns the error. */
async function assertRefused(route: Route, token: string, code: string, extra: Record<string, unknown> = {}) {
  const before = counts();
  const result = await send(route, token, extra);
  assert.equal(result.body.error?.code, code, JSON.stringify(result.body));
  assert.equal(result.status, code.startsWith('token_') ? 401 : 404);
  assert.equal(result.body.session, undefined);
  assert.equal(result.body.account, undefined);
  assert.deepEqual(counts(), before, 'a refused token created an account, a session or consumed its jti');
  return result.body.error;
}

async function assertAccepted(route: Route, token: string) {
  const result = await send(route, token);
  assert.equal(result.status, route === 'create' ? 201 : 200, JSON.stringify(result.body));
  assert.match(result.body.session, /^[\w-]{40,}$/);
  return result.body;
}

describe('forged signatures: token_bad_signature', () => {
  const cases: [string, (route: Route) => Promise<string>][] = [
    ['signed with a guessed secret', async (route) => handmade(HS256, claims(route), 'secret')],
    ['signed with an empty secret', async (route) => handmade(HS256, claims(route), '\0')],
    [
      'with the signature of another valid token (spliced)',
      async (route) => {
        const donor = await createAccountToken({ partnerID: PARTNER, secret: SECRET });
        return `${encode(HS256)}.${encode(claims(route))}.${donor.split('.')[2]}`;
      },
    ],
    [
      'with one bit of the signature flipped',
      async (route) => {
        const [header, payload, signature] = (await handmade(HS256, claims(route))).split('.') as [
          string,
          string,
          string,
        ];
        const bytes = base64url.decode(signature);
        bytes[0] = (bytes[0] as number) ^ 1;
        return `${header}.${payload}.${base64url.encode(bytes)}`;
      },
    ],
    ['with the signature truncated', async (route) => (await handmade(HS256, claims(route))).slice(0, -8)],
    ['with an empty signature', async (route) => `${encode(HS256)}.${encode(claims(route))}.`],
    [
      "signed with the other partner's secret, naming this partner",
      async (route) => handmade(HS256, claims(route), OTHER_SECRET),
    ],
    [
      "naming the other partner, signed with this partner's secret",
      async (route) => handmade(HS256, claims(route, { iss: OTHER })),
    ],
    [
      "carrying the attacker's own key in the header (jwk) and signed with it",
      async (route) => {
        const jwk = { kty: 'oct', k: base64url.encode('attacker-key') };
        return handmade({ ...HS256, jwk }, claims(route), 'attacker-key');
      },
    ],
    [
      'pointing kid at another key',
      async (route) => handmade({ ...HS256, kid: '../../../dev/null' }, claims(route), 'null'),
    ],
  ];
  for (const [name, make] of cases) {
    for (const route of ROUTES) {
      test(`${route}: a token ${name}`, async () => {
        await assertRefused(route, await make(route), 'token_bad_signature');
      });
    }
  }
});

describe('alg none: token_algorithm_not_allowed', () => {
  for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
    for (const route of ROUTES) {
      test(`${route}: alg "${alg}" with no signature`, async () => {
        const error = await assertRefused(
          route,
          `${encode({ alg, typ: 'JWT' })}.${encode(claims(route))}.`,
          'token_algorithm_not_allowed',
        );
        assert.equal(error.data.alg, alg);
      });
    }
  }

  test('alg "none" with a valid HS256 signature appended', async () => {
    const input = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims('login'))}`;
    await assertRefused('login', `${input}.${await hmac(input, SECRET)}`, 'token_algorithm_not_allowed');
  });
});

describe('algorithm switched: token_algorithm_not_allowed', () => {
  const key = new TextEncoder().encode(SECRET);
  for (const alg of ['HS384', 'HS512'] as const) {
    for (const route of ROUTES) {
      test(`${route}: ${alg}, correctly signed with the partner's secret`, async () => {
        const token = await new SignJWT(claims(route)).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
        await assertRefused(route, token, 'token_algorithm_not_allowed');
      });
    }
  }

  // Key confusion: a verifier that trusts the header would check an HMAC with the "public key".
  for (const alg of ['RS256', 'ES256', 'PS256', 'EdDSA']) {
    test(`${alg} in the header, HMAC-signed with the partner's secret`, async () => {
      await assertRefused('login', await handmade({ alg, typ: 'JWT' }, claims('login')), 'token_algorithm_not_allowed');
    });
  }

  test("RS256 really signed with the attacker's own RSA key, its public key in the header", async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const token = await new SignJWT(claims('login'))
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', jwk: await exportJWK(publicKey) })
      .sign(privateKey);
    await assertRefused('login', token, 'token_algorithm_not_allowed');
  });

  for (const [name, alg] of [
    ['lower case "hs256"', 'hs256'],
    ['"HS256 " with a space', 'HS256 '],
    ['an array ["HS256"]', ['HS256']],
    ['no alg at all', undefined],
  ] as const) {
    test(`${name}, HMAC-SHA-256 signed`, async () => {
      await assertRefused('login', await handmade({ alg, typ: 'JWT' }, claims('login')), 'token_algorithm_not_allowed');
    });
  }
});

describe('claims edited after signing (re-encoded under the old signature): token_bad_signature', () => {
  /** Signs a genuine token, then swaps in `edit(payload)` and keeps the signature. */
  async function edited(route: Route, edit: (payload: Record<string, unknown>) => unknown): Promise<string> {
    const payload = claims(route, { [ACCOUNT_CLAIM]: { externalID: `someone-${++counter}` } });
    const [header, , signature] = (await handmade(HS256, payload)).split('.');
    const changed = edit(structuredClone(payload));
    const part = typeof changed === 'string' ? changed : encode(changed);
    return `${header}.${part}.${signature}`;
  }
  const edits: [string, Route, (payload: Record<string, unknown>) => unknown][] = [
    ['the login ID changed to the victim', 'login', (p) => ({ ...p, [ACCOUNT_CLAIM]: { externalID: 'victim' } })],
    [
      'the login switched to the victim by accountID',
      'login',
      (p) => ({ ...p, [ACCOUNT_CLAIM]: { accountID: victim.id } }),
    ],
    ['exp pushed an hour later', 'create', (p) => ({ ...p, exp: (p.exp as number) + 3000 })],
    ['a fresh jti (to dodge replay)', 'create', (p) => ({ ...p, jti: crypto.randomUUID() })],
    ['iss changed to the other partner', 'create', (p) => ({ ...p, iss: OTHER })],
    [
      'an account field added',
      'create',
      (p) => ({ ...p, [ACCOUNT_CLAIM]: { ...(p[ACCOUNT_CLAIM] as object), companyName: 'Evil Corp' } }),
    ],
    ['the same claims re-encoded with other whitespace', 'create', (p) => base64url.encode(JSON.stringify(p, null, 1))],
  ];
  for (const [name, route, edit] of edits) {
    test(`${route}: ${name}`, async () => {
      await assertRefused(route, await edited(route, edit), 'token_bad_signature');
    });
  }

  test('the header edited (kid added) under the old signature', async () => {
    const [, payload, signature] = (await handmade(HS256, claims('login'))).split('.');
    await assertRefused('login', `${encode({ ...HS256, kid: 'x' })}.${payload}.${signature}`, 'token_bad_signature');
  });
});

describe('time claims', () => {
  for (const route of ROUTES) {
    test(`${route}: expired beyond the clock skew: token_expired`, async () => {
      const error = await assertRefused(
        route,
        await handmade(HS256, claims(route, { iat: now() - 100.5, exp: now() - 40.25 })),
        'token_expired',
      );
      assert.equal(typeof error.data.exp, 'number');
    });

    test(`${route}: issued in the future beyond the clock skew: token_issued_in_future`, async () => {
      await assertRefused(
        route,
        await handmade(HS256, claims(route, { iat: now() + 45, exp: now() + 105 })),
        'token_issued_in_future',
      );
    });

    test(`${route}: nbf in the future beyond the clock skew: token_not_yet_valid`, async () => {
      const nbf = now() + 120;
      const error = await assertRefused(route, await handmade(HS256, claims(route, { nbf })), 'token_not_yet_valid');
      assert.equal(error.data.nbf, nbf);
    });
  }

  test('a token with exp long ago (1970) is expired, not merely long-lived', async () => {
    await assertRefused('login', await handmade(HS256, claims('login', { iat: 0, exp: 1 })), 'token_expired');
  });

  test('nbf that is not a number: token_malformed naming nbf', async () => {
    const error = await assertRefused(
      'login',
      await handmade(HS256, claims('login', { nbf: 'now' })),
      'token_malformed',
    );
    assert.equal(error.data.claim, 'nbf');
  });

  test('nbf in the past, or within the clock skew, is accepted', async () => {
    await assertAccepted('login', await handmade(HS256, claims('login', { nbf: now() - 5 })));
    await assertAccepted('login', await handmade(HS256, claims('login', { nbf: now() + 10 })));
  });
});

describe(`maximum lifetime (${MAX_TOKEN_LIFETIME_SECONDS} s): token_lifetime_too_long`, () => {
  for (const route of ROUTES) {
    test(`${route}: one second over the limit is refused; exactly the limit is accepted`, async () => {
      const iat = now();
      const error = await assertRefused(
        route,
        await handmade(HS256, claims(route, { iat, exp: iat + MAX_TOKEN_LIFETIME_SECONDS + 1 })),
        'token_lifetime_too_long',
      );
      assert.equal(error.data.max, MAX_TOKEN_LIFETIME_SECONDS);
      await assertAccepted(route, await handmade(HS256, claims(route, { iat, exp: iat + MAX_TOKEN_LIFETIME_SECONDS })));
    });
  }

  test('a token that expires in the year 3000', async () => {
    await assertRefused(
      'login',
      await handmade(HS256, claims('login', { exp: 32503680000 })),
      'token_lifetime_too_long',
    );
  });

  test('an old iat with a near exp still counts the whole lifetime', async () => {
    await assertRefused(
      'login',
      await handmade(HS256, claims('login', { iat: now() - 7200, exp: now() + 60 })),
      'token_lifetime_too_long',
    );
  });

  test('video-plugin/server refuses to mint one', async () => {
    await assert.rejects(
      createAccountToken({ partnerID: PARTNER, secret: SECRET, expiresIn: MAX_TOKEN_LIFETIME_SECONDS + 1 }),
      (error: Error & { code?: string; data?: { field?: string } }) =>
        error.code === 'invalid_parameter' && error.data?.field === 'expiresIn',
    );
  });
});

describe("another partner's tokens", () => {
  for (const route of ROUTES) {
    test(`${route}: a genuine other-partner token sent for this partner: token_unknown_issuer`, async () => {
      const token = await handmade(HS256, claims(route, { iss: OTHER }), OTHER_SECRET);
      const error = await assertRefused(route, token, 'token_unknown_issuer', { partnerID: PARTNER });
      assert.equal(error.data.iss, OTHER);
    });

    test(`${route}: a genuine token of this partner sent for the other: token_unknown_issuer`, async () => {
      await assertRefused(route, await handmade(HS256, claims(route)), 'token_unknown_issuer', { partnerID: OTHER });
    });
  }

  test('an iss that is not a string: token_unknown_issuer', async () => {
    await assertRefused(
      'login',
      await handmade(HS256, claims('login', { iss: ['test-partner'] })),
      'token_unknown_issuer',
    );
  });

  test("the other partner's genuine login token cannot reach this partner's account", async () => {
    for (const claim of [{ accountID: victim.id }, { externalID: 'victim' }]) {
      const token = await handmade(HS256, claims('login', { iss: OTHER, [ACCOUNT_CLAIM]: claim }), OTHER_SECRET);
      const before = counts();
      const result = await send('login', token);
      assert.equal(result.status, 404);
      assert.equal(result.body.error.code, 'account_not_found');
      assert.equal(result.body.session, undefined);
      // The token itself was valid, so its jti is spent; nothing else changed.
      assert.deepEqual(counts(), { ...before, usedJtis: before.usedJtis + 1 });
    }
  });
});

describe('replayed jti', () => {
  test('a token refused for any reason does not burn the jti of the genuine token', async () => {
    const jti = crypto.randomUUID();
    const genuine = claims('login', { jti });
    await assertRefused('login', await handmade(HS256, genuine, 'guess'), 'token_bad_signature');
    await assertRefused('login', `${encode({ alg: 'none' })}.${encode(genuine)}.`, 'token_algorithm_not_allowed');
    await assertRefused(
      'login',
      await handmade(HS256, { ...genuine, iat: now() - 120, exp: now() - 60 }),
      'token_expired',
    );
    await assertAccepted('login', await handmade(HS256, genuine));
  });

  for (const route of ROUTES) {
    test(`${route}: the same token twice in a row: the second is token_replayed`, async () => {
      const token = await handmade(HS256, claims(route));
      await assertAccepted(route, token);
      const error = await assertRefused(route, token, 'token_replayed');
      assert.equal(typeof error.data.jti, 'string');
    });

    test(`${route}: two concurrent uses of one token: exactly one succeeds`, async () => {
      const token = await handmade(HS256, claims(route));
      const before = service.stats();
      const results = await Promise.all([send(route, token), send(route, token)]);
      const ok = route === 'create' ? 201 : 200;
      assert.deepEqual(results.map((result) => result.status).sort(), [ok, 401]);
      assert.equal(results.find((result) => result.status === 401)?.body.error.code, 'token_replayed');
      const after = service.stats();
      assert.equal(after.accounts - before.accounts, route === 'create' ? 1 : 0);
      assert.equal(after.sessions - before.sessions, 1);
    });
  }

  test('two different, validly signed tokens sharing one jti, sent at once: exactly one succeeds', async () => {
    const jti = crypto.randomUUID();
    const tokens = await Promise.all([
      handmade(HS256, claims('create', { jti })),
      handmade(HS256, claims('create', { jti, [ACCOUNT_CLAIM]: { externalID: `twin-${++counter}` } })),
    ]);
    const before = service.stats();
    const results = await Promise.all(tokens.map((token) => send('create', token)));
    assert.deepEqual(results.map((result) => result.status).sort(), [201, 401]);
    assert.equal(service.stats().accounts - before.accounts, 1);
  });

  test('a jti used to create an account cannot be used again to log in', async () => {
    const jti = crypto.randomUUID();
    await assertAccepted('create', await handmade(HS256, claims('create', { jti })));
    await assertRefused('login', await handmade(HS256, claims('login', { jti })), 'token_replayed');
  });

  test('a valid token is spent even when its call fails (account_already_exists), so a retry is token_replayed', async () => {
    const token = await handmade(HS256, claims('create', { [ACCOUNT_CLAIM]: { externalID: 'victim' } }));
    assert.equal((await send('create', token)).body.error.code, 'account_already_exists');
    await assertRefused('create', token, 'token_replayed');
  });

  test("jti is per partner: the other partner's token with the same jti is its own", async () => {
    const jti = crypto.randomUUID();
    await assertAccepted('create', await handmade(HS256, claims('create', { jti })));
    const theirs = await handmade(HS256, claims('create', { jti, iss: OTHER }), OTHER_SECRET);
    assert.equal((await send('create', theirs)).status, 201);
  });
});

describe('oversized tokens', () => {
  /** A genuine create token padded (in the header, and by its jti) to exactly `bytes` bytes. */
  async function paddedTo(bytes: number): Promise<string> {
    const payload = claims('create');
    const make = (padding: number, jti: string) =>
      handmade({ ...HS256, padding: 'p'.repeat(padding) }, { ...payload, jti: `${jti}-${payload.jti}` });
    // Each padding character adds 4/3 of a base64url character: start just short of the target.
    const start = Math.floor(((bytes - (await make(0, 'j')).length) * 3) / 4) - 3;
    for (let padding = start; padding < start + 8; padding++) {
      for (const jti of ['j', 'jj', 'jjj']) {
        const token = await make(padding, jti);
        if (token.length === bytes) return token;
      }
    }
    throw new Error(`no padding gives ${bytes} bytes`);
  }

  test('8192 bytes is accepted; 8193 bytes is token_too_large', async () => {
    await assertAccepted('create', await paddedTo(8192));
    const error = await assertRefused('create', await paddedTo(8193), 'token_too_large');
    assert.match(error.message, /8193 bytes/);
  });

  test('the limit counts bytes, not characters', async () => {
    await assertRefused('login', 'é'.repeat(4097), 'token_too_large');
  });

  test('a body over 64 KB is refused before the token is read: 413 payload_too_large', async () => {
    const before = counts();
    const token = await handmade({ ...HS256, padding: 'p'.repeat(70_000) }, claims('create'));
    const result = await send('create', token);
    assert.equal(result.status, 413);
    assert.equal(result.body.error.code, 'payload_too_large');
    assert.deepEqual(counts(), before);
  });

  test('thousands of parts: token_malformed', async () => {
    await assertRefused('login', 'a.'.repeat(4000), 'token_malformed');
  });
});

test('after every attack, the victim still logs in with a genuine token, and only as itself', async () => {
  const token = await loginAccountToken({ partnerID: PARTNER, secret: SECRET, externalID: 'victim' });
  const body = await assertAccepted('login', token);
  assert.equal(body.account.id, victim.id);
  assert.equal(body.account.companyName, undefined);
});
