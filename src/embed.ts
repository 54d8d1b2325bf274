/**
 * The declarative embed of the CDN scripts: markup that CMS sanitizers keep (a plain element with
 * `data-` attributes) turned into a working studio.
 *
 * ```html
 * <div data-video-plugin data-partner-id="acme" data-auth-mode="uncontrolled" data-open-on="click"></div>
 * ```
 *
 * The attributes of `<video-plugin>` that say who the partner is and how the studio looks have their
 * `data-` form (`data-partner-id`, `data-theme`…), forwarded to a `<video-plugin>` created inside the
 * host element. Where the studio connects and whether it logs its messages do not: a CMS author who
 * may post this markup must not be able to send the page's login tokens to another site, or its
 * messages to the console. Those come from the site-wide `<script>` that loads the CDN file
 * (`data-service-url`, `data-debug` on it; see `siteSettings`), and on a host they are refused with
 * an `error` naming the attribute. Three more say how the studio shows: `data-open-on` (`load`, `click` or `none`), `data-launcher-text` and `data-height` (a CSS
 * height, or `auto`: the element's `height="auto"`). The
 * element's events bubble to the host; its `error` events (which do not bubble) are dispatched again
 * on the host, naming the `data-` attribute to fix.
 *
 * One `MutationObserver` on the document finds hosts added later; its callback only matches added
 * elements against one selector, so a page without such markup pays nothing else. Each host has an
 * attribute observer of its own, disconnected when the host leaves the document.
 */
import { TAG_NAME } from './element/define.js';
import { InvalidParameterError, VideoPluginError } from './errors.js';
import { reported } from './debug.js';
import type { VideoPluginElement } from './element/video-plugin-element.js';

/** What marks a host element. */
export const EMBED_ATTRIBUTE = 'data-video-plugin';
const SELECTOR = `[${EMBED_ATTRIBUTE}]`;

/** The `<video-plugin>` attributes a host forwards, each as `data-` + its name. */
export const FORWARDED_ATTRIBUTES = [
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
] as const;

/**
 * The `<video-plugin>` attributes that only the site-wide `<script>` may set (as `data-` + its name
 * on that script): the service the studio connects to, and debug output. On a host they are refused.
 */
export const SITE_ATTRIBUTES = ['service-url', 'debug'] as const;

/** What the site-wide `<script>` says: the service URL and debug output of every embed. */
export interface SiteSettings {
  readonly serviceURL?: string;
  readonly debug?: boolean;
}

/**
 * The settings of the `<script>` element that loaded the CDN file, as `ownScript` finds it
 * (cdn-register.ts): `document.currentScript` while the classic script runs, the module script
 * whose `src` is the module's own URL. Only the site's owner places that element: sanitized markup
 * cannot add a `<script>`. Markup can clobber `document.currentScript` or `querySelectorAll` with a
 * named element; then what is found is not a script (or the lookup throws), and the embeds keep
 * the defaults (the hosted service, no debug).
 */
export function siteSettings(document: Document, ownScript: (document: Document) => unknown): SiteSettings {
  let script: unknown;
  try {
    script = ownScript(document);
  } catch {
    // Clobbered: the defaults.
  }
  if (!(script instanceof HTMLScriptElement)) return {};
  return {
    serviceURL: script.getAttribute('data-service-url') ?? undefined,
    debug: script.hasAttribute('data-debug'),
  };
}

let site: SiteSettings = {};

/** When the studio opens: at once, on a click on the launcher, or when your code calls `openPlugin`. */
export const OPEN_ON = ['load', 'click', 'none'] as const;
type OpenOn = (typeof OPEN_ON)[number];

/** The host's own attributes (read when the studio is created). */
const OWN_ATTRIBUTES = ['video-plugin', 'open-on', 'launcher-text', 'height'];
const KNOWN = new Set([...FORWARDED_ATTRIBUTES, ...OWN_ATTRIBUTES].map((name) => `data-${name}`));

/** The launcher's label when `data-launcher-text` is not set. */
export const DEFAULT_LAUNCHER_TEXT = 'Create a video';

