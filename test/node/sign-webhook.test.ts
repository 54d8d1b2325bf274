// signWebhookForTest (issue 41, the webhook kit): what it signs, verifyWebhook accepts, and refuses
// once changed; its timestamp and ID options; and its input validation, naming the field.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { InvalidParameterError } from '../../src/errors.js';
import {
  EVENT_CLAIM,
  SERVICE_DOMAIN,
  WEBHOOK_CLOCK_TOLERANCE_SECONDS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TOKEN_LIFETIME_SECONDS,
  WebhookVerificationError,
  signWebhookForTest,
  verifyWebhook,
  type WebhookErrorCode,
  type WebhookEventInput,
} from '../../src/server/index.js';

const partnerID = 'acme';
const secret = 'acme-webhook-secret-0123456789abcdef0123';
const verify = (body: string, options: { maxAgeSeconds?: number } = {}) =>
  verifyWebhook(body, { secret, partnerID, ...options });

const created: WebhookEventInput = {
  type: 'account.created',
  accountID: 'acct_1',
  externalID: 'user-1',
  data: { via: 'token', account: { firstName: 'Ada' } },
};
const completed: WebhookEventInput = {
  type: 'video.completed',
  accountID: 'acct_1',
  data: { videoID: 'vid_1', name: 'Spring sale', aspectRatio: '16:9', duration: 15, language: 'en' },
};

async function refused(body: string, code: WebhookErrorCode, options: { maxAgeSeconds?: number } = {}) {
  await assert.rejects(verify(body, options), (error: unknown) => {
    assert.ok(error instanceof WebhookVerificationError, String(error));
    assert.equal(error.code, code);
    return true;
  });
}

async function invalid(call: () => Promise<unknown>, field: string, says: RegExp) {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof InvalidParameterError, String(error));
    assert.equal(error.data?.field, field);
    assert.match(error.message, /^signWebhookForTest: /);
    assert.match(error.message, says);
    return true;
  });
}

