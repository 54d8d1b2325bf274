// What the element tests exercise: the element, the Plugin and the error classes of src/ (the
// default), or those of the classic CDN script when the test page loaded it first (the
// `element-classic` group of web-test-runner.config.mjs), so that each element suite proves both.
import type { VideoPluginGlobal } from '../../src/cdn.js';
import { TAG_NAME, defineVideoPlugin as srcDefine } from '../../src/element/define.js';
import { VideoPluginElement as SrcElement } from '../../src/element/video-plugin-element.js';
import * as srcErrors from '../../src/errors.js';
import { Plugin as SrcPlugin } from '../../src/plugin.js';

const cdn = (globalThis as { VideoPlugin?: VideoPluginGlobal }).VideoPlugin;
/** What the suite runs against: `src` or the classic CDN script. */
export const UNDER_TEST: 'src' | 'classic CDN script' = cdn ? 'classic CDN script' : 'src';
if (!cdn) srcDefine();

const api = cdn ?? { ...srcErrors, Plugin: SrcPlugin, VideoPluginElement: SrcElement, defineVideoPlugin: srcDefine };

export { TAG_NAME };
export const defineVideoPlugin: typeof srcDefine = api.defineVideoPlugin;
export const VideoPluginElement: typeof SrcElement = api.VideoPluginElement;
export type VideoPluginElement = SrcElement;
export const Plugin: typeof SrcPlugin = api.Plugin;
export type Plugin = SrcPlugin;
export const ConnectionError: typeof srcErrors.ConnectionError = api.ConnectionError;
export const DestroyedError: typeof srcErrors.DestroyedError = api.DestroyedError;
export const InvalidParameterError: typeof srcErrors.InvalidParameterError = api.InvalidParameterError;
export const NotAuthenticatedError: typeof srcErrors.NotAuthenticatedError = api.NotAuthenticatedError;
export const NotFoundError: typeof srcErrors.NotFoundError = api.NotFoundError;
export const TimeoutError: typeof srcErrors.TimeoutError = api.TimeoutError;
export const VideoPluginError: typeof srcErrors.VideoPluginError = api.VideoPluginError;
export type VideoPluginError = srcErrors.VideoPluginError;