interface Embed {
  readonly observer: MutationObserver;
  element: VideoPluginElement | undefined;
  /** The launcher button the embed created (not the author's own). */
  launcher?: HTMLButtonElement;
}

const embeds = new Map<Element, Embed>();

/** Restates an error of the element in the host's terms: `data-partner-id` for `partner-id`. */
function forHost(error: VideoPluginError): VideoPluginError {
  const field = typeof error.data?.field === 'string' ? error.data.field : undefined;
  if (!field || !(FORWARDED_ATTRIBUTES as readonly string[]).includes(field)) return error;
  const message = error.message
    .replace(/^<video-plugin>:/, `[${EMBED_ATTRIBUTE}]:`)
    .replace(`the ${field} attribute`, `the data-${field} attribute`);
  const Class = error.constructor as typeof VideoPluginError;
  return new Class(error.code, message, { ...error.data, field: `data-${field}` });
}

/**
 * Dispatches `error` on the host (not bubbling, like the element's). When no listener called
 * `preventDefault()`, the error also goes to the console: a CMS author has no listener to read it.
 */
function fail(host: Element, error: VideoPluginError): void {
  const event = new CustomEvent('error', { detail: error, cancelable: true });
  // A studio that could not start was printed already, once (debug.ts).
  if (host.dispatchEvent(event) && !reported.has(error)) console.error(`[video-plugin] ${error.message}`, host);
}

function invalid(host: Element, field: string, message: string): void {
  fail(
    host,
    new InvalidParameterError(`[${EMBED_ATTRIBUTE}]: the ${field} attribute ${message}`, {
      field,
    }),
  );
}

function forward(host: Element, element: Element, name: string): void {
  const value = host.getAttribute(`data-${name}`);
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}

/**
 * Reports a site-wide attribute (`data-service-url`, `data-debug`) set on a host; true if there is
 * one. The studio then is not built: it would connect where the markup's author chose.
 */
function refused(host: Element, names: readonly string[]): boolean {
  const name = names.find(
    (name) => (SITE_ATTRIBUTES as readonly string[]).includes(name) && host.hasAttribute(`data-${name}`),
  );
  if (name) {
    invalid(host, `data-${name}`, 'is not allowed in markup: set it on the <script> that loads video-plugin.');
  }
  return name !== undefined;
}

/** Creates the `<video-plugin>` of `host`, once it has a partner ID. */
function build(host: Element, embed: Embed): void {
  if (refused(host, SITE_ATTRIBUTES)) return;
  if (!host.getAttribute('data-partner-id')?.trim()) {
    invalid(host, 'data-partner-id', 'is missing: set it to the partner ID the service gave you.');
    return;
  }
  const element = host.ownerDocument.createElement(TAG_NAME) as VideoPluginElement;
  element.addEventListener('error', (event) => {
    const error = (event as CustomEvent<unknown>).detail;
    if (error instanceof VideoPluginError) fail(host, forHost(error));
  });
  for (const name of FORWARDED_ATTRIBUTES) forward(host, element, name);
  // A property, not the attribute: the site's own script chose it (attributes.ts, markupService).
  if (site.serviceURL !== undefined) element.serviceURL = site.serviceURL;
  if (site.debug) {
    element.setAttribute('debug', '');
    warnUnknown(host);
  }

  const height = host.getAttribute('data-height');
  if (height !== null && height !== '') {
    // `auto`: the element's height="auto" (the studio fits its content), not a CSS height.
    if (height === 'auto') element.setAttribute('height', height);
    else if (CSS.supports('height', height)) element.style.setProperty('--video-plugin-height', height);
    else invalid(host, 'data-height', `is not a CSS height: got "${height}"; write e.g. "640px" or "80vh".`);
  }

  const openOnValue = host.getAttribute('data-open-on') || 'load';
  let openOn: OpenOn = 'load';
  if ((OPEN_ON as readonly string[]).includes(openOnValue)) openOn = openOnValue as OpenOn;
  else invalid(host, 'data-open-on', `must be one of ${OPEN_ON.join(', ')}: got "${openOnValue}". It opens on load.`);

  // The host's own content becomes the element's placeholder, shown while the studio is closed.
  element.append(...host.childNodes);
  if (openOn === 'click') {
    let launcher = element.querySelector('button');
    if (!launcher) {
      launcher = host.ownerDocument.createElement('button');
      launcher.type = 'button';
      launcher.textContent = host.getAttribute('data-launcher-text') || DEFAULT_LAUNCHER_TEXT;
      element.append(launcher);
      embed.launcher = launcher;
    }
    launcher.addEventListener('click', () => element.openPlugin().catch(() => {}));
  }
  host.append(element);
  embed.element = element;
  // A failure is reported by the element as a pluginOpenFailed event.
  if (openOn === 'load') element.openPlugin().catch(() => {});
}

