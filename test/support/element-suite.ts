// What the <video-plugin> suites share (element.test.ts and element-*.test.ts, one per section of
// docs/element-guide.md; each also runs against the classic CDN script): elements for the test
// partner on the test service, signing up through them, awaiting their DOM events and counting the
// iframes an action creates.
import type { VideoPluginElement } from './element-api.js';
import { testConfig, token } from './plugin.js';

/** The test partner every element of these suites is for. */
export const PARTNER = 'test-partner';
const elements: VideoPluginElement[] = [];

/** A `<video-plugin>` for the test partner on the test service; connected unless told otherwise. */
export async function element(
  attributes: Record<string, string> = {},
  { connect = true }: { connect?: boolean } = {},
): Promise<VideoPluginElement> {
  const { serviceURL } = await testConfig();
  const el = document.createElement('video-plugin');
  el.setAttribute('partner-id', PARTNER);
  el.setAttribute('service-url', serviceURL);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  elements.push(el);
  if (connect) {
    document.body.append(el);
    await el.updateComplete;
  }
  return el;
}

/** Creates an account through the element with a token from the test back end. */
export async function signUp(el: VideoPluginElement, account: Record<string, string> = {}): Promise<string> {
  return el.createAccount(await token('create', { partnerID: PARTNER, account }));
}

/** Resolves with the next `name` event heard on `target`. */
export function nextDOMEvent<T = unknown>(target: EventTarget, name: string): Promise<CustomEvent<T>> {
  return new Promise((resolve) =>
    target.addEventListener(name, (event) => resolve(event as CustomEvent<T>), { once: true }),
  );
}

/**
 * Resolves after the current task, so every microtask queued so far has run: the element defers its
 * teardown by one microtask, so after this a teardown that was going to happen has happened.
 */
export const afterMicrotasks = () => new Promise<void>((resolve) => setTimeout(resolve));

/** Counts the iframes created while `action` runs and its update settles. */
export async function iframesCreatedBy(el: VideoPluginElement, action: () => void): Promise<number> {
  const original = document.createElement;
  let count = 0;
  document.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    if (tag.toLowerCase() === 'iframe') count++;
    return original.call(this, tag, options);
  } as typeof document.createElement;
  try {
    action();
    await el.updateComplete;
  } finally {
    document.createElement = original;
  }
  return count;
}

/** For `afterEach`: removes the elements the test made and waits for their sessions to end. */
export async function removeElements(): Promise<void> {
  const plugins = elements.map((el) => el.plugin).filter((plugin) => plugin !== undefined);
  for (const el of elements.splice(0)) el.remove();
  await afterMicrotasks();
  await Promise.all(plugins.map((plugin) => plugin.cleanup()));
}
