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
import { ReactiveElement, css } from '@lit/reactive-element';
import { DestroyedError, InvalidParameterError, VideoPluginError } from '../errors.js';
import { Emitter, report } from '../events.js';
import { callbackSchema, eventNameSchema, idSchema, pluginOptionsSchema } from '../options.js';
import { Plugin } from '../plugin.js';
import { parse } from '../validate.js';
import { VERSION } from '../version.js';
import { EVENT_NAMES } from '../wire/api.js';
import { dispatchPluginEvent } from './events.js';
/** The attribute behind each option, to name it in error messages. */
const ATTRIBUTES = {
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
  fromAttribute: (value) => (value === null || value === '' ? undefined : Number(value)),
};
/** Empty and removed attributes mean "not set" (the `Plugin`'s default applies). */
function given(value) {
  return value === null || value === '' ? undefined : value;
}
/** Deep equality for plain data; anything else (functions, elements) by identity. */
function same(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const plain = (value) => [Object.prototype, Array.prototype, null].includes(Object.getPrototypeOf(value));
  if (!plain(a) || !plain(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && same(a[key], b[key]));
}
/**
 * Restates an error from the `Plugin`'s option checks in the element's terms: the attribute or
 * property to fix instead of the option behind it.
 */
function forElement(error) {
  if (!(error instanceof InvalidParameterError)) {
    return error instanceof VideoPluginError
      ? error
      : new VideoPluginError('internal_error', `<video-plugin>: ${String(error?.message ?? error)}`);
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
  static {
    this.version = VERSION;
  }
  static {
    this.properties = {
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
  }
  static {
    this.styles = css`
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
  }
  #plugin;
  /**
   * Always the same function (so the configuration stays the same), reading the property when the
   * `Plugin` needs a token: setting `getLoginToken` never restarts the session.
   */
  #getLoginToken = (accountID) => {
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
  #built;
  /** Why the configuration cannot be used, while it cannot. */
  #failure;
  /** Whether the element was removed from the document (and its `Plugin` ended). */
  #removed = false;
  #emitter = new Emitter();
  #waiting = [];
  #pendingSubscriptions = new Set();
  /**
   * The `Plugin` this element wraps: created when the element is connected, replaced when its
   * configuration changes, ended when the element is removed. `undefined` until then. Read-only.
   */
  get plugin() {
    return this.#plugin;
  }
  set plugin(_value) {
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
  connectedCallback() {
    super.connectedCallback();
    this.#removed = false;
    // The Plugin is created in the update this schedules (a microtask later): the shadow root holds
    // its container by then, and every attribute set in the same task is in, so it is built once.
    this.requestUpdate();
  }
  disconnectedCallback() {
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
  connectedMoveCallback() {}
  willUpdate(changed) {
    if (changed.has('callbacks')) this.#checkCallbacks();
  }
  /** The shadow root's fixed content: the placeholder slot and the iframe's container. */
  createRenderRoot() {
    const root = super.createRenderRoot();
    const frame = document.createElement('div');
    frame.className = 'frame';
    root.append(document.createElement('slot'), frame);
    return root;
  }
  updated() {
    const container = this.renderRoot.querySelector('.frame');
    if (!this.isConnected || !container) return;
    const config = this.#config();
    if (this.#built && same(config, this.#built)) return;
    this.#built = config;
    this.#build(config, container);
  }
  // ---- Accounts (JWT mode only) ----
  /** Creates an account from a token minted on your server and logs it in. Resolves to its ID. */
  async createAccount(createAccountToken) {
    return (await this.#instance('createAccount')).createAccount(createAccountToken);
  }
  /** Logs in the account named by a token minted on your server (by `accountID` or `externalID`). */
  async loginAccount(loginAccountToken) {
    return (await this.#instance('loginAccount')).loginAccount(loginAccountToken);
  }
  /** Logs the current account out. */
  async logoutAccount() {
    return (await this.#instance('logoutAccount')).logoutAccount();
  }
  /** The logged-in account. Rejects with `NotAuthenticatedError` when nobody is logged in. */
  async getAccountInfo() {
    return (await this.#instance('getAccountInfo')).getAccountInfo();
  }
  /** Changes the given fields of the logged-in account (a plain object, not a token). */
  async updateAccountInfo(newAccountInfo) {
    return (await this.#instance('updateAccountInfo')).updateAccountInfo(newAccountInfo);
  }
  // ---- Videos ----
  /** Every video of the logged-in account; `[]` when nobody is logged in. */
  async getVideos() {
    return (await this.#instance('getVideos')).getVideos();
  }
  /** One video, or `null` when it does not exist or belongs to another user. */
  async getVideoData(videoID) {
    return (await this.#instance('getVideoData')).getVideoData(videoID);
  }
  // ---- Background actions ----
  /** Starts a background topic search on `sourceURL`; resolves as soon as it has started. */
  async startTopicSearch(sourceURL) {
    return (await this.#instance('startTopicSearch')).startTopicSearch(sourceURL);
  }
  /** Starts a background video generation from a topic; resolves as soon as it has started. */
  async startVideoGeneration(videoGenerationParams) {
    return (await this.#instance('startVideoGeneration')).startVideoGeneration(videoGenerationParams);
  }
  /**
   * Calls `callback` with the current status of the topic search at once, then with each change.
   * Returns the function that unsubscribes. Before the element is connected, the subscription
   * starts once it is.
   */
  subscribeToTopicSearchStatusUpdates(topicId, callback) {
    return this.#subscribe('subscribeToTopicSearchStatusUpdates', 'topicId', topicId, callback);
  }
  /**
   * Calls `callback` with the current status of the generation at once, then with each change.
   * Returns the function that unsubscribes. Before the element is connected, the subscription
   * starts once it is.
   */
  subscribeToVideoGenerationStatusUpdates(generationRequestId, callback) {
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
  async mount(domElement, isHidden = false) {
    return (await this.#instance('mount')).mount(domElement, isHidden);
  }
  /** Opens the AI page (search, prompt step or final preview). Resolves when it has opened. */
  async openPlugin(options) {
    return (await this.#instance('openPlugin')).openPlugin(options);
  }
  /** Opens the editor for one of the logged-in user's videos. Resolves when it has opened. */
  async openEditorForVideo(videoID, options) {
    return (await this.#instance('openEditorForVideo')).openEditorForVideo(videoID, options);
  }
  /** Hides the UI. The user stays logged in and the iframe stays loaded. */
  async close() {
    return (await this.#instance('close')).close();
  }
  /**
   * Ends the session: closes the UI, logs out (JWT mode) and removes the iframe. Later calls reject
   * with a `DestroyedError` until an attribute changes or the element is inserted again, which
   * starts a new session.
   */
  async cleanup() {
    await this.#plugin?.cleanup();
  }
  // ---- Events ----
  /**
   * Calls `callback` with the payload of every `eventName` event. Returns the remover. Listeners
   * belong to the element: they survive a change of configuration.
   */
  on(eventName, callback) {
    parse(eventNameSchema, eventName, 'eventName');
    parse(callbackSchema, callback, 'callback');
    return this.#emitter.on(eventName, callback);
  }
  /** Removes a listener added with `on` (the same function). */
  off(eventName, callback) {
    parse(eventNameSchema, eventName, 'eventName');
    parse(callbackSchema, callback, 'callback');
    this.#emitter.off(eventName, callback);
  }
  addEventListener(type, listener, options) {
    super.addEventListener(type, listener, options);
  }
  removeEventListener(type, listener, options) {
    super.removeEventListener(type, listener, options);
  }
  // ---- Internals ----
  #config() {
    const options = {
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
  #build(config, container) {
    let plugin;
    try {
      plugin = new Plugin(config.partnerID, { ...config.options, domElement: container });
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
  #teardown() {
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
  #settle(outcome) {
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
  #current(method) {
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
  #instance(method) {
    const plugin = this.#current(method);
    if (plugin) return Promise.resolve(plugin);
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }
  #subscribe(method, field, id, callback) {
    const plugin = this.#current(method);
    if (plugin) return plugin[method](id, callback);
    const pending = {
      method,
      id: parse(idSchema, id, field),
      callback: parse(callbackSchema, callback, 'callback'),
      stop: undefined,
    };
    this.#pendingSubscriptions.add(pending);
    return () => {
      if (this.#pendingSubscriptions.delete(pending)) return;
      pending.stop?.();
      pending.stop = undefined;
    };
  }
  #checkCallbacks() {
    try {
      parse(callbacksSchema, given(this.callbacks), 'callbacks');
    } catch (error) {
      this.#emit('error', forElement(error));
    }
  }
  /** Tells every listener: the DOM event, then `on` listeners, then `callbacks`. */
  #emit(name, payload) {
    dispatchPluginEvent(this, name, payload);
    this.#emitter.emit(name, payload);
    const callback = this.callbacks?.[name];
    if (typeof callback !== 'function') return;
    try {
      callback(payload);
    } catch (error) {
      report(error);
    }
  }
}
//# sourceMappingURL=video-plugin-element.js.map
