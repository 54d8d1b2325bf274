/**
 * `video-plugin/react`: `<VideoPlugin>`, a React component for `<video-plugin>`, for React 18 (and
 * 19). Made with `@lit/react`'s `createComponent`: it sets the element's properties as properties
 * (`appearance`, `editor`, `callbacks` take objects), adds the events as camelCase `on…` props, and
 * forwards its ref to the element, for the methods. React 19 users can write `<video-plugin>`
 * directly instead (`video-plugin/element/react` types it).
 *
 * Needs `react` and `@lit/react` (optional peer dependencies: `npm install @lit/react`). Not in
 * the CDN bundles.
 *
 * ```tsx
 * import { VideoPlugin } from 'video-plugin/react';
 *
 * const studio = useRef<VideoPluginElement>(null);
 * <VideoPlugin ref={studio} partnerID="acme" appearance={{ colorPrimary: '#1d4ed8' }}
 *   onPluginOpened={() => track('opened')} onVideoCreated={(event) => save(event.detail)} />
 * ```
 * @module
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { VideoPluginElement, type VideoPluginElementEventMap } from './element/index.js';

export { VideoPluginElement };
export type { VideoPluginElementEventMap };

/** The element's event of `name`, typed for `@lit/react`. */
const on = <K extends keyof VideoPluginElementEventMap>(name: K) => name as EventName<VideoPluginElementEventMap[K]>;

/** Every event of the element, as an `on<Event>` prop (the type check fails when one is missing). */
const events = {
  onReady: on('ready'),
  onClosed: on('closed'),
  onPluginOpened: on('pluginOpened'),
  onPluginOpenFailed: on('pluginOpenFailed'),
  onEditorOpened: on('editorOpened'),
  onEditorOpenFailed: on('editorOpenFailed'),
  onEditorExited: on('editorExited'),
  onVideoCreated: on('videoCreated'),
  onVideoSaved: on('videoSaved'),
  onVideoCompleted: on('videoCompleted'),
  onVideoRendered: on('videoRendered'),
  onError: on('error'),
  onSessionLost: on('sessionLost'),
  onAnnounce: on('announce'),
} satisfies {
  [K in keyof VideoPluginElementEventMap as `on${Capitalize<K>}`]: EventName<VideoPluginElementEventMap[K]>;
};

/** `<video-plugin>` as a React component: properties as props, events as `on<Event>` props. */
export const VideoPlugin = createComponent({
  tagName: 'video-plugin',
  elementClass: VideoPluginElement,
  react: React,
  displayName: 'VideoPlugin',
  events,
});
