// diagnose()'s partner check (src/diagnose/checks.ts) on the answers of a real service to an
// unknown partner: a developer's own service names the partners it knows, and diagnose() shows
// them; a shared one (--shared) names none, and diagnose() still says what to check.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { buildChecks, type Findings } from '../../src/diagnose/checks.js';
import type { SerializedError } from '../../src/errors.js';
import { startService, type RunningService } from '../../packages/service/src/server.js';

const PARTNERS = [
  { id: 'mkt-platform', secret: 'mkt-platform-secret-0123456789abcdef0123' },
  { id: 'other-shop', secret: 'other-shop-secret-0123456789abcdef012345' },
];

async function serviceOf(shared: boolean): Promise<RunningService> {
  const service = await startService({ port: 0, media: 'placeholder', partners: PARTNERS, shared });
  after(() => service.close());
  return service;
}

/** The partner check of a diagnosis of `partnerID` against `service`, from its own diagnose answer. */
async function partnerCheck(service: RunningService, partnerID: string) {
  const response = await fetch(`${service.url}/api/diagnose?partnerID=${partnerID}`, {
    headers: { origin: 'http://localhost:8000' },
  });
  const { error } = (await response.json()) as { error: SerializedError };
  const findings: Findings = {
    partnerID,
    authMode: 'jwt',
    base: new URL(`${service.url}/`),
    pageOrigin: 'http://localhost:8000',
    secure: false,
    page: {
      csp: [],
      referrer: { policy: 'strict-origin-when-cross-origin', from: 'default' },
      headers: { read: false, why: 'a test' },
    },
    blocked: { 'frame-src': [], 'connect-src': [], 'img-src': [], 'media-src': [] },
    scripts: [],
    violations: [],
    probe: { kind: 'refused', status: 200, error },
    trial: { trial: { kind: 'skipped' }, hellos: [], debugLog: [] },
    ancestors: { origins: [], unknown: false },
    sdkCopies: [],
    getLoginToken: false,
    debugElements: 0,
  };
  return buildChecks(findings).find((check) => check.id === 'partner')!;
}

describe("diagnose(): an unknown partner's check", () => {
  test("on a developer's own service: names the partners it knows", async () => {
    const check = await partnerCheck(await serviceOf(false), 'mkt-plattform');
    assert.equal(check.status, 'error');
    assert.match(check.message, /knows no partner "mkt-plattform"; it knows "mkt-platform", "other-shop"\./);
    assert.equal(check.fix, undefined);
  });

  test('on a shared service: names none, and still says what to check', async () => {
    const check = await partnerCheck(await serviceOf(true), 'mkt-plattform');
    assert.equal(check.status, 'error');
    assert.match(check.message, /knows no partner "mkt-plattform"\. Every call would reject with a NotFoundError/);
    assert.match(check.message, /Check partner-id \(the Plugin's partnerID\) and the iss of your tokens/);
    assert.doesNotMatch(check.message, /mkt-platform"|other-shop/);
    assert.equal(check.fix, undefined);
  });
});
