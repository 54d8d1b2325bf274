// `npm run notices`: the third-party notices of both packages, from package-lock.json (so they are
// the same on every platform): every package a partner's install brings with `video-plugin` and
// with `video-plugin-service`, its version and licence, and what the licences of the parts that are
// not MIT-style mean for a partner. Writes THIRD-PARTY-NOTICES.md (the SDK) and
// packages/service/THIRD-PARTY-NOTICES.md. `--check` only compares and exits 1 when a file is stale
// (packages/service/test/service-package.test.ts runs it: a new dependency cannot ship without its notice).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')).packages;

/** Where node would find `name` from the package at lock path `from` (node_modules lookup upwards). */
function resolve(from, name) {
  for (let dir = from; ;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/** The packages a production install of the package at lock path `start` brings, by lock path. */
function closure(start) {
  const seen = new Set();
  const walk = (path) => {
    const entry = lock[path];
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = resolve(path, name);
      if (!found || seen.has(found)) continue;
      seen.add(found);
      walk(found);
    }
  };
  walk(start);
  return [...seen].map((path) => {
    const entry = lock[path];
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const platform = entry.os || entry.cpu ? [entry.os, entry.cpu, entry.libc].flat().filter(Boolean).join(' ') : '';
    return { name, version: entry.version, license: entry.license ?? 'see the package', platform };
  });
}

function table(packages) {
  const rows = packages
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
    .map((p) => `| ${p.name} | ${p.version} | ${p.license} | ${p.platform ? `only on ${p.platform}` : ''} |`);
  return ['| Package | Version | Licence | Installed |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

const SDK = `# Third-party notices: video-plugin

\`video-plugin\` is MIT-licensed (see LICENSE). A partner's install brings the packages below with
it; the CDN bundle (\`dist/cdn/\`) contains the code of \`@lit/reactive-element\` (BSD-3-Clause,
Copyright Google LLC) and \`zod\` (MIT, Copyright Colin McDonnell), and no other third-party code.
Each package's full licence text is in its folder under \`node_modules/\` once installed.

Generated from package-lock.json by \`npm run notices\`; do not edit by hand.

`;

const SERVICE = `# Third-party notices: video-plugin-service

\`video-plugin-service\` (the local stand-in service) is MIT-licensed (see LICENSE). It runs code
under other licences, which matters if you redistribute it or a product that contains it. It is a
development and test tool: partners run it on their own machines and CI, and nothing of it reaches
their users' browsers except the pages it serves (MIT, with lit, BSD-3-Clause, bundled in).

- **eSpeak NG** (\`espeak-ng\`, GPL-3.0-or-later): the voice of the videos, a WebAssembly build run
  inside the service process, with its voice data. Source: https://github.com/espeak-ng/espeak-ng.
- **FFmpeg**: the service runs an \`ffmpeg\` program as a separate process to encode videos: the one
  named by \`VIDEO_PLUGIN_FFMPEG\`, else the system's \`ffmpeg\` (Debian's is GPL-2.0-or-later), else
  the build bundled in \`@ffmpeg-installer/<platform>\` (a static FFmpeg 4.1 build under GPL-3.0; its
  wrapper package is LGPL-2.1). Source: https://ffmpeg.org/download.html.
- **libvips** (\`@img/sharp-libvips-*\`, LGPL-3.0-or-later): image decoding and text layout, as
  prebuilt shared libraries that \`sharp\` (Apache-2.0) loads; it includes pango, cairo, harfbuzz,
  libjpeg-turbo, libpng, libwebp and others under their own licences (listed in that package).
- **DejaVu fonts** (\`dejavu-fonts-ttf\`, the Bitstream Vera and Arev font licences, free to use and
  redistribute): the text of the videos.
- **SQLite** (in \`better-sqlite3\`, MIT; SQLite itself is in the public domain): the \`--data\` file.

Each package's full licence text is in its folder under \`node_modules/\` once installed. The
service's own code under MIT does not change these licences: a product that ships the service
with eSpeak NG or a GPL FFmpeg ships GPL code.

Generated from package-lock.json by \`npm run notices\`; do not edit by hand.

`;

const outputs = [
  { file: 'THIRD-PARTY-NOTICES.md', text: `${SDK}${table(closure(''))}\n` },
  {
    file: 'packages/service/THIRD-PARTY-NOTICES.md',
    text: `${SERVICE}${table(closure('packages/service'))}\n`,
  },
];

const check = process.argv.includes('--check');
let stale = 0;
for (const { file, text } of outputs) {
  let current = '';
  try {
    current = readFileSync(`${root}${file}`, 'utf8');
  } catch {
    // Missing: stale.
  }
  if (current === text) continue;
  if (check) {
    stale++;
    console.error(`notices: ${file} does not list the installed dependencies; run \`npm run notices\`.`);
  } else {
    writeFileSync(`${root}${file}`, text);
    console.log(`notices: wrote ${file}`);
  }
}
process.exit(stale === 0 ? 0 : 1);
