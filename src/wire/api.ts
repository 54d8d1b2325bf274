/**
 * What the host asks of the service page and what it gets back: the method names, the shapes of
 * accounts, videos and status payloads, and the events. Shared by the `Plugin` (host side) and the
 * service's pages, so that both agree on every field. The zod schemas of the answers, which these
 * types are inferred from, are in `schemas.ts` (out of the `Plugin`'s imports; docs/architecture.md, "Validation").
 */
import type * as z from 'zod/mini';
import type {
  accountSchema,
  chapterSchema,
  hostConfigSchema,
  mediaFileSchema,
  renderFilesSchema,
  renderSchema,
  sessionInfoSchema,
  statusPayloadSchema,
  topicSearchStartSchema,
  videoGenerationStartSchema,
  videoSchema,
} from './schemas.js';

import type { PluginUpdate, UpdatableAccountInfo, VideoGenerationParams } from '../options.js';
import type { StatusError } from './values.js';

export * from './values.js';

/** An account on the service. Dates are ISO-8601 strings. */
export type Account = z.infer<typeof accountSchema>;

/** One file of a finished render: its URL and its media type. */
export type MediaFile = z.infer<typeof mediaFileSchema>;

/** The files of a finished render (`Render.files`). */
export type RenderFiles = z.infer<typeof renderFilesSchema>;

/** One rendition of a completed video. */
export type Render = z.infer<typeof renderSchema>;

/** A chapter of a video (`Video.chapters`): one scene, its heading and its times in seconds. */
export type Chapter = z.infer<typeof chapterSchema>;

/** A video saved on the account. */
export type Video = z.infer<typeof videoSchema>;

/** A status update as the schema checks it, its `error.code` typed as the job failure codes. */
type StatusPayload = Omit<z.infer<typeof statusPayloadSchema>, 'error'> & { error?: StatusError | undefined };

/**
 * Payload of topic search status updates. `error` is set when `status` is `FAILED`; `progress`
 * (stage, fraction, etaMs?) on every update of a service that reports it.
 */
export type TopicSearchStatusUpdatePayload = StatusPayload;
/**
 * Payload of video generation status updates. `error` is set when `status` is `FAILED`; `progress`
 * (stage, fraction, etaMs?) on every update of a service that reports it.
 */
export type VideoGenerationStatusUpdatePayload = StatusPayload;
/**
 * Payload of the final render's status updates (the render that "Complete video" starts): `PENDING`
 * until the video is completed, then its render's status. `error` is set when `status` is `FAILED`;
 * `progress` (stage, fraction, etaMs?) on every update once the render has started.
 */
export type VideoRenderStatusUpdatePayload = StatusPayload;

/** What `startTopicSearch` resolves to. */
export type TopicSearchStartResult = z.infer<typeof topicSearchStartSchema>;

/** What `startVideoGeneration` resolves to. */
export type VideoGenerationStartResult = z.infer<typeof videoGenerationStartSchema>;

/** The subscription topics of the wire. */
export const TOPICS = {
  topicSearch: 'topicSearch',
  videoGeneration: 'videoGeneration',
  videoRender: 'videoRender',
} as const;

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
  /**
   * A completed video's render finished; each of `renders[]` has its `url`, its `files` (video,
   * poster, captions, transcript, each with URL and type) and its `altText`.
   */
  videoRendered: Video;
  /** Something went wrong outside any call (e.g. in the UI). */
  error: import('../errors.js').VideoPluginError;
  /**
   * What the studio just told screen readers inside its frame, for a page that mirrors it in an
   * overlay of its own: a new stage of the search, generation or render on screen (`polite`, once
   * per stage, never every percent), or the error it shows (`assertive`). In the studio's language.
   */
  announce: Announcement;
  /**
   * The service iframe reloaded without the logged-in account's session (the browser denied or
   * cleared its storage) and the session was not restored: no `getLoginToken` option, it failed,
   * or `authMode` is `uncontrolled` (the user signs in again in the frame). Emitted by the `Plugin`
   * itself, never by the frame.
   */
  sessionLost: SessionLostPayload;
}

