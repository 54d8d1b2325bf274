// The package as partners install it: every `exports` entry resolves by package name to the built
// files (after `npm run build`), the element module is safe to import on a server, and the
// package.json fields that tools read point at files that exist.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { JSX } from 'react';
import type {} from '../../src/element/react.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let consumer: string;

/** Runs an ES module in a fresh Node process inside a project that depends on video-plugin. */
async function runInConsumer(source: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source], {
    cwd: consumer,
  });
  return JSON.parse(stdout);
}

before(() => {
  assert.ok(existsSync(join(root, 'dist/index.js')), 'dist/ is missing: run `npm run build` first (npm test does).');
  // A partner's project: node_modules/video-plugin is this package, as `npm install` would link it.
  consumer = mkdtempSync(join(tmpdir(), 'video-plugin-consumer-'));
  mkdirSync(join(consumer, 'node_modules'));
  symlinkSync(root, join(consumer, 'node_modules/video-plugin'), 'dir');
});

after(() => rmSync(consumer, { recursive: true, force: true }));

describe('package exports', () => {
  test('video-plugin, video-plugin/element and video-plugin/server import by name from dist/', async () => {
    const result = (await runInConsumer(`
      const main = await import('video-plugin');
      const element = await import('video-plugin/element');
      const server = await import('video-plugin/server');
      const react = await import('video-plugin/element/react');
      const diagnose = await import('video-plugin/diagnose');
      const testing = await import('video-plugin/testing');
      const { default: manifest } = await import('video-plugin/package.json', { with: { type: 'json' } });
      console.log(JSON.stringify({
        resolved: ['video-plugin', 'video-plugin/element', 'video-plugin/server', 'video-plugin/element/react', 'video-plugin/diagnose', 'video-plugin/testing']
          .map((name) => import.meta.resolve(name).replace(${JSON.stringify(pathToFileURL(root).href)}, '')),
        main: Object.keys(main),
        element: Object.keys(element),
        server: Object.keys(server),
        react: Object.keys(react),
        diagnose: Object.keys(diagnose),
        testing: Object.keys(testing),
        version: main.Plugin.version,
        packageVersion: manifest.version,
      }));
    `)) as Record<string, string[] | string>;
    assert.deepEqual(result.resolved, [
      'dist/index.js',
      'dist/element/index.js',
      'dist/server/index.js',
      'dist/element/react.js',
      'dist/diagnose/index.js',
      'dist/testing/index.js',
    ]);
    for (const name of [
      'Plugin',
      'VideoPluginError',
      'InvalidParameterError',
      'DestroyedError',
      'EVENT_NAMES',
      'VERSION',
    ]) {
      assert.ok(result.main!.includes(name), `video-plugin exports ${name}`);
    }
    assert.deepEqual([...result.element!].sort(), ['TAG_NAME', 'VideoPluginElement', 'defineVideoPlugin']);
    for (const name of [
      'createAccountToken',
      'loginAccountToken',
      'loginOrCreateAccountToken',
      'KIND_CLAIM',
      'TOKEN_KINDS',
      'InvalidParameterError',
      'VideoPluginError',
      'SERVICE_DOMAIN',
      'ACCOUNT_CLAIM',
      'verifyWebhook',
      'signWebhookForTest',
      'sendTestWebhook',
      'resendEvent',
      'WebhookVerificationError',
      'EVENT_CLAIM',
    ]) {
      assert.ok(result.server!.includes(name), `video-plugin/server exports ${name}`);
    }
    assert.deepEqual(result.react, []);
    assert.deepEqual([...result.diagnose!].sort(), [
      'CHECK_IDS',
      'DEFAULT_DIAGNOSE_TIMEOUT',
      'VERSION',
      'diagnose',
      'formatDiagnosis',
      'printDiagnosis',
    ]);
    assert.deepEqual([...result.testing!].sort(), [
      'EventsError',
      'StatusWaitError',
      'TestSandbox',
      'TestUser',
      'createSandbox',
      'sandboxFixtures',
      'waitForStatus',
    ]);
    assert.equal(result.version, pkg.version);
    assert.equal(result.packageVersion, pkg.version);
  });

  test('video-plugin/server exports the errors it throws, the same classes as video-plugin', async () => {
    const result = (await runInConsumer(`
      const main = await import('video-plugin');
      const server = await import('video-plugin/server');
      const caught = await server.loginOrCreateAccountToken({ partnerID: 'acme', secret: 'acme-secret-0123456789abcdef0123456789', externalID: '' }).catch((e) => e);
      const webhook = await server.verifyWebhook('x', { partnerID: 'acme', secret: 'acme-secret-0123456789abcdef0123456789' }).catch((e) => e);
      console.log(JSON.stringify({
        same: server.InvalidParameterError === main.InvalidParameterError && server.VideoPluginError === main.VideoPluginError,
        invalid: caught instanceof server.InvalidParameterError && caught instanceof server.VideoPluginError,
        field: caught.data.field,
        webhook: webhook instanceof server.WebhookVerificationError,
      }));
    `)) as Record<string, unknown>;
    assert.deepEqual(result, { same: true, invalid: true, field: 'externalID', webhook: true });
  });

  test('diagnose is an entry of its own: the Plugin entry and the CDN files do not carry it', () => {
    // The Plugin's module graph, as a bundler follows it from video-plugin.
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      for (const [, spec] of code.matchAll(/\bfrom\s+['"](\.[^'"]+)['"]/g)) visit(join(file, '..', spec!));
    };
    visit(join(root, 'dist/index.js'));
    assert.ok(seen.size > 5, 'followed the imports of dist/index.js');
    assert.deepEqual(
      [...seen].filter((file) => file.includes('/diagnose/')),
      [],
    );
    for (const file of ['video-plugin.min.js', 'video-plugin.module.min.js']) {
      const code = readFileSync(join(root, 'dist/cdn', file), 'utf8');
      assert.ok(!code.includes('csp-frame-src'), `${file} does not contain diagnose()`);
    }
    assert.ok(
      readFileSync(join(root, 'dist/cdn/video-plugin-diagnose.module.min.js'), 'utf8').includes('csp-frame-src'),
    );
  });

  test('files outside the exports map are not importable', async () => {
    const result = await runInConsumer(`
      const code = await import('video-plugin/dist/plugin.js').then(() => 'imported', (error) => error.code);
      console.log(JSON.stringify(code));
    `);
    assert.equal(result, 'ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  test('every exports entry has its types, and the files tools read exist', () => {
    for (const [entry, target] of Object.entries(pkg.exports as Record<string, string | Record<string, string>>)) {
      if (entry.endsWith('/*')) {
        // A folder of files (the CDN files): it has some, and they are not code to import.
        const folder = join(root, (target as string).slice(0, -1));
        assert.ok(existsSync(folder) && readdirSync(folder).length > 0, `${entry} → ${folder} has files`);
        continue;
      }
      const files = typeof target === 'string' ? [target] : Object.values(target);
      for (const file of files) assert.ok(existsSync(join(root, file)), `${entry} → ${file} exists`);
      if (typeof target !== 'string' && entry !== './custom-elements.json') {
        assert.ok(target.types?.endsWith('.d.ts'), `${entry} has types`);
      }
    }
    for (const field of ['main', 'types', 'unpkg', 'jsdelivr', 'customElements']) {
      assert.ok(existsSync(join(root, pkg[field])), `package.json ${field} → ${pkg[field]} exists`);
    }
    assert.equal(pkg.unpkg, './dist/cdn/video-plugin.min.js');
    assert.equal(pkg.jsdelivr, pkg.unpkg);
  });

  test('sideEffects lists exactly the modules that register the element', () => {
    assert.ok(
      Array.isArray(pkg.sideEffects),
      'sideEffects is a list, not false: importing video-plugin/element registers',
    );
    for (const file of pkg.sideEffects as string[]) assert.ok(existsSync(join(root, file)), `${file} exists`);
    assert.ok(pkg.sideEffects.includes('./dist/element/index.js'));
    assert.ok(pkg.sideEffects.includes('./dist/cdn/video-plugin.min.js'));
    assert.ok(!pkg.sideEffects.includes('./dist/index.js'), 'the Plugin entry has no side effects');
  });

  test('custom-elements.json describes <video-plugin>: attributes, properties, events, methods, part, slot', () => {
    const manifest = JSON.parse(readFileSync(join(root, pkg.customElements), 'utf8'));
    const module = manifest.modules.find((m: { path: string }) => m.path === 'dist/element/video-plugin-element.js');
    const element = module.declarations.find((d: { tagName?: string }) => d.tagName === 'video-plugin');
    const names = (list: { name: string }[] = []) => list.map((item) => item.name);
    assert.deepEqual(names(element.attributes), [
      'partner-id',
      'environment',
      'auth-mode',
      'service-url',
      'debug',
      'connect-timeout',
      'call-timeout',
      'theme',
      'locale',
      'display',
      'height',
      'launcher',
      'preload',
    ]);
    assert.deepEqual(names(element.events).sort(), [
      'announce',
      'closed',
      'editorExited',
      'editorOpenFailed',
      'editorOpened',
      'error',
      'pluginOpenFailed',
      'pluginOpened',
      'ready',
      'sessionLost',
      'videoCompleted',
      'videoCreated',
      'videoRendered',
      'videoSaved',
    ]);
    const members = names(element.members);
    for (const name of [
      'editor',
      'callbacks',
      'getLoginToken',
      'plugin',
      'ready',
      'appearance',
      'openPlugin',
      'createAccount',
      'subscribeToTopicSearchStatusUpdates',
      'topicSearchStatus',
      'videoGenerationStatus',
      'subscribeToVideoRenderStatusUpdates',
      'videoRenderStatus',
    ]) {
      assert.ok(members.includes(name), `member ${name}`);
    }
    assert.ok(!members.some((name) => name.startsWith('#')), 'no private members');
    assert.deepEqual(names(element.cssParts), ['frame', 'loading', 'failed', 'retry', 'dialog']);
    assert.deepEqual(names(element.slots), ['', 'loading', 'failed', 'retry']);
    assert.deepEqual(names(element.cssProperties), [
      '--video-plugin-height',
      '--video-plugin-min-height',
      '--video-plugin-max-height',
      '--video-plugin-dialog-width',
      '--video-plugin-dialog-height',
      '--video-plugin-drawer-width',
    ]);
    const entry = manifest.modules.find((m: { path: string }) => m.path === 'dist/element/index.js');
    assert.ok(
      entry.exports.some(
        (e: { kind: string; name: string }) => e.kind === 'custom-element-definition' && e.name === 'video-plugin',
      ),
    );
  });
});

