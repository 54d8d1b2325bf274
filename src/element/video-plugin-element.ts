/**
 * `<video-plugin>`: one `Plugin` as a custom element, for plain HTML, CMS snippets and any
 * framework. The element is thin: it maps its attributes to the `Plugin`'s options, re-dispatches
 * the `Plugin`'s events as DOM events and forwards its methods. Every rule lives in the `Plugin`.
 *
 * Built on Lit's `ReactiveElement` (reactive properties, batched updates, adopted styles): the
 * shadow DOM is static, so lit-html's templates would only add weight to the CDN bundle.
 *
 * This module exports the class unregistered and touches no `window`/`document` when imported
 * (SSR-safe); `video-plugin/element` registers it. This class holds the lifecycle (when the
 * `Plugin` is built, rebuilt and ended; `preload`), the methods it forwards and the events it
 * re-dispatches. Beside it: `attributes.ts` (the configuration the attributes and properties make,
 * in the `Plugin`'s terms), `stage.ts` (display modes, the loading skeleton, the failure panel and
 * its retry, the dialog, scroll lock and focus return), `styles.ts` (its style sheet) and
 * `plugin-slot.ts` (what outlives a `Plugin`: waiting calls and subscriptions, listeners, `callbacks`).
 *
 * One concern, the element's public face, in 679 lines: 237 of them are JSDoc and comments (of
 * its properties and methods, from which custom-elements.json, the docs and the framework types
 * are generated), over one-line forwards to the `Plugin`.
 */
import { ReactiveElement, type PropertyDeclarations } from '@lit/reactive-element';
import { ConnectionError, InvalidParameterError, TimeoutError } from '../errors.js';
import { report, type PluginEventListener } from '../events.js';
import {
  type Appearance,
  type OpenEditorOptions,
  type OpenPluginOptions,
  type GetLoginToken,
  type PluginOptions,
  type SignalOptions,
  type StartOptions,
  type UpdatableAccountInfo,
  type VideoGenerationParams,
} from '../options.js';
import { Plugin } from '../plugin.js';
import { parse } from '../validate.js';
import { VERSION } from '../version.js';
import { onIntent } from '../intent.js';
import {
  type Account,
  type PluginEventName,
  type TopicSearchStartResult,
  type TopicSearchStatusUpdatePayload,
  type Video,
  type VideoGenerationStartResult,
  type VideoGenerationStatusUpdatePayload,
  type VideoRenderStatusUpdatePayload,
} from '../wire/api.js';
import {
  callbacksSchema,
  configOf,
  forElement,
  given,
  lookOf,
  optionalNumber,
  same,
  type Display,
  type ElementConfig,
  type Look,
  type Preload,
} from './attributes.js';
import { dispatchPluginEvent, type VideoPluginElementEventMap } from './events.js';
import { PluginSlot } from './plugin-slot.js';
import { Stage } from './stage.js';
import { styles } from './styles.js';

export type { Display, Preload } from './attributes.js';

