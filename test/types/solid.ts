// video-plugin/solid: <video-plugin> in Solid JSX, through solid-js's JSX.IntrinsicElements.
import type { JSX } from 'solid-js';
import type {} from 'video-plugin/solid';

type Props = JSX.IntrinsicElements['video-plugin'];

export const props: Props = {
  'partner-id': 'acme',
  locale: 'fr',
  appearance: { colorScheme: 'dark' },
  'prop:editor': { labels: { completeVideoConfirmation: { shouldShow: true } } },
  'on:pluginOpened': (event) => event.detail satisfies null,
  'on:videoSaved': (event) => event.detail.id satisfies string,
};

// @ts-expect-error -- preload is auto, intent or none
export const badPreload: Props = { preload: 'eager' };
