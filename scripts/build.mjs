// Builds every deliverable: unbundled ESM + .d.ts (tsc: the SDK's src/ into dist/, then the
// service's packages/service/src/ into dist/service/ by its own `npm run build`, against the SDK's
// `video-plugin/internal`),
// then the bundles (rollup): the CDN files, the service's pages and the `video-plugin-service`
// package (packages/service/dist).
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

const started = Date.now();
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
rmSync(new URL('../packages/service/dist', import.meta.url), { recursive: true, force: true });
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
// The service builds itself (its own tsconfigs: the server without DOM types, the pages without Node's).
run('npm', ['run', 'build', '--silent', '-w', 'video-plugin-service']);
minifyCSSLiterals(new URL('../dist/element/styles.js', import.meta.url));
run(bin('rollup'), ['-c', '--silent']);
// The service package serves the built iframe pages from `public/` beside its code.
cpSync(
  new URL('../dist/service/public', import.meta.url),
  new URL('../packages/service/dist/public', import.meta.url),
  {
    recursive: true,
  },
);
run(bin('cem'), ['analyze', '--quiet', '--config', 'custom-elements-manifest.config.mjs']); // custom-elements.json
// video-plugin/vue, /svelte, /solid, /jsx: type integrations generated from custom-elements.json.
run(process.execPath, ['scripts/framework-types.mjs']);
/**
 * Lit's css`…` literals reach the output as written: comments, indentation, a property per line.
 * Every partner's page pays for them (npm and CDN alike), so the build squeezes them: comments out,
 * whitespace runs to one space, none around `{ } ; , > /` or after `:`, no quotes around an
 * attribute selector's value that is a name (`[part='failed']` → `[part=failed]`: Prettier puts
 * them back in the source), no zero before a decimal point. (Safe for these sheets: no strings
 * with such characters, no descendant combinator before a pseudo-class, no `url()`.)
 */
function minifyCSSLiterals(file) {
  const code = readFileSync(file, 'utf8');
  const squeezed = code.replace(/\bcss\s*`([^`]*)`/g, (_, sheet) => {
    const css = sheet
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s*([{};,>/])\s*/g, '$1')
      .replace(/:\s+/g, ':')
      .replace(/='([a-z][\w-]*)'\]/gi, '=$1]')
      .replace(/([^\w.])0\./g, '$1.')
      .replace(/;}/g, '}')
      .trim();
    return `css\`${css}\``;
  });
  if (squeezed === code) throw new Error(`build: no css\`…\` literal found in ${file}`);
  writeFileSync(file, squeezed);
}

console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
