// What the suites of the element's stage and white label share (stage, white-label; the element's
// own suites share test/support/element-suite.ts): inserting a <video-plugin> configured for
// the test service, awaiting its DOM events, and removing every element a test made.
import type { VideoPluginElement } from '../../src/element/video-plugin-element.js';
import { cleanupPlugins, testConfig } from './plugin.js';

/** The elements the current test made; `removeElements` (in `afterEach`) takes them out. */
export const elements: VideoPluginElement[] = [];

/** Ends every session, removes the test's elements and unlocks the page's scroll. */
export async function removeElements(): Promise<void> {
  await cleanupPlugins();
  for (const el of elements.splice(0)) el.remove();
  document.documentElement.style.overflow = '';
}

/** Resolves with the next `name` event of `target`. */
export function next<T = unknown>(target: EventTarget, name: string): Promise<CustomEvent<T>> {
  return new Promise((resolve) =>
    target.addEventListener(name, (event) => resolve(event as CustomEvent<T>), { once: true }),
  );
}

/** Inserts a <video-plugin> for the test service with `attributes` and light DOM `html`. */
export async function element(attributes: Record<string, string> = {}, html = ''): Promise<VideoPluginElement> {
  const { serviceURL } = await testConfig();
  const el = document.createElement('video-plugin');
  el.setAttribute('partner-id', 'test-partner');
  el.setAttribute('service-url', serviceURL);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  el.innerHTML = html;
  elements.push(el);
  document.body.append(el);
  await el.updateComplete;
  return el;
}
