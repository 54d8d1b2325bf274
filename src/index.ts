/**
 * video-plugin: embed the AI video-creation service in your page.
 * @packageDocumentation
 */
export { Plugin } from './plugin.js';
export * from './errors.js';
export type {
  Account,
  ActionStatus,
  MediaFile,
  PluginEventMap,
  PluginEventName,
  Progress,
  ProgressStage,
  Render,
  RenderFiles,
  SessionLostPayload,
  TopicSearchStartResult,
  TopicSearchStatusUpdatePayload,
  Video,
  VideoGenerationStartResult,
  VideoGenerationStatusUpdatePayload,
} from './wire/api.js';
export { ASPECT_RATIOS, DURATIONS, EVENT_NAMES, LANGUAGES, STATUSES } from './wire/api.js';
export type { PluginEventListener } from './events.js';
export type {
  GetLoginToken,
  OpenEditorOptions,
  OpenPluginOptions,
  PluginOptions,
  SignalOptions,
  StartOptions,
  UpdatableAccountInfo,
  VideoGenerationParams,
} from './options.js';
export { SERVICE_URLS } from './options.js';
export { VERSION } from './version.js';
