/**
 * What the host asks of the service page and what it gets back: the method names, the shapes of
 * accounts, videos and status payloads, and the events. Shared by the `Plugin` (host side) and the
 * service's pages, so that both agree on every field. The zod schemas of the answers, which these
 * types are inferred from, are in `schemas.ts` (out of the `Plugin`'s imports; docs/architecture.md, "Validation").
 */
import type * as z from 'zod/mini';
import type {
  accountSchema,
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

// The domain values of the contract, each defined here once: the `Plugin`'s schemas (options.ts),
// the token helpers (server/claims.ts), the iframe page and the service's routes import them
// (docs/architecture.md, "One contract").
export const STATUSES = ['PENDING', 'PROCESSING', 'COMPLETE', 'FAILED'] as const;
export const ASPECT_RATIOS = ['16:9', '4:5'] as const;
export const DURATIONS = [5, 15, 30] as const;
export const LANGUAGES = ['de', 'en-AU', 'en-GB', 'en-NZ', 'en-US', 'es', 'fr', 'it-IT', 'pt'] as const;
/** An aspect ratio of a video: `16:9` or `4:5`. */
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
/** A video's length in seconds: 5, 15 or 30. */
export type Duration = (typeof DURATIONS)[number];
/** A language of a generation (its narration and voice). */
export type Language = (typeof LANGUAGES)[number];
/** The language of a generation whose params name none (docs/plugin-api.md). */
export const DEFAULT_LANGUAGE: Language = 'en-US';
/** Longest `videoInstructions` of a generation, in characters. */
export const MAX_INSTRUCTIONS_LENGTH = 2000;

/**
 * The stages of a job, in the order a job goes through them; each job skips those it has no use
 * for (docs/plugin-api.md, "Progress"). A topic search: `queued`, `reading_page`, `collecting_images`,
 * `finishing`. A generation: `queued`, `writing_storyboard`, then with real media
 * `waiting_to_render` (only when every render slot is taken), `voicing`, `composing_scenes`,
 * `rendering`, then `finishing`. A render: `queued` (until its job starts), `waiting_to_render`
 * (only when every render slot is taken), `voicing`, `composing_scenes`, `rendering`, `finishing`
 * (placeholder media: `queued`, `rendering`, `finishing`).
 */
export const PROGRESS_STAGES = [
  'queued',
  'reading_page',
  'collecting_images',
  'writing_storyboard',
  'waiting_to_render',
  'voicing',
  'composing_scenes',
  'rendering',
  'finishing',
] as const;
/** A stage of a job's progress (see {@link Progress}). */
export type ProgressStage = (typeof PROGRESS_STAGES)[number];

/**
 * How far a topic search, a generation or a render is. Only moves forward: `stage` never goes back
 * in {@link PROGRESS_STAGES}' order and `fraction` never decreases. COMPLETE has
 * `{ stage: 'finishing', fraction: 1 }`; FAILED keeps the stage and fraction it failed at.
 */
export interface Progress {
  /** What the job is doing now. */
  stage: ProgressStage;
  /** Share of the whole job done (not of the stage), 0 to 1: a progress bar's value. */
  fraction: number;
  /**
   * Milliseconds left, estimated from the pace so far; absent until it can be estimated (5 % of
   * the job done) and on COMPLETE and FAILED.
   */
  etaMs?: number;
}

/**
 * What a render did (`Render.stats`): a render is made of one segment per scene, and a scene whose
 * picture and voice did not change since an earlier render (the preview, or before an edit) is
 * taken as it was made.
 */
export interface RenderStats {
  /** Scenes of the video. */
  scenes: number;
  /** Scenes made by this render (their picture or voice was new). */
  scenesRendered: number;
  /** Scenes taken unchanged from an earlier render. */
  scenesReused: number;
  /** Wall time of the render in milliseconds, from its start to its files in place. */
  ms: number;
}

/**
 * The account fields a partner may set (in a creation or sign-in-or-sign-up token, and later with
 * `updateAccountInfo`), each with its longest value in characters. The one truth for their names
 * and limits: the token helpers, the `Plugin`, the iframe page and the service all check against
 * it. The reference names the fields but states no limits; 256 is generous for names, addresses and
 * phone numbers with extensions, and small enough to store.
 */
export const ACCOUNT_FIELD_LIMITS = {
  firstName: 256,
  lastName: 256,
  emailAddress: 256,
  companyName: 256,
  phone: 256,
  city: 256,
  state: 256,
} as const;
/** An account field a partner may set; see {@link ACCOUNT_FIELD_LIMITS}. */
export type AccountField = keyof typeof ACCOUNT_FIELD_LIMITS;
/** Longest account ID or `externalID`, in characters. */
export const MAX_ID_LENGTH = 256;

/** An account on the service. Dates are ISO-8601 strings. */
export type Account = z.infer<typeof accountSchema>;

/** One file of a finished render: its URL and its media type. */
export type MediaFile = z.infer<typeof mediaFileSchema>;

/** The files of a finished render (`Render.files`). */
export type RenderFiles = z.infer<typeof renderFilesSchema>;

/** A limit of the quality report that a render can break (see {@link RenderQuality}). */
export type QualityCheck =
  'loudness' | 'truePeak' | 'captionSpeed' | 'contrast' | 'flashes' | 'captionOffset' | 'duration';

/** A limit a render broke: which, where, by how much, in words a partner can act on. */
export interface QualityWarning {
  /** The limit broken. */
  check: QualityCheck;
  /** The scene (1-based) where it is broken; absent for the whole video (loudness, duration). */
  scene?: number;
  /** The value measured, in the unit of the check's field in {@link RenderQuality}. */
  value: number;
  /** What was measured against what is allowed, e.g. `caption 3 reads at 19.2 chars/s (at most 17)`. */
  message: string;
}

/**
 * What a COMPLETE render's file measures (real media only), measured on the finished file by the
 * local service, not predicted from its storyboard (docs/service.md, "The quality report").
 */
export interface RenderQuality {
  /** Integrated loudness of the soundtrack, EBU R128 (LUFS); target −16 ± 1. */
  loudnessLUFS: number;
  /** True peak of the soundtrack, EBU R128 (dBTP); at most −1. */
  truePeakDBTP: number;
  /** The fastest caption cue: characters per second (spaces included); at most 17. */
  maxCaptionCharsPerSecond: number;
  /** The lowest contrast ratio of on-video text against what is behind it, on decoded frames; at least 4.5. */
  minTextContrast: number;
  /** The most flashes in any one second (WCAG 2.3.1); at most 3. */
  maxFlashesPerSecond: number;
  /** Length of the file, in seconds. */
  durationSeconds: number;
  /** The largest gap between a caption cue's start and its spoken words, over every cue, in milliseconds; at most 150. */
  maxCaptionOffsetMs: number;
  /** Every limit broken, with its scene; empty when the render meets them all. */
  warnings: QualityWarning[];
}

/** One rendition of a completed video. */
export type Render = z.infer<typeof renderSchema>;

/** A video saved on the account. */
export type Video = z.infer<typeof videoSchema>;

/** `PENDING`, `PROCESSING`, `COMPLETE` or `FAILED`. */
export type ActionStatus = (typeof STATUSES)[number];
/**
 * Payload of topic search status updates. `error` is set when `status` is `FAILED`; `progress`
 * (stage, fraction, etaMs?) on every update of a service that reports it.
 */
export type TopicSearchStatusUpdatePayload = z.infer<typeof statusPayloadSchema>;
/**
 * Payload of video generation status updates. `error` is set when `status` is `FAILED`; `progress`
 * (stage, fraction, etaMs?) on every update of a service that reports it.
 */
export type VideoGenerationStatusUpdatePayload = z.infer<typeof statusPayloadSchema>;
/**
 * Payload of the final render's status updates (the render that "Complete video" starts): `PENDING`
 * until the video is completed, then its render's status. `error` is set when `status` is `FAILED`;
 * `progress` (stage, fraction, etaMs?) on every update once the render has started.
 */
export type VideoRenderStatusUpdatePayload = z.infer<typeof statusPayloadSchema>;

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
 * The remote methods and what each resolves to. Params are validated by the Plugin before sending;
 * answers are not re-checked on the host: they come from the service origin over a private port,
 * and a service of another protocol version is refused at the handshake.
 */
export interface Answers {
  ping: unknown;
  createAccount: { accountID: string };
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
  /** What only the frame can tell `diagnose()` (video-plugin/diagnose). */
  diagnose: FrameDiagnosis;
}

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
export type MethodName = keyof Answers;

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
