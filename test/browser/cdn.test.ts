// The CDN scripts (dist/cdn/, built by `npm run build`) in pages with no build step, as partners
// paste them: the classic script as a plain <script src> (with defer, async, in <head>, at the end
// of <body>), the ES module, both together; the declarative `data-video-plugin` markup that CMS
// sanitizers keep; the snippets of docs/cdn.md loaded exactly as written; and DOMPurify's default
// sanitizer between the snippets and the page. Every page is a whole HTML document in a same-origin
// iframe, talking to the real local service.
import { expect } from '@open-wc/testing';
import DOMPurify from 'dompurify';
import { VERSION } from '../../src/version.js';
import { testConfig, token } from '../support/plugin.js';
import type { VideoPluginGlobal } from '../../src/cdn.js';
import type { VideoPluginElement } from '../../src/element/index.js';
import type { VideoPluginError } from '../../src/errors.js';

const CLASSIC = '/dist/cdn/video-plugin.min.js';
const MODULE = '/dist/cdn/video-plugin.module.min.js';
const PARTNER = 'test-partner';

interface PageWindow extends Window {
  VideoPlugin?: VideoPluginGlobal;
  warnings: string[];
  errors: string[];
  /** console.log and console.debug (the debug output). */
  logs: string[];
}

const frames: HTMLIFrameElement[] = [];

/** The test service's URL: what the site-wide <script> says (`data-service-url` on it). */
let service = '';
before(async () => {
  service = (await testConfig()).serviceURL;
});

/** The site-wide <script> tag of a CDN file, pointing every embed at the test service. */
const site = (src: string = CLASSIC, more = '') =>
  `<script${src === MODULE ? ' type="module"' : ''} src="${src}" data-service-url="${service}"${more}></script>`;

