// The CDN bundle (dist/cdn/video-plugin.min.js, built by `npm run build`) in pages with no build
// step: plain HTML, a <script type="module"> and the element, as a partner pastes it into a CMS.
import { expect } from '@open-wc/testing';
import { VERSION } from '../../src/version.js';
import { testConfig, token } from '../support/plugin.js';
import type { VideoPluginGlobal } from '../../src/cdn.js';
import type { VideoPluginElement } from '../../src/element/index.js';

const BUNDLE = '/dist/cdn/video-plugin.min.js';

interface PageWindow extends Window {
  VideoPlugin?: VideoPluginGlobal;
  warnings: string[];
}

const frames: HTMLIFrameElement[] = [];

/** Loads `body` as a whole HTML page (same origin as the test page) and waits for its scripts. */
async function page(body: string, head = ''): Promise<PageWindow> {
  const iframe = document.createElement('iframe');
  iframe.style.cssText = 'width:800px;height:700px;border:0';
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  // Classic scripts run first: record console warnings before any module runs.
  iframe.srcdoc = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CMS page</title>${head}
<script>window.warnings = []; console.warn = (...args) => window.warnings.push(args.join(' '));</script>
</head><body>${body}</body></html>`;
  frames.push(iframe);
  document.body.append(iframe);
  await loaded;
  return iframe.contentWindow as PageWindow;
}

afterEach(async () => {
  for (const iframe of frames.splice(0)) {
    const el = iframe.contentDocument?.querySelector('video-plugin') as VideoPluginElement | null;
    await el?.cleanup();
    iframe.remove();
  }
});

describe('CDN bundle', () => {
  it('works in a page with no build step: the snippet registers the element, which talks to the service', async () => {
    const { serviceURL } = await testConfig();
    const win = await page(`
      <script type="module" src="${BUNDLE}"></script>
      <video-plugin partner-id="test-partner" service-url="${serviceURL}" style="height:400px">
        <p>Loading the video studio…</p>
      </video-plugin>`);
    await win.customElements.whenDefined('video-plugin');
    const el = win.document.querySelector('video-plugin') as VideoPluginElement;
    expect(el.constructor).to.equal(win.customElements.get('video-plugin'));
    const accountID = await el.createAccount(await token('create', { partnerID: 'test-partner' }));
    expect((await el.getAccountInfo()).id).to.equal(accountID);
    await el.openPlugin();
    expect(el.shadowRoot!.querySelector('iframe')!.getBoundingClientRect().height).to.equal(400);
    expect(win.warnings).to.deep.equal([]);
  });

  it('sets window.VideoPlugin: the Plugin class, the error classes, the constants and the version', async () => {
    const { serviceURL } = await testConfig();
    const win = await page(`<script type="module" src="${BUNDLE}"></script>`);
    const api = win.VideoPlugin!;
    expect(api.version).to.equal(VERSION);
    expect(api.Plugin.version).to.equal(VERSION);
    expect(api.VideoPluginElement).to.equal(win.customElements.get('video-plugin'));
    expect(api.EVENT_NAMES).to.include('pluginOpened');
    expect(new api.NotFoundError('video_not_found', 'x')).to.be.instanceOf(api.VideoPluginError);
    const plugin = new api.Plugin('test-partner', { serviceURL });
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

  it('is one self-contained ES module that also exports the API', async () => {
    const code = await (await fetch(BUNDLE)).text();
    // No import of any other module: Lit and zod are inside.
    expect(code).to.not.match(/\bimport\s*[{*"'\w]|\bimport\(/);
    const module = (await import(/* @vite-ignore */ BUNDLE)) as VideoPluginGlobal;
    expect(module.Plugin.version).to.equal(VERSION);
    expect(module.VideoPluginElement).to.equal(customElements.get('video-plugin'));
  });

  it('a second copy on the page warns once and leaves the first registration in place', async () => {
    const win = await page(`
      <script type="module">
        import { VideoPluginElement } from '/dist/element/index.js';
        window.firstCopy = VideoPluginElement;
      </script>
      <script type="module" src="${BUNDLE}"></script>`);
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
