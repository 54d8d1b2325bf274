/**
 * What the host asks of the service page and what it gets back: the method names, the shapes of
 * accounts, videos and status payloads, and the events. Shared by the `Plugin` (host side) and the
 * service's pages, so that both agree on every field.
 */
import * as z from 'zod/mini';
export declare const STATUSES: readonly ['PENDING', 'PROCESSING', 'COMPLETE', 'FAILED'];
export declare const ASPECT_RATIOS: readonly ['16:9', '4:5'];
export declare const DURATIONS: readonly [5, 15, 30];
export declare const LANGUAGES: readonly ['de', 'en-AU', 'en-GB', 'en-NZ', 'en-US', 'es', 'fr', 'it-IT', 'pt'];
export declare const accountSchema: z.ZodMiniObject<
  {
    id: z.ZodMiniString<string>;
    externalID: z.ZodMiniOptional<z.ZodMiniString<string>>;
    firstName: z.ZodMiniOptional<z.ZodMiniString<string>>;
    lastName: z.ZodMiniOptional<z.ZodMiniString<string>>;
    emailAddress: z.ZodMiniOptional<z.ZodMiniString<string>>;
    companyName: z.ZodMiniOptional<z.ZodMiniString<string>>;
    phone: z.ZodMiniOptional<z.ZodMiniString<string>>;
    city: z.ZodMiniOptional<z.ZodMiniString<string>>;
    state: z.ZodMiniOptional<z.ZodMiniString<string>>;
    createdAt: z.ZodMiniString<string>;
    updatedAt: z.ZodMiniString<string>;
  },
  z.core.$strip
>;
/** An account on the service. Dates are ISO-8601 strings. */
export type Account = z.infer<typeof accountSchema>;
export declare const renderSchema: z.ZodMiniObject<
  {
    format: z.ZodMiniString<string>;
    status: z.ZodMiniEnum<{
      PENDING: 'PENDING';
      PROCESSING: 'PROCESSING';
      COMPLETE: 'COMPLETE';
      FAILED: 'FAILED';
    }>;
    url: z.ZodMiniOptional<z.ZodMiniString<string>>;
    renderedAt: z.ZodMiniOptional<z.ZodMiniString<string>>;
  },
  z.core.$strip
>;
/** One rendition of a completed video. */
export type Render = z.infer<typeof renderSchema>;
export declare const videoSchema: z.ZodMiniObject<
  {
    id: z.ZodMiniString<string>;
    name: z.ZodMiniString<string>;
    topicId: z.ZodMiniOptional<z.ZodMiniString<string>>;
    aspectRatio: z.ZodMiniEnum<{
      '16:9': '16:9';
      '4:5': '4:5';
    }>;
    duration: z.ZodMiniNumber<number>;
    language: z.ZodMiniString<string>;
    createdAt: z.ZodMiniString<string>;
    updatedAt: z.ZodMiniString<string>;
    isCompleted: z.ZodMiniBoolean<boolean>;
    thumbnailURL: z.ZodMiniOptional<z.ZodMiniString<string>>;
    renders: z.ZodMiniArray<
      z.ZodMiniObject<
        {
          format: z.ZodMiniString<string>;
          status: z.ZodMiniEnum<{
            PENDING: 'PENDING';
            PROCESSING: 'PROCESSING';
            COMPLETE: 'COMPLETE';
            FAILED: 'FAILED';
          }>;
          url: z.ZodMiniOptional<z.ZodMiniString<string>>;
          renderedAt: z.ZodMiniOptional<z.ZodMiniString<string>>;
        },
        z.core.$strip
      >
    >;
  },
  z.core.$strip
>;
/** A video saved on the account. */
export type Video = z.infer<typeof videoSchema>;
export declare const statusPayloadSchema: z.ZodMiniObject<
  {
    status: z.ZodMiniEnum<{
      PENDING: 'PENDING';
      PROCESSING: 'PROCESSING';
      COMPLETE: 'COMPLETE';
      FAILED: 'FAILED';
    }>;
    error: z.ZodMiniOptional<
      z.ZodMiniObject<
        {
          code: z.ZodMiniString<string>;
          message: z.ZodMiniString<string>;
        },
        z.core.$strip
      >
    >;
  },
  z.core.$strip
>;
/** `PENDING`, `PROCESSING`, `COMPLETE` or `FAILED`. */
export type ActionStatus = (typeof STATUSES)[number];
/** Payload of topic search status updates. `error` is set when `status` is `FAILED`. */
export type TopicSearchStatusUpdatePayload = z.infer<typeof statusPayloadSchema>;
/** Payload of video generation status updates. `error` is set when `status` is `FAILED`. */
export type VideoGenerationStatusUpdatePayload = z.infer<typeof statusPayloadSchema>;
export declare const topicSearchStartSchema: z.ZodMiniObject<
  {
    topicId: z.ZodMiniString<string>;
    requestId: z.ZodMiniString<string>;
  },
  z.core.$strip
>;
/** What `startTopicSearch` resolves to. */
export type TopicSearchStartResult = z.infer<typeof topicSearchStartSchema>;
export declare const videoGenerationStartSchema: z.ZodMiniObject<
  {
    requestId: z.ZodMiniString<string>;
    videoId: z.ZodMiniString<string>;
    topicId: z.ZodMiniString<string>;
  },
  z.core.$strip
