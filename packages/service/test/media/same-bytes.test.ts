// Issue 33, "byte-identical re-renders": two fixed renders (5 s, German, a picture; 16:9 and 4:5,
// bench/render-hashes.mts) give the same SHA-256 for every file in a process of their own, so after
// a restart too, and on every Node version CI runs. On Node 20 (the Node suites) both renders run
// in two fresh processes; on Node 22 and 24 (test/harness/node-versions.mjs, which sets
// VP_REFERENCE_NODE to the Node 20 that runs the harness) one process is that Node and the other
// is the reference, so the bytes are proven the same across versions with the same ffmpeg.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const script = 'bench/render-hashes.mts';

/** The hashes of the fixed renders, made by the `node` binary in a process of its own. */
async function hashes(node: string, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(node, ['--import', 'tsx', script], {
    cwd: root,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  const { node: version, ...files } = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  assert.equal(typeof version, 'string');
  return files;
}

test(
  'the same storyboards render to the same bytes in another process, and on another Node version',
  { timeout: 600_000 },
  async () => {
    const reference = process.env.VP_REFERENCE_NODE ?? process.execPath;
    // The reference Node runs without this Node's module hooks (test/harness/node-versions-hooks.mjs).
    const { NODE_OPTIONS: _options, VP_BETTER_SQLITE3: _sqlite, ...plain } = process.env;
    const mine = await hashes(process.execPath, process.env);
    const theirs = await hashes(reference, plain);
    for (const ratio of ['16:9', '4:5']) {
      const files = mine[ratio] as Record<string, string>;
      // The MP4 (its captions track and chapters inside) and every side file, the chapters' too.
      assert.deepEqual(Object.keys(files).sort(), ['captions', 'chapters', 'thumbnail', 'transcript', 'video']);
      for (const hash of Object.values(files)) assert.match(hash, /^[0-9a-f]{64}$/);
    }
    assert.deepEqual(mine, theirs, `${process.version} and ${reference} rendered different bytes`);
  },
);
