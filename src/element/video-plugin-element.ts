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
import { ReactiveElement, css, type PropertyDeclarations } from '@lit/reactive-element';
import { DestroyedError, InvalidParameterError, VideoPluginError } from '../errors.js';
import { Emitter, report, type PluginEventListener } from '../events.js';
import {
  callbackSchema,
  eventNameSchema,
  idSchema,
  pluginOptionsSchema,
  type OpenEditorOptions,
  type OpenPluginOptions,
  type GetLoginToken,
  type PluginOptions,
  type UpdatableAccountInfo,
  type VideoGenerationParams,
} from '../options.js';
import { Plugin } from '../plugin.js';
import { parse } from '../validate.js';
import { VERSION } from '../version.js';
import {
  EVENT_NAMES,
  type Account,
  type PluginEventMap,
  type PluginEventName,
  type TopicSearchStartResult,
  type TopicSearchStatusUpdatePayload,
  type Video,
  type VideoGenerationStartResult,
  type VideoGenerationStatusUpdatePayload,
} from '../wire/api.js';
import { dispatchPluginEvent, type VideoPluginElementEventMap } from './events.js';

/** What the element builds its `Plugin` from; compared by value to decide whether to rebuild. */
interface ElementConfig {
  partnerID: unknown;
  options: Record<string, unknown>;
}

type StatusMethod = 'subscribeToTopicSearchStatusUpdates' | 'subscribeToVideoGenerationStatusUpdates';

/** A status subscription asked for before the element had its `Plugin`. */
interface PendingSubscription {
  method: StatusMethod;
  id: string;
  callback: (payload: TopicSearchStatusUpdatePayload) => void;
  stop: (() => void) | undefined;
}

/** The attribute behind each option, to name it in error messages. */
const ATTRIBUTES: Record<string, string> = {
  partnerID: 'partner-id',
  'options.environment': 'environment',
  'options.authMode': 'auth-mode',
  'options.serviceURL': 'service-url',
  'options.isDebug': 'debug',
  'options.connectTimeout': 'connect-timeout',
  'options.callTimeout': 'call-timeout',
};

const callbacksSchema = pluginOptionsSchema.shape.callbacks;

/** Lit's Number converter, except that an empty attribute means "not set" (`Number('')` is 0). */
const optionalNumber = {
  fromAttribute: (value: string | null) => (value === null || value === '' ? undefined : Number(value)),
};

/** Empty and removed attributes mean "not set" (the `Plugin`'s default applies). */
function given<T>(value: T | null | undefined | ''): T | undefined {
  return value === null || value === '' ? undefined : value;
}

/** Deep equality for plain data; anything else (functions, elements) by identity. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const plain = (value: object) => [Object.prototype, Array.prototype, null].includes(Object.getPrototypeOf(value));
  if (!plain(a) || !plain(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every(
    (key) => Object.hasOwn(b, key) && same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * Restates an error from the `Plugin`'s option checks in the element's terms: the attribute or
 * property to fix instead of the option behind it.
 */
