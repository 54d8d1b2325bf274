// The CDN scripts (dist/cdn/, built by `npm run build`) in pages with no build step, as partners
// paste them: the classic script as a plain <script src> (with defer, async, in <head>, at the end
// of <body>), the ES module, both together; what only the site-wide <script> sets; the snippets of
// docs/cdn.md loaded exactly as written; and DOMPurify's default sanitizer between the snippets and
// the page. The declarative `data-video-plugin` markup is cdn-markup.test.ts's. Every page is a
// whole HTML document in a same-origin iframe (support/cdn-page.ts), talking to the real local service.
import { expect } from '@open-wc/testing';
import DOMPurify from 'dompurify';
import { VERSION } from '../../src/version.js';
import { testConfig, token } from '../support/plugin.js';
import type { VideoPluginGlobal } from '../../src/cdn.js';
import type { VideoPluginElement } from '../../src/element/index.js';
import type { VideoPluginError } from '../../src/errors.js';
import {
  CLASSIC,
  MODULE,
  PARTNER,
  afterMutations,
  insert,
  markup,
  next,
  page,
  scriptPage,
  service,
  site,
  type PageWindow,
} from '../support/cdn-page.js';

describe('CDN scripts: where and how they are loaded', () => {
  const placements: [string, (body: string) => [string, string]][] = [
    ['a plain <script src> in <head>, before the markup', (body) => [body, site()]],
    ['<script src defer> in <head>', (body) => [body, site(CLASSIC, ' defer')]],
    ['<script src async> in <head>', (body) => [body, site(CLASSIC, ' async')]],
    ['a plain <script src> at the end of <body>', (body) => [`${body}${site()}`, '']],
    ['the ES module, <script type="module" src>', (body) => [body, site(MODULE)]],
  ];
  for (const [name, place] of placements) {
    it(`${name}: defines <video-plugin>, sets window.VideoPlugin, upgrades what is already in the page`, async () => {
      const { serviceURL } = await testConfig();
      const body = `
        <video-plugin partner-id="${PARTNER}" service-url="${serviceURL}" style="height:400px"></video-plugin>
        ${await markup({ 'data-open-on': 'none', 'data-height': '300px' }, '<p>Studio loading…</p>')}`;
      const win = await page(...place(body));
      expect(win.VideoPlugin?.version).to.equal(VERSION);
      expect(win.customElements.get('video-plugin')).to.equal(win.VideoPlugin!.VideoPluginElement);
      // The element in the markup works: a real call through the service.
      const el = win.document.querySelector('body > video-plugin') as VideoPluginElement;
      const accountID = await el.createAccount(await token('create', { partnerID: PARTNER }));
      expect((await el.getAccountInfo()).id).to.equal(accountID);
      // So does the data-video-plugin host: it holds a <video-plugin> with its content inside.
      const host = win.document.querySelector('[data-video-plugin]')!;
      const inner = host.querySelector(':scope > video-plugin') as VideoPluginElement;
      expect(inner.textContent).to.equal('Studio loading…');
      expect(await inner.getVideos()).to.deep.equal([]);
      expect(inner.getBoundingClientRect().height).to.equal(300);
      expect(win.warnings).to.deep.equal([]);
      expect(win.errors).to.deep.equal([]);
    });
  }

  it('the classic script is a classic script: no import or export, no top-level name but window.VideoPlugin', async () => {
    const code = await (await fetch(CLASSIC)).text();
    expect(code).to.not.match(/\bimport\s*[{*"'\w]|\bimport\(|\bexport\s*[{*\w]/);
    // Run as a classic script it declares nothing in the page's global scope but window.VideoPlugin.
    const win = await page('');
    const before = new Set(Object.keys(win));
    const script = win.document.createElement('script');
    script.src = CLASSIC;
    await new Promise((resolve) => {
      script.onload = resolve;
      win.document.head.append(script);
    });
    // Lit's and zod's own globals aside (version lists, metadata, config, which every copy shares).
    const added = Object.keys(win).filter((key) => !before.has(key) && !/^(lit|reactiveElement|__zod)/.test(key));
    expect(added).to.deep.equal(['VideoPlugin']);
  });

  it('the ES module is self-contained and exports the API', async () => {
    const code = await (await fetch(MODULE)).text();
    expect(code).to.not.match(/\bimport\s*[{*"'\w]|\bimport\(/);
    const module = (await import(/* @vite-ignore */ MODULE)) as VideoPluginGlobal;
    expect(module.Plugin.version).to.equal(VERSION);
    expect(module.VideoPluginElement).to.equal(customElements.get('video-plugin'));
  });

  it('sets window.VideoPlugin: the Plugin class, the error classes, the constants and the version', async () => {
    const { serviceURL } = await testConfig();
    const win = await scriptPage();
    const api = win.VideoPlugin!;
    expect(api.version).to.equal(VERSION);
    expect(api.Plugin.version).to.equal(VERSION);
    expect(api.VideoPluginElement).to.equal(win.customElements.get('video-plugin'));
    expect(api.EVENT_NAMES).to.include('pluginOpened');
    expect(api.onIntent).to.be.a('function');
    // The wire's own helpers are not part of the API (nor of the bytes).
    expect(api).to.not.have.any.keys('ERROR_CODES', 'serializeError', 'deserializeError');
    expect(new api.NotFoundError('video_not_found', 'x')).to.be.instanceOf(api.VideoPluginError);
    const plugin = new api.Plugin(PARTNER, { serviceURL });
    try {
      expect(await plugin.getVideos()).to.deep.equal([]);
      const error = await plugin.getAccountInfo().catch((e: unknown) => e);
      expect(error).to.be.instanceOf(api.NotAuthenticatedError);
      // The minifier renames classes: names must survive it, partners log and compare them.
      expect((error as Error).name).to.equal('NotAuthenticatedError');
      expect(new api.TimeoutError('timeout', 'x').name).to.equal('TimeoutError');
    } finally {
      await plugin.cleanup();
    }
  });

  for (const [name, scripts] of [
    ['the classic script twice', () => [site(), site(CLASSIC, ' async')]],
    ['the classic script and the ES module', () => [site(), site(MODULE)]],
    ['the ES module and the classic script', () => [site(MODULE), site(CLASSIC, ' defer')]],
  ] as const) {
    it(`${name} on one page: harmless and silent, one registration, one studio per host`, async () => {
      const win = await page(await markup({ 'data-open-on': 'click' }), scripts().join(''));
      const api = win.VideoPlugin!;
      expect(win.customElements.get('video-plugin')).to.equal(api.VideoPluginElement);
      const host = win.document.querySelector('[data-video-plugin]')!;
      expect(host.querySelectorAll('video-plugin')).to.have.length(1);
      expect(host.querySelectorAll('button')).to.have.length(1);
      expect(await (host.firstElementChild as VideoPluginElement).getVideos()).to.deep.equal([]);
      expect(win.warnings).to.deep.equal([]);
    });
  }

  it('after another copy of video-plugin (a bundle), warns once and leaves the first registration in place', async () => {
    const win = await page(`
      <script type="module">
        import { VideoPluginElement } from '/dist/element/index.js';
        window.firstCopy = VideoPluginElement;
      </script>
      <script type="module" src="${MODULE}"></script>`);
    const first = (win as unknown as { firstCopy: unknown }).firstCopy;
    expect(first).to.be.a('function');
    expect(win.customElements.get('video-plugin')).to.equal(first);
    expect(win.VideoPlugin!.VideoPluginElement).to.not.equal(first);
    // (The unbundled copy runs Lit's development build here, which adds warnings of its own.)
    const ours = win.warnings.filter((warning) => warning.startsWith('[video-plugin]'));
    expect(ours).to.have.length(1);
    expect(ours[0]).to.contain('already registered by another copy of video-plugin');
  });
});

describe('CDN scripts: what only the site-wide <script> sets (data-service-url, data-debug)', () => {
  /** Another origin of this machine: where a CMS author's markup would send the studio. */
  const elsewhere = () => service.replace('127.0.0.1', 'localhost');

  it("the site-wide script's data-service-url and data-debug reach every embed", async () => {
    const win = await page('', site(CLASSIC, ' data-debug'));
    const host = insert(win, await markup({ 'data-open-on': 'none' }));
    await afterMutations();
    const el = host.querySelector('video-plugin') as VideoPluginElement;
    expect(el.serviceURL).to.equal(service);
    expect(el.hasAttribute('debug')).to.equal(true);
    expect(await el.getVideos()).to.deep.equal([]);
    expect(win.logs.some((line) => line.startsWith('[video-plugin]'))).to.equal(true);
  });

  for (const [attribute, value] of [
    ['data-service-url', 'elsewhere'],
    ['data-debug', ''],
  ] as const) {
    it(`${attribute} in the markup: an error event naming it, no studio, nothing sent; removed, the studio is built`, async () => {
      const win = await scriptPage();
      const template = win.document.createElement('template');
      template.innerHTML = await markup({
        'data-open-on': 'load',
        [attribute]: value === 'elsewhere' ? elsewhere() : value,
      });
      const host = template.content.firstElementChild!;
      const failed = next<VideoPluginError>(host, 'error');
      win.document.body.append(host);
      const error = (await failed).detail;
      expect(error).to.be.instanceOf(win.VideoPlugin!.InvalidParameterError);
      expect(error.data?.field).to.equal(attribute);
      expect(error.message).to.contain(attribute).and.contain('<script>');
      expect(host.querySelector('video-plugin')).to.equal(null);
      expect(win.document.querySelectorAll('iframe')).to.have.length(0);
      const origins = win.performance.getEntriesByType('resource').map((entry) => new URL(entry.name).origin);
      expect(origins).to.not.include(new URL(elsewhere()).origin);
      expect(win.logs.filter((line) => line.startsWith('[video-plugin]'))).to.deep.equal([]);
      // The author takes it out: the studio is built with the site's settings.
      const opened = next(host, 'pluginOpened');
      host.removeAttribute(attribute);
      await opened;
      const el = host.querySelector('video-plugin') as VideoPluginElement;
      expect(el.serviceURL).to.equal(service);
      expect(el.hasAttribute('debug')).to.equal(false);
    });
  }

  it("set later on a working embed, data-service-url is refused and the studio keeps the site's service", async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'none' }));
    await afterMutations();
    const el = host.querySelector('video-plugin') as VideoPluginElement;
    await el.getVideos();
    const failed = next<VideoPluginError>(host, 'error');
    host.setAttribute('data-service-url', elsewhere());
    expect((await failed).detail.data?.field).to.equal('data-service-url');
    expect(el.serviceURL).to.equal(service);
    expect(await el.getVideos()).to.deep.equal([]);
  });

  it('markup that clobbers document.currentScript cannot supply the settings', async () => {
    // <img name> is reachable as document.currentScript; it is not a <script>, so it is not read.
    const win = await page(
      `<img name="currentScript" data-service-url="${elsewhere()}" data-debug alt="">` +
        (await markup({ 'data-open-on': 'none', 'data-preload': 'none' })) +
        site(),
    );
    await afterMutations();
    const el = win.document.querySelector('[data-video-plugin] > video-plugin') as VideoPluginElement;
    expect(el, 'the embed is built').to.not.equal(null);
    expect([service, undefined]).to.include(el.serviceURL);
    expect(el.hasAttribute('debug')).to.equal(false);
  });

  it('an element with id="VideoPlugin" in the markup does not stop the script: the global and the embeds are there', async () => {
    const win = await page(
      `<form id="VideoPlugin"></form><a id="VideoPlugin" name="version"></a>` +
        (await markup({ 'data-open-on': 'none' })) +
        site(),
    );
    expect(win.VideoPlugin?.version).to.equal(VERSION);
    await afterMutations();
    const el = win.document.querySelector('[data-video-plugin] > video-plugin') as VideoPluginElement;
    expect(await el.getVideos()).to.deep.equal([]);
  });
});

// ---- The snippets of docs/cdn.md, exactly as written ----

interface Snippet {
  name: string;
  html: string;
}

/** The HTML code blocks of docs/cdn.md that follow a `<!-- snippet: name -->` marker. */
async function readmeSnippets(): Promise<Snippet[]> {
  const readme = await (await fetch('/docs/cdn.md')).text();
  return [...readme.matchAll(/<!-- snippet: ([\w-]+) -->\s*```html\n([\s\S]*?)```/g)].map(([, name, html]) => ({
    name: name!,
    html: html!,
  }));
}

/**
 * What a partner changes in a snippet, and what the tests change to run it offline: the CDN's
 * address (this version) and the demo's become the built files, the partner and the hosted service
 * become the test partner on the test service. Anything else stays as written.
 */
async function offline(html: string): Promise<string> {
  const { serviceURL } = await testConfig();
  const out = html
    .replaceAll(`https://cdn.jsdelivr.net/npm/video-plugin@${VERSION}/dist/cdn/`, '/dist/cdn/')
    .replaceAll('http://localhost:8000/vendor/', '/dist/cdn/')
    .replaceAll('http://127.0.0.1:8001', serviceURL)
    // The markup names no service: the site-wide <script> points every embed at the test service.
    .replaceAll(/(<script\s+src="\/dist\/cdn\/video-plugin\.min\.js")/g, `$1 data-service-url="${serviceURL}"`)
    .replaceAll(/\bdata-partner-id="(YOUR-PARTNER-ID|demo-partner)"/g, `data-partner-id="${PARTNER}"`)
    .replaceAll(/(\s)partner-id="YOUR-PARTNER-ID"/g, `$1partner-id="${PARTNER}" service-url="${serviceURL}"`)
    .replaceAll(/'YOUR-PARTNER-ID', \{/g, `'${PARTNER}', { serviceURL: '${serviceURL}',`)
    .replaceAll('demo-partner', PARTNER);
  expect(out, 'a snippet names a partner or an address the tests cannot map').to.not.match(
    /YOUR-PARTNER-ID|cdn\.jsdelivr\.net|unpkg\.com|localhost:8000/,
  );
  return out;
}

/** sha384 of a built file, as an `integrity` value. */
async function integrity(path: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-384', await (await fetch(path)).arrayBuffer());
  return `sha384-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`;
}

/** Opens the studio of a page made from a snippet: a click on its button, then `pluginOpened`. */
async function drive(win: PageWindow): Promise<void> {
  const button = win.document.querySelector('button') as HTMLButtonElement;
  expect(button, 'the snippet shows a button').to.not.equal(null);
  const uiOpened = win.document.querySelector('video-plugin') ? next(win.document, 'pluginOpened') : undefined;
  // A snippet without the element (the Plugin class) logs on pluginOpened itself.
  const logged = uiOpened ? undefined : next(win, 'studio-log');
  button.click();
  await (uiOpened ?? logged);
}

describe('CDN scripts: the snippets of docs/cdn.md, as written', () => {
  it('docs/cdn.md has the snippets, pinned to this version, with the integrity of the built files', async () => {
    const snippets = await readmeSnippets();
    expect(snippets.map((s) => s.name)).to.include.members(['cdn-markup', 'cdn-element', 'cdn-module', 'try-offline']);
    const expected: Record<string, string> = { [CLASSIC]: await integrity(CLASSIC) };
    for (const { name, html } of snippets) {
      for (const [, url, hash] of html.matchAll(/src="([^"]+)"\s+integrity="([^"]+)"/g)) {
        const local = (await offline(`src="${url}"`)).slice(5, -1);
        expect(hash, `${name}: the integrity of ${url}; run \`npm run sri -- --write\``).to.equal(
          expected[local] ?? (await integrity(local)),
        );
      }
    }
  });

  for (const name of ['cdn-markup', 'cdn-element', 'cdn-module', 'try-offline']) {
    it(`the "${name}" snippet works pasted into a page`, async () => {
      const snippet = (await readmeSnippets()).find((s) => s.name === name)!;
      const win = await page(await offline(snippet.html));
      if (name === 'cdn-module') {
        // The module snippet has no element: it logs, and the page tells the test.
        const pageWindow = win as unknown as typeof globalThis;
        const original = pageWindow.console.log;
        pageWindow.console.log = (...args: unknown[]) => {
          original(...args);
          win.dispatchEvent(new pageWindow.Event('studio-log'));
        };
      }
      await win.customElements.whenDefined('video-plugin');
      await drive(win);
      expect(win.errors).to.deep.equal([]);
    });
  }
});

describe('CDN scripts: through DOMPurify (default configuration)', () => {
  it('keeps the data-video-plugin markup, which then works; drops <video-plugin> and <script>', async () => {
    const snippets = await readmeSnippets();
    const markupSnippet = snippets.find((s) => s.name === 'cdn-markup')!.html;
    const elementSnippet = snippets.find((s) => s.name === 'cdn-element')!.html;
    // The site-wide script is the site's; the post body is what goes through the sanitizer.
    const [scriptTag, ...rest] = (await offline(markupSnippet)).trim().split('\n\n');
    const body = rest.join('\n\n');
    const clean = DOMPurify.sanitize(body);
    expect(clean).to.contain('data-video-plugin').and.contain(`data-partner-id="${PARTNER}"`);
    expect(clean).to.contain('data-open-on="click"').and.contain('data-auth-mode="uncontrolled"');
    const win = await page(clean, scriptTag);
    await drive(win);

    // The raw element snippet loses its script and its custom element; only the button is left.
    const raw = DOMPurify.sanitize(await offline(elementSnippet));
    expect(raw).to.not.contain('<script').and.not.contain('<video-plugin');
    expect(raw).to.contain('<button');
  });

  it("keeps the markup of the docs' CMS guide: inside <p>, in a figure, with a launcher button of its own", async () => {
    const dirty = `<figure class="wp-block-html"><p><div data-video-plugin data-partner-id="${PARTNER}" data-auth-mode="uncontrolled" data-open-on="click" onclick="alert(1)"><button type="button">Start</button></div></p></figure>`;
    const clean = DOMPurify.sanitize(dirty);
    expect(clean).to.not.contain('onclick');
    const win = await page(clean, site(CLASSIC, ' defer'));
    await drive(win);
  });
});
