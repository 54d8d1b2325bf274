// The local service is its own package (packages/service, `video-plugin-service`): the SDK package
// ships none of it and none of its dependencies; the service package runs on its own, from a
// folder that holds nothing but the package and its declared dependencies.
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const sdk = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const service = JSON.parse(readFileSync(join(root, 'packages/service/package.json'), 'utf8'));
const built = existsSync(join(root, 'packages/service/dist/server.js'));
const skip = built ? false : 'packages/service/dist is missing: run `npm run build` first (npm test does)';

/** The files `npm pack` would put in a package. */
function packed(args: string[]): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
}

describe('the SDK package carries no service', () => {
  test('no bin, no ws, no media dependency in video-plugin', () => {
    assert.equal(sdk.bin, undefined);
    for (const name of Object.keys(service.dependencies)) {
      if (name === 'jose' || name === 'zod') continue; // also the SDK's own (server helpers, validation)
      assert.ok(!(name in (sdk.dependencies ?? {})), `video-plugin depends on ${name}`);
    }
    // The root (so that Changesets versions it: docs/releasing.md), the service, and the framework
    // apps (examples/frameworks: private, never published).
    assert.deepEqual(sdk.workspaces, ['packages/service', '.', 'examples/frameworks/*']);
  });

  test('npm pack of video-plugin holds no service file', { skip }, () => {
    const files = packed([]);
    assert.ok(files.includes('dist/index.js'));
    assert.ok(files.includes('dist/cdn/video-plugin.min.js'));
    assert.ok(files.includes('LICENSE') && files.includes('THIRD-PARTY-NOTICES.md'), 'its licence and notices');
    assert.deepEqual(
      files.filter((file) => /(^|\/)service\//.test(file) || file.startsWith('packages/')),
      [],
    );
  });
});

/** The bare specifiers (packages) the JavaScript files under `dir` import. */
function importedPackages(dir: string, include: (file: string) => boolean): Set<string> {
  const specifiers = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (name) => name.endsWith('.js') && include(name),
  )) {
    // JSDoc examples (`@example` blocks) import what a partner's code imports; the file does not.
    const code = readFileSync(join(dir, file), 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '');
    for (const [, specifier] of code.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/gm)) {
      specifiers.add(specifier!);
    }
    for (const [, specifier] of code.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.add(specifier!);
  }
  return new Set(
    [...specifiers].filter(
      (specifier) =>
        !specifier.startsWith('.') && !specifier.startsWith('node:') && !builtinModules.includes(specifier),
    ),
  );
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the SDK package installs only what its code imports', { skip }, () => {
  test('its dependencies are exactly the packages dist/ imports: no lit (the service pages bundle it at build)', () => {
    const dist = join(root, 'dist');
    const packagesOf = (include: (file: string) => boolean) =>
      [
        ...new Set(
          [...importedPackages(dist, include)].map(packageOf).filter((name) => name !== sdk.name), // its own entries, by name
        ),
      ].sort();
    const react = (file: string) => file === 'react.js';
    assert.deepEqual(
      packagesOf((file) => !file.startsWith('service') && !file.startsWith('cdn') && !react(file)),
      Object.keys(sdk.dependencies ?? {}).sort(),
    );
    assert.ok(!('lit' in (sdk.dependencies ?? {})), 'lit is not installed with video-plugin');
    // video-plugin/react alone imports React and @lit/react: optional peers, installed by its users.
    assert.deepEqual(packagesOf(react), Object.keys(sdk.peerDependencies ?? {}).sort());
    for (const name of Object.keys(sdk.peerDependencies ?? {})) {
      assert.equal(sdk.peerDependenciesMeta?.[name]?.optional, true, `${name} is an optional peer`);
    }
  });
});

test('the third-party notices list every package both installs bring (npm run notices)', () => {
  const result = spawnSync(process.execPath, [join(root, 'scripts/notices.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const notices = readFileSync(join(root, 'packages/service/THIRD-PARTY-NOTICES.md'), 'utf8');
  for (const name of Object.keys(service.dependencies)) assert.ok(notices.includes(`| ${name} |`), name);
  for (const file of ['LICENSE', 'packages/service/LICENSE']) {
    assert.match(readFileSync(join(root, file), 'utf8'), /^MIT License/);
  }
});

describe('the video-plugin-service package', { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), 'video-plugin-service-package-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('npm pack holds its command, its code, its declarations and the built pages', () => {
    const files = packed(['-w', 'video-plugin-service']);
    for (const file of [
      'bin/video-plugin-service.js',
      'dist/server.js',
      'dist/cli.js',
      'dist/server.d.ts',
      'dist/public/app.js',
      'package.json',
      'README.md',
      'LICENSE',
      'THIRD-PARTY-NOTICES.md',
    ]) {
      assert.ok(files.includes(file), `${file} is in the package`);
    }
  });

  test('its code imports only Node built-ins and its declared dependencies', () => {
    const specifiers = importedPackages(join(root, 'packages/service/dist'), (file) => !file.startsWith('public'));
    const foreign = [...specifiers].filter((specifier) => !(packageOf(specifier) in service.dependencies));
    assert.deepEqual(foreign, []);
    assert.ok([...specifiers].includes('ws'), 'the bundle reads its dependencies from the package (ws)');
  });

  test('installed alone (the package and its dependencies, nothing of the repository), the command serves the plugin', async () => {
    // The package as npm would unpack it, beside copies of its dependencies only.
    const installed = join(work, 'node_modules', 'video-plugin-service');
    mkdirSync(installed, { recursive: true });
    for (const part of ['bin', 'dist', 'package.json']) {
      cpSync(join(root, 'packages/service', part), join(installed, part), { recursive: true });
    }
    // (A scope is linked whole: @ffmpeg-installer/ffmpeg brings its platform's binary package.)
    const tops = new Set(Object.keys(service.dependencies).map((name) => name.split('/')[0]!));
    for (const name of tops) symlinkSync(join(root, 'node_modules', name), join(work, 'node_modules', name), 'dir');
    const child = spawn(process.execPath, [join(installed, 'bin/video-plugin-service.js'), '--port', '0'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const match = out.match(/listening on (http:\/\/\S+)/);
          if (match) resolve(match[1]!);
        });
        child.stderr.on('data', (chunk) => (out += chunk));
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      assert.equal((await fetch(`${url}/api/health`)).status, 200);
      const page = await fetch(`${url}/plugin?partner=demo-partner`, { headers: { 'sec-fetch-dest': 'iframe' } });
      assert.equal(page.status, 200);
      const script = (await page.text()).match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
      assert.ok(script, 'the plugin page loads its script');
      const asset = await fetch(`${url}${script}`);
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