/** Loads `body` as a whole HTML page (same origin as the test page) and waits for its scripts. */
async function page(body: string, head = ''): Promise<PageWindow> {
  const iframe = document.createElement('iframe');
  iframe.style.cssText = 'width:800px;height:700px;border:0';
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  // This classic script runs first: it records the console before any of the page's scripts run.
  iframe.srcdoc = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CMS page</title>
<script>
  window.warnings = []; window.errors = []; window.logs = [];
  console.warn = (...args) => window.warnings.push(args.join(' '));
  console.error = (...args) => window.errors.push(String(args[0]));
  console.log = (...args) => window.logs.push(args.join(' '));
  console.debug = (...args) => window.logs.push(args.join(' '));
</script>${head}</head><body>${body}</body></html>`;
  frames.push(iframe);
  document.body.append(iframe);
  // The load event waits for every script, deferred and async ones included.
  await loaded;
  return iframe.contentWindow as PageWindow;
}

afterEach(async () => {
  for (const iframe of frames.splice(0)) {
    const elements = iframe.contentDocument?.querySelectorAll('video-plugin') ?? [];
    await Promise.all([...elements].map((el) => (el as VideoPluginElement).cleanup?.()));
    iframe.remove();
  }
});

/** Resolves with the next `name` event on `target`. */
function next<T = unknown>(target: EventTarget, name: string): Promise<CustomEvent<T>> {
  return new Promise((resolve) =>
    target.addEventListener(name, (event) => resolve(event as CustomEvent<T>), { once: true }),
  );
}

/** A `data-video-plugin` host for the test service, with `attributes` on top. */
async function markup(attributes: Record<string, string> = {}, content = ''): Promise<string> {
  // Uncontrolled: the studio opens without an account (in JWT mode openPlugin needs a login).
  // The service comes from the site-wide <script> (site()), never from the markup.
  const all = {
    'data-partner-id': PARTNER,
    'data-auth-mode': 'uncontrolled',
    ...attributes,
  };
  const text = Object.entries(all)
    .map(([name, value]) => `${name}="${value}"`)
    .join(' ');
  return `<div data-video-plugin ${text}>${content}</div>`;
}

/** A page with the classic script loaded; `host` is created from `html` by the test afterwards. */
async function scriptPage(): Promise<PageWindow> {
  return page('', site());
}

/** Parses `html` in `win`'s document and appends the result to its body; returns its first element. */
function insert(win: PageWindow, html: string, into: Element = win.document.body): HTMLElement {
  const template = win.document.createElement('template');
  template.innerHTML = html;
  const first = template.content.firstElementChild as HTMLElement;
  into.append(template.content);
  return first;
}

/** Resolves once every mutation observer callback queued by now has run. */
const afterMutations = () => new Promise<void>((resolve) => setTimeout(resolve));

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

describe('CDN scripts: the data-video-plugin markup', () => {
  it('forwards every data- attribute to the <video-plugin> it creates, and later changes too', async () => {
    const win = await scriptPage();
    const host = insert(
      win,
      await markup({
        'data-environment': 'demo',
        'data-auth-mode': 'uncontrolled',
        'data-connect-timeout': '9000',
        'data-call-timeout': '8000',
        'data-theme': 'dark',
        'data-locale': 'de',
        'data-display': 'modal',
        'data-launcher': '',
        'data-preload': 'auto',
        'data-open-on': 'none',
      }),
    );
    await afterMutations();
    const el = host.querySelector('video-plugin') as VideoPluginElement;
    const forwarded = [
      'partner-id',
      'environment',
      'auth-mode',
      'connect-timeout',
      'call-timeout',
      'theme',
      'locale',
      'display',
      'launcher',
      'preload',
    ];
    expect(forwarded.map((name) => el.getAttribute(name))).to.deep.equal([
      PARTNER,
      'demo',
      'uncontrolled',
      '9000',
      '8000',
      'dark',
      'de',
      'modal',
      '',
      'auto',
    ]);
    // The attributes of <video-plugin> and the data- forms are the same list, but for height
    // (data-height is the embed's own: a CSS height, or auto, the element's height="auto") and the
    // two that only the site-wide <script> sets.
    expect(el.getAttribute('service-url')).to.equal(service);
    expect(el.hasAttribute('debug')).to.equal(false);
    const attributes = [...win.VideoPlugin!.VideoPluginElement.observedAttributes].sort();
    expect(attributes).to.deep.equal([...forwarded, 'service-url', 'debug', 'height'].sort());
    await el.updateComplete;
    expect(el.plugin!.authMode).to.equal('uncontrolled');

    const rebuilt = el.plugin;
    host.setAttribute('data-call-timeout', '7000');
    await afterMutations();
    await el.updateComplete;
    expect(el.getAttribute('call-timeout')).to.equal('7000');
    // A change of configuration: the element built a new Plugin with it.
    expect(el.plugin).to.not.equal(rebuilt);
  });

  it('data-open-on="load" (the default) opens the AI page at once', async () => {
    const win = await scriptPage();
    const template = win.document.createElement('template');
    template.innerHTML = await markup({ 'data-auth-mode': 'uncontrolled' });
    const host = template.content.firstElementChild!;
    const opened = next(host, 'pluginOpened');
    win.document.body.append(host);
    await opened;
    const iframe = host.querySelector('video-plugin')!.shadowRoot!.querySelector('iframe')!;
    expect(iframe.getBoundingClientRect().height).to.equal(600);
  });

  it('data-height="auto" is the element\'s height="auto": the studio fits its content', async () => {
    const win = await scriptPage();
    const template = win.document.createElement('template');
    template.innerHTML = await markup({ 'data-height': 'auto' });
    const host = template.content.firstElementChild!;
    const opened = next(host, 'pluginOpened');
    win.document.body.append(host);
    await opened;
    const el = host.querySelector('video-plugin')!;
    expect(el.getAttribute('height')).to.equal('auto');
    expect(el.style.getPropertyValue('--video-plugin-height')).to.equal('');
    const iframe = el.shadowRoot!.querySelector('iframe')!;
    // The studio's first height message: the search step, shorter than the default min of 400px.
    while (!iframe.style.height) await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(parseFloat(iframe.style.height)).to.be.below(400);
    expect(iframe.getBoundingClientRect().height).to.equal(400);
    expect(el.getBoundingClientRect().height).to.equal(400);
  });

  it('data-open-on="click" shows a launcher button that opens the AI page, labelled by data-launcher-text', async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'click', 'data-launcher-text': 'Make a video' }));
    await afterMutations();
    const button = host.querySelector('video-plugin > button') as HTMLButtonElement;
    expect(button.textContent).to.equal('Make a video');
    expect(button.type).to.equal('button');
    const opened = next(host, 'pluginOpened');
    button.click();
    await opened;
  });

  it('data-open-on="click" uses the author\'s own button when the markup has one', async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'click' }, '<p><button class="mine">Start</button></p>'));
    await afterMutations();
    expect(host.querySelectorAll('button')).to.have.length(1);
    const opened = next(host, 'pluginOpened');
    (host.querySelector('button.mine') as HTMLButtonElement).click();
    await opened;
  });

  it('data-open-on="none" opens nothing: the page\'s code calls openPlugin on the element inside', async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'none', 'data-auth-mode': 'jwt' }));
    await afterMutations();
    const el = host.querySelector('video-plugin') as VideoPluginElement;
    expect(host.querySelector('button')).to.equal(null);
    await el.createAccount(await token('create', { partnerID: PARTNER }));
    const opened = next(host, 'pluginOpened');
    await el.openPlugin();
    await opened;
  });

  it('markup added later is upgraded; removed, its studio ends; the observer then stops watching it', async () => {
    const win = await scriptPage();
    const section = insert(win, '<section></section>');
    const host = insert(win, await markup({ 'data-open-on': 'none' }), section);
    await afterMutations();
    const el = host.querySelector('video-plugin') as VideoPluginElement;
    await el.getVideos();
    const plugin = el.plugin!;
    section.remove();
    await afterMutations();
    expect(plugin.isDestroyed).to.equal(true);
    // Detached, the host is no longer watched: its attribute changes do nothing.
    host.setAttribute('data-call-timeout', '5000');
    await afterMutations();
    expect(el.getAttribute('call-timeout')).to.equal(null);
    // Inserted again, it is watched again and its studio starts a new session.
    win.document.body.append(host);
    await afterMutations();
    expect(host.querySelectorAll('video-plugin')).to.have.length(1);
    expect(await el.getVideos()).to.deep.equal([]);
    host.setAttribute('data-call-timeout', '6000');
    await afterMutations();
    expect(el.getAttribute('call-timeout')).to.equal('6000');
  });

  it('removing data-video-plugin puts the host back as it was', async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'click' }, '<em>Hello</em>'));
    await afterMutations();
    expect(host.querySelector('video-plugin')).to.not.equal(null);
    host.removeAttribute('data-video-plugin');
    await afterMutations();
    expect(host.innerHTML).to.equal('<em>Hello</em>');
  });

  it('works inside a <p> or wrapped by the CMS (a figure, nested divs)', async () => {
    const win = await scriptPage();
    for (const [before, after] of [
      ['<p>', '</p>'],
      ['<figure class="wp-block-html"><div class="entry-content">', '</div></figure>'],
    ]) {
      // Parsed as the browser parses a post body: a <div> inside <p> closes the paragraph.
      const wrapper = insert(win, `<article>${before}${await markup({ 'data-open-on': 'click' })}${after}</article>`);
      await afterMutations();
      const host = wrapper.querySelector('[data-video-plugin]')!;
      const opened = next(host, 'pluginOpened');
      (host.querySelector('button') as HTMLButtonElement).click();
      await opened;
    }
  });

  it('any element can be the host: a <span> inside a paragraph works too', async () => {
    const win = await scriptPage();
    const p = insert(
      win,
      `<p>Make one: <span data-video-plugin data-partner-id="${PARTNER}" data-auth-mode="uncontrolled" data-open-on="click"></span></p>`,
    );
    await afterMutations();
    const opened = next(p, 'pluginOpened');
    (p.querySelector('button') as HTMLButtonElement).click();
    await opened;
  });
});

describe('CDN scripts: the data-video-plugin markup, bad input', () => {
  /** The error event of a host inserted into a page, and the page. */
  async function errorOf(html: string): Promise<{ error: VideoPluginError; win: PageWindow; host: Element }> {
    const win = await scriptPage();
    const template = win.document.createElement('template');
    template.innerHTML = html;
    const host = template.content.firstElementChild!;
    const failed = next<VideoPluginError>(host, 'error');
    win.document.body.append(host);
    return { error: (await failed).detail, win, host };
  }

  it('a missing data-partner-id: an error event naming it, no studio; setting it later builds one', async () => {
    const { error, win, host } = await errorOf('<div data-video-plugin data-open-on="none"></div>');
    expect(error).to.be.instanceOf(win.VideoPlugin!.InvalidParameterError);
    expect(error.code).to.equal('invalid_parameter');
    expect(error.data?.field).to.equal('data-partner-id');
    expect(error.message).to.contain('data-partner-id').and.contain('partner ID');
    expect(host.querySelector('video-plugin')).to.equal(null);
    // Nobody called preventDefault(): the console has it too, for an author with no listener.
    expect(win.errors.some((line) => line.includes('data-partner-id'))).to.equal(true);
    host.setAttribute('data-partner-id', PARTNER);
    await afterMutations();
    expect(await (host.querySelector('video-plugin') as VideoPluginElement).getVideos()).to.deep.equal([]);
  });

  for (const [attribute, value, words] of [
    ['data-auth-mode', 'open', ['jwt', 'uncontrolled']],
    ['data-environment', 'staging', ['prod', 'demo']],
    ['data-connect-timeout', 'soon', ['number']],
    ['data-open-on', 'hover', ['load', 'click', 'none']],
    ['data-height', 'tall', ['CSS height']],
  ] as const) {
    it(`an invalid ${attribute}: an error event naming ${attribute}, the same error as the element's`, async () => {
      const { error, win } = await errorOf(await markup({ 'data-open-on': 'none', [attribute]: value }));
      expect(error).to.be.instanceOf(win.VideoPlugin!.InvalidParameterError);
      expect(error.data?.field).to.equal(attribute);
      expect(error.message).to.contain(attribute);
      for (const word of words) expect(error.message).to.contain(word);
      expect(error.message).to.not.match(/(^|[^-])\b(auth-mode|environment|service-url|connect-timeout) attribute/);
    });
  }

  it('a studio that cannot start (an unknown partner) is printed once, by the SDK, not again by the markup', async () => {
    const { error, win } = await errorOf(await markup({ 'data-partner-id': 'no-such-partner' }));
    expect(error).to.be.instanceOf(win.VideoPlugin!.NotFoundError);
    // The event has been dispatched: whatever the markup would print, it has printed.
    expect(win.errors).to.deep.equal([`[video-plugin] NotFoundError (partner_not_found): ${error.message}`]);
  });

  it('an error event that a listener cancels stays off the console', async () => {
    const win = await scriptPage();
    const template = win.document.createElement('template');
    template.innerHTML = await markup({ 'data-auth-mode': 'open' });
    const host = template.content.firstElementChild!;
    host.addEventListener('error', (event) => event.preventDefault());
    const failed = next(host, 'error');
    win.document.body.append(host);
    await failed;
    expect(win.errors).to.deep.equal([]);
  });

  it('unknown data- attributes are ignored, with a warning only when the site-wide script has data-debug', async () => {
    const quiet = await scriptPage();
    insert(quiet, await markup({ 'data-open-on': 'none', 'data-partnerid': 'typo', 'data-align': 'wide' }));
    await afterMutations();
    expect(quiet.warnings).to.deep.equal([]);
    const win = await page('', site(CLASSIC, ' data-debug'));
    insert(win, await markup({ 'data-open-on': 'none', 'data-partnerid': 'typo' }));
    await afterMutations();
    const ours = win.warnings.filter((warning) => warning.startsWith('[video-plugin]'));
    expect(ours).to.have.length(1);
    expect(ours[0]).to.contain('data-partnerid').and.contain('ignored').and.contain('data-partner-id');
  });

  it('a page without the markup gets no element, no iframe and no request', async () => {
    const win = await page('<main><p>Nothing to embed here.</p><div data-other="1"></div></main>', site());
    win.document.body.append(win.document.createElement('div'));
    await afterMutations();
    expect(win.document.querySelectorAll('video-plugin, iframe')).to.have.length(0);
    const requests = win.performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    expect(requests).to.deep.equal([CLASSIC]);
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
    expect(el.getAttribute('service-url')).to.equal(service);
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
      expect(el.getAttribute('service-url')).to.equal(service);
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
    expect(el.getAttribute('service-url')).to.equal(service);
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
    expect([service, null]).to.include(el.getAttribute('service-url'));
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
