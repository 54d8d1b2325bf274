/**
 * Opt-in JSX types for React 19: `<video-plugin>` in TSX with its properties, attributes and
 * events typed. Types only; nothing runs.
 *
 * ```ts
 * import 'video-plugin/element'; // registers the element
 * import type {} from 'video-plugin/element/react'; // once, anywhere in the project
 *
 * <video-plugin partner-id="acme" service-url={url} editor={editor}
 *   onpluginOpened={() => track('opened')} onvideoCreated={(event) => save(event.detail)} />
 * ```
 *
 * React 19 sets a custom element's known properties as properties (so `editor` and `callbacks`
 * take objects) and turns `on<name>` props into listeners of the event `<name>`, case kept: write
 * `onpluginOpened`, `onvideoCreated` and `onerror`.
 * @module
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { VideoPluginElementEventMap } from './events.js';
import type { VideoPluginElement } from './video-plugin-element.js';

/** `on<event name>` → listener, for every event of `<video-plugin>`. */
export type VideoPluginEventProps = {
  [K in keyof VideoPluginElementEventMap as `on${K}`]?: (event: VideoPluginElementEventMap[K]) => void;
};

/** The element's properties, settable from JSX. */
export type VideoPluginProperties = Partial<
  Pick<
    VideoPluginElement,
    | 'partnerID'
    | 'environment'
    | 'authMode'
    | 'serviceURL'
    | 'debug'
    | 'connectTimeout'
    | 'callTimeout'
    | 'editor'
    | 'callbacks'
    | 'getLoginToken'
    | 'appearance'
    | 'theme'
    | 'locale'
    | 'display'
    | 'height'
    | 'launcher'
    | 'preload'
  >
>;

/** The element's attributes, for those who prefer the HTML spelling. */
export interface VideoPluginAttributes {
  'partner-id'?: string;
  environment?: 'prod' | 'demo';
  'auth-mode'?: 'jwt' | 'uncontrolled';
  'service-url'?: string;
  'connect-timeout'?: number | string;
  'call-timeout'?: number | string;
  theme?: 'light' | 'dark' | 'auto';
  locale?: string;
  display?: 'inline' | 'modal' | 'drawer';
  height?: 'auto';
  launcher?: boolean;
  preload?: 'auto' | 'intent' | 'none';
}

/** Everything `<video-plugin>` accepts in React 19 JSX, besides the usual HTML attributes. */
export type VideoPluginJSXProps = VideoPluginProperties & VideoPluginAttributes & VideoPluginEventProps;

/** The JSX type of `<video-plugin>`: React's HTML props plus {@link VideoPluginJSXProps}. */
export type VideoPluginIntrinsicElement = DetailedHTMLProps<HTMLAttributes<VideoPluginElement>, VideoPluginElement> &
  VideoPluginJSXProps;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX types live in a namespace.
  namespace JSX {
    interface IntrinsicElements {
      'video-plugin': VideoPluginIntrinsicElement;
    }
  }
}
