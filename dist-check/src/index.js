/**
 * video-plugin: embed the AI video-creation service in your page.
 * @packageDocumentation
 */
export { Plugin } from './plugin.js';
export * from './errors.js';
export { ASPECT_RATIOS, DURATIONS, EVENT_NAMES, LANGUAGES, STATUSES } from './wire/api.js';
export { SERVICE_URLS } from './options.js';
export { VERSION } from './version.js';
//# sourceMappingURL=index.js.map
