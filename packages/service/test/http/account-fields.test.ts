// One truth for the account fields (issue 31): each field's limit, ACCOUNT_FIELD_LIMITS of the wire
// contract, holds at every door. A value one door accepts, every door accepts (so what a user gave
// at sign-up can be saved back unchanged), and one that a door refuses, every door refuses, naming
// the same field: the token helpers, the Plugin's updateAccountInfo (the schema the Plugin and the
// iframe page parse with), and the service's routes, reached with tokens signed by hand so that the
// helpers' own checks cannot hide the service's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { VideoPluginError } from '../../../../src/errors.js';
import { updatableAccountInfoSchema } from '../../../../src/options.js';
import { parse } from '../../../../src/validate.js';
import { ACCOUNT_FIELD_LIMITS, type AccountField } from '../../../../src/wire/api.js';
import {
  ACCOUNT_CLAIM,
  KIND_CLAIM,
  SERVICE_DOMAIN,
  createAccountToken,
  loginOrCreateAccountToken,
  type TokenKind,
} from '../../../../src/server/index.js';
import { PARTNER, SECRET, api, createAccount, startTestService } from '../support/helpers.js';

const service = await startTestService();
const FIELDS = Object.keys(ACCOUNT_FIELD_LIMITS) as AccountField[];

/** What one door made of a value: accepted, or refused naming a field (the last part of its path). */
type Outcome = { accepted: true } | { accepted: false; field: string; message: string };

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    await run();
    return { accepted: true };
  } catch (error) {
    if (!(error instanceof VideoPluginError)) throw error;
    return { accepted: false, field: String(error.data?.field).split('.').at(-1)!, message: error.message };
  }
}

/** A service answer as an outcome: 2xx accepted, else the error's field (or the token claim's). */
function answered(result: {
  status: number;
  body: { error?: { message: string; data?: { field?: string } } };
}): Outcome {
  if (result.status < 300) return { accepted: true };
  const { error } = result.body;
  return { accepted: false, field: String(error?.data?.field).split('.').at(-1)!, message: String(error?.message) };
}

/** A token signed by hand (no helper checks), of `kind`, carrying `claim`. */
function handmade(kind: TokenKind, claim: Record<string, string>): Promise<string> {
  return new SignJWT({ [ACCOUNT_CLAIM]: claim, [KIND_CLAIM]: kind })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(crypto.randomUUID())
    .setIssuer(PARTNER)
    .setAudience(SERVICE_DOMAIN)
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(new TextEncoder().encode(SECRET));
}

let counter = 0;
const externalID = () => `fields-${++counter}-${Date.now()}`;

/** Every door, given `{ [field]: value }`. */
function doors(field: AccountField, value: string): Record<string, () => Promise<Outcome>> {
  const fields = { [field]: value };
  // The uncontrolled sign-in (no token) takes three of the fields.
  const signIn: Record<string, () => Promise<Outcome>> = ['emailAddress', 'firstName', 'lastName'].includes(field)
    ? {
        'POST sign-in (uncontrolled)': async () =>
          answered(
            await api(service, 'POST', `/api/partners/${PARTNER}/sign-in`, {
              body: { emailAddress: `${externalID()}@example.com`, ...fields },
            }),
          ),
      }
    : {};
  return {
    ...signIn,
    createAccountToken: () =>
      outcome(() => createAccountToken({ partnerID: PARTNER, secret: SECRET, account: fields })),
    loginOrCreateAccountToken: () =>
      outcome(() =>
        loginOrCreateAccountToken({ partnerID: PARTNER, secret: SECRET, externalID: 'x', account: fields }),
      ),
    'Plugin#updateAccountInfo': () => outcome(async () => parse(updatableAccountInfoSchema, fields, 'newAccountInfo')),
    'POST /api/accounts': async () =>
      answered(
        await api(service, 'POST', '/api/accounts', {
          body: { token: await handmade('create', { ...fields, externalID: externalID() }) },
        }),
      ),
    'POST /api/sessions (sign in or sign up)': async () =>
      answered(
        await api(service, 'POST', '/api/sessions', {
          body: { token: await handmade('loginOrCreate', { ...fields, externalID: externalID() }) },
        }),
      ),
    'PATCH /api/account': async () => {
      const { session } = await createAccount(service);
      return answered(await api(service, 'PATCH', '/api/account', { session, body: fields }));
    },
  };
}

describe('account field limits: every door agrees', () => {
  test('the fields and their limits are the ones the docs state', () => {
    assert.deepEqual(FIELDS, ['firstName', 'lastName', 'emailAddress', 'companyName', 'phone', 'city', 'state']);
    for (const field of FIELDS) assert.equal(ACCOUNT_FIELD_LIMITS[field], 256, field);
  });

  for (const field of FIELDS) {
    const limit = ACCOUNT_FIELD_LIMITS[field];
    test(`${field}: ${limit} characters pass every door, ${limit + 1} are refused by every door naming ${field}`, async () => {
      for (const [door, run] of Object.entries(doors(field, 'a'.repeat(limit)))) {
        assert.deepEqual(await run(), { accepted: true }, `${door} accepts ${limit} characters`);
      }
      for (const [door, run] of Object.entries(doors(field, 'a'.repeat(limit + 1)))) {
        const result = await run();
        assert.equal(result.accepted, false, `${door} refuses ${limit + 1} characters`);
        if (!result.accepted) {
          assert.equal(result.field, field, `${door} names the field`);
          assert.match(result.message, new RegExp(`at most ${limit} characters`), `${door} says the limit`);
        }
      }
    });
  }

  test('a phone accepted at sign-up is saved back unchanged (the drift of issue 31)', async () => {
    const phone = `+1 555 0100 ext. ${'9'.repeat(200)}`;
    const { session, account } = await createAccount(service, { phone });
    assert.equal(account.phone, phone);
    parse(updatableAccountInfoSchema, { phone }, 'newAccountInfo');
    const saved = await api(service, 'PATCH', '/api/account', { session, body: { phone } });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.account.phone, phone);
  });
});
