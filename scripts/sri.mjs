// `npm run sri`: the Subresource Integrity hashes (sha384) of the built CDN scripts, for the
// `integrity` attribute of a pinned <script src>. `--write` also puts them into the snippets of
// README.md, docs/cdn.md and docs/cms.md (every `src="…/dist/cdn/FILE" integrity="…"`); the browser tests fail
// when a snippet's hash is not the built file's. `--check` only compares, and exits 1 naming each
// stale snippet (npm test runs it right after the build: a stale hash blocks the script in every
// browser, and the WordPress check would fail without saying why). Run `npm run build` first.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const FILES = ['video-plugin.min.js', 'video-plugin.module.min.js'];
const DOCS = ['README.md', 'docs/cdn.md', 'docs/cms.md'];

const hashes = {};
for (const file of FILES) {
  const path = `${root}dist/cdn/${file}`;
  if (!existsSync(path)) {
    console.error(`sri: ${path} is missing; run \`npm run build\` first.`);
    process.exit(1);
  }
  hashes[file] = `sha384-${createHash('sha384').update(readFileSync(path)).digest('base64')}`;
  console.log(`${file}  ${hashes[file]}`);
}

const write = process.argv.includes('--write');
const stale = [];
for (const doc of DOCS) {
  const path = `${root}${doc}`;
  if (!existsSync(path)) continue;
  const before = readFileSync(path, 'utf8');
  const after = before.replace(
    /(src="[^"]*\/dist\/cdn\/([\w.-]+)"\s+integrity=")(sha384-[^"]*)"/g,
    (match, head, file, hash) => {
      if (!hashes[file] || hash === hashes[file]) return match;
      stale.push(`${doc}: ${file} ${hash}`);
      return `${head}${hashes[file]}"`;
    },
  );
  if (write && after !== before) {
    writeFileSync(path, after);
    console.log(`sri: updated ${doc}`);
  }
}
if (process.argv.includes('--check') && stale.length > 0) {
  for (const line of stale) console.error(`sri: stale integrity hash in ${line}`);
  console.error("sri: the snippets name a hash that is not the built file's; run `npm run sri -- --write`.");
  process.exit(1);
}
