import { TAG_NAME, defineVideoPlugin as srcDefine } from '../../src/element/define.js';
import { VideoPluginElement as SrcElement } from '../../src/element/video-plugin-element.js';
import * as srcErrors from '../../src/errors.js';
import { Plugin as SrcPlugin } from '../../src/plugin.js';
const cdn = globalThis.VideoPlugin;
/** What the suite runs against: `src` or the classic CDN script. */
export const UNDER_TEST = cdn ? 'classic CDN script' : 'src';
if (!cdn) srcDefine();
const api = cdn ?? { ...srcErrors, Plugin: SrcPlugin, VideoPluginElement: SrcElement, defineVideoPlugin: srcDefine };
export { TAG_NAME };
export const defineVideoPlugin = api.defineVideoPlugin;
export const VideoPluginElement = api.VideoPluginElement;
export const Plugin = api.Plugin;
export const ConnectionError = api.ConnectionError;
export const DestroyedError = api.DestroyedError;
export const InvalidParameterError = api.InvalidParameterError;
export const NotAuthenticatedError = api.NotAuthenticatedError;
export const NotFoundError = api.NotFoundError;
export const TimeoutError = api.TimeoutError;
export const VideoPluginError = api.VideoPluginError;
//# sourceMappingURL=element-api.js.map
