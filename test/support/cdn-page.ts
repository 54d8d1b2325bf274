// Pages with no build step for the CDN suites (cdn.test.ts, cdn-markup.test.ts): a whole HTML
// document in a same-origin iframe (its console recorded), the site-wide <script> of a CDN file
// pointed at the test service, and the `data-video-plugin` markup; each page is removed, and its
// elements cleaned up, after each test.
import type { VideoPluginGlobal } from '../../src/cdn.js';
import type { VideoPluginElement } from '../../src/element/index.js';
import { testConfig } from './plugin.js';

export const CLASSIC = '/dist/cdn/video-plugin.min.js';
export const MODULE = '/dist/cdn/video-plugin.module.min.js';
export const PARTNER = 'test-partner';

export interface PageWindow extends Window {
  VideoPlugin?: VideoPluginGlobal;
  warnings: string[];
  errors: string[];
  /** console.log and console.debug (the debug output). */
  logs: string[];
}

const frames: HTMLIFrameElement[] = [];

/** The test service's URL: what the site-wide <script> says (`data-service-url` on it). */
export let service = '';
before(async () => {
  service = (await testConfig()).serviceURL;
});

/** The site-wide <script> tag of a CDN file, pointing every embed at the test service. */
export const site = (src: string = CLASSIC, more = '') =>
  `<script${src === MODULE ? ' type="module"' : ''} src="${src}" data-service-url="${service}"${more}></script>`;

/** Loads `body` as a whole HTML page (same origin as the test page) and waits for its scripts. */
export async function page(body: string, head = ''): Promise<PageWindow> {
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
export function next<T = unknown>(target: EventTarget, name: string): Promise<CustomEvent<T>> {
  return new Promise((resolve) =>
    target.addEventListener(name, (event) => resolve(event as CustomEvent<T>), { once: true }),
  );
}

/** A `data-video-plugin` host for the test service, with `attributes` on top. */
export async function markup(attributes: Record<string, string> = {}, content = ''): Promise<string> {
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
export async function scriptPage(): Promise<PageWindow> {
  return page('', site());
}

/** Parses `html` in `win`'s document and appends the result to its body; returns its first element. */
export function insert(win: PageWindow, html: string, into: Element = win.document.body): HTMLElement {
  const template = win.document.createElement('template');
  template.innerHTML = html;
  const first = template.content.firstElementChild as HTMLElement;
  into.append(template.content);
  return first;
}

/** Resolves once every mutation observer callback queued by now has run. */
export const afterMutations = () => new Promise<void>((resolve) => setTimeout(resolve));