/** The payload of `announce`. */
export interface Announcement {
  /** The words, as the studio's live region (`polite`) or alert (`assertive`) says them. */
  message: string;
  /** `polite`: a stage, said when the reader is idle; `assertive`: an error, said at once. */
  politeness: 'polite' | 'assertive';
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

export const EVENT_NAMES = [
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
  'announce',
] as const satisfies readonly PluginEventName[];

/** Events the page sends for the SDK itself; they never reach the partner's listeners. */
export const INTERNAL_EVENTS = {
  /** The user pressed the UI's own close control. */
  closed: '_closed',
  /** The page's session changed (sign-in in the UI, logout). */
  session: '_session',
  /**
   * The studio's content height in CSS pixels (an integer), sent when the host asked for
   * `height: 'auto'` and only when it changed; the host sizes the iframe to it.
   */
  height: '_height',
} as const;

/** The host's configuration, sent with every handshake (so it is replayed on reconnect). */
export type HostConfig = z.infer<typeof hostConfigSchema>;

/**
 * The remote methods: for each, the `params` the host sends and the `answer` it resolves to. The
 * one contract of both ends: the `Plugin`'s calls (`HostConnection<Methods>`) take a method of
 * this map with its params and return its answer, and the studio page's handlers
 * (`serveHost<Methods>`, `Handlers<Methods>`) are exactly these methods, each taking its params
 * and returning its answer, so a method renamed or a param changed on one side fails the type
 * check on the other (test/typecheck/wire-methods.ts). `undefined` params: the method takes none.
 *
 * Params are validated by the `Plugin` before sending and again by the page (any script of the
 * host page can call); answers are not re-checked on the host: they come from the service origin
 * over a private port, and a service of another protocol version is refused at the handshake.
 */
// A type, not an interface: it then fits `MethodMap`'s index signature.
export type Methods = {
  /** Answers once the page is there (`mount` waits for it). */
  ping: { params: undefined; answer: { version: string; accountID: string | null } };
  createAccount: { params: { token: string }; answer: { accountID: string } };
  loginAccount: { params: { token: string }; answer: Account };
  logoutAccount: { params: undefined; answer: null };
  getAccountInfo: { params: undefined; answer: Account };
  updateAccountInfo: { params: { info: UpdatableAccountInfo }; answer: Account };
  getVideos: { params: undefined; answer: Video[] };
  getVideoData: { params: { videoID: string }; answer: Video | null };
  /** Takes an idempotency key in its call metadata ({@link CallMeta}). */
  startTopicSearch: { params: { sourceURL: string }; answer: TopicSearchStartResult };
  /**
   * Takes an idempotency key in its call metadata ({@link CallMeta}). Without `language` the
   * service takes the source page's own, else `DEFAULT_LANGUAGE`.
   */
  startVideoGeneration: {
    params: VideoGenerationParams;
    answer: VideoGenerationStartResult;
  };
  /** At most one of the three; none opens the search view. */
  openPlugin: {
    params: { sourceURL: string | undefined; topicId: string | undefined; generationRequestId: string | undefined };
    answer: null;
  };
  openEditorForVideo: { params: { videoID: string }; answer: Video };
  close: { params: undefined; answer: null };
  /** Applies a new appearance and/or locale (`Plugin#update`). */
  configure: { params: PluginUpdate; answer: null };
  /** What only the frame can tell `diagnose()` (video-plugin/diagnose). */
  diagnose: { params: undefined; answer: FrameDiagnosis };
};

/** The shape of a methods map: what {@link Methods} is, and what the wire's tests serve. */
export type MethodMap = { [method: string]: { params: unknown; answer: unknown } };

/**
 * What travels beside a call's params (`{ t: 'call', id, method, params, meta }`): the options of
 * the call that the service acts on, the same for every method, as Penpal's `CallOptions` travel
 * beside the arguments. The host's own options (its timeout, an abort signal, whether it may
 * re-send) stay on the host: the service has nothing to do with them.
 */
// A type, not an interface: it fits the call message's `meta` (a record).
export type CallMeta = {
  /**
   * `startTopicSearch` and `startVideoGeneration`: the partner's `options.idempotencyKey`, which
   * the page checks in full and sends to the API as the `Idempotency-Key` header.
   */
  idempotencyKey?: string;
};

/** The frame's answer to `diagnose`: what it sees from inside the partner's page. */
export interface FrameDiagnosis {
  /** The service page's version (semver). */
  version: string;
  /** The wire protocol version it speaks. */
  protocolVersion: number;
  /** Whether the browser lets the frame keep its session in storage (a reload then keeps it). */
  storage: boolean;
  /** `document.referrer` of the frame: what the page's Referrer-Policy let through. */
  referrer: string;
  /** The host origin the handshake gave the frame (set by the browser, not by the page). */
  hostOrigin: string;
}
export type MethodName = keyof Methods;

/**
 * Where a scene came from: the page, the page's text each of its texts was taken from (an excerpt:
 * the sentence, heading, title or description as the page has it), and its picture's URL. A text
 * without an excerpt was written by the service (the closing line, a business name from the
 * address); one the user edited keeps no excerpt either.
 */
export interface SceneSources {
  pageURL: string;
  heading?: string;
  text?: string;
  voiceover?: string;
  pictureURL?: string;
}
