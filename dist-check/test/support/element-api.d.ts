import { TAG_NAME, defineVideoPlugin as srcDefine } from '../../src/element/define.js';
import { VideoPluginElement as SrcElement } from '../../src/element/video-plugin-element.js';
import * as srcErrors from '../../src/errors.js';
import { Plugin as SrcPlugin } from '../../src/plugin.js';
/** What the suite runs against: `src` or the classic CDN script. */
export declare const UNDER_TEST: 'src' | 'classic CDN script';
export { TAG_NAME };
export declare const defineVideoPlugin: typeof srcDefine;
export declare const VideoPluginElement: typeof SrcElement;
export type VideoPluginElement = SrcElement;
export declare const Plugin: typeof SrcPlugin;
export type Plugin = SrcPlugin;
export declare const ConnectionError: typeof srcErrors.ConnectionError;
export declare const DestroyedError: typeof srcErrors.DestroyedError;
export declare const InvalidParameterError: typeof srcErrors.InvalidParameterError;
export declare const NotAuthenticatedError: typeof srcErrors.NotAuthenticatedError;
export declare const NotFoundError: typeof srcErrors.NotFoundError;
export declare const TimeoutError: typeof srcErrors.TimeoutError;
export declare const VideoPluginError: typeof srcErrors.VideoPluginError;
export type VideoPluginError = srcErrors.VideoPluginError;
//# sourceMappingURL=element-api.d.ts.map
