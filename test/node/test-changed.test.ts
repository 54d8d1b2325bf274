// `npm run test:changed` (test/harness/test-changed.mjs): which suites a change selects. A suite is
// selected when its own file or any module it reaches through imports changed; a change to the
// browser harness or the studio's pages selects every browser suite; nothing else selects one.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
// @ts-expect-error: a plain JavaScript script without declarations.
import { importsOf, selectSuites } from '../harness/test-changed.mjs';

type Select = (root: string, changed: string[]) => { browser: string[]; node: string[] };
const select = selectSuites as Select;

/** A small project laid out like this one: sources, a shared test helper, browser and Node suites. */
const root = mkdtempSync(join(tmpdir(), 'video-plugin-test-changed-'));
after(() => rmSync(root, { recursive: true, force: true }));
const files: Record<string, string> = {
  'src/errors.ts': 'export class VideoPluginError extends Error {}\n',
  'src/wire/protocol.ts': "import { VideoPluginError } from '../errors.js';\nexport const V = VideoPluginError;\n",
  'src/plugin.ts': "import { V } from './wire/protocol.js';\nexport { V };\n",
  'src/element/index.ts': "export * from '../plugin.js';\n",
  'src/server/index.ts': 'export const sign = () => 1;\n',
  'test/support/plugin.ts': "import type { V } from '../../src/plugin.js';\nexport type T = V;\n",
  'test/harness/wtr/service-plugin.mjs': 'export const plugin = {};\n',
  'test/browser/plugin.test.ts': "import { type T } from '../support/plugin.js';\nexport type U = T;\n",
  'test/browser/element.test.ts': "import '../../src/element/index.js';\n",
  'test/browser/wire.test.ts': [
    'import {',
    '  V,',
    "} from '../../src/wire/protocol.js';",
    "const later = () => import('../support/plugin.js');",
    'export { V, later };',
  ].join('\n'),
  'test/browser/csp.test.ts': 'export const alone = 1;\n',
  'test/node/server-helpers.test.ts': "import { sign } from '../../src/server/index.js';\nexport { sign };\n",
  'packages/service/src/store/store.ts': 'export const store = 1;\n',
  'packages/service/src/http/api.ts': "import { store } from '../store/store.js';\nexport { store };\n",
  'packages/service/src/pages/app.ts': 'export const page = 1;\n',
  'packages/service/test/http/api.test.ts': "import { store } from '../../src/http/api.js';\nexport { store };\n",
  'packages/service/test/store/persistence.test.ts':
    "import { store } from '../../src/store/store.js';\nexport { store };\n",
  'README.md': '# a project\n',
};
for (const [file, code] of Object.entries(files)) {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), code);
}

const ALL_BROWSER = [
  'test/browser/csp.test.ts',
  'test/browser/element.test.ts',
  'test/browser/plugin.test.ts',
  'test/browser/wire.test.ts',
];

describe('test:changed: the suites a change selects', () => {
  test('a suite changed: that suite alone', () => {
    assert.deepEqual(select(root, ['test/browser/csp.test.ts']), { browser: ['test/browser/csp.test.ts'], node: [] });
    assert.deepEqual(select(root, ['packages/service/test/http/api.test.ts']), {
      browser: [],
      node: ['packages/service/test/http/api.test.ts'],
    });
  });

  test('a module changed: every suite that reaches it through imports, however deep, and no other', () => {
    // errors.ts ← protocol.ts ← plugin.ts ← element/index.ts (a re-export) and ← support/plugin.ts (a type import).
    assert.deepEqual(select(root, ['src/errors.ts']), {
      browser: ['test/browser/element.test.ts', 'test/browser/plugin.test.ts', 'test/browser/wire.test.ts'],
      node: [],
    });
    // A dynamic import counts too (wire.test.ts imports support/plugin.ts with import()).
    assert.deepEqual(select(root, ['test/support/plugin.ts']).browser, [
      'test/browser/plugin.test.ts',
      'test/browser/wire.test.ts',
    ]);
    assert.deepEqual(select(root, ['src/server/index.ts']), {
      browser: [],
      node: ['test/node/server-helpers.test.ts'],
    });
    assert.deepEqual(select(root, ['packages/service/src/store/store.ts']), {
      browser: [],
      node: ['packages/service/test/http/api.test.ts', 'packages/service/test/store/persistence.test.ts'],
    });
  });

  test("the browser harness or the studio's pages changed: every browser suite", () => {
    for (const file of [
      'web-test-runner.config.mjs',
      'test/harness/browsers.mjs',
      'test/harness/wtr/service-plugin.mjs',
      'packages/service/src/pages/app.ts',
    ]) {
      assert.deepEqual(select(root, [file]), { browser: ALL_BROWSER, node: [] }, file);
    }
  });

  test('nothing that a suite imports changed: no suite', () => {
    assert.deepEqual(select(root, ['README.md']), { browser: [], node: [] });
    assert.deepEqual(select(root, []), { browser: [], node: [] });
  });

  test('reads static, type-only, side-effect and dynamic imports and re-exports; ignores packages', () => {
    const code = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "import './c.js';",
      "export * from './d.js';",
      "export { e } from './e.js';",
      "const f = await import('./f.js');",
      "import { expect } from '@open-wc/testing';",
      "import { join } from 'node:path';",
    ].join('\n');
    assert.deepEqual(importsOf(code).sort(), ['../b.js', './a.js', './c.js', './d.js', './e.js', './f.js']);
  });
});
