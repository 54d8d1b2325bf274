/**
 * Registers `<video-plugin>`, idempotently. A page can hold two copies of the library (a CMS page
 * that loads the CDN script and a bundle): the first copy registers the element and the second
 * warns instead of throwing.
 */
import { VERSION } from '../version.js';
import { VideoPluginElement } from './video-plugin-element.js';

/** The element's tag name. */
export const TAG_NAME = 'video-plugin';

let warned = false;

/**
 * Registers `VideoPluginElement` as `<video-plugin>` unless it already is. When another copy of
 * video-plugin registered the tag first, warns once and leaves that registration in place.
 * Returns whether this copy's class is the registered one. Does nothing where there is no
 * `customElements` registry (server-side rendering without a DOM shim).
 */
export function defineVideoPlugin(): boolean {
  const registry = globalThis.customElements;
  if (!registry) return false;
  const existing = registry.get(TAG_NAME);
  if (existing === VideoPluginElement) return true;
  if (existing === undefined) {
    registry.define(TAG_NAME, VideoPluginElement);
    return true;
  }
  if (warned) return false;
  warned = true;
  const theirs = (existing as { version?: unknown }).version;
  console.warn(
    `[video-plugin] <${TAG_NAME}> is already registered by another copy of video-plugin` +
      `${typeof theirs === 'string' ? ` (version ${theirs})` : ''}; this copy (version ${VERSION}) was not ` +
      'registered. Load video-plugin once per page: the CDN script or your bundle, not both.',
  );
  return false;
}
