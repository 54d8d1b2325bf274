// The docs site (`npm run docs`, VitePress): the README is the home page, the guides are docs/,
// the API reference is generated from the JSDoc by TypeDoc (docs/api/) and the element's reference
// from custom-elements.json (docs/element-reference.md), both by scripts/docs.mjs before this
// build. It builds offline; a dead internal link fails the build (VitePress's own check).
import { defineConfig, type DefaultTheme, type MarkdownRenderer as MarkdownIt } from 'vitepress';
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';

type Token = ReturnType<MarkdownIt['parse']>[number];

/** Where links to repository files that are not pages (LICENSE, src/…, examples/…) point. */
const REPOSITORY = 'https://github.com/video-plugin/video-plugin/blob/main';
const root = new URL('../../', import.meta.url);
/** Folders whose Markdown is not part of the site (see srcExclude). */
const OUTSIDE = /^(node_modules|dist|examples|packages|test|bench|coverage)\//;
const isPage = (path: string): boolean =>
  !OUTSIDE.test(path) && path !== 'THIRD-PARTY-NOTICES.md' && /\.md$/.test(path) && existsSync(new URL(path, root));

/**
 * The generated reference's sidebar (TypeDoc, typedoc-vitepress-theme): one group per module,
 * named by its import path, `video-plugin` (src/index.ts, "index" to TypeDoc) first.
 */
const api: DefaultTheme.SidebarItem[] = (
  JSON.parse(
    readFileSync(new URL('../api/typedoc-sidebar.json', import.meta.url), 'utf8'),
  ) as DefaultTheme.SidebarItem[]
)
  .map((module) => ({ ...module, text: module.text === 'index' ? 'video-plugin' : `video-plugin/${module.text}` }))
  .sort((a, b) => a.text.localeCompare(b.text));

/** The guides and hand-written references: first in every sidebar. */
const guides: DefaultTheme.SidebarItem[] = [
  {
    text: 'Start',
    items: [
      { text: 'Overview (README)', link: '/' },
      { text: 'Using &lt;video-plugin&gt;', link: '/docs/element-guide' },
      { text: 'The Plugin API', link: '/docs/plugin-api' },
      { text: 'Frameworks', link: '/docs/frameworks' },
      { text: 'No build step (CDN)', link: '/docs/cdn' },
      { text: 'CMSs and tag managers', link: '/docs/cms' },
      { text: 'Server helpers', link: '/docs/server' },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'White label', link: '/docs/white-label' },
      { text: 'Accessibility (WCAG 2.2 AA)', link: '/docs/accessibility' },
      { text: 'Browsers, storage, CSP', link: '/docs/browsers' },
      { text: 'Diagnose an integration', link: '/docs/diagnose' },
      { text: 'Testing your integration', link: '/docs/testing-your-integration' },
      { text: 'Testing (this repository)', link: '/docs/testing' },
      { text: 'The partner demo', link: '/docs/demo' },
      { text: 'Versioning', link: '/docs/versioning' },
      { text: 'Releasing', link: '/docs/releasing' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: '&lt;video-plugin&gt; reference', link: '/docs/element-reference' },
      { text: 'The local service and its HTTP API', link: '/docs/service' },
      { text: 'The wire protocol', link: '/docs/protocol' },
      { text: 'How it works', link: '/docs/architecture' },
      { text: 'How the element works', link: '/docs/element' },
    ],
  },
];
const project: DefaultTheme.SidebarItem = {
  text: 'Project',
  items: [
    { text: 'Benchmarks', link: '/BENCHMARKS' },
    { text: 'Changelog', link: '/CHANGELOG' },
    { text: 'Security', link: '/SECURITY' },
  ],
};
/** The generated reference: its whole tree on its own pages; elsewhere one line per module. */
const reference = (items: DefaultTheme.SidebarItem[]): DefaultTheme.SidebarItem => ({
  text: 'API reference (TypeDoc)',
  link: '/docs/api/',
  items,
});

