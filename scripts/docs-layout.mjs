// The built docs site on a laptop and a phone (used by scripts/docs.mjs, step 5): every table of
// every page fits its column, measured in headless Chromium (Playwright, Debian's Chromium).
//
// What is measured, per page that has a table, at 1366×768 and 390×844, once the page and its
// fonts loaded: for each table in the content (`.vp-doc table`),
//   - its content is not wider than its box (`scrollWidth <= clientWidth`): nothing hidden behind
//     a sideways scroll, nothing drawn past its edge (a cell's overflowing code counts too);
//   - its box ends inside the content column (`.vp-doc`): not clipped by the page;
// every column has a header, and the page itself does not scroll sideways
// (`scrollWidth <= innerWidth`).
// One check per page and viewport; a failure names each table (by the heading above it) and its
// widths.
//
// `DOCS_SCREENSHOTS=<dir> npm run docs` also saves a full-page PNG of each page measured.
import { createServer } from 'node:http';
import { readFileSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, requireChromium } from './chromium.mjs';

export const VIEWPORTS = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Every HTML page under `dir` (but 404.html), as paths relative to it. */
function htmlPages(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'assets' ? [] : htmlPages(path, base);
    return name.endsWith('.html') && name !== '404.html' ? [relative(base, path)] : [];
  });
}

/** Serves `dir` as it is on 127.0.0.1 (a free port); resolves to its origin and a close(). */
async function serve(dir) {
  const server = createServer((request, response) => {
    const path = join(dir, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** In the page: what does not fit. */
function misfits() {
  const column = document.querySelector('.vp-doc');
  const right = column.getBoundingClientRect().right;
  const found = [];
  for (const table of column.querySelectorAll('table')) {
    let heading = table.previousElementSibling;
    while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
    const name = `table under "${heading?.textContent.replace(/\u200b|#/g, '').trim() ?? 'the top'}"`;
    if (table.scrollWidth > table.clientWidth + 1) {
      found.push(`${name}: ${table.scrollWidth} px of content in ${table.clientWidth} px`);
    } else if (table.getBoundingClientRect().right > right + 1) {
      found.push(`${name}: ends ${Math.round(table.getBoundingClientRect().right - right)} px past the column`);
    }
  }
  for (const header of column.querySelectorAll('table th')) {
    if (!header.textContent.trim())
      found.push(`a column without a header (after "${header.previousElementSibling?.textContent}")`);
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > window.innerWidth + 1) found.push(`the page scrolls sideways (${page.scrollWidth} px)`);
  return found;
}

/**
 * Measures every page of the built site `dir` that has a table, at each viewport; calls
 * `check(ok, what)` once per page and viewport. Screenshots go to `screenshots` when given.
 */
export async function checkTables(dir, check, { screenshots } = {}) {
  const pages = htmlPages(dir).filter((page) => readFileSync(join(dir, page), 'utf8').includes('<table'));
  const server = await serve(dir);
  const browser = await chromium.launch({ executablePath: requireChromium(), args: CHROMIUM_FLAGS });
  try {
    if (screenshots) mkdirSync(screenshots, { recursive: true });
    await Promise.all(
      VIEWPORTS.map(async (viewport) => {
        // Without JavaScript: VitePress renders the whole layout into the HTML, and hydrating it
        // changes no width (checked: every table's and column's width was the same with it), but
        // would take 2 to 3 times longer.
        const context = await browser.newContext({ viewport, javaScriptEnabled: false });
        const tab = await context.newPage();
        for (const page of pages) {
          await tab.goto(`${server.origin}/${page}`);
          await tab.evaluate(() => document.fonts.ready);
          const found = await tab.evaluate(misfits);
          check(found.length === 0, `${page} at ${viewport.width}×${viewport.height}: ${found.join('; ')}`);
          if (screenshots) {
            const name = `${page.replace(/\.html$/, '').replaceAll('/', '_')}-${viewport.name}.png`;
            await tab.screenshot({ path: join(screenshots, name), fullPage: true });
          }
        }
        await context.close();
      }),
    );
  } finally {
    await browser.close();
    await server.close();
  }
  return pages.length;
}