function forElement(error: unknown): VideoPluginError {
  if (!(error instanceof InvalidParameterError)) {
    return error instanceof VideoPluginError
      ? error
      : new VideoPluginError('internal_error', `<video-plugin>: ${String((error as Error)?.message ?? error)}`);
  }
  const field = typeof error.data?.field === 'string' ? error.data.field : '';
  const attribute = ATTRIBUTES[field];
  const property = field.startsWith('options.') ? field.slice('options.'.length) : field;
  const subject = attribute ? `the ${attribute} attribute` : `the property ${property}`;
  const message =
    field && error.message.startsWith(field) ? `${subject}${error.message.slice(field.length)}` : error.message;
  return new InvalidParameterError('invalid_parameter', `<video-plugin>: ${message}`, {
    ...error.data,
    field: attribute ?? property,
  });
}

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
  };

  static override styles = css`
    :host {
      display: block;
      position: relative;
      height: var(--video-plugin-height, 600px);
      box-sizing: border-box;
    }
    :host([hidden]) {
      display: none;
    }
    /* Above the slotted placeholder; lets clicks through to it while the iframe is hidden. */
    .frame {
      position: absolute;
      inset: 0;
      pointer-events: none;
    }
    .frame > iframe {
      pointer-events: auto;
    }
  `;

  /** The partner ID the service gave you. Required. */
  declare partnerID: string | undefined;
  /** `prod` (default) or `demo`: which hosted service to use. `service-url` overrides it. */
  declare environment: 'prod' | 'demo' | undefined;
  /** `jwt` (default: your code manages accounts with tokens) or `uncontrolled` (the UI does). */
  declare authMode: 'jwt' | 'uncontrolled' | undefined;
  /** Base URL of the service, overriding `environment` (the local service, staging, tests). */
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

  #plugin: Plugin | undefined;
  /**
   * Always the same function (so the configuration stays the same), reading the property when the
   * `Plugin` needs a token: setting `getLoginToken` never restarts the session.
   */
  readonly #getLoginToken = (accountID: string): Promise<string> | string => {
    if (typeof this.getLoginToken !== 'function') {
      throw new InvalidParameterError(
        'invalid_parameter',
        '<video-plugin>: the getLoginToken property is not a function: set it to fetch a login token from your server.',
        { field: 'getLoginToken' },
      );
    }
    return this.getLoginToken(accountID);
  };
  /** The configuration of the last build attempt (successful or not). */
  #built: ElementConfig | undefined;
  /** Why the configuration cannot be used, while it cannot. */
  #failure: VideoPluginError | undefined;
  /** Whether the element was removed from the document (and its `Plugin` ended). */
  #removed = false;
  readonly #emitter = new Emitter();
  #waiting: { resolve: (plugin: Plugin) => void; reject: (error: unknown) => void }[] = [];
  readonly #pendingSubscriptions = new Set<PendingSubscription>();

  /**
   * The `Plugin` this element wraps: created when the element is connected, replaced when its
   * configuration changes, ended when the element is removed. `undefined` until then. Read-only.
   */
  get plugin(): Plugin | undefined {
    return this.#plugin;
  }

  set plugin(_value: Plugin | undefined) {
    this.#emit(
      'error',
      new InvalidParameterError(
        'invalid_parameter',
        '<video-plugin>: the property plugin is read-only; the element creates its Plugin from its attributes (partner-id, service-url...).',
        { field: 'plugin' },
      ),
    );
  }

  // ---- Lifecycle ----

  override connectedCallback(): void {
    super.connectedCallback();
    this.#removed = false;
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

  /** The shadow root's fixed content: the placeholder slot and the iframe's container. */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    const frame = document.createElement('div');
    frame.className = 'frame';
    root.append(document.createElement('slot'), frame);
    return root;
  }

  protected override updated(): void {
    const container = this.renderRoot.querySelector<HTMLElement>('.frame');
    if (!this.isConnected || !container) return;
    const config = this.#config();
    if (this.#built && same(config, this.#built)) return;
    this.#built = config;
    this.#build(config, container);
  }

  // ---- Accounts (JWT mode only) ----

  /** Creates an account from a token minted on your server and logs it in. Resolves to its ID. */
  async createAccount(createAccountToken: string): Promise<string> {
    return (await this.#instance('createAccount')).createAccount(createAccountToken);
  }

  /** Logs in the account named by a token minted on your server (by `accountID` or `externalID`). */
  async loginAccount(loginAccountToken: string): Promise<Account> {
    return (await this.#instance('loginAccount')).loginAccount(loginAccountToken);
  }

  /** Logs the current account out. */
  async logoutAccount(): Promise<void> {
    return (await this.#instance('logoutAccount')).logoutAccount();
  }

  /** The logged-in account. Rejects with `NotAuthenticatedError` when nobody is logged in. */
  async getAccountInfo(): Promise<Account> {
    return (await this.#instance('getAccountInfo')).getAccountInfo();
  }

  /** Changes the given fields of the logged-in account (a plain object, not a token). */
  async updateAccountInfo(newAccountInfo: UpdatableAccountInfo): Promise<Account> {
    return (await this.#instance('updateAccountInfo')).updateAccountInfo(newAccountInfo);
  }

  // ---- Videos ----

  /** Every video of the logged-in account; `[]` when nobody is logged in. */
  async getVideos(): Promise<Video[]> {
    return (await this.#instance('getVideos')).getVideos();
  }

  /** One video, or `null` when it does not exist or belongs to another user. */
  async getVideoData(videoID: string): Promise<Video | null> {
    return (await this.#instance('getVideoData')).getVideoData(videoID);
  }

  // ---- Background actions ----

  /** Starts a background topic search on `sourceURL`; resolves as soon as it has started. */
  async startTopicSearch(sourceURL: string): Promise<TopicSearchStartResult> {
    return (await this.#instance('startTopicSearch')).startTopicSearch(sourceURL);
  }

  /** Starts a background video generation from a topic; resolves as soon as it has started. */
  async startVideoGeneration(videoGenerationParams: VideoGenerationParams): Promise<VideoGenerationStartResult> {
    return (await this.#instance('startVideoGeneration')).startVideoGeneration(videoGenerationParams);
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
    return this.#subscribe('subscribeToTopicSearchStatusUpdates', 'topicId', topicId, callback);
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
    return this.#subscribe(
      'subscribeToVideoGenerationStatusUpdates',
      'generationRequestId',
      generationRequestId,
      callback,
    );
  }

  // ---- UI ----

  /**
   * Moves the iframe out of this element into `domElement` (see `Plugin#mount`). To move the whole
   * embed, move the element itself with `moveBefore` instead: it keeps the iframe and the session.
   */
  async mount(domElement: HTMLElement, isHidden = false): Promise<void> {
    return (await this.#instance('mount')).mount(domElement, isHidden);
  }

  /** Opens the AI page (search, prompt step or final preview). Resolves when it has opened. */
  async openPlugin(options?: OpenPluginOptions): Promise<void> {
    return (await this.#instance('openPlugin')).openPlugin(options);
  }

  /** Opens the editor for one of the logged-in user's videos. Resolves when it has opened. */
  async openEditorForVideo(videoID: string, options?: OpenEditorOptions): Promise<void> {
    return (await this.#instance('openEditorForVideo')).openEditorForVideo(videoID, options);
  }

  /** Hides the UI. The user stays logged in and the iframe stays loaded. */
  async close(): Promise<void> {
    return (await this.#instance('close')).close();
  }

  /**
   * Ends the session: closes the UI, logs out (JWT mode) and removes the iframe. Later calls reject
   * with a `DestroyedError` until an attribute changes or the element is inserted again, which
   * starts a new session.
   */
  async cleanup(): Promise<void> {
    await this.#plugin?.cleanup();
  }

  // ---- Events ----

  /**
   * Calls `callback` with the payload of every `eventName` event. Returns the remover. Listeners
   * belong to the element: they survive a change of configuration.
   */
  on<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): () => void {
    parse(eventNameSchema, eventName, 'eventName');
    parse(callbackSchema, callback, 'callback');
    return this.#emitter.on(eventName, callback);
  }

  /** Removes a listener added with `on` (the same function). */
  off<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): void {
    parse(eventNameSchema, eventName, 'eventName');
    parse(callbackSchema, callback, 'callback');
    this.#emitter.off(eventName, callback);
  }

  override addEventListener<K extends keyof VideoPluginElementEventMap>(
    type: K,
    listener: (this: VideoPluginElement, event: VideoPluginElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: VideoPluginElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void {
    super.addEventListener(type, listener, options);
  }

  override removeEventListener<K extends keyof VideoPluginElementEventMap>(
    type: K,
    listener: (this: VideoPluginElement, event: VideoPluginElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: VideoPluginElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void {
    super.removeEventListener(type, listener, options);
  }

  // ---- Internals ----

  #config(): ElementConfig {
    const options: Record<string, unknown> = {
      environment: given(this.environment),
      authMode: given(this.authMode),
      serviceURL: given(this.serviceURL),
      isDebug: this.debug ?? false,
      connectTimeout: given(this.connectTimeout),
      callTimeout: given(this.callTimeout),
      editor: given(this.editor),
      getLoginToken: this.#getLoginToken,
    };
    for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
    return { partnerID: given(this.partnerID), options };
  }

  /**
   * Creates the `Plugin` for `config`. An invalid configuration keeps the current `Plugin` (if
   * any) and reports an `error` event; a valid one replaces it, ending its session.
   */
  #build(config: ElementConfig, container: HTMLElement): void {
    let plugin: Plugin;
    try {
      plugin = new Plugin(config.partnerID as string, { ...config.options, domElement: container });
    } catch (error) {
      const failure = forElement(error);
      this.#failure = failure;
      this.#settle(failure);
      this.#emit('error', failure);
      return;
    }
    const previous = this.#plugin;
    this.#plugin = plugin;
    this.#failure = undefined;
    for (const name of EVENT_NAMES) plugin.on(name, (payload) => this.#emit(name, payload));
    for (const pending of this.#pendingSubscriptions) {
      pending.stop = plugin[pending.method](pending.id, pending.callback);
    }
    this.#pendingSubscriptions.clear();
    this.#settle(plugin);
    previous?.cleanup().catch(report);
  }

  /** Ends the session of an element that left the document. */
  #teardown(): void {
    const plugin = this.#plugin;
    this.#plugin = undefined;
    this.#built = undefined;
    this.#failure = undefined;
    this.#removed = true;
    this.#pendingSubscriptions.clear();
    this.#settle(
      new DestroyedError(
        'destroyed',
        '<video-plugin> was removed from the document before this call could run. Insert it again, then retry.',
      ),
    );
    plugin?.cleanup().catch(report);
  }

  /** Resolves (with the new `Plugin`) or rejects every call that waits for one. */
  #settle(outcome: Plugin | VideoPluginError): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const { resolve, reject } of waiting) {
      if (outcome instanceof Plugin) resolve(outcome);
      else reject(outcome);
    }
  }

  /**
   * The `Plugin` to forward `method` to, `undefined` when the call must wait for one (the element
   * is not connected yet); throws when the element was removed or cleaned up, or its
   * configuration is invalid.
   */
  #current(method: string): Plugin | undefined {
    const plugin = this.#plugin;
    if (plugin?.isDestroyed) {
      throw new DestroyedError(
        'destroyed',
        `<video-plugin>.${method}() was called after cleanup(). Change an attribute or insert the element again to start a new session.`,
      );
    }
    if (plugin) return plugin;
    if (this.#removed) {
      throw new DestroyedError(
        'destroyed',
        `<video-plugin>.${method}() was called after the element was removed from the document, which ended its session. Insert it again to start a new session.`,
      );
    }
    if (this.#failure) throw this.#failure;
    return undefined;
  }

  /** Like `#current`, but waits for the `Plugin` when there is none yet. */
  #instance(method: string): Promise<Plugin> {
    const plugin = this.#current(method);
    if (plugin) return Promise.resolve(plugin);
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  #subscribe(
    method: StatusMethod,
    field: string,
    id: string,
    callback: (payload: TopicSearchStatusUpdatePayload) => void,
  ): () => void {
    const plugin = this.#current(method);
    if (plugin) return plugin[method](id, callback);
    const pending: PendingSubscription = {
      method,
      id: parse(idSchema, id, field),
      callback: parse(callbackSchema, callback, 'callback') as PendingSubscription['callback'],
      stop: undefined,
    };
    this.#pendingSubscriptions.add(pending);
    return () => {
      if (this.#pendingSubscriptions.delete(pending)) return;
      pending.stop?.();
      pending.stop = undefined;
    };
  }

  #checkCallbacks(): void {
    try {
      parse(callbacksSchema, given(this.callbacks), 'callbacks');
    } catch (error) {
      this.#emit('error', forElement(error));
    }
  }

  /** Tells every listener: the DOM event, then `on` listeners, then `callbacks`. */
  #emit<K extends PluginEventName>(name: K, payload: PluginEventMap[K]): void {
    dispatchPluginEvent(this, name, payload);
    this.#emitter.emit(name, payload);
    const callback = this.callbacks?.[name];
    if (typeof callback !== 'function') return;
    try {
      (callback as PluginEventListener<K>)(payload);
    } catch (error) {
      report(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'video-plugin': VideoPluginElement;
  }
}
