// video-plugin/jsx: the props of <video-plugin> for any JSX, added to its IntrinsicElements.
import type { CustomElements, VideoPluginJSXProps } from 'video-plugin/jsx';

// What a Preact or Stencil project writes once, here on a JSX namespace of its own.
// eslint-disable-next-line @typescript-eslint/no-namespace -- a JSX namespace, as JSX libraries declare it
declare namespace MyJSX {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the augmentation pattern
  interface IntrinsicElements extends CustomElements {}
}

export const props: MyJSX.IntrinsicElements['video-plugin'] = {
  'partner-id': 'acme',
  appearance: { fontFamily: 'Inter, sans-serif' },
  onpluginOpened: (event) => event.detail satisfies null,
  onsessionLost: (event) => event.detail.accountID satisfies string,
};

// @ts-expect-error -- connect-timeout is a number of milliseconds
export const badTimeout: VideoPluginJSXProps = { 'connect-timeout': { ms: 5 } };
