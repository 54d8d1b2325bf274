import { type PluginEventListener } from './events.js';
import {
  type PluginUpdate,
  type SignalOptions,
  type OpenEditorOptions,
  type OpenPluginOptions,
  type PluginOptions,
  type UpdatableAccountInfo,
  type VideoGenerationParams,
} from './options.js';
import {
  type Account,
  type PluginEventName,
  type TopicSearchStartResult,
  type TopicSearchStatusUpdatePayload,
  type Video,
  type VideoGenerationStartResult,
  type VideoGenerationStatusUpdatePayload,
} from './wire/api.js';
export declare class Plugin {
  #private;
  /** The SDK version (semver). Also sent to the service in the handshake. */
  static readonly version = '0.1.0';
  /** The partner ID this instance was created for. */
  readonly partnerID: string;
  /** `jwt` or `uncontrolled`. */
  readonly authMode: 'jwt' | 'uncontrolled';
  /** The base URL of the service this instance talks to. */
  readonly serviceURL: string;
  /**
   * Resolves once the service iframe has connected for the first time; rejects with the
   * `ConnectionError` when it does not within `connectTimeout` (or the service refuses the page's
   * origin). Awaiting it is optional: calls made before wait on their own.
   */
  readonly ready: Promise<void>;
  /**
   * Creates the iframe (hidden) in `options.domElement`, or in a `<div>` appended to the body, and
   * starts connecting to the service. Throws an `InvalidParameterError` for invalid arguments.
   */
  constructor(partnerID: string, options?: PluginOptions);
  /** The iframe that shows the service (hidden until opened). */
  get iframe(): HTMLIFrameElement;
  /** Whether the AI page or the editor is showing. */
  get isOpen(): boolean;
  /** Whether `cleanup()` was called. */
  get isDestroyed(): boolean;
  /**
   * Creates an account from a token minted by `createAccountToken` on your server and logs it in
   * (logging out any current account first). Resolves to the new account's ID: store it unless you
   * use `externalID`.
   */
  createAccount(createAccountToken: string): Promise<string>;
  /**
   * Logs in the account named by a token minted by `loginAccountToken` on your server (by
   * `accountID` or `externalID`), logging out any current account first.
   */
  loginAccount(loginAccountToken: string): Promise<Account>;
  /** Logs the current account out. Resolves also when nobody was logged in. */
  logoutAccount(): Promise<void>;
  /** The logged-in account. Rejects with `NotAuthenticatedError` when nobody is logged in. */
  getAccountInfo(): Promise<Account>;
  /** Changes the given fields of the logged-in account (a plain object, not a token). */
  updateAccountInfo(newAccountInfo: UpdatableAccountInfo): Promise<Account>;
  /** Every video of the logged-in account; `[]` when nobody is logged in. */
  getVideos(): Promise<Video[]>;
  /** One video, or `null` when it does not exist or belongs to another user. */
  getVideoData(videoID: string): Promise<Video | null>;
  /**
   * Starts a background topic search on `sourceURL`. Resolves as soon as the search has started;
   * follow it with `subscribeToTopicSearchStatusUpdates`. Needs an account authenticated in this
   * session.
   */
  startTopicSearch(sourceURL: string, options?: SignalOptions): Promise<TopicSearchStartResult>;
  /**
   * Starts a background video generation from a topic. Resolves as soon as it has started (the
   * video is already saved); follow it with `subscribeToVideoGenerationStatusUpdates`.
   */
  startVideoGeneration(
    videoGenerationParams: VideoGenerationParams,
    options?: SignalOptions,
  ): Promise<VideoGenerationStartResult>;
  /**
   * Calls `callback` with the current status of the topic search at once, then with each change.
   * Returns the function that unsubscribes.
   */
  subscribeToTopicSearchStatusUpdates(
    topicId: string,
    callback: (payload: TopicSearchStatusUpdatePayload) => void,
  ): () => void;
  /**
   * Calls `callback` with the current status of the generation at once, then with each change.
   * Returns the function that unsubscribes.
   */
  subscribeToVideoGenerationStatusUpdates(
    generationRequestId: string,
    callback: (payload: VideoGenerationStatusUpdatePayload) => void,
  ): () => void;
  /**
   * The status of a topic search as an async iterator: the current status first, then each change;
   * it ends after `COMPLETE` or `FAILED`, or when the loop breaks. `signal` stops it (the loop
   * throws the signal's reason).
   *
   * @example for await (const { status } of plugin.topicSearchStatus(topicId)) console.log(status);
   */
  topicSearchStatus(topicId: string, options?: SignalOptions): AsyncGenerator<TopicSearchStatusUpdatePayload, void>;
  /** {@link topicSearchStatus} for a video generation. */
  videoGenerationStatus(
    generationRequestId: string,
    options?: SignalOptions,
  ): AsyncGenerator<VideoGenerationStatusUpdatePayload, void>;
  /**
   * Changes the studio's `appearance` and/or `locale` live: no reload, the session and the open
   * view stay. Each given option replaces the current one; the others stay. Resolves once the
   * studio shows the change (kept across reconnects).
   */
  update(changes: PluginUpdate): Promise<void>;
  /**
   * Moves the iframe into `domElement` (hidden when `isHidden`). Resolves once the service answers
   * again; the login session and every subscription carry over.
   */
  mount(domElement: HTMLElement, isHidden?: boolean, options?: SignalOptions): Promise<void>;
  /**
   * Opens the AI page: on the search view (`sourceURL`), the prompt step (`topicId`) or the final
   * preview (`generationRequestId`). Resolves when it has opened; emits `pluginOpened`.
   */
  openPlugin(options?: OpenPluginOptions): Promise<void>;
  /**
   * Opens the editor for one of the logged-in user's videos. Resolves when it has opened; emits
   * `editorOpened` with the video. Rejects for unknown videos and other users' videos.
   */
  openEditorForVideo(videoID: string, options?: OpenEditorOptions): Promise<void>;
  /** Hides the UI. The user stays logged in and the iframe stays loaded. */
  close(): Promise<void>;
  /**
   * Closes the UI, logs out (JWT mode), destroys the iframe and removes every listener and
   * subscription. Every later call rejects with a `DestroyedError`; a second `cleanup()` is harmless.
   */
  cleanup(): Promise<void>;
  /** Calls `callback` on every `eventName` event of this instance. Returns the remover. */
  on<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): () => void;
  /** Removes a listener added with `on` (the same function). A no-op after `cleanup()`. */
  off<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): void;
}
//# sourceMappingURL=plugin.d.ts.map
