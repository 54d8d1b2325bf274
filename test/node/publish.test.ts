// Ready to publish (issue 22): both packages say where they come from (repository, homepage, bugs,
// keywords) and publish publicly with provenance; their `npm pack` tarballs hold what their
// exports name, and the exports resolve from an install of the tarball; the service package's
// prepack builds its dist/ or stops with a message saying what to do. A package that looks like a
// library (issue 28): the published package.json has no scripts, workspaces or allowScripts, a
// fresh dist/ is not built again, and the tarball is the same whoever packs it (scripts/pack.mjs).
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sdk = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const service = JSON.parse(readFileSync(join(root, 'packages/service/package.json'), 'utf8'));
const built = existsSync(join(root, 'dist/index.js')) && existsSync(join(root, 'packages/service/dist/server.js'));
const skip = built ? false : 'dist/ is missing: run `npm run build` first (npm test does)';
const REPOSITORY = 'git+https://github.com/video-plugin/video-plugin.git';
const packScript = join(root, 'scripts/pack.mjs');
const { REPO_ONLY, publishedManifest, staleness } = (await import(pathToFileURL(packScript).href)) as {
  REPO_ONLY: string[];
  publishedManifest: (manifest: Record<string, unknown>) => Record<string, unknown>;
  staleness: (root?: string) => string | undefined;
};