describe('server-side rendering', () => {
  test('importing the element class touches no window or document and registers nothing', async () => {
    const { VideoPluginElement } = await import('../../src/element/video-plugin-element.js');
    assert.equal(typeof VideoPluginElement, 'function');
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
    assert.equal(globalThis.customElements?.get('video-plugin'), undefined);
  });

  test('video-plugin/element imports in Node without a DOM', async () => {
    const result = await runInConsumer(`
      const { VideoPluginElement, TAG_NAME } = await import('video-plugin/element');
      console.log(JSON.stringify({ tag: TAG_NAME, version: VideoPluginElement.version, window: typeof window }));
    `);
    assert.deepEqual(result, { tag: 'video-plugin', version: pkg.version, window: 'undefined' });
  });
});

// Compile-time check of the opt-in React 19 JSX types (tsc runs over the tests).
const reactProps: JSX.IntrinsicElements['video-plugin'] = {
  'partner-id': 'acme',
  serviceURL: 'http://127.0.0.1:8001',
  authMode: 'jwt',
  editor: { labels: { completeVideoConfirmation: { shouldShow: true } } },
  callbacks: { pluginOpened: () => {} },
  className: 'studio',
  height: 'auto',
  onpluginOpened: (event) => event.detail satisfies null,
  onvideoCreated: (event) => event.detail.id satisfies string,
  onerror: (event) => event.detail.code satisfies string,
};
// @ts-expect-error -- auth modes are jwt or uncontrolled
const wrongMode: JSX.IntrinsicElements['video-plugin'] = { authMode: 'oauth' };
// @ts-expect-error -- the one height value is auto (a fixed height is CSS)
const wrongHeight: JSX.IntrinsicElements['video-plugin'] = { height: '500px' };

// Nothing to run: `npm test` type-checks this file (tsc over test/) before any suite runs, and the
// type check counts as a step that passes or fails.
void reactProps;
void wrongMode;
void wrongHeight;
