// The checks of video-plugin/diagnose (src/diagnose/checks.ts) are a table: one named entry per
// check id, in the order a diagnosis reports them, so that the file reads as the report does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHECKS, CHECK_IDS, buildChecks, type Findings } from '../../src/diagnose/checks.js';

/** A page without a CSP whose service could not be reached: every check says something. */
const findings: Findings = {
  partnerID: 'demo-partner',
  authMode: 'jwt',
  base: new URL('http://127.0.0.1:8001/'),
  pageOrigin: 'http://localhost:8000',
  secure: false,
  page: {
    csp: [],
    referrer: { policy: 'strict-origin-when-cross-origin', from: 'default' },
    headers: { read: true, url: 'http://localhost:8000/' },
  },
  blocked: { 'frame-src': [], 'connect-src': [], 'img-src': [], 'media-src': [] },
  scripts: [],
  violations: [],
  probe: { kind: 'unreachable', why: 'TypeError: Failed to fetch' },
  trial: {
    trial: { kind: 'silent', loaded: false, error: { code: 'connection_failed', message: 'No answer.' } },
    hellos: [],
    debugLog: [],
  },
  ancestors: { origins: [], unknown: false },
  sdkCopies: [],
  getLoginToken: false,
  debugElements: 0,
};

describe('diagnose: the table of checks', () => {
  test('has one entry per check id, in the order of CHECK_IDS', () => {
    assert.deepEqual(Object.keys(CHECKS), [...CHECK_IDS]);
  });

  test('buildChecks gives each entry its id, in that order, and no fix key where there is none', () => {
    const checks = buildChecks(findings);
    assert.deepEqual(
      checks.map((check) => check.id),
      [...CHECK_IDS],
    );
    const service = checks.find((check) => check.id === 'service')!;
    assert.equal(service.status, 'error');
    assert.equal(service.fix, 'npx video-plugin-service --port 8001');
    const partner = checks.find((check) => check.id === 'partner')!;
    assert.deepEqual(Object.keys(partner), ['id', 'status', 'message']);
  });

  test("connection names the earlier check that explains it: the service's, here", () => {
    const connection = buildChecks(findings).find((check) => check.id === 'connection')!;
    assert.equal(
      connection.message,
      'The service frame did not connect: the service did not answer (see service). The Plugin would reject every call with a ConnectionError.',
    );
  });
});
