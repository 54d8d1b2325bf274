// The framework entries as a partner's project gets them (after `npm run build`): the type
// integrations (video-plugin/vue, /svelte, /solid, /jsx) are types only and type-check a snippet
// per framework (test/types), and video-plugin/react is a React component that renders
// <video-plugin>, kept out of the CDN files. The apps that drive the element in Chromium, one per
// framework, are examples/frameworks (npm run test:frameworks).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const TYPE_ENTRIES = ['./vue', './svelte', './solid', './jsx'];

before(() => {
  assert.ok(existsSync(join(root, 'dist/frameworks')), 'dist/ is missing: run `npm run build` first (npm test does).');
});

describe('framework type integrations', () => {
  test('video-plugin/vue, /svelte, /solid and /jsx are types only: no JavaScript to bundle', () => {
    for (const entry of TYPE_ENTRIES) {
      assert.deepEqual(Object.keys(pkg.exports[entry]), ['types'], `${entry} has a types condition only`);
      assert.ok(existsSync(join(root, pkg.exports[entry].types)), `${entry} → ${pkg.exports[entry].types} exists`);
    }
    assert.deepEqual(
      readdirSync(join(root, 'dist/frameworks')).filter((file) => !file.endsWith('.d.ts')),
      [],
      'dist/frameworks holds declarations only',
    );
  });

  test('they follow custom-elements.json: every attribute, settable property and event is typed', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8'));
    const element = manifest.modules
      .flatMap((module: { declarations?: unknown[] }) => module.declarations ?? [])
      .find((declaration: { tagName?: string }) => declaration.tagName === 'video-plugin');
    const types = readFileSync(join(root, 'dist/frameworks/jsx.d.ts'), 'utf8');
    for (const attribute of element.attributes) {
      assert.match(types, new RegExp(`'?${attribute.name}'?\\?: VideoPluginElement\\['${attribute.fieldName}'\\]`));
    }
    for (const name of ['appearance', 'editor', 'callbacks', 'getLoginToken']) {
      assert.match(types, new RegExp(`\\b${name}\\?: VideoPluginElement\\['${name}'\\]`), `${name} is a property`);
    }
    assert.doesNotMatch(types, /\bplugin\?:|\bready\?:/, 'the read-only plugin and ready are not props');
    for (const event of element.events) assert.ok(types.includes(`'${event.name}'`), `event ${event.name}`);
  });

  test('a snippet per framework type-checks against them, and wrong props fail (test/types)', async () => {
    // Each snippet also holds wrong props under @ts-expect-error: were the types loose (any), tsc
    // would report those directives as unused.
    const tsc = join(root, 'node_modules/.bin/tsc');
    const { stdout } = await promisify(execFile)(tsc, ['-p', 'test/types/tsconfig.json', '--listFiles'], {
      cwd: root,
    });
    for (const file of ['vue.d.ts', 'svelte.d.ts', 'solid.d.ts', 'jsx.d.ts']) {
      assert.ok(stdout.includes(`dist/frameworks/${file}`), `the snippets compiled against dist/frameworks/${file}`);
    }
    assert.ok(stdout.includes('dist/react.d.ts'), 'the React 18 snippet compiled against dist/react.d.ts');
  });
});

describe('video-plugin/react', () => {
  test('exports the VideoPlugin component and renders <video-plugin> on the server', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
        import { createElement } from 'react';
        import { renderToString } from 'react-dom/server';
        const react = await import('video-plugin/react');
        const html = renderToString(createElement(react.VideoPlugin, { partnerID: 'acme', theme: 'dark', appearance: { colorPrimary: '#123456' } }));
        console.log(JSON.stringify({ names: Object.keys(react).sort(), displayName: react.VideoPlugin.displayName, html }));
        `,
      ],
      { cwd: root },
    );
    const result = JSON.parse(stdout);
    assert.deepEqual(result.names, ['VideoPlugin', 'VideoPluginElement']);
    assert.equal(result.displayName, 'VideoPlugin');
    assert.match(result.html, /^<video-plugin\b/);
    assert.doesNotMatch(result.html, /\[object Object\]/, 'an object property is never stringified into the markup');
  });

  test('react and @lit/react are optional peers, and stay out of the CDN files', () => {
    assert.equal(pkg.peerDependenciesMeta.react.optional, true);
    assert.equal(pkg.peerDependenciesMeta['@lit/react'].optional, true);
    assert.ok(!pkg.dependencies.react && !pkg.dependencies['@lit/react']);
    for (const file of readdirSync(join(root, 'dist/cdn')).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(root, 'dist/cdn', file), 'utf8');
      assert.ok(!/createComponent|react\.element|useLayoutEffect/.test(code), `${file} has no React wrapper code`);
    }
  });
});