export default defineConfig({
  title: 'video-plugin',
  description: 'Embed the AI video-creation studio in any web page: a typed, promise-based SDK.',
  // The whole repository is the source: README.md (the home page), BENCHMARKS.md, CHANGELOG.md,
  // SECURITY.md and docs/ are pages, so links between them work on the site as on GitHub.
  srcDir: '..',
  srcExclude: [
    '**/node_modules/**',
    'dist/**',
    'examples/**',
    'packages/**',
    'test/**',
    'bench/**',
    'coverage/**',
    'THIRD-PARTY-NOTICES.md',
  ],
  rewrites: { 'README.md': 'index.md' },
  outDir: './.vitepress/dist',
  cacheDir: './.vitepress/cache',
  cleanUrls: false,
  lastUpdated: false,
  // `http://localhost:8000` in the README is where `npm start` serves, not a page of the site.
  ignoreDeadLinks: 'localhostLinks',
  markdown: {
    config(md) {
      tableCells(md);
      repositoryLinks(md);
    },
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/' },
      { text: 'Element', link: '/docs/element-reference' },
      { text: 'API', link: '/docs/api/' },
      { text: 'Service', link: '/docs/service' },
    ],
    // The guides come first. The generated reference (about 100 pages) shows its tree only on its
    // own pages, below the guides' groups (collapsed there); elsewhere it is one line per module.
    sidebar: {
      '/docs/api/': [...guides.map((group) => ({ ...group, collapsed: true })), reference(api), project],
      '/': [...guides, reference(api.map(({ text, link }) => ({ text, link }))), project],
    },
    search: { provider: 'local' },
  },
});

/**
 * Tables that fit a narrow column (theme/tables.css): each body cell gets its column's header as
 * `data-label` (a phone shows each row as a card of labelled lines), and code in a cell may break
 * after `.`, `(`, `,`, `|`, `/`, `<`, `{`, `[` or `=`, and after a `-` or `_` inside a name (a
 * <wbr>), so a long signature wraps at its punctuation instead of widening its column; a camelCase
 * name is never broken.
 */
function tableCells(md: MarkdownIt): void {
  md.core.ruler.push('table_cells', (state) => {
    let headers: string[] = [];
    let column = 0;
    let inTable = false;
    const text = (inline: Token | undefined): string =>
      (inline?.children ?? [])
        .map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : ''))
        .join('');
    state.tokens.forEach((token, index) => {
      if (token.type === 'table_open') [inTable, headers] = [true, []];
      else if (token.type === 'table_close') inTable = false;
      else if (token.type === 'th_open') headers.push(text(state.tokens[index + 1]));
      else if (token.type === 'tr_open') column = 0;
      else if (token.type === 'td_open') token.attrSet('data-label', headers[column++] ?? '');
      else if (inTable && token.type === 'inline') {
        for (const child of token.children ?? []) {
          if (child.type === 'code_inline') child.meta = { ...child.meta, wrap: true };
        }
      }
    });
  });
  const next = md.renderer.rules.code_inline!;
  md.renderer.rules.code_inline = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    if (!token.meta?.wrap) return next(tokens, index, options, env, self);
    const html = md.utils.escapeHtml(token.content).replace(/(&lt;|[.(,|/{[=]|(?<=\w)[-_](?=\w))(?!$)/g, '$1<wbr>');
    return `<code${self.renderAttrs(token)}>${html}</code>`;
  };
}

/**
 * A relative link to a repository file that is not a page of the site (LICENSE, a README of an
 * example, a source file) points at the file in the repository instead; links to pages, and links
 * to nothing, are left to VitePress, which fails the build when one is dead.
 */
function repositoryLinks(md: MarkdownIt): void {
  const next = md.renderer.rules.link_open!;
  md.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    const href = token.attrGet('href');
    if (href && !/^([a-z][a-z+.-]*:|#|\/)/i.test(href)) {
      const [path = '', hash] = href.split('#');
      const target = posix.normalize(posix.join(posix.dirname(env.relativePath as string), path));
      const page = isPage(target) || isPage(`${target}.md`) || (path.endsWith('/') && isPage(`${target}/index.md`));
      // Only files that exist: a link to nothing stays, for VitePress to report.
      const file = [target, `${target}.md`].find((candidate) => existsSync(new URL(candidate, root)));
      // VitePress checks links to pages only: a link to a missing file (`src/gone.ts`) is ours to catch.
      if (!page && !file && !/(^|\/)[^./]+$|\.(md|html)$/.test(path)) {
        throw new Error(`dead link to the file ${href} in ${env.relativePath}`);
      }
      if (!page && file && !target.startsWith('..')) {
        token.attrSet('href', `${REPOSITORY}/${file}${hash ? `#${hash}` : ''}`);
      }
    }
    return next(tokens, index, options, env, self);
  };
}