describe('signWebhookForTest', () => {
  test('returns the body and headers of a delivery, which verifyWebhook accepts as the event signed', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { body, headers, event } = await signWebhookForTest(created, secret, { partnerID });
    assert.deepEqual(headers, { 'content-type': 'application/jwt', 'user-agent': 'video-plugin-service webhooks' });
    assert.deepEqual(decodeProtectedHeader(body), { alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(body);
    assert.equal(claims.iss, SERVICE_DOMAIN);
    assert.equal(claims.aud, partnerID);
    assert.equal(claims.jti, event.id);
    assert.ok(claims.iat! >= before && claims.iat! <= before + 2);
    assert.equal(claims.exp! - claims.iat!, WEBHOOK_TOKEN_LIFETIME_SECONDS);
    assert.deepEqual(claims[EVENT_CLAIM], event);

    assert.match(event.id, /^evt_[0-9a-f]{32}$/);
    assert.equal(Math.floor(Date.parse(event.createdAt) / 1000), claims.iat);
    assert.deepEqual(await verify(body), event);
    assert.deepEqual(await verify(body), { ...created, id: event.id, createdAt: event.createdAt });
  });

  test('every type of event verifies', async () => {
    const rendered: WebhookEventInput = {
      type: 'video.rendered',
      accountID: 'acct_1',
      data: {
        ...completed.data,
        renders: [
          {
            format: 'mp4',
            url: 'https://video.example/v/render.mp4',
            renderedAt: '2026-01-02T03:04:05.000Z',
            files: {
              video: { url: 'https://video.example/v/render.mp4', type: 'video/mp4' },
              poster: { url: 'https://video.example/v/poster.jpg', type: 'image/jpeg' },
            },
            altText: 'A 15-second video: Spring sale.',
          },
        ],
      },
    } as WebhookEventInput;
    const inputs = [created, completed, rendered];
    assert.deepEqual(
      inputs.map((input) => input.type),
      [...WEBHOOK_EVENT_TYPES],
    );
    for (const input of inputs) {
      const { body, event } = await signWebhookForTest(input, secret, { partnerID });
      assert.deepEqual(await verify(body), event, input.type);
    }
  });

  test('a changed body, another secret or another partner is refused as in production', async () => {
    const { body } = await signWebhookForTest(created, secret, { partnerID });
    const [header, payload, signature] = body.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    (claims[EVENT_CLAIM] as { accountID: string }).accountID = 'acct_2';
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    await refused(tampered, 'webhook_signature_invalid');

    const other = await signWebhookForTest(created, 'another-webhook-secret-0123456789abcdef', { partnerID });
    await refused(other.body, 'webhook_signature_invalid');
    const elsewhere = await signWebhookForTest(created, secret, { partnerID: 'globex' });
    await refused(elsewhere.body, 'webhook_wrong_audience');
  });

  test('id sets the event ID and the jti; without it, the event own id is kept', async () => {
    const chosen = await signWebhookForTest(created, secret, { partnerID, id: 'evt_chosen' });
    assert.equal(chosen.event.id, 'evt_chosen');
    assert.equal(decodeJwt(chosen.body).jti, 'evt_chosen');
    assert.equal((await verify(chosen.body)).id, 'evt_chosen');

    const own = await signWebhookForTest({ ...created, id: 'evt_own' }, secret, { partnerID });
    assert.equal((await verify(own.body)).id, 'evt_own');
    const both = await signWebhookForTest({ ...created, id: 'evt_own' }, secret, { partnerID, id: 'evt_option' });
    assert.equal((await verify(both.body)).id, 'evt_option');
  });

  test('issuedAt moves iat and exp, so a receiver tests its tolerance: expired, not yet valid, too old', async () => {
    const now = Date.now();
    const late = await signWebhookForTest(created, secret, {
      partnerID,
      issuedAt: now - (WEBHOOK_TOKEN_LIFETIME_SECONDS + WEBHOOK_CLOCK_TOLERANCE_SECONDS + 5) * 1000,
    });
    await refused(late.body, 'webhook_expired');

    const early = await signWebhookForTest(created, secret, {
      partnerID,
      issuedAt: new Date(now + (WEBHOOK_CLOCK_TOLERANCE_SECONDS + 60) * 1000),
    });
    await refused(early.body, 'webhook_not_yet_valid');

    // Within the lifetime, but older than the receiver's maxAgeSeconds (and its tolerance).
    const old = await signWebhookForTest(created, secret, { partnerID, issuedAt: now - 120_000 });
    assert.equal(decodeJwt(old.body).iat, Math.floor((now - 120_000) / 1000));
    assert.equal(old.event.createdAt, new Date(now - 120_000).toISOString());
    await refused(old.body, 'webhook_expired', { maxAgeSeconds: 60 });
    assert.equal((await verify(old.body)).id, old.event.id);

    // An event's own createdAt is kept whatever the signing time.
    const own = await signWebhookForTest({ ...created, createdAt: '2026-01-02T03:04:05.000Z' }, secret, { partnerID });
    assert.equal((await verify(own.body)).createdAt, '2026-01-02T03:04:05.000Z');
  });

  test('the test and redelivery marks reach the receiver through verifyWebhook', async () => {
    const { body } = await signWebhookForTest({ ...created, test: true, redelivery: true }, secret, { partnerID });
    const event = await verify(body);
    assert.equal(event.test, true);
    assert.equal(event.redelivery, true);
    const plain = await verify((await signWebhookForTest(created, secret, { partnerID })).body);
    assert.equal('test' in plain || 'redelivery' in plain, false);
  });

  test('bad input is refused naming the field, and says what to do', async () => {
    const sign = (event: unknown, key: unknown, options: unknown) =>
      signWebhookForTest(event as WebhookEventInput, key as string, options as { partnerID: string });
    await invalid(() => sign(created, secret, undefined), 'partnerID', /required/);
    await invalid(() => sign(created, secret, { partnerID: '' }), 'partnerID', /partner ID the service gave you/);
    await invalid(() => sign(created, 'short', { partnerID }), 'secret', /at least 32 bytes/);
    await invalid(
      () => sign(created, secret, { partnerID, issuedAt: Number.NaN }),
      'issuedAt',
      /valid Date or a number of milliseconds/,
    );
    await invalid(() => sign(created, secret, { partnerID, issuedAt: new Date('never') }), 'issuedAt', /valid Date/);
    await invalid(() => sign(created, secret, { partnerID, id: '' }), 'id', /must not be empty/);
    await invalid(() => sign(created, secret, { partnerID, expiresIn: 5 }), 'expiresIn', /allowed: .*issuedAt/);
    await invalid(() => sign(undefined, secret, { partnerID }), 'event', /required/);
    await invalid(
      () => sign({ ...created, type: 'video.deleted' }, secret, { partnerID }),
      'event.type',
      /"account.created", "video.completed", "video.rendered"/,
    );
    const { videoID: _dropped, ...data } = completed.data as Record<string, unknown>;
    await invalid(() => sign({ ...completed, data }, secret, { partnerID }), 'event.data.videoID', /required/);
    await invalid(
      () => sign({ ...completed, data: { ...completed.data, duration: 7 } }, secret, { partnerID }),
      'event.data.duration',
      /5, 15, 30/,
    );
    await invalid(
      () => sign({ ...created, createdAt: 'yesterday' }, secret, { partnerID }),
      'event.createdAt',
      /datetime/,
    );
  });
});