function warnUnknown(host: Element): void {
  for (const { name } of host.attributes) {
    if (name.startsWith('data-') && !KNOWN.has(name)) {
      console.warn(
        `[video-plugin] ${name} is not an attribute of [${EMBED_ATTRIBUTE}] and is ignored. ` +
          `Known: ${[...KNOWN].join(', ')}.`,
        host,
      );
    }
  }
}

/** Puts the host back as it was: its content out of the element, the element removed. */
function unbuild(host: Element, embed: Embed): void {
  const element = embed.element;
  embed.element = undefined;
  if (!element) return;
  embed.launcher?.remove();
  embed.launcher = undefined;
  host.append(...element.childNodes);
  element.remove();
}

function onAttributes(host: Element, embed: Embed, records: MutationRecord[]): void {
  if (!host.hasAttribute(EMBED_ATTRIBUTE)) {
    embed.observer.disconnect();
    embeds.delete(host);
    unbuild(host, embed);
    return;
  }
  const names = records.map(({ attributeName }) => attributeName?.slice('data-'.length) ?? '');
  if (!embed.element) {
    if (names.some((name) => name === 'partner-id' || (SITE_ATTRIBUTES as readonly string[]).includes(name))) {
      build(host, embed);
    }
    return;
  }
  // Set later (by script: markup alone cannot change it), a site-wide attribute is refused all the
  // same, and the studio keeps the site's settings.
  if (refused(host, names)) return;
  for (const { attributeName } of records) {
    const name = attributeName?.slice('data-'.length);
    if (name && (FORWARDED_ATTRIBUTES as readonly string[]).includes(name)) forward(host, embed.element, name);
  }
}

/** Turns `host` into a studio, or (a host moved back into the document) watches it again. */
function upgrade(host: Element): void {
  if (host.localName === TAG_NAME) return;
  let embed = embeds.get(host);
  if (embed) return;
  const observer = new MutationObserver((records) => onAttributes(host, embed!, records));
  embed = { observer, element: host.querySelector<VideoPluginElement>(`:scope > ${TAG_NAME}`) ?? undefined };
  embeds.set(host, embed);
  observer.observe(host, { attributes: true });
  if (!embed.element) build(host, embed);
}

function scan(root: ParentNode): void {
  if (root instanceof Element && root.matches(SELECTOR)) upgrade(root);
  if (root.firstChild) for (const host of root.querySelectorAll(SELECTOR)) upgrade(host);
}

/** Hosts that left the document stop being watched (their `<video-plugin>` ends its session). */
function forgetRemoved(): void {
  for (const [host, embed] of embeds) {
    if (host.isConnected) continue;
    embed.observer.disconnect();
    embeds.delete(host);
  }
}

/**
 * Upgrades every host in `document`, now or once it is parsed, and every host added later.
 * Called once by the CDN scripts.
 */
export function startEmbeds(document: Document, settings: SiteSettings): void {
  site = settings;
  const start = () => {
    scan(document);
    new MutationObserver((records) => {
      let removed = false;
      for (const record of records) {
        for (const node of record.addedNodes) if (node instanceof Element) scan(node);
        removed ||= record.removedNodes.length > 0;
      }
      if (removed && embeds.size > 0) forgetRemoved();
    }).observe(document.documentElement, { childList: true, subtree: true });
  };
  // Before the end of parsing a host may be there without its content: wait for all of it.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
}
