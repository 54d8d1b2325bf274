// The browser matrix's one shortcut, proven (issue 30): the storage-rule configurations
// (chromium-block-all, chromium-unpartitioned) run only STORAGE_SUITES (test/harness/browsers.mjs),
// so a browser suite where storage can decide must be in that list. This reads every suite and fails,
// naming the suite and what it found, when one that touches storage is left out.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
// @ts-expect-error -- a script of the repository, JavaScript without declarations
import { API_SUITES, CHROMIUM_PARTS, ENGINES, STORAGE_SUITES } from '../harness/browsers.mjs';

/**
 * What makes storage decide in a suite: the browser's storage APIs; the frame commands that read,
 * clear or deny the studio frame's storage, or reload or navigate it (`frame-${action}` is the
 * faults suite's way of naming the last two); `getLoginToken`, the SDK's way back when a reload lost
 * the session (a test that moves, reloads or crashes a signed-in studio passes it, or gets a session
 * that depends on storage); and diagnose(), which reports the frame's storage.
 */
const STORAGE_SIGNS =
  /\b(localStorage|sessionStorage|indexedDB|document\.cookie|requestStorageAccess|hasStorageAccess|navigator\.storage)\b|'frame-(storage|reload|navigate)'|`frame-\$\{|getLoginToken|\bdiagnose\(/g;

/**
 * Suites with a sign of storage where storage decides nothing, each with the signs it may have and
 * why. Any other sign in them (a reload, a navigation, a storage API) fails the check as above.
 */
const STORAGE_DECIDES_NOTHING: Record<string, { signs: string[]; why: string }> = {
  'test/browser/faults.test.ts': {
    signs: ['getLoginToken'],
    why: 'the service restarts while the studio frame stays loaded: no studio page loads signed in, nothing is read from storage',
  },
  'test/browser/diagnose.test.ts': {
    signs: ['diagnose(', 'getLoginToken'],
    why: 'every check but the storage check, which is in session.test.ts; the healthy page passes getLoginToken, so its storage check is ok under every rule',
  },
};

const suites = readdirSync('test/browser')
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/browser/${name}`);

test('every browser suite where storage can decide runs in the storage-rule configurations', () => {
  const missing = suites.flatMap((file) => {
    const allowed = STORAGE_DECIDES_NOTHING[file]?.signs ?? [];
    const signs = [...new Set(readFileSync(file, 'utf8').match(STORAGE_SIGNS) ?? [])].filter(
      (sign) => !allowed.includes(sign),
    );
    return signs.length > 0 && !STORAGE_SUITES.includes(file) ? [`${file} (${signs.join(', ')})`] : [];
  });
  assert.deepEqual(
    missing,
    [],
    `these suites touch storage but are not in STORAGE_SUITES (test/harness/browsers.mjs): add them there and to docs/testing.md, "Engines and storage rules"`,
  );
});

test('a suite where storage decides nothing is not in STORAGE_SUITES, and has each sign it is allowed', () => {
  for (const [file, { signs }] of Object.entries(STORAGE_DECIDES_NOTHING)) {
    assert.ok(!STORAGE_SUITES.includes(file), `${file} runs in the storage-rule configurations: drop its exception`);
    const found = new Set(readFileSync(file, 'utf8').match(STORAGE_SIGNS) ?? []);
    for (const sign of signs) assert.ok(found.has(sign), `${file} no longer has ${sign}: drop it from its exception`);
  }
});

test('the storage-rule configurations run exactly STORAGE_SUITES, each an API suite that exists', () => {
  for (const name of ['chromium-block-all', 'chromium-unpartitioned']) {
    assert.deepEqual(ENGINES[name].files, STORAGE_SUITES, name);
  }
  for (const file of STORAGE_SUITES) {
    assert.ok(suites.includes(file), `${file} is in STORAGE_SUITES but does not exist`);
    assert.ok(API_SUITES.includes(file), `${file} is in STORAGE_SUITES but not in API_SUITES`);
  }
});

test("Chromium's two parts in npm test are every browser suite, each once", () => {
  const real: string[] = CHROMIUM_PARTS['real-media'];
  const other: string[] = CHROMIUM_PARTS['other-suites'];
  const leftOut = other.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1));
  assert.deepEqual(ENGINES.chromium.files, ['test/browser/**/*.test.ts']);
  assert.deepEqual(
    other.filter((pattern) => !pattern.startsWith('!')),
    ENGINES.chromium.files,
  );
  // What the second part leaves out is exactly what the first runs, and each of those exists.
  assert.deepEqual(leftOut, real);
  for (const file of real) assert.ok(suites.includes(file), `${file} does not exist`);
});

test('the check finds storage in a suite: each sign is recognised', () => {
  for (const sign of [
    'sessionStorage.getItem(key)',
    "executeServerCommand('frame-storage', x)",
    'executeServerCommand(`frame-${action}`, x)',
    'createPlugin({ getLoginToken: getLoginTokenFor() })',
    'await plugin.diagnose()',
  ]) {
    assert.match(sign, new RegExp(STORAGE_SIGNS.source), sign);
  }
  assert.doesNotMatch('plugin.openPlugin(); frame-text', new RegExp(STORAGE_SIGNS.source));
});
