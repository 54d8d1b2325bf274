// Events of <video-plugin> that bubble, typed where a page listens for them: on document, window
// and any container, not only on the element (the global event maps extend
// VideoPluginBubblingEventMap). Compiled against dist/ by test/node/frameworks.test.ts.
import type { Video, VideoPluginError } from 'video-plugin';
import type { VideoPluginBubblingEventMap } from 'video-plugin/element';

document.addEventListener('videoRendered', (event) => event.detail satisfies Video);
document.addEventListener('videoRendered', (event) => event.detail.id satisfies string);
document.addEventListener('sessionLost', (event) => event.detail.accountID satisfies string);
document.addEventListener('closed', (event) => event.detail.reason satisfies 'escape' | 'backdrop' | 'ui' | 'api');
window.addEventListener('videoCompleted', (event) => event.detail satisfies Video);
document.querySelector('main')?.addEventListener('ready', (event) => event.detail satisfies null);

// `error` does not bubble: on document it stays the platform's ErrorEvent, on the element it is ours.
document.addEventListener('error', (event) => event satisfies ErrorEvent);
document.querySelector('video-plugin')?.addEventListener('error', (event) => event.detail satisfies VideoPluginError);

// The helper type for a target of one's own (a shadow root the element sits in).
interface ShadowEvents extends VideoPluginBubblingEventMap, ShadowRootEventMap {}
export function onShadow<K extends keyof ShadowEvents>(
  root: ShadowRoot,
  type: K,
  listener: (event: ShadowEvents[K]) => void,
): void {
  root.addEventListener(type, listener as EventListener);
}
onShadow(document.body.attachShadow({ mode: 'open' }), 'videoSaved', (event) => event.detail satisfies Video);

// @ts-expect-error -- the detail of videoRendered is a Video, not a string
document.addEventListener('videoRendered', (event) => event.detail satisfies string);
// @ts-expect-error -- there is no such event
document.addEventListener('videoRendred', (event: CustomEvent<Video>) => event.detail);