/**
 * Embeds the video-creation service: the AI page and the video editor, in an iframe inside the
 * element. Wraps one {@link Plugin}, created when the element is connected.
 *
 * @summary The video-creation service, embedded.
 * @tagname video-plugin
 *
 * @slot - Shown while the service's UI is closed (e.g. a "Create a video" button or a picture);
 *   with the `launcher` attribute a click on it opens the AI page. In `modal` and `drawer` display it
 *   is all the element shows in the page.
 * @slot loading - Replaces the loading skeleton's content (e.g. a spinner or a translated "Loading…").
 * @slot failed - Replaces the failure panel's message ("The studio could not load.", in the
 *   element's `locale`, else the page's language) when the studio cannot start; the `error` event
 *   says why.
 * @slot retry - Replaces the label of the retry button ("Try again", localised), shown only when a
 *   retry can help: a network failure, a timeout, a service that was down; not for a configuration fault.
 * @csspart frame - The service's `<iframe>`. It fills the element (or the dialog); style its border, radius or shadow.
 * @csspart loading - The skeleton shown while the studio connects (where the studio will show).
 * @csspart failed - The panel shown when the studio cannot start: a kind message and, where it helps, the retry button.
 * @csspart retry - The retry button.
 * @csspart dialog - The `<dialog>` of `modal` and `drawer` display (its `::backdrop` too).
 * @cssprop [--video-plugin-height=600px] - The element's height when no CSS `height` is set on it (inline display).
 * @cssprop [--video-plugin-min-height=400px] - With `height="auto"`: the least height of the studio (and of the element while the studio shows). Closed, the element is as tall as its children: 0 without any.
 * @cssprop [--video-plugin-max-height=100vh] - With `height="auto"`: the greatest height of the studio; taller content scrolls inside it.
 * @cssprop [--video-plugin-dialog-width=960px] - The modal dialog's width (at most the viewport's, less 32px).
 * @cssprop [--video-plugin-dialog-height=720px] - The modal dialog's height (at most the viewport's, less 32px).
 * @cssprop [--video-plugin-drawer-width=480px] - The drawer's width (at most the viewport's).
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
 * @fires announce - The studio told screen readers in its frame of a new stage (`polite`) or an
 *   error (`assertive`), for a page that mirrors it outside the frame. `detail`: `{ message, politeness }`.
 * @fires ready - The studio connected (also after a retry or a new configuration). `detail`: `null`.
 * @fires closed - The studio's UI closed. `detail`: `{ reason }`: `escape` (Esc on the dialog),
 *   `backdrop` (a click beside the dialog), `ui` (the studio's own close control, Esc inside it, or
 *   the editor's exit) or `api` (`close()`).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class VideoPluginElement extends ReactiveElement {
  /** The SDK version (semver). */
  static readonly version: string = VERSION;

  static override properties: PropertyDeclarations = {
    partnerID: { attribute: 'partner-id' },
    environment: {},
    authMode: { attribute: 'auth-mode' },
    serviceURL: { attribute: 'service-url' },
    debug: { type: Boolean },
    connectTimeout: { attribute: 'connect-timeout', converter: optionalNumber },
    callTimeout: { attribute: 'call-timeout', converter: optionalNumber },
    editor: { attribute: false },
    callbacks: { attribute: false },
    getLoginToken: { attribute: false },
    appearance: { attribute: false },
    theme: {},
    locale: {},
    display: { reflect: true },
    // Reflected: the style sheet reads it, also when React sets the property instead of the attribute.
    height: { reflect: true },
    launcher: { type: Boolean },
    preload: {},
  };

  static override styles = styles;

  /** The partner ID the service gave you. Required. */
  declare partnerID: string | undefined;
  /** `prod` (default) or `demo`: which hosted service to use. `service-url` overrides it. */
  declare environment: 'prod' | 'demo' | undefined;
  /** `jwt` (default: your code manages accounts with tokens) or `uncontrolled` (the UI does). */
  declare authMode: 'jwt' | 'uncontrolled' | undefined;
  /**
   * Base URL of the service, overriding `environment` (the local service, staging, tests). As an
   * attribute written in markup, obeyed only for a loopback URL or one the page's `<head>` lists in
   * `<meta name="video-plugin-service-url">`; set as the property, always (docs/element-guide.md).
   */
  declare serviceURL: string | undefined;
  /** Logs every message, state change and timing to the console. */
  declare debug: boolean | undefined;
  /** Limit for connecting to the service, in milliseconds (default 15000). */
  declare connectTimeout: number | undefined;
  /** Default limit for every call, in milliseconds (default 15000). */
  declare callTimeout: number | undefined;
  /** Editor presentation: `{ labels: { completeVideoConfirmation: { shouldShow, title, body, confirmButton, cancelButton } } }`. Property only. */
  declare editor: PluginOptions['editor'];
  /**
   * Event name → function, called with the payload like a listener added with `on`. Property only;
   * changing it does not restart the session.
   */
  declare callbacks: PluginOptions['callbacks'];
  /**
   * JWT mode: `(accountID) => Promise<string>`, a login token for `accountID` from your server.
   * Called once when the service iframe reloads without the account's session (the browser denied
   * or cleared its storage), to log the same account back in; without it the element fires
   * `sessionLost`. Property only; changing it does not restart the session.
   */
  declare getLoginToken: GetLoginToken | undefined;
  /**
   * The studio's colours, font, corner radius and spacing: `{ colorScheme, colorPrimary,
   * colorBackground, colorText, fontFamily, borderRadius, spacingUnit }` (docs/white-label.md, "Appearance").
   * Property only. Changing it restyles the studio live: no new session.
   */
  declare appearance: Appearance | undefined;
  /** `light`, `dark` or `auto`: the appearance's `colorScheme`, as an attribute. Changes live. */
  declare theme: 'light' | 'dark' | 'auto' | undefined;
  /** The studio's language, e.g. `de` or `pt-BR` (default: the browser's). Changes live. */
  declare locale: string | undefined;
  /**
   * `inline` (default: the studio fills the element), `modal` (a centred dialog over the page) or
   * `drawer` (a side panel). Changing it starts a new session, like `partner-id`.
   */
  declare display: Display | undefined;
  /**
   * `auto`: in inline display, the studio takes the height of its content, between
   * `--video-plugin-min-height` (default 400px) and `--video-plugin-max-height` (default 100vh), and
   * follows it; taller content scrolls inside the studio. While the studio is closed the element
   * is as tall as its children (0 without any), and the failure panel as tall as its message.
   * Ignored in modal and drawer display (the dialog keeps its size). Changing it starts a new
   * session, like `display`.
   */
  declare height: 'auto' | undefined;
  /** A click on the element's content (its light DOM) opens the AI page. */
  declare launcher: boolean | undefined;
  /**
   * When the studio (its iframe and connection) is created: `auto` (default) when the element is
   * inserted; `intent` when the user shows intent (the pointer over the element, the focus or a
   * touch in it), so that the click finds it ready; `none` at the first click on the launcher or
   * the first method call. `ready` waits without creating it. Changing it never restarts a session.
   */
  declare preload: Preload | undefined;

  /**
   * The current `Plugin`, and what outlives it (plugin-slot.ts): the calls and subscriptions that
   * wait for one, the `on` listeners and the `callbacks`.
   */
  readonly #slot = new PluginSlot(this, () => this.#want());
  /** The appearance and locale the current `Plugin` has. */
  #look: Look = {};
  /** The element's own UI around the studio (stage.ts), built with the shadow root. */
  #stage: Stage | undefined;
  /**
   * Always the same function (so the configuration stays the same), reading the property when the
   * `Plugin` needs a token: setting `getLoginToken` never restarts the session.
   */
  readonly #getLoginToken = (accountID: string): Promise<string> | string => {
    if (typeof this.getLoginToken !== 'function') {
      throw new InvalidParameterError(
        '<video-plugin>: the property getLoginToken is not a function: set it to fetch a login token from your server.',
        { field: 'getLoginToken' },
      );
    }
    return this.getLoginToken(accountID);
  };
  /** The configuration of the last build attempt (successful or not). */
  #built: ElementConfig | undefined;
  /** Whether the studio is wanted now (always with `preload="auto"`): intent, a click or a call. */
  #wanted = false;
  /** Stops waiting for intent (`preload="intent"`, while nothing is built). */
  #disarm: (() => void) | undefined;

  /**
   * The `Plugin` this element wraps: created when the element is connected, replaced when its
   * configuration changes, ended when the element is removed. `undefined` until then. Read-only.
   */
  get plugin(): Plugin | undefined {
    return this.#slot.plugin;
  }

  set plugin(_value: Plugin | undefined) {
    this.#slot.emit(
      'error',
      new InvalidParameterError(
        "<video-plugin>: the property plugin is read-only: set the element's attributes instead.",
        { field: 'plugin' },
      ),
    );
  }

  // ---- Lifecycle ----

  override connectedCallback(): void {
    super.connectedCallback();
    this.#slot.inserted();
    // The Plugin is created in the update this schedules (a microtask later): the shadow root holds
    // its container by then, and every attribute set in the same task is in, so it is built once.
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // The element may only be moving (removed and inserted again in the same task): wait a
    // microtask before ending the session.
    queueMicrotask(() => {
      if (!this.isConnected) this.#teardown();
    });
  }

  /**
   * Called instead of the disconnect/connect pair when the element is moved with `moveBefore`:
   * the iframe stays alive, and so do the session and the subscriptions. Nothing to do.
   */
  connectedMoveCallback(): void {}

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('callbacks')) this.#checkCallbacks();
  }

  /**
   * The shadow root's fixed content: the placeholder slot and the stage (stage.ts): the iframe's
   * container, the loading skeleton, the failure panel and the dialog of modal and drawer display.
   */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    this.#stage = new Stage(this, root, {
      isOpen: () => !!this.#slot.plugin?.isOpen && !this.#slot.plugin.isDestroyed,
      close: () => this.#slot.plugin?.close().catch(report),
      retry: () => {
        this.#built = undefined;
        this.requestUpdate();
      },
      launch: () => this.launcher && this.openPlugin().catch(() => {}),
    });
    return root;
  }

  protected override updated(): void {
    const stage = this.#stage;
    if (!this.isConnected || !stage) return;
    const config = this.#config();
    if (!config) return;
    if (this.#built && same(config, this.#built)) {
      this.#restyle();
      return;
    }
    const preload = given(this.preload) ?? 'auto';
    if (preload !== 'intent') this.#stopWaitingForIntent();
    if (!this.#wanted && preload !== 'auto') {
      if (preload === 'intent') this.#disarm ??= onIntent(this, () => this.#want());
      return;
    }
    this.#built = config;
    stage.place(config.display);
    this.#build(config, stage);
  }

  /**
   * Resolves once the studio has connected (the current `Plugin`'s `ready`, waiting for the element
   * to build one); rejects with the connection's error. Read-only.
   */
  get ready(): Promise<void> {
    return Promise.resolve('ready')
      .then((method) => this.#slot.instance(method, false))
      .then((plugin) => plugin.ready);
  }

  set ready(_value: Promise<void>) {
    this.#slot.emit(
      'error',
      new InvalidParameterError('<video-plugin>: the property ready is read-only.', {
        field: 'ready',
      }),
    );
  }

  // ---- Accounts (JWT mode only) ----

  /**
   * Creates an account from a token minted on your server (or a function that returns one) and
   * logs it in. Resolves to its ID.
   */
  createAccount(createAccountToken: string): Promise<string>;
  /** The same, with a function that returns the token: asked again once if it expired (`Plugin#createAccount`). */
  createAccount(createAccountToken: () => string | Promise<string>): Promise<string>;
  async createAccount(createAccountToken: string | (() => string | Promise<string>)): Promise<string> {
    return this.#forward('createAccount', createAccountToken as never);
  }

  /**
   * Logs in the account named by a token minted on your server (by `accountID` or `externalID`), or
   * by the token a function returns.
   */
  loginAccount(loginAccountToken: string): Promise<Account>;
  /** The same, with a function that returns the token: asked again once if it expired (`Plugin#loginAccount`). */
  loginAccount(loginAccountToken: () => string | Promise<string>): Promise<Account>;
  async loginAccount(loginAccountToken: string | (() => string | Promise<string>)): Promise<Account> {
    return this.#forward('loginAccount', loginAccountToken as never);
  }

  /** Logs the current account out. */
  async logoutAccount(): Promise<void> {
    return this.#forward('logoutAccount');
  }

  /** The logged-in account. Rejects with `NotAuthenticatedError` when nobody is logged in. */
  async getAccountInfo(): Promise<Account> {
    return this.#forward('getAccountInfo');
  }

  /** Changes the given fields of the logged-in account (a plain object, not a token). */
  async updateAccountInfo(newAccountInfo: UpdatableAccountInfo): Promise<Account> {
    return this.#forward('updateAccountInfo', newAccountInfo);
  }

  // ---- Videos ----

  /** Every video of the logged-in account; `[]` when nobody is logged in. */
  async getVideos(): Promise<Video[]> {
    return this.#forward('getVideos');
  }

  /** One video, or `null` when it does not exist or belongs to another user. */
  async getVideoData(videoID: string): Promise<Video | null> {
    return this.#forward('getVideoData', videoID);
  }

  // ---- Background actions ----

  /**
   * Starts a background topic search on `sourceURL`; resolves as soon as it has started. With
   * `options.idempotencyKey`, a retry with the same key resolves to the same search.
   */
  async startTopicSearch(sourceURL: string, options?: StartOptions): Promise<TopicSearchStartResult> {
    return this.#forward('startTopicSearch', sourceURL, options);
  }

  /**
   * Starts a background video generation from a topic; resolves as soon as it has started. With
   * `options.idempotencyKey`, a retry with the same key resolves to the same generation and video.
   */
  async startVideoGeneration(
    videoGenerationParams: VideoGenerationParams,
    options?: StartOptions,
  ): Promise<VideoGenerationStartResult> {
    return this.#forward('startVideoGeneration', videoGenerationParams, options);
  }

  /** The status of a topic search as an async iterator (see `Plugin#topicSearchStatus`). */
  topicSearchStatus(topicId: string, options?: SignalOptions): AsyncGenerator<TopicSearchStatusUpdatePayload, void> {
    return this.#statuses('topicSearchStatus', topicId, options);
  }

  /** The status of a video generation as an async iterator (see `Plugin#videoGenerationStatus`). */
  videoGenerationStatus(
    generationRequestId: string,
    options?: SignalOptions,
  ): AsyncGenerator<VideoGenerationStatusUpdatePayload, void> {
    return this.#statuses('videoGenerationStatus', generationRequestId, options);
  }

  /** The status of a video's final render as an async iterator (see `Plugin#videoRenderStatus`). */
  videoRenderStatus(videoId: string, options?: SignalOptions): AsyncGenerator<VideoRenderStatusUpdatePayload, void> {
    return this.#statuses('videoRenderStatus', videoId, options);
  }

  /**
   * Calls `callback` with the current status of the topic search at once, then with each change.
   * Returns the function that unsubscribes. Before the element is connected, the subscription
   * starts once it is.
   */
  subscribeToTopicSearchStatusUpdates(
    topicId: string,
    callback: (payload: TopicSearchStatusUpdatePayload) => void,
  ): () => void {
    return this.#slot.subscribe('subscribeToTopicSearchStatusUpdates', 'topicId', topicId, callback);
  }

  /**
   * Calls `callback` with the current status of the generation at once, then with each change.
   * Returns the function that unsubscribes. Before the element is connected, the subscription
   * starts once it is.
   */
  subscribeToVideoGenerationStatusUpdates(
    generationRequestId: string,
    callback: (payload: VideoGenerationStatusUpdatePayload) => void,
  ): () => void {
    return this.#slot.subscribe(
      'subscribeToVideoGenerationStatusUpdates',
      'generationRequestId',
      generationRequestId,
      callback,
    );
  }

  /**
   * Calls `callback` with the current status of the video's final render at once (`PENDING` until
   * the video is completed), then with each change (see `Plugin#subscribeToVideoRenderStatusUpdates`).
   * Returns the function that unsubscribes. Before the element is connected, the subscription
   * starts once it is.
   */
  subscribeToVideoRenderStatusUpdates(
    videoId: string,
    callback: (payload: VideoRenderStatusUpdatePayload) => void,
  ): () => void {
    return this.#slot.subscribe('subscribeToVideoRenderStatusUpdates', 'videoId', videoId, callback);
  }

  // ---- UI ----

  /**
   * Moves the iframe out of this element into `domElement` (see `Plugin#mount`). To move the whole
   * embed, move the element itself with `moveBefore` instead: it keeps the iframe and the session.
   */
  async mount(domElement: HTMLElement, isHidden = false, options?: SignalOptions): Promise<void> {
    return this.#forward('mount', domElement, isHidden, options);
  }

  /** Opens the AI page (search, prompt step or final preview). Resolves when it has opened. */
  async openPlugin(options?: OpenPluginOptions): Promise<void> {
    return this.#forward('openPlugin', options);
  }

  /** Opens the editor for one of the logged-in user's videos. Resolves when it has opened. */
  async openEditorForVideo(videoID: string, options?: OpenEditorOptions): Promise<void> {
    return this.#forward('openEditorForVideo', videoID, options);
  }

  /** Hides the UI (and closes the dialog). The user stays logged in and the iframe stays loaded. */
  async close(): Promise<void> {
    const plugin = await this.#slot.instance('close');
    if (this.#stage) this.#stage.closing = 'api';
    return plugin.close();
  }

  /**
   * Ends the session: closes the UI, logs out (JWT mode) and removes the iframe. Later calls reject
   * with a `DestroyedError` until an attribute changes or the element is inserted again, which
   * starts a new session.
   */
  async cleanup(): Promise<void> {
    await this.#slot.plugin?.cleanup();
  }

  // ---- Events ----

  /**
   * Calls `callback` with the payload of every `eventName` event. Returns the remover. Listeners
   * belong to the element: they survive a change of configuration.
   */
  on<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): () => void {
    return this.#slot.on(eventName, callback);
  }

  /** Removes a listener added with `on` (the same function). */
  off<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): void {
    this.#slot.off(eventName, callback);
  }

  // ---- Internals ----

  /** The configuration to build with, or `undefined` (and an `error` event) when it is invalid. */
  #config(): ElementConfig | undefined {
    const config = configOf(this, this.#getLoginToken);
    if (!(config instanceof InvalidParameterError)) return config;
    this.#slot.emit('error', config);
    return undefined;
  }

  /** Sends a changed appearance or locale to the running studio: live, no new session. */
  #restyle(): void {
    const plugin = this.#slot.plugin;
    const look = lookOf(this);
    if (!plugin || plugin.isDestroyed || same(look, this.#look)) return;
    this.#look = look;
    // Removing them goes back to the defaults.
    plugin
      .update({ appearance: look.appearance ?? {}, ...(look.locale ? { locale: look.locale } : {}) })
      .catch((error: unknown) => this.#slot.emit('error', forElement(error)));
  }

  /**
   * Creates the `Plugin` for `config`. An invalid configuration keeps the current `Plugin` (if
   * any) and reports an `error` event; a valid one replaces it, ending its session.
   */
  #build(config: ElementConfig, stage: Stage): void {
    const slot = this.#slot;
    let plugin: Plugin;
    const look = lookOf(this);
    try {
      plugin = new Plugin(config.partnerID as string, { ...config.options, ...look, domElement: stage.frame });
    } catch (error) {
      const failure = forElement(error);
      slot.fail(failure);
      slot.emit('error', failure);
      return;
    }
    const previous = slot.fill(plugin);
    this.#look = look;
    stage.show('loading');
    plugin.ready.then(
      () => {
        if (slot.plugin !== plugin) return;
        stage.show('');
        dispatchPluginEvent(this, 'ready', null);
      },
      (error: unknown) => {
        if (slot.plugin !== plugin || plugin.isDestroyed) return;
        const failure = forElement(error);
        // The end user reads a kind message; the developer's (the fix) is in the console and the event.
        stage.show('failed', failure instanceof ConnectionError || failure instanceof TimeoutError, this.locale);
        slot.emit('error', failure);
      },
    );
    previous?.cleanup().catch(report);
  }

  /** Ends the session of an element that left the document. */
  #teardown(): void {
    this.#built = undefined;
    this.#wanted = false;
    this.#stopWaitingForIntent();
    this.#slot.empty()?.cleanup().catch(report);
    this.#stage?.place(undefined);
    this.#stage?.sync();
  }

  /** Calls the Plugin's `method` once the element has its Plugin. */
  async #forward<M extends keyof Plugin>(
    method: M,
    ...args: Parameters<Extract<Plugin[M], (...args: never[]) => unknown>>
  ): Promise<Awaited<ReturnType<Extract<Plugin[M], (...args: never[]) => unknown>>>> {
    const plugin = await this.#slot.instance(method);
    return Reflect.apply(plugin[method] as (...args: unknown[]) => unknown, plugin, args) as never;
  }

  /** The status iterators: the Plugin's, once the element has it (the first `next()` waits for it). */
  async *#statuses(
    method: 'topicSearchStatus' | 'videoGenerationStatus' | 'videoRenderStatus',
    id: string,
    options: SignalOptions | undefined,
  ): AsyncGenerator<TopicSearchStatusUpdatePayload, void> {
    yield* (await this.#slot.instance(method))[method](id, options);
  }

  #stopWaitingForIntent(): void {
    this.#disarm?.();
    this.#disarm = undefined;
  }

  /** The user or the partner's code needs the studio: create it if `preload` put that off. */
  #want(): void {
    this.#stopWaitingForIntent();
    if (this.#wanted) return;
    this.#wanted = true;
    this.requestUpdate();
  }

  #checkCallbacks(): void {
    try {
      parse(callbacksSchema, given(this.callbacks), 'callbacks');
    } catch (error) {
      this.#slot.emit('error', forElement(error));
    }
  }
}

/**
 * The element's typed `addEventListener`/`removeEventListener` (declared, not overridden: the
 * types cost the bundle nothing). `el.addEventListener('videoSaved', (e) => e.detail)` is typed.
 * The merge only narrows the types of methods every HTMLElement has, so it is safe.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface VideoPluginElement {
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