const work = mkdtempSync(join(tmpdir(), 'video-plugin-publish-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Runs `npm pack` with its scripts, as `npm publish` does; returns the tarball's path and the log. */
function pack(args: string[], cwd: string, destination: string): { tarball: string; log: string } {
  mkdirSync(destination, { recursive: true });
  // --json keeps stdout for the result; the scripts' output goes to stderr with --foreground-scripts.
  const result = spawnSync(
    'npm',
    ['pack', '--json', '--foreground-scripts', '--pack-destination', destination, ...args],
    {
      cwd,
      encoding: 'utf8',
    },
  );
  assert.equal(result.status, 0, result.stdout + result.stderr);
  const json = result.stdout.slice(result.stdout.indexOf('['));
  return {
    tarball: join(destination, (JSON.parse(json) as { filename: string }[])[0]!.filename),
    log: result.stdout.slice(0, result.stdout.indexOf('[')) + result.stderr,
  };
}

/** The package.json inside a tarball. */
const manifestOf = (tarball: string) =>
  JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<
    string,
    unknown
  >;

/** The files in a tarball, without npm's `package/` prefix. */
const filesOf = (tarball: string) =>
  execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((file) => file.replace(/^package\//, ''));

describe('package metadata', () => {
  test('both packages name the repository, homepage, issue tracker and keywords, consistently', () => {
    for (const pkg of [sdk, service]) {
      assert.equal(pkg.repository?.type, 'git', `${pkg.name}: repository.type`);
      assert.equal(pkg.repository?.url, REPOSITORY, `${pkg.name}: repository.url`);
      assert.equal(pkg.bugs?.url, 'https://github.com/video-plugin/video-plugin/issues', `${pkg.name}: bugs.url`);
      assert.ok(
        pkg.homepage?.startsWith('https://github.com/video-plugin/video-plugin'),
        `${pkg.name}: homepage in the repository`,
      );
      assert.ok(Array.isArray(pkg.keywords) && pkg.keywords.length >= 3, `${pkg.name}: keywords`);
    }
    assert.equal(sdk.repository.directory, undefined, 'the SDK is the repository root');
    assert.equal(service.repository.directory, 'packages/service', 'provenance needs the package folder');
  });

  test('both publish publicly with provenance', () => {
    for (const pkg of [sdk, service]) {
      assert.deepEqual(pkg.publishConfig, { access: 'public', provenance: true }, pkg.name);
      assert.equal(pkg.private, undefined, `${pkg.name} is not private`);
    }
  });

  test('engines says the Node versions npm test runs on: 20 (the machine), 22 and 24 (test/harness/node-versions.mjs)', async () => {
    const script = pathToFileURL(join(root, 'test/harness/node-versions.mjs')).href;
    const { VERSIONS } = (await import(script)) as { VERSIONS: { major: number }[] };
    const tested = ['^20.19', ...VERSIONS.map(({ major }) => `^${major}`)].join(' || ');
    assert.equal(tested, '^20.19 || ^22 || ^24');
    for (const pkg of [sdk, service]) assert.equal(pkg.engines?.node, tested, pkg.name);
  });
});

describe('the tarballs', { skip }, () => {
  let sdkTarball: string;
  let serviceTarball: string;
  let sdkLog: string;
  let serviceLog: string;
  /** Why dist/ was stale before packing (npm test packs right after its build: fresh). */
  let staleBefore: string | undefined;
  const manifests = { sdk: '', service: '' };
  const mtimes = { sdk: 0, service: 0 };
  const consumer = join(work, 'consumer');

  before(() => {
    staleBefore = staleness(root);
    manifests.sdk = readFileSync(join(root, 'package.json'), 'utf8');
    manifests.service = readFileSync(join(root, 'packages/service/package.json'), 'utf8');
    mtimes.sdk = statSync(join(root, 'package.json')).mtimeMs;
    mtimes.service = statSync(join(root, 'packages/service/package.json')).mtimeMs;
    // With the scripts, as npm publish packs: prepack builds only a stale dist/ and writes the
    // published package.json; postpack puts the repository's back.
    ({ tarball: sdkTarball, log: sdkLog } = pack([], root, join(work, 'packs')));
    ({ tarball: serviceTarball, log: serviceLog } = pack(['-w', 'video-plugin-service'], root, join(work, 'packs')));
    // A partner's project with both tarballs unpacked, as `npm install` would put them.
    for (const [name, tarball] of [
      ['video-plugin', sdkTarball],
      ['video-plugin-service', serviceTarball],
    ] as const) {
      const folder = join(consumer, 'node_modules', name);
      mkdirSync(folder, { recursive: true });
      execFileSync('tar', ['xzf', tarball, '-C', folder, '--strip-components=1']);
    }
  });

  test("the published package.json of both packages has no scripts, workspaces or allowScripts, and is otherwise the repository's", () => {
    assert.deepEqual(REPO_ONLY, ['scripts', 'workspaces', 'allowScripts']);
    for (const [tarball, repository] of [
      [sdkTarball, sdk],
      [serviceTarball, service],
    ] as const) {
      const published = manifestOf(tarball);
      for (const field of REPO_ONLY) assert.equal(published[field], undefined, `${repository.name}: no ${field}`);
      // So nothing for npm 11's `npm install-scripts ls` to flag: no prepare, install, postinstall...
      assert.deepEqual(published, publishedManifest(repository), repository.name);
      assert.deepEqual(Object.keys(published), Object.keys(publishedManifest(repository)), 'same key order');
    }
    assert.ok(sdk.scripts.prepare, 'the repository keeps prepare (npm ci on a clone builds dist/)');
  });

  test("packing leaves the repository's package.json files as they were, bytes and modification time", () => {
    assert.equal(readFileSync(join(root, 'package.json'), 'utf8'), manifests.sdk);
    assert.equal(readFileSync(join(root, 'packages/service/package.json'), 'utf8'), manifests.service);
    // To the millisecond: a time set from JavaScript goes through a double of seconds, so the
    // nanoseconds git wrote come back a little off; a step that packed before this one had then
    // already set them, and the test passed or failed by the order of the steps.
    const ms = (file: string) => Math.round(statSync(join(root, file)).mtimeMs);
    assert.equal(ms('package.json'), Math.round(mtimes.sdk));
    assert.equal(ms('packages/service/package.json'), Math.round(mtimes.service));
    assert.equal(staleness(root), undefined, 'dist/ is still fresh after packing');
  });

  test('a fresh dist/ is not built again, and packing again gives the same tarball', (t) => {
    if (staleBefore) return t.skip(`dist/ was stale before packing (${staleBefore}), so the pack built it`);
    for (const log of [sdkLog, serviceLog]) {
      assert.match(log, /dist\/ is fresh .*not building it again/);
      assert.doesNotMatch(log, /building dist\/ first|building dist\/ \(/);
      assert.doesNotMatch(log, /> video-plugin@[^ ]+ prepare/, 'npm ran no prepare');
    }
    const again = pack([], root, join(work, 'packs-again'));
    assert.ok(readFileSync(again.tarball).equals(readFileSync(sdkTarball)), 'the same bytes');
  });

  test('video-plugin holds its entries, the CDN files and custom-elements.json', () => {
    const files = filesOf(sdkTarball);
    for (const file of [
      'package.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cdn/video-plugin.min.js',
      'dist/cdn/video-plugin.module.min.js',
      'dist/cdn/video-plugin-diagnose.module.min.js',
      'custom-elements.json',
      'CHANGELOG.md',
      'LICENSE',
    ]) {
      assert.ok(files.includes(file), `${file} is in ${sdkTarball}`);
    }
  });

  test('video-plugin-service holds its built dist/, not its build scripts', () => {
    const files = filesOf(serviceTarball);
    for (const file of [
      'package.json',
      'bin/video-plugin-service.js',
      'dist/server.js',
      'dist/server.d.ts',
      'CHANGELOG.md',
    ]) {
      assert.ok(files.includes(file), `${file} is in ${serviceTarball}`);
    }
    assert.ok(
      files.some((file) => file.startsWith('dist/public/')),
      'the built pages',
    );
    assert.deepEqual(
      files.filter((file) => file.startsWith('scripts/')),
      [],
    );
  });

  test('from the unpacked tarballs, the CDN files, custom-elements.json and the service resolve by name', async () => {
    const script = `
      const { default: manifest } = await import('video-plugin/custom-elements.json', { with: { type: 'json' } });
      console.log(JSON.stringify({
        resolved: [
          'video-plugin/cdn/video-plugin.min.js',
          'video-plugin/cdn/video-plugin.module.min.js',
          'video-plugin/cdn/video-plugin-diagnose.module.min.js',
          'video-plugin/custom-elements.json',
          'video-plugin-service',
        ].map((name) => import.meta.resolve(name).replace(${JSON.stringify(pathToFileURL(consumer).href)}, '')),
        manifest: manifest.schemaVersion,
      }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: consumer,
    });
    const result = JSON.parse(stdout);
    assert.deepEqual(result.resolved, [
      '/node_modules/video-plugin/dist/cdn/video-plugin.min.js',
      '/node_modules/video-plugin/dist/cdn/video-plugin.module.min.js',
      '/node_modules/video-plugin/dist/cdn/video-plugin-diagnose.module.min.js',
      '/node_modules/video-plugin/custom-elements.json',
      '/node_modules/video-plugin-service/dist/server.js',
    ]);
    assert.ok(result.manifest, 'custom-elements.json imports as JSON');
    for (const file of result.resolved as string[]) assert.ok(existsSync(join(consumer, file)), `${file} exists`);
  });
});

describe('when a pack builds dist/ (scripts/pack.mjs staleness)', () => {
  /** A tree with the build's outputs written at `builtAt` and its inputs at `changedAt` (seconds). */
  function tree(name: string, { builtAt = 2000, changedAt = 1000 } = {}): string {
    const dir = join(work, 'stale', name);
    const files: [string, number][] = [
      ['src/index.ts', changedAt],
      ['packages/service/src/server.ts', changedAt],
      ['package.json', changedAt],
      ['dist/index.js', builtAt],
      ['dist/frameworks/jsx.d.ts', builtAt + 1],
      ['packages/service/dist/server.js', builtAt],
      ['custom-elements.json', builtAt + 1],
    ];
    for (const [file, time] of files) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), '');
      utimesSync(join(dir, file), time, time);
    }
    return dir;
  }

  test('a dist/ built after every source changed is fresh', () => {
    assert.equal(staleness(tree('fresh')), undefined);
  });

  test('a missing dist/ is built', () => {
    const dir = tree('missing');
    rmSync(join(dir, 'packages/service/dist'), { recursive: true });
    assert.equal(staleness(dir), 'packages/service/dist is missing');
  });

  test('a source changed after the build makes it stale', () => {
    const dir = tree('changed');
    utimesSync(join(dir, 'packages/service/src/server.ts'), 3000, 3000);
    assert.equal(staleness(dir), 'packages/service/src changed after the last build');
  });

  test('a build that did not finish (its last output older than its first) is built again', () => {
    const dir = tree('unfinished');
    utimesSync(join(dir, 'custom-elements.json'), 1500, 1500);
    assert.match(staleness(dir) ?? '', /the last build did not finish \(custom-elements\.json/);
  });
});

describe('prepack of video-plugin-service', () => {
  /**
   * A copy of the repository's shape: the root package.json, packages/service with its prepack,
   * and, as asked, the build tools and a stand-in for scripts/build.mjs.
   */
  function checkout(name: string, { tools = true, build }: { tools?: boolean; build?: string } = {}): string {
    const dir = join(work, name);
    mkdirSync(join(dir, 'packages/service'), { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'video-plugin', workspaces: ['packages/service', '.'] }),
    );
    for (const part of ['package.json', 'scripts', 'bin']) {
      cpSync(join(root, 'packages/service', part), join(dir, 'packages/service', part), { recursive: true });
    }
    mkdirSync(join(dir, 'scripts'));
    cpSync(packScript, join(dir, 'scripts/pack.mjs'));
    if (tools) {
      mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
      for (const tool of ['tsc', 'rollup']) writeFileSync(join(dir, 'node_modules/.bin', tool), '');
    }
    if (build !== undefined) {
      writeFileSync(join(dir, 'scripts/build.mjs'), build);
    }
    return join(dir, 'packages/service');
  }

  /** `npm pack` with its scripts, as `npm publish` runs it: its exit code, its output, its tarballs. */
  async function packWithScripts(folder: string) {
    const destination = mkdtempSync(join(work, 'packs-'));
    const result = await promisify(execFile)('npm', ['pack', '--pack-destination', destination], {
      cwd: folder,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        output: error.stdout + error.stderr,
      }),
    );
    return { ...result, tarballs: readdirSync(destination).map((file) => join(destination, file)) };
  }

  // What the stand-in build writes: the files the package's exports and bin need.
  const writesDist = `
    import { mkdirSync, writeFileSync } from 'node:fs';
    mkdirSync('packages/service/dist/public', { recursive: true });
    for (const file of ['server.js', 'cli.js', 'server.d.ts', 'public/app.js']) {
      writeFileSync('packages/service/dist/' + file, '// built\\n');
    }
  `;

  test('builds dist/ and the tarball holds it', async () => {
    const folder = checkout('builds', { build: writesDist });
    const { code, output, tarballs } = await packWithScripts(folder);
    assert.equal(code, 0, output);
    assert.match(output, /building dist\//);
    assert.equal(tarballs.length, 1);
    const files = filesOf(tarballs[0]!);
    for (const file of ['dist/server.js', 'dist/cli.js', 'dist/server.d.ts', 'dist/public/app.js']) {
      assert.ok(files.includes(file), `${file} is in the tarball`);
    }
    assert.equal(manifestOf(tarballs[0]!).scripts, undefined, 'the published package.json has no scripts');
    assert.deepEqual(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).scripts, service.scripts);
  });

  const failures: [string, () => string, RegExp][] = [
    [
      'outside a checkout of the repository',
      () => {
        const folder = join(work, 'alone/video-plugin-service');
        mkdirSync(folder, { recursive: true });
        for (const part of ['package.json', 'scripts', 'bin']) {
          cpSync(join(root, 'packages/service', part), join(folder, part), { recursive: true });
        }
        return folder;
      },
      /is not packages\/service of a video-plugin checkout.*npm pack -w video-plugin-service/,
    ],
    [
      'without the devDependencies installed',
      () => checkout('no-tools', { tools: false, build: writesDist }),
      /node_modules\/\.bin\/tsc is missing\): run `npm ci` at /,
    ],
    [
      'when the build fails',
      () => checkout('build-fails', { build: 'console.error("rollup: syntax error"); process.exit(2);' }),
      /the build failed \(exit code 2; its output is above\)/,
    ],
    [
      'when the build leaves the package without its code',
      () => checkout('build-empty', { build: '' }),
      /the build succeeded but left out dist\/server\.js, dist\/cli\.js, dist\/server\.d\.ts, dist\/public\/app\.js/,
    ],
  ];
  for (const [when, folder, message] of failures) {
    test(`fails, saying what to do, and packs nothing ${when}`, async () => {
      const { code, output, tarballs } = await packWithScripts(folder());
      assert.notEqual(code, 0);
      assert.match(output, message);
      assert.match(output, /Nothing was packed\./);
      assert.deepEqual(tarballs, []);
    });
  }
});

describe('versions and changelogs (Changesets)', () => {
  test('a changeset bumps both packages to one version and writes it above the existing changelog', () => {
    // A copy of what Changesets reads and writes: the manifests, the changelog, its config.
    const repo = join(work, 'changesets');
    mkdirSync(join(repo, 'packages/service'), { recursive: true });
    for (const file of [
      'package.json',
      'CHANGELOG.md',
      'packages/service/package.json',
      'packages/service/CHANGELOG.md',
      '.changeset/config.json',
    ]) {
      cpSync(join(root, file), join(repo, file));
    }
    symlinkSync(join(root, 'node_modules'), join(repo, 'node_modules'), 'dir');
    writeFileSync(
      join(repo, '.changeset/a-new-option.md'),
      '---\n"video-plugin": minor\n---\n\nA new option, `example`.\n',
    );
    const changeset = join(root, 'node_modules/@changesets/cli/bin.js');
    execFileSync(process.execPath, [changeset, 'version'], { cwd: repo, stdio: 'ignore' });

    const version = (file: string) => JSON.parse(readFileSync(join(repo, file), 'utf8')).version;
    const [major, minor] = sdk.version.split('.').map(Number);
    const next = major === 0 ? `0.${minor + 1}.0` : `${major}.${minor + 1}.0`;
    assert.equal(version('package.json'), next);
    assert.equal(version('packages/service/package.json'), next, 'the service is released with the SDK (fixed)');
    const changelog = readFileSync(join(repo, 'CHANGELOG.md'), 'utf8');
    const before = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    assert.ok(changelog.startsWith(`# Changelog\n\n## ${next}\n`), changelog.slice(0, 200));
    assert.ok(changelog.indexOf('A new option, `example`.') < changelog.indexOf('## [Unreleased]'));
    assert.ok(changelog.endsWith(before.slice(before.indexOf('\n') + 1)), 'everything that was there is kept');
    const serviceChangelog = readFileSync(join(repo, 'packages/service/CHANGELOG.md'), 'utf8');
    assert.ok(serviceChangelog.startsWith(`# video-plugin-service\n\n## ${next}\n`), serviceChangelog.slice(0, 200));
    assert.match(serviceChangelog, /released together with `video-plugin`/);
    assert.deepEqual(readdirSync(join(repo, '.changeset')), ['config.json'], 'the changeset is used up');
  });
});
