/**
 * `<video-plugin>`: one `Plugin` as a custom element, for plain HTML, CMS snippets and any
 * framework. The element is thin: it maps its attributes to the `Plugin`'s options, re-dispatches
 * the `Plugin`'s events as DOM events and forwards its methods. Every rule lives in the `Plugin`.
 *
 * Built on Lit's `ReactiveElement` (reactive properties, batched updates, adopted styles): the
 * shadow DOM is static, so lit-html's templates would only add weight to the CDN bundle.
 *
 * This module exports the class unregistered and touches no `window`/`document` when imported
 * (SSR-safe); `video-plugin/element` registers it.
 */
import { ReactiveElement, type PropertyDeclarations } from '@lit/reactive-element';
import { type PluginEventListener } from '../events.js';
import {
  type OpenEditorOptions,
  type OpenPluginOptions,
  type GetLoginToken,
  type PluginOptions,
  type UpdatableAccountInfo,
  type VideoGenerationParams,
} from '../options.js';
import { Plugin } from '../plugin.js';
import {
  type Account,
  type PluginEventName,
  type TopicSearchStartResult,
  type TopicSearchStatusUpdatePayload,
  type Video,
  type VideoGenerationStartResult,
  type VideoGenerationStatusUpdatePayload,
} from '../wire/api.js';
import { type VideoPluginElementEventMap } from './events.js';
/**
 * Embeds the video-creation service: the AI page and the video editor, in an iframe inside the
 * element. Wraps one {@link Plugin}, created when the element is connected.
 *
 * @summary The video-creation service, embedded.
 * @tagname video-plugin
 *
 * @slot - Shown while the service's UI is closed (e.g. a "Create a video" button or a picture).
 * @csspart frame - The service's `<iframe>`. It fills the element; style its border, radius or shadow.
 * @cssprop [--video-plugin-height=600px] - The element's height when no CSS `height` is set on it.
 *
 * @fires pluginOpened - The AI page opened. `detail`: `null`.
 * @fires pluginOpenFailed - `openPlugin` failed or timed out. `detail`: the `VideoPluginError`.
 * @fires editorOpened - The editor opened a video. `detail`: the `Video`.
 * @fires editorOpenFailed - `openEditorForVideo` failed or timed out. `detail`: the `VideoPluginError`.
 * @fires editorExited - The user left the editor (the UI closes). `detail`: `null`.
 * @fires videoCreated - A new video was saved to the account. `detail`: the `Video`.
 * @fires videoSaved - The user saved a video in the editor. `detail`: the `Video`.
 * @fires videoCompleted - The user completed a video; its render starts. `detail`: the `Video`.
 * @fires videoRendered - A completed video's render finished. `detail`: the `Video`.
 * @fires error - Something went wrong outside any call, or an attribute or property is invalid.
 *   `detail`: the `VideoPluginError`. Unlike the others this event does not bubble.
 * @fires sessionLost - The service iframe reloaded without the logged-in account's session (the
 *   browser denied or cleared its storage) and it was not restored through `getLoginToken`.
 *   `detail`: `{ accountID, error }`, `error` a `NotAuthenticatedError` with code `session_lost`.
 */
