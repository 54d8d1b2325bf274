// video-plugin/svelte: <video-plugin> in Svelte 5 markup, through svelteHTML.IntrinsicElements.
import type {} from 'video-plugin/svelte';

type Props = svelteHTML.IntrinsicElements['video-plugin'];

export const props: Props = {
  'partner-id': 'acme',
  theme: 'dark',
  class: 'studio',
  appearance: { colorPrimary: '#1d4ed8' },
  editor: { labels: { completeVideoConfirmation: { shouldShow: false } } },
  onpluginOpened: (event) => event.detail satisfies null,
  onvideoCreated: (event) => event.detail.id satisfies string,
  onerror: (event) => event.detail.code satisfies string,
};

// @ts-expect-error -- display is inline, modal or drawer
export const badDisplay: Props = { display: 'popup' };
// @ts-expect-error -- a listener of pluginOpened gets its CustomEvent, not a string
export const badListener: Props = { onpluginOpened: (event: string) => event };
