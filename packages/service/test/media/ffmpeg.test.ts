// Which ffmpeg the renderer runs (packages/service/src/media/tools.ts): VIDEO_PLUGIN_FFMPEG, else the
// system's on PATH when it can encode H.264 and AAC, else the one bundled in @ffmpeg-installer;
// and the service says which, once, when it starts. Fake ffmpegs (shell scripts) stand in for
// the system's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { chooseFfmpeg } from '../../src/media/tools.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-ffmpeg-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A folder with an executable `ffmpeg` script that lists `encoders` and says `version`. */
function fakeFfmpeg(name: string, encoders: string[], version = 'ffmpeg version 9.9-fake'): string {
  const dir = join(work, name);
  mkdirSync(dir);
  const lines = encoders.map((encoder) => ` V....D ${encoder.padEnd(20)} ${encoder} encoder`).join('\\n');
  writeFileSync(
    join(dir, 'ffmpeg'),
    `#!/bin/sh\ncase "$*" in\n  *-encoders*) printf '${lines}\\n' ;;\n  *-version*) echo '${version} Copyright (c) 2000-2026 the FFmpeg developers' ;;\nesac\n`,
  );
  chmodSync(join(dir, 'ffmpeg'), 0o755);
  return dir;
}

const complete = fakeFfmpeg('complete', ['libx264', 'libx264rgb', 'aac']);
const noX264 = fakeFfmpeg('no-x264', ['libopenh264', 'aac']);
const empty = join(work, 'empty');
mkdirSync(empty);
const isBundled = (path: string) => /@ffmpeg-installer[/\\]/.test(path);

describe('the ffmpeg the renderer runs', { skip: process.platform === 'win32' && 'shell-script fakes' }, () => {
  test('VIDEO_PLUGIN_FFMPEG wins, even over an ffmpeg on PATH', () => {
    assert.deepEqual(chooseFfmpeg({ VIDEO_PLUGIN_FFMPEG: '/opt/ffmpeg-7/bin/ffmpeg', PATH: complete }), {
      path: '/opt/ffmpeg-7/bin/ffmpeg',
      source: 'VIDEO_PLUGIN_FFMPEG',
    });
  });

  test("else the system's ffmpeg, the first on PATH", () => {
    assert.deepEqual(chooseFfmpeg({ PATH: [empty, complete, noX264].join(':') }), {
      path: join(complete, 'ffmpeg'),
      source: 'PATH',
    });
  });

  test('else the bundled one: no ffmpeg on PATH', () => {
    const choice = chooseFfmpeg({ PATH: empty });
    assert.equal(choice.source, 'bundled');
    assert.ok(isBundled(choice.path), choice.path);
    assert.equal(choice.passedOver, undefined);
  });

  test('an ffmpeg on PATH that cannot encode H.264 is passed over, saying why', () => {
    const choice = chooseFfmpeg({ PATH: noX264 });
    assert.equal(choice.source, 'bundled');
    assert.ok(isBundled(choice.path), choice.path);
    assert.equal(choice.passedOver, `${join(noX264, 'ffmpeg')} has no libx264 encoder`);
  });

  test('the service prints which ffmpeg it uses (path and version) once, however many start', () => {
    // In a child process: the announcement is once per process, and PATH is the child's.
    const script = `
      const { startService } = await import('./packages/service/src/server.ts');
      const first = await startService({ port: 0, mediaDir: ${JSON.stringify(join(work, 'media'))} });
      const second = await startService({ port: 0, mediaDir: ${JSON.stringify(join(work, 'media'))} });
      await Promise.all([first.close(), second.close()]);`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../../../..', import.meta.url),
      env: { ...process.env, PATH: complete, VIDEO_PLUGIN_FFMPEG: '' },
      encoding: 'utf8',
    });
    assert.equal(child.status, 0, child.stderr);
    const stderr = child.stderr;
    assert.deepEqual(
      stderr.split('\n').filter((line) => line.includes('ffmpeg')),
      [`video-plugin-service: ffmpeg ${join(complete, 'ffmpeg')}: ffmpeg version 9.9-fake (the system’s, on PATH)`],
    );
  });
});
