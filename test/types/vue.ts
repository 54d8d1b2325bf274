// video-plugin/vue: <video-plugin> in Vue templates, through Vue's GlobalComponents.
import type { GlobalComponents } from 'vue';
import type {} from 'video-plugin/vue';

type Props = InstanceType<GlobalComponents['video-plugin']>['$props'];

export const props: Props = {
  'partner-id': 'acme',
  'service-url': 'https://video.example',
  theme: 'dark',
  locale: 'de',
  appearance: { colorPrimary: '#1d4ed8', borderRadius: 8 },
  editor: { labels: { completeVideoConfirmation: { shouldShow: true, title: 'Done?' } } },
  onPluginOpened: (event) => event.detail satisfies null,
  onVideoCreated: (event) => event.detail.id satisfies string,
  onClosed: (event) => event.detail.reason satisfies 'escape' | 'backdrop' | 'ui' | 'api',
};

// @ts-expect-error -- theme is light, dark or auto
export const badTheme: Props = { theme: 'blue' };
// @ts-expect-error -- appearance is an object of known keys
export const badAppearance: Props = { appearance: { colour: 'red' } };
// @ts-expect-error -- the read-only plugin is not a prop
export const readOnly: Props = { plugin: undefined };
