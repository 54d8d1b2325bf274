// The error classes (src/errors.ts): both ways to construct one, each class's default code, its
// name and family, and the way back from the plain form that crosses the iframe and the HTTP API.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import * as errors from '../../src/errors.js';
import {
  AccountAlreadyExistsError,
  AccountMethodsDisabledError,
  ConnectionError,
  deserializeError,
  DestroyedError,
  FrameBlockedError,
  InvalidParameterError,
  InvalidStateError,
  InvalidTokenError,
  NotAuthenticatedError,
  NotFoundError,
  OriginNotAllowedError,
  serializeError,
  ServiceError,
  TimeoutError,
  VideoPluginError,
  type ErrorCode,
} from '../../src/errors.js';
import { ERROR_TABLE, type ErrorRow } from '../../src/error-table.js';

/** Each class, by its name, with the code `new Class(message)` gives it (docs/plugin-api.md, "Errors"). */
const DEFAULTS: [typeof VideoPluginError, string, ErrorCode][] = [
  [VideoPluginError, 'VideoPluginError', 'internal_error'],
  [InvalidParameterError, 'InvalidParameterError', 'invalid_parameter'],
  [NotAuthenticatedError, 'NotAuthenticatedError', 'not_authenticated'],
  [AccountMethodsDisabledError, 'AccountMethodsDisabledError', 'account_methods_disabled'],
  [InvalidStateError, 'InvalidStateError', 'invalid_state'],
  [NotFoundError, 'NotFoundError', 'not_found'],
  [AccountAlreadyExistsError, 'AccountAlreadyExistsError', 'account_already_exists'],
  [InvalidTokenError, 'InvalidTokenError', 'token_malformed'],
  [TimeoutError, 'TimeoutError', 'timeout'],
  [ConnectionError, 'ConnectionError', 'connection_failed'],
  [OriginNotAllowedError, 'OriginNotAllowedError', 'origin_not_allowed'],
  [FrameBlockedError, 'FrameBlockedError', 'frame_blocked'],
  [DestroyedError, 'DestroyedError', 'destroyed'],
  [ServiceError, 'ServiceError', 'internal_error'],
];

describe('error classes', () => {
  test('the table above covers every exported class', () => {
    const exported = Object.entries(errors)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name)
      .sort();
    assert.deepEqual(exported, DEFAULTS.map(([, name]) => name).sort());
  });

  for (const [Class, name, code] of DEFAULTS) {
    test(`${name}: (message, data?) takes ${code}; (code, message, data?) the code given`, () => {
      const short = new Class('It broke.', { field: 'x' });
      assert.equal(short.code, code);
      assert.equal(short.message, 'It broke.');
      assert.deepEqual(short.data, { field: 'x' });
      assert.equal(short.name, name);
      assert.ok(short instanceof Class && short instanceof VideoPluginError && short instanceof Error);
      assert.deepEqual(Object.keys(short).sort(), ['code', 'data']);
      assert.deepEqual(short.toJSON(), { code, message: 'It broke.', data: { field: 'x' } });

      const bare = new Class('No data.');
      assert.equal(bare.code, code);
      assert.equal('data' in bare, false);
      assert.deepEqual(JSON.parse(JSON.stringify(bare)), { code, message: 'No data.' });

      const long = new Class('video_not_found', 'No video "v1".', { videoId: 'v1' });
      assert.equal(long.code, 'video_not_found');
      assert.equal(long.message, 'No video "v1".');
      assert.deepEqual(long.data, { videoId: 'v1' });
      assert.equal(long.name, name);
      assert.ok(long instanceof Class);
      // The code given is the instance's own: the class's default is untouched.
      assert.equal(new Class('Again.').code, code);

      assert.equal(String(short), `${name}: It broke.`);
      assert.match(short.stack ?? '', new RegExp(`^${name}: It broke\\.`));
    });
  }

  test('a long form without data has no data; an empty message stays empty', () => {
    const error = new InvalidStateError('invalid_state', '');
    assert.equal(error.code, 'invalid_state');
    assert.equal(error.message, '');
    assert.equal('data' in error, false);
  });

  test("a partner's subclass takes its parent's default code, and its own when it sets one", () => {
    class GoneError extends NotFoundError {}
    assert.equal(new GoneError('Gone.').code, 'not_found');
    assert.ok(new GoneError('Gone.') instanceof NotFoundError);
    class QuotaError extends ServiceError {
      constructor(message: string) {
        super('rate_limited', message, { retryAfterMs: 1000 });
      }
    }
    const quota = new QuotaError('Slow down.');
    assert.equal(quota.code, 'rate_limited');
    assert.deepEqual(quota.data, { retryAfterMs: 1000 });
  });

  test('deserializeError gives each default code its class back, and every code a class of its family', () => {
    for (const [Class, name, code] of DEFAULTS) {
      const error = deserializeError(new Class('From the wire.', { n: 1 }).toJSON());
      // `internal_error` is the base class's default; from the wire it is the service's failure.
      const Expected = Class === VideoPluginError ? ServiceError : Class;
      assert.ok(error instanceof Expected, `${name} (${code}) came back as ${error.name}`);
      assert.deepEqual(error.toJSON(), { code, message: 'From the wire.', data: { n: 1 } });
    }
    // Every code comes back from its plain form as the class of its row (error-table.ts), but one
    // made where it is thrown (`local`), which is unknown on the wire: the service's failure.
    for (const code of Object.keys(ERROR_TABLE) as ErrorCode[]) {
      const row: ErrorRow = ERROR_TABLE[code];
      assert.equal(deserializeError({ code, message: 'm' }).name, row.local ? 'ServiceError' : row.class, code);
    }
    const unknown = deserializeError({ code: 'made_up', message: 'Odd.' });
    assert.ok(unknown instanceof ServiceError);
    assert.equal(unknown.code, 'internal_error');
    assert.equal(unknown.message, 'Odd.');
  });

  test('serializeError keeps a VideoPluginError and wraps anything else as internal_error', () => {
    assert.deepEqual(serializeError(new DestroyedError('Gone.')), { code: 'destroyed', message: 'Gone.' });
    assert.deepEqual(serializeError(new Error('boom')), {
      code: 'internal_error',
      message: 'The service failed unexpectedly: boom',
    });
  });

  test("docs/plugin-api.md's table of classes lists each code a page can receive, in its class's row", () => {
    const docs = readFileSync(new URL('../../docs/plugin-api.md', import.meta.url), 'utf8');
    const table = docs.slice(docs.indexOf('## Errors'), docs.indexOf('**Making an error**'));
    const listed = new Map<string, string>();
    for (const [, name, codes] of table.matchAll(/^\| `(\w+)`\s*\| ([^|]*)\|/gm)) {
      for (const [, code] of codes!.matchAll(/`(\w+)`/g)) listed.set(code!, name!);
    }
    for (const code of Object.keys(ERROR_TABLE) as ErrorCode[]) {
      const row: ErrorRow = ERROR_TABLE[code];
      if (row.page === false) assert.ok(!listed.has(code), `${code} is listed, but no page receives it`);
      else assert.equal(listed.get(code), row.class, `${code}: in the row of ${row.class}`);
    }
  });
});