export declare class VideoPluginElement extends ReactiveElement {
  #private;
  /** The SDK version (semver). */
  static readonly version: string;
  static properties: PropertyDeclarations;
  static styles: import('@lit/reactive-element').CSSResult;
  /** The partner ID the service gave you. Required. */
  partnerID: string | undefined;
  /** `prod` (default) or `demo`: which hosted service to use. `service-url` overrides it. */
  environment: 'prod' | 'demo' | undefined;
  /** `jwt` (default: your code manages accounts with tokens) or `uncontrolled` (the UI does). */
  authMode: 'jwt' | 'uncontrolled' | undefined;
  /** Base URL of the service, overriding `environment` (the local service, staging, tests). */
  serviceURL: string | undefined;
  /** Logs every message, state change and timing to the console. */
  debug: boolean | undefined;
  /** Limit for connecting to the service, in milliseconds (default 15000). */
  connectTimeout: number | undefined;
  /** Default limit for every call, in milliseconds (default 15000). */
  callTimeout: number | undefined;
  /** Editor presentation: `{ labels: { completeVideoConfirmation: { shouldShow, title, body, confirmButton, cancelButton } } }`. Property only. */
  editor: PluginOptions['editor'];
  /**
   * Event name → function, called with the payload like a listener added with `on`. Property only;
   * changing it does not restart the session.
   */
  callbacks: PluginOptions['callbacks'];
  /**
   * JWT mode: `(accountID) => Promise<string>`, a login token for `accountID` from your server.
   * Called once when the service iframe reloads without the account's session (the browser denied
   * or cleared its storage), to log the same account back in; without it the element fires
   * `sessionLost`. Property only; changing it does not restart the session.
   */
  getLoginToken: GetLoginToken | undefined;
  /**
   * The `Plugin` this element wraps: created when the element is connected, replaced when its
   * configuration changes, ended when the element is removed. `undefined` until then. Read-only.
   */
  get plugin(): Plugin | undefined;
  set plugin(_value: Plugin | undefined);
  connectedCallback(): void;
  disconnectedCallback(): void;
  /**
   * Called instead of the disconnect/connect pair when the element is moved with `moveBefore`:
   * the iframe stays alive, and so do the session and the subscriptions. Nothing to do.
   */
  connectedMoveCallback(): void;
  protected willUpdate(changed: Map<PropertyKey, unknown>): void;
  /** The shadow root's fixed content: the placeholder slot and the iframe's container. */
  protected createRenderRoot(): HTMLElement | DocumentFragment;
  protected updated(): void;
  /** Creates an account from a token minted on your server and logs it in. Resolves to its ID. */
  createAccount(createAccountToken: string): Promise<string>;
  /** Logs in the account named by a token minted on your server (by `accountID` or `externalID`). */
  loginAccount(loginAccountToken: string): Promise<Account>;
  /** Logs the current account out. */
  logoutAccount(): Promise<void>;
  /** The logged-in account. Rejects with `NotAuthenticatedError` when nobody is logged in. */
  getAccountInfo(): Promise<Account>;
  /** Changes the given fields of the logged-in account (a plain object, not a token). */
  updateAccountInfo(newAccountInfo: UpdatableAccountInfo): Promise<Account>;
  /** Every video of the logged-in account; `[]` when nobody is logged in. */
  getVideos(): Promise<Video[]>;
  /** One video, or `null` when it does not exist or belongs to another user. */
  getVideoData(videoID: string): Promise<Video | null>;
  /** Starts a background topic search on `sourceURL`; resolves as soon as it has started. */
  startTopicSearch(sourceURL: string): Promise<TopicSearchStartResult>;
  /** Starts a background video generation from a topic; resolves as soon as it has started. */
  startVideoGeneration(videoGenerationParams: VideoGenerationParams): Promise<VideoGenerationStartResult>;
  /**
   * Calls `callback` with the current status of the topic search at once, then with each change.
   * Returns the function that unsubscribes. Before the element is connected, the subscription
   * starts once it is.
   */
  subscribeToTopicSearchStatusUpdates(
    topicId: string,
    callback: (payload: TopicSearchStatusUpdatePayload) => void,
  ): () => void;
  /**
   * Calls `callback` with the current status of the generation at once, then with each change.
   * Returns the function that unsubscribes. Before the element is connected, the subscription
   * starts once it is.
   */
  subscribeToVideoGenerationStatusUpdates(
    generationRequestId: string,
    callback: (payload: VideoGenerationStatusUpdatePayload) => void,
  ): () => void;
  /**
   * Moves the iframe out of this element into `domElement` (see `Plugin#mount`). To move the whole
   * embed, move the element itself with `moveBefore` instead: it keeps the iframe and the session.
   */
  mount(domElement: HTMLElement, isHidden?: boolean): Promise<void>;
  /** Opens the AI page (search, prompt step or final preview). Resolves when it has opened. */
  openPlugin(options?: OpenPluginOptions): Promise<void>;
  /** Opens the editor for one of the logged-in user's videos. Resolves when it has opened. */
  openEditorForVideo(videoID: string, options?: OpenEditorOptions): Promise<void>;
  /** Hides the UI. The user stays logged in and the iframe stays loaded. */
  close(): Promise<void>;
  /**
   * Ends the session: closes the UI, logs out (JWT mode) and removes the iframe. Later calls reject
   * with a `DestroyedError` until an attribute changes or the element is inserted again, which
   * starts a new session.
   */
  cleanup(): Promise<void>;
  /**
   * Calls `callback` with the payload of every `eventName` event. Returns the remover. Listeners
   * belong to the element: they survive a change of configuration.
   */
  on<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): () => void;
  /** Removes a listener added with `on` (the same function). */
  off<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): void;
  addEventListener<K extends keyof VideoPluginElementEventMap>(
    type: K,
    listener: (this: VideoPluginElement, event: VideoPluginElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: VideoPluginElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof VideoPluginElementEventMap>(
    type: K,
    listener: (this: VideoPluginElement, event: VideoPluginElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: VideoPluginElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}
declare global {
  interface HTMLElementTagNameMap {
    'video-plugin': VideoPluginElement;
  }
}
//# sourceMappingURL=video-plugin-element.d.ts.map
