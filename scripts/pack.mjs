// `npm pack` / `npm publish` of both packages (video-plugin at the root, video-plugin-service in
// packages/service), as their `prepack` and `postpack` scripts:
//
//   node scripts/pack.mjs prepack     (video-plugin) build dist/ if it is missing or stale, then
//                                     write the published package.json
//   node scripts/pack.mjs postpack    put the repository's package.json back
//
// video-plugin-service's scripts (packages/service/scripts/prepack.mjs) do the same for their
// folder with the functions exported here, after checking that they run in a checkout.
//
// The published package.json is the repository's without what only the repository uses (see
// REPO_ONLY): no scripts at all — so no install-time script for npm 11's `npm install-scripts`
// review to flag, and no `prepare` for npm to run while packing — no `workspaces`, no
// `allowScripts`. It is made from the repository's file alone, so the tarball is the same whoever
// packs it. npm reads the package.json again after `prepack` to pack it (and to find `prepare`,
// which is gone), then runs `postpack` from the manifest it read first.
//
// The original waits in the system's temporary folder until `postpack`, with its modification time,
// so that putting it back does not make dist/ look stale. A pack that died between the two leaves it
// there; the next `prepack` (or `postpack`) puts it back first.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** package.json fields that only the repository uses, left out of the published package.json. */
export const REPO_ONLY = ['scripts', 'workspaces', 'allowScripts'];

/** What the build reads: a change to any of these makes dist/ stale. */
const INPUTS = [
  'src',
  'packages/service/src',
  'scripts/build.mjs',
  'scripts/framework-types.mjs',
  'rollup.config.mjs',
  'tsconfig.build.json',
  'tsconfig.json',
  'packages/service/tsconfig.build.json',
  'packages/service/src/pages/tsconfig.json',
  'custom-elements-manifest.config.mjs',
  'package.json',
  'packages/service/package.json',
  'package-lock.json',
];
/** What the build writes: each folder is emptied first, so all its files date from the last build. */
const OUTPUTS = ['dist', 'packages/service/dist'];
/** Written last by the build (after every folder of OUTPUTS): there only when a build finished. */
const LAST_OUTPUTS = ['custom-elements.json', 'dist/frameworks/jsx.d.ts'];

/** The package.json npm publishes: the repository's without {@link REPO_ONLY}, same key order. */
export function publishedManifest(manifest) {
  const published = { ...manifest };
  for (const field of REPO_ONLY) delete published[field];
  return published;
}

/** Newest and oldest modification time of the files under `path` (a file or a folder). */
function times(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return { newest: stat.mtimeMs, oldest: stat.mtimeMs };
  let newest = -Infinity;
  let oldest = Infinity;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const mtime = statSync(join(entry.parentPath, entry.name)).mtimeMs;
    newest = Math.max(newest, mtime);
    oldest = Math.min(oldest, mtime);
  }
  return { newest, oldest };
}

/**
 * Why dist/ must be built before packing (missing, unfinished, or older than a file the build
 * reads), or undefined when it is fresh.
 */
export function staleness(root = ROOT) {
  for (const path of [...OUTPUTS, ...LAST_OUTPUTS]) {
    if (!existsSync(join(root, path))) return `${path} is missing`;
  }
  const builtAt = Math.min(...OUTPUTS.map((path) => times(join(root, path)).oldest));
  for (const path of LAST_OUTPUTS) {
    if (statSync(join(root, path)).mtimeMs < builtAt) return `the last build did not finish (${path} is older)`;
  }
  for (const path of INPUTS) {
    if (existsSync(join(root, path)) && times(join(root, path)).newest > builtAt) {
      return `${path} changed after the last build`;
    }
  }
  return undefined;
}

/** Where `folder`'s package.json waits during a pack. */
function backupOf(folder) {
  const key = createHash('sha256').update(resolve(folder)).digest('hex').slice(0, 16);
  return join(tmpdir(), `video-plugin-pack-${key}`, 'package.json');
}

/** Puts back a package.json that a pack set aside, with its modification time. */
export function restore(folder) {
  const backup = backupOf(folder);
  if (!existsSync(backup)) return false;
  const { atimeMs, mtimeMs } = statSync(backup);
  copyFileSync(backup, join(folder, 'package.json'));
  // In seconds with their fraction (a Date would drop what is below the millisecond).
  utimesSync(join(folder, 'package.json'), atimeMs / 1000, mtimeMs / 1000);
  rmSync(join(backup, '..'), { recursive: true, force: true });
  return true;
}

/**
 * Sets `folder`'s package.json aside and writes the published one in its place (first putting
 * back one that a pack which did not finish left aside).
 */
export function writePublished(folder) {
  if (restore(folder)) console.log(`pack: put back ${join(folder, 'package.json')}, left by an unfinished pack`);
  const file = join(folder, 'package.json');
  const original = readFileSync(file, 'utf8');
  const { atimeMs, mtimeMs } = statSync(file);
  const backup = backupOf(folder);
  mkdirSync(join(backup, '..'), { recursive: true });
  // Written beside, then renamed: a crash never leaves half a backup.
  writeFileSync(`${backup}.tmp`, original);
  utimesSync(`${backup}.tmp`, atimeMs / 1000, mtimeMs / 1000);
  renameSync(`${backup}.tmp`, backup);
  writeFileSync(file, `${JSON.stringify(publishedManifest(JSON.parse(original)), null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const step = process.argv[2];
  if (step === 'prepack') {
    restore(ROOT); // an unfinished pack's published package.json must not count as a change
    const reason = staleness();
    if (reason) {
      console.log(`pack: building dist/ first (${reason})`);
      const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
      if (build.status !== 0) {
        console.error(
          `pack: the build failed (${build.signal ?? `exit code ${build.status}`}; its output is above). Nothing was packed.`,
        );
        process.exit(1);
      }
    } else {
      console.log('pack: dist/ is fresh (no source changed since the last build): not building it again');
    }
    writePublished(ROOT);
  } else if (step === 'postpack') {
    restore(ROOT);
  } else {
    console.error('usage: node scripts/pack.mjs prepack|postpack');
    process.exit(2);
  }
}
