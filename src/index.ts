/**
 * video-plugin: embed the AI video-creation service in your page.
 * @packageDocumentation
 */
export { Plugin } from './plugin.js';
// The error classes and their types. (The wire's own helpers — the list of codes, serializing and
// deserializing — stay internal: partners read `error.code` and the table of codes in docs/plugin-api.md.)
export {
  AccountAlreadyExistsError,
  AccountMethodsDisabledError,
  ConnectionError,
  DestroyedError,
  FrameBlockedError,
  InvalidParameterError,
  InvalidStateError,
  InvalidTokenError,
  NotAuthenticatedError,
  NotFoundError,
  OriginNotAllowedError,
  ServiceError,
  TimeoutError,
  VideoPluginError,
} from './errors.js';
export type { ErrorCode, SerializedError } from './errors.js';
export type {
  Account,
  ActionStatus,
  Announcement,
  Chapter,
  JobFailureCode,
  MediaFile,
  PluginEventMap,
  PluginEventName,
  Progress,
  ProgressStage,
  QualityCheck,
  QualityWarning,
  Render,
  RenderFiles,
  RenderQuality,
  SessionLostPayload,
  StatusError,
  TopicSearchStartResult,
  TopicSearchStatusUpdatePayload,
  Video,
  VideoGenerationStartResult,
  VideoGenerationStatusUpdatePayload,
  VideoRenderStatusUpdatePayload,
} from './wire/api.js';
export { ASPECT_RATIOS, DURATIONS, EVENT_NAMES, LANGUAGES, PROGRESS_STAGES, STATUSES } from './wire/api.js';
export type { PluginEventListener } from './events.js';
export type {
  Appearance,
  GetLoginToken,
  OpenEditorOptions,
  OpenPluginOptions,
  PluginOptions,
  PluginUpdate,
  SignalOptions,
  StartOptions,
  UpdatableAccountInfo,
  VideoGenerationParams,
} from './options.js';
export { SERVICE_URLS } from './options.js';
export { VERSION } from './version.js';
export { onIntent } from './intent.js';
