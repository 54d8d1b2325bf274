export { VideoPluginElement } from './video-plugin-element.js';
export { TAG_NAME, defineVideoPlugin } from './define.js';
export type { VideoPluginElementEventMap, VideoPluginEventDetail } from './events.js';
//# sourceMappingURL=index.d.ts.map