>;
/** What `startVideoGeneration` resolves to. */
export type VideoGenerationStartResult = z.infer<typeof videoGenerationStartSchema>;
/** The subscription topics of the wire. */
export declare const TOPICS: {
  readonly topicSearch: 'topicSearch';
  readonly videoGeneration: 'videoGeneration';
};
/** What the page reports about its session in `ready` and in the `_session` event. */
export declare const sessionInfoSchema: z.ZodMiniObject<
  {
    accountID: z.ZodMiniNullable<z.ZodMiniString<string>>;
  },
  z.core.$strip
>;
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
/** The public events and their payloads. */
export interface PluginEventMap {
  /** The AI page opened. */
  pluginOpened: undefined;
  /** `openPlugin` failed or timed out. */
  pluginOpenFailed: import('../errors.js').VideoPluginError;
  /** The editor opened a video. */
  editorOpened: Video;
  /** `openEditorForVideo` failed or timed out. */
  editorOpenFailed: import('../errors.js').VideoPluginError;
  /** The user left the editor (the UI closes). */
  editorExited: undefined;
  /** A new video was saved to the account (a generation started). */
  videoCreated: Video;
  /** The user saved changes to a video in the editor. */
  videoSaved: Video;
  /** The user completed a video in the editor; its render starts. */
  videoCompleted: Video;
  /** A completed video's render finished; `renders[].url` is set. */
  videoRendered: Video;
  /** Something went wrong outside any call (e.g. in the UI). */
  error: import('../errors.js').VideoPluginError;
  /**
   * The service iframe reloaded without the logged-in account's session (the browser denied or
   * cleared its storage) and the session was not restored: no `getLoginToken` option, it failed,
   * or `authMode` is `uncontrolled` (the user signs in again in the frame). Emitted by the `Plugin`
   * itself, never by the frame.
   */
  sessionLost: SessionLostPayload;
}
/** The payload of `sessionLost`. */
export interface SessionLostPayload {
  /** The account whose session was lost. */
  accountID: string;
  /**
   * Why, and what to do: a `NotAuthenticatedError` with code `session_lost`, the same error the
   * calls that need the account reject with until an account is logged in again.
   */
  error: import('../errors.js').NotAuthenticatedError;
}
export type PluginEventName = keyof PluginEventMap;
export declare const EVENT_NAMES: readonly [
  'pluginOpened',
  'pluginOpenFailed',
  'editorOpened',
  'editorOpenFailed',
  'editorExited',
  'videoCreated',
  'videoSaved',
  'videoCompleted',
  'videoRendered',
  'error',
  'sessionLost',
];
/** Events the page sends for the SDK itself; they never reach the partner's listeners. */
export declare const INTERNAL_EVENTS: {
  /** The user pressed the UI's own close control. */
  readonly closed: '_closed';
  /** The page's session changed (sign-in in the UI, logout). */
  readonly session: '_session';
};
/** Payload schema of each public event that the page pushes. Errors arrive in plain form. */
export declare const eventPayloadSchemas: Record<PluginEventName, z.ZodMiniType>;
export declare const hostConfigSchema: z.ZodMiniObject<
  {
    partnerID: z.ZodMiniString<string>;
    authMode: z.ZodMiniEnum<{
      jwt: 'jwt';
      uncontrolled: 'uncontrolled';
    }>;
    isDebug: z.ZodMiniBoolean<boolean>;
    appearance: z.ZodMiniOptional<z.ZodMiniUnknown>;
    locale: z.ZodMiniOptional<z.ZodMiniString<string>>;
    completeVideoConfirmation: z.ZodMiniOptional<
      z.ZodMiniObject<
        {
          shouldShow: z.ZodMiniOptional<z.ZodMiniBoolean<boolean>>;
          title: z.ZodMiniOptional<z.ZodMiniString<string>>;
          body: z.ZodMiniOptional<z.ZodMiniString<string>>;
          confirmButton: z.ZodMiniOptional<z.ZodMiniString<string>>;
          cancelButton: z.ZodMiniOptional<z.ZodMiniString<string>>;
        },
        z.core.$strip
      >
    >;
  },
  z.core.$strip
>;
/** The host's configuration, sent with every handshake (so it is replayed on reconnect). */
export type HostConfig = z.infer<typeof hostConfigSchema>;
/**
 * The remote methods and what each resolves to. Params are validated by the Plugin before sending;
 * answers are not re-checked on the host: they come from the service origin over a private port,
 * and a service of another protocol version is refused at the handshake.
 */
export interface Answers {
  ping: unknown;
  createAccount: {
    accountID: string;
  };
  loginAccount: Account;
  logoutAccount: unknown;
  getAccountInfo: Account;
  updateAccountInfo: Account;
  getVideos: Video[];
  getVideoData: Video | null;
  startTopicSearch: TopicSearchStartResult;
  startVideoGeneration: VideoGenerationStartResult;
  openPlugin: unknown;
  openEditorForVideo: Video;
  close: unknown;
  /** Applies a new appearance and/or locale (`Plugin#update`). */
  configure: unknown;
}
export type MethodName = keyof Answers;
//# sourceMappingURL=api.d.ts.map
