/**
 * `Plugin`: embeds the video service's iframe in the partner's page and gives the partner's code a
 * typed, promise-based API over it. Every input is validated before anything is sent; every
 * promise settles; `cleanup()` releases everything the instance owns.
 *
 * This file holds the public methods and what only the class does: its guard (`#ready`), the UI's
 * opening (`#open`), the frame's events (`#onEvent`) and the teardown. Beside it: `session.ts` (who
 * is signed in, the restore of a lost session, and the calls around it: the resend after a
 * restore, the token function's second ask, the idempotency key as metadata), `status.ts` (status
 * subscriptions and iterators) and `options.ts` (the arguments' schemas, and which view
 * `openPlugin` opens).
 */
import { createLogger, reportStartFailure, type Logger } from './debug.js';
import { AccountMethodsDisabledError, DestroyedError, VideoPluginError, deserializeError } from './errors.js';
import { Emitter, type PluginEventListener } from './events.js';
import { Session } from './session.js';
import { StatusSubscriptions, type StatusCallback, type StatusPayload } from './status.js';
import { Frame } from './frame.js';
import {
  DEFAULT_OPEN_TIMEOUT,
  PLUGIN_PATH,
  SERVICE_URLS,
  booleanSchema,
  callbackSchema,
  elementSchema,
  eventNameSchema,
  idSchema,
  openEditorOptionsSchema,
  openPluginOptionsSchema,
  openPluginTarget,
  partnerIDSchema,
  pluginOptionsSchema,
  signalOptionsSchema,
  sourceURLSchema,
  updatableAccountInfoSchema,
  updateSchema,
  videoGenerationParamsSchema,
  type PluginUpdate,
  type SignalOptions,
  type StartOptions,
  type OpenEditorOptions,
  type OpenPluginOptions,
  type PluginOptions,
  type UpdatableAccountInfo,
  type VideoGenerationParams,
} from './options.js';
import { parse } from './validate.js';
import { VERSION } from './version.js';
import {
  EVENT_NAMES,
  INTERNAL_EVENTS,
  TOPICS,
  type Account,
  type HostConfig,
  type Methods,
  type PluginEventName,
  type TopicSearchStartResult,
  type TopicSearchStatusUpdatePayload,
  type Video,
  type VideoGenerationStartResult,
  type VideoGenerationStatusUpdatePayload,
  type VideoRenderStatusUpdatePayload,
} from './wire/api.js';
import { DEFAULT_CALL_TIMEOUT, HostConnection } from './wire/host.js';
import { frameHash } from './wire/protocol.js';

export class Plugin {
  /** The SDK version (semver). Also sent to the service in the handshake. */
  static readonly version = VERSION;

  /** The partner ID this instance was created for. */
  readonly partnerID: string;
  /** `jwt` or `uncontrolled`. */
  readonly authMode: 'jwt' | 'uncontrolled';
  /** The base URL of the service this instance talks to. */
  readonly serviceURL: string;

  readonly #frame: Frame;
  readonly #connection: HostConnection<Methods>;
  readonly #emitter = new Emitter();
  /** The status subscriptions and iterators, over the connection. */
  readonly #status: StatusSubscriptions;
  #config: HostConfig;
  readonly #log: Logger;
  /** Who is signed in, the restore of a lost session, and the calls around it (session.ts). */
  readonly #session: Session;
  #destroyed = false;
  #cleanup: Promise<void> | undefined;
  #warnedDeprecated = false;

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
  constructor(partnerID: string, options?: PluginOptions) {
    this.partnerID = parse(partnerIDSchema, partnerID, 'partnerID');
    const opts = parse(pluginOptionsSchema, options ?? {}, 'options');
    this.authMode = opts.authMode ?? 'jwt';
    this.#log = createLogger(!!opts.isDebug);
    const base = new URL(opts.serviceURL ?? SERVICE_URLS[opts.environment ?? 'prod']);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.serviceURL = base.href;
    this.#config = {
      partnerID: this.partnerID,
      authMode: this.authMode,
      isDebug: !!opts.isDebug,
      completeVideoConfirmation: opts.editor?.labels?.completeVideoConfirmation,
      appearance: opts.appearance,
      locale: opts.locale,
      height: opts.domElement && opts.height,
    };
    const channel = crypto.randomUUID();
    const src = new URL(`.${PLUGIN_PATH}`, base);
    src.searchParams.set('partner', this.partnerID);
    src.hash = frameHash(channel);
    this.#frame = new Frame({ src: src.href, title: 'Video creation', parent: opts.domElement });
    // Auto height: the iframe's bounds; the page's height messages set its height (#onEvent).
    if (this.#config.height) {
      this.#frame.iframe.style.cssText +=
        ';min-height:var(--video-plugin-min-height,400px);max-height:var(--video-plugin-max-height,100vh)';
    }
    const started = performance.now();
    this.#connection = new HostConnection<Methods>({
      iframe: this.#frame.iframe,
      serviceOrigin: base.origin,
      channel,
      sdkVersion: VERSION,
      config: () => this.#config,
      connectTimeout: opts.connectTimeout,
      callTimeout: opts.callTimeout,
      onEvent: (name, payload) => this.#onEvent(name, payload),
      onConnected: (info) => {
        this.#since('connected', started);
        return this.#session.connected(info);
      },
      reload: () => this.#frame.reload(),
      explain: new URL(`./api/diagnose?partnerID=${encodeURIComponent(this.partnerID)}`, base),
      log: this.#log,
    });
    this.#session = new Session(
      this.#connection,
      this.authMode,
      opts.getLoginToken,
      opts.callTimeout ?? DEFAULT_CALL_TIMEOUT,
      this.#log,
      (payload) => this.#emitter.emit('sessionLost', payload),
    );
    this.#status = new StatusSubscriptions(this.#connection, this.#log);
    for (const [name, callback] of Object.entries(opts.callbacks ?? {})) {
      // `{ videoSaved: undefined }` (a callback the partner's code left out) registers nothing.
      if (callback) this.#emitter.on(name as PluginEventName, callback as PluginEventListener<PluginEventName>);
    }
    // Nobody has to await it: a failure also rejects the calls, so it is not unhandled here. It is
    // printed once, though, so that a page that does not listen still shows why.
    (this.ready = this.#connection.whenConnected()).catch(reportStartFailure);
  }

  /** The iframe that shows the service (hidden until opened). */
  get iframe(): HTMLIFrameElement {
    return this.#frame.iframe;
  }

  /** Whether the AI page or the editor is showing. */
  get isOpen(): boolean {
    return this.#frame.visible;
  }

  /** Whether `cleanup()` was called. */
  get isDestroyed(): boolean {
    return this.#destroyed;
  }

  // ---- Accounts (JWT mode only) ----

  /**
   * Creates an account from a token minted by `createAccountToken` on your server and logs it in
   * (logging out any current account first). Resolves to the new account's ID: store it unless you
   * use `externalID`.
   */
  createAccount(createAccountToken: string): Promise<string>;
  /**
   * The same, with a function that returns the token from your server (or a promise of it), called
   * when it is needed: once the frame is connected, and once more only when the service answers
   * that its token has expired (`token_expired`); a second expired token rejects with that
   * `InvalidTokenError`. What the function throws rejects the call as thrown; a result that is not
   * a token, an `InvalidParameterError`; no token within `callTimeout`, a `TimeoutError`; a
   * `cleanup()` meanwhile, a `DestroyedError` (docs/plugin-api.md, "Token functions").
   *
   * @example await plugin.createAccount(() => fetch('/video-token/new', { method: 'POST' }).then((r) => r.text()));
   */
  createAccount(createAccountToken: () => string | Promise<string>): Promise<string>;
  async createAccount(createAccountToken: string | (() => string | Promise<string>)): Promise<string> {
    const { accountID } = await this.#session.signIn('createAccount', createAccountToken, () =>
      this.#ready('createAccount', true),
    );
    this.#session.signedIn(accountID);
    return accountID;
  }

  /**
   * Logs in the account named by a token minted by `loginAccountToken` on your server (by
   * `accountID` or `externalID`), logging out any current account first.
   */
  loginAccount(loginAccountToken: string): Promise<Account>;
  /**
   * The same, with a function that returns the token from your server (or a promise of it), called
   * when it is needed: once the frame is connected, and once more only when the service answers
   * that its token has expired (`token_expired`); a second expired token rejects with that
   * `InvalidTokenError`. What the function throws rejects the call as thrown; a result that is not
   * a token, an `InvalidParameterError`; no token within `callTimeout`, a `TimeoutError`; a
   * `cleanup()` meanwhile, a `DestroyedError` (docs/plugin-api.md, "Token functions").
   *
   * @example await plugin.loginAccount(() => fetch('/video-token', { method: 'POST' }).then((r) => r.text()));
   */
  loginAccount(loginAccountToken: () => string | Promise<string>): Promise<Account>;
  async loginAccount(loginAccountToken: string | (() => string | Promise<string>)): Promise<Account> {
    const account = await this.#session.signIn('loginAccount', loginAccountToken, () =>
      this.#ready('loginAccount', true),
    );
    this.#session.signedIn(account.id);
    return account;
  }

  /** Logs the current account out. Resolves also when nobody was logged in. */
  async logoutAccount(): Promise<void> {
    this.#ready('logoutAccount', true);
    await this.#session.call('logoutAccount', undefined);
    this.#session.signedOut();
  }

  /** The logged-in account. Rejects with `NotAuthenticatedError` when nobody is logged in. */
  async getAccountInfo(): Promise<Account> {
    this.#ready('getAccountInfo', true);
    return this.#session.call('getAccountInfo', undefined, { resend: true });
  }

  /** Changes the given fields of the logged-in account (a plain object, not a token). */
  async updateAccountInfo(newAccountInfo: UpdatableAccountInfo): Promise<Account> {
    this.#ready('updateAccountInfo', true);
    return this.#session.call('updateAccountInfo', {
      info: parse(updatableAccountInfoSchema, newAccountInfo, 'newAccountInfo'),
    });
  }

  // ---- Videos ----

  /** Every video of the logged-in account; `[]` when nobody is logged in. */
  async getVideos(): Promise<Video[]> {
    this.#ready('getVideos');
    return this.#session.call('getVideos', undefined, { resend: true });
  }

  /** One video, or `null` when it does not exist or belongs to another user. */
  async getVideoData(videoID: string): Promise<Video | null> {
    this.#ready('getVideoData');
    return this.#session.call('getVideoData', { videoID: parse(idSchema, videoID, 'videoID') }, { resend: true });
  }

  // ---- Background actions ----

  /**
   * Starts a background topic search on `sourceURL`. Resolves as soon as the search has started;
   * follow it with `subscribeToTopicSearchStatusUpdates`. Needs an account authenticated in this
   * session. With `options.idempotencyKey`, a retry with the same key resolves to the same search.
   */
  async startTopicSearch(sourceURL: string, options?: StartOptions): Promise<TopicSearchStartResult> {
    this.#ready('startTopicSearch');
    return this.#session.start(
      'startTopicSearch',
      { sourceURL: parse(sourceURLSchema, sourceURL, 'sourceURL') },
      options,
    );
  }

  /**
   * Starts a background video generation from a topic. Resolves as soon as it has started (the
   * video is already saved); follow it with `subscribeToVideoGenerationStatusUpdates`. With
   * `options.idempotencyKey`, a retry with the same key resolves to the same generation and video.
   */
  async startVideoGeneration(
    videoGenerationParams: VideoGenerationParams,
    options?: StartOptions,
  ): Promise<VideoGenerationStartResult> {
    this.#ready('startVideoGeneration');
    const params = parse(videoGenerationParamsSchema, videoGenerationParams, 'videoGenerationParams');
    // Without a language the service decides: the source page's own, else DEFAULT_LANGUAGE.
    return this.#session.start('startVideoGeneration', params, options);
  }

  /**
   * Calls `callback` with the current status of the topic search at once, then with each change.
   * Returns the function that unsubscribes.
   */
  subscribeToTopicSearchStatusUpdates(
    topicId: string,
    callback: (payload: TopicSearchStatusUpdatePayload) => void,
  ): () => void {
    return this.#subscribeStatus(
      TOPICS.topicSearch,
      'subscribeToTopicSearchStatusUpdates',
      'topicId',
      topicId,
      callback,
    );
  }

  /**
   * Calls `callback` with the current status of the generation at once, then with each change.
   * Returns the function that unsubscribes.
   */
  subscribeToVideoGenerationStatusUpdates(
    generationRequestId: string,
    callback: (payload: VideoGenerationStatusUpdatePayload) => void,
  ): () => void {
    return this.#subscribeStatus(
      TOPICS.videoGeneration,
      'subscribeToVideoGenerationStatusUpdates',
      'generationRequestId',
      generationRequestId,
      callback,
    );
  }

  /**
   * Calls `callback` with the current status of the video's final render at once, then with each
   * change: `PENDING` until the video is completed ("Complete video" in the editor), then the
   * render's progress, to `COMPLETE` (the `videoRendered` event) or `FAILED`. Returns the function
   * that unsubscribes.
   */
  subscribeToVideoRenderStatusUpdates(
    videoId: string,
    callback: (payload: VideoRenderStatusUpdatePayload) => void,
  ): () => void {
    return this.#subscribeStatus(
      TOPICS.videoRender,
      'subscribeToVideoRenderStatusUpdates',
      'videoId',
      videoId,
      callback,
    );
  }

  /**
   * The status of a topic search as an async iterator: the current status first, then each change;
   * it ends after `COMPLETE` or `FAILED`, or when the loop breaks. `signal` stops it (the loop
   * throws the signal's reason).
   *
   * @example for await (const { status } of plugin.topicSearchStatus(topicId)) console.log(status);
   */
  topicSearchStatus(topicId: string, options?: SignalOptions): AsyncGenerator<TopicSearchStatusUpdatePayload, void> {
    return this.#statusUpdates(TOPICS.topicSearch, 'topicSearchStatus', 'topicId', topicId, options);
  }

  /** {@link topicSearchStatus} for a video generation. */
  videoGenerationStatus(
    generationRequestId: string,
    options?: SignalOptions,
  ): AsyncGenerator<VideoGenerationStatusUpdatePayload, void> {
    return this.#statusUpdates(
      TOPICS.videoGeneration,
      'videoGenerationStatus',
      'generationRequestId',
      generationRequestId,
      options,
    );
  }

  /** {@link topicSearchStatus} for a video's final render (see {@link subscribeToVideoRenderStatusUpdates}). */
  videoRenderStatus(videoId: string, options?: SignalOptions): AsyncGenerator<VideoRenderStatusUpdatePayload, void> {
    return this.#statusUpdates(TOPICS.videoRender, 'videoRenderStatus', 'videoId', videoId, options);
  }

  // ---- UI ----

  /**
   * Changes the studio's `appearance` and/or `locale` live: no reload, the session and the open
   * view stay. Each given option replaces the current one; the others stay. Resolves once the
   * studio shows the change (kept across reconnects).
   */
  async update(changes: PluginUpdate): Promise<void> {
    this.#ready('update');
    const next = parse(updateSchema, changes, 'changes');
    this.#config = { ...this.#config, ...next };
    await this.#session.call('configure', next, { resend: true });
  }

  /**
   * Moves the iframe into `domElement` (hidden when `isHidden`). Resolves once the service answers
   * again; the login session and every subscription carry over.
   */
  async mount(domElement: HTMLElement, isHidden = false, options?: SignalOptions): Promise<void> {
    this.#ready('mount');
    const element = parse(elementSchema, domElement, 'domElement');
    const hidden = parse(booleanSchema, isHidden, 'isHidden');
    const signal = this.#signal(options);
    const started = performance.now();
    if (this.#frame.mount(element, hidden) === 'reloaded') {
      this.#connection.expectReload('mount() moved the iframe');
    }
    await this.#session.call('ping', undefined, { resend: true, signal });
    this.#since('mounted', started);
  }

  /**
   * Opens the AI page: on the search view (`sourceURL`), the prompt step (`topicId`) or the final
   * preview (`generationRequestId`). Resolves when it has opened; emits `pluginOpened`.
   */
  async openPlugin(options?: OpenPluginOptions): Promise<void> {
    this.#ready('openPlugin');
    const opts = parse(openPluginOptionsSchema, options ?? {}, 'options');
    const target = openPluginTarget(opts);
    if (opts.businessURL !== undefined && !this.#warnedDeprecated) {
      this.#warnedDeprecated = true;
      this.#log('options.businessURL is deprecated: use options.sourceURL');
    }
    await this.#open('openPlugin', 'pluginOpened', 'pluginOpenFailed', target, opts);
  }

  /**
   * Opens the editor for one of the logged-in user's videos. Resolves when it has opened; emits
   * `editorOpened` with the video. Rejects for unknown videos and other users' videos.
   */
  async openEditorForVideo(videoID: string, options?: OpenEditorOptions): Promise<void> {
    this.#ready('openEditorForVideo');
    const id = parse(idSchema, videoID, 'videoID');
    await this.#open(
      'openEditorForVideo',
      'editorOpened',
      'editorOpenFailed',
      { videoID: id },
      parse(openEditorOptionsSchema, options ?? {}, 'options'),
    );
  }

  /** Hides the UI. The user stays logged in and the iframe stays loaded. */
  async close(): Promise<void> {
    this.#ready('close');
    this.#frame.hide();
    await this.#session.call('close', undefined, { resend: true });
  }

  /**
   * Closes the UI, logs out (JWT mode), destroys the iframe and removes every listener and
   * subscription. Every later call rejects with a `DestroyedError`; a second `cleanup()` is harmless.
   */
  cleanup(): Promise<void> {
    return (this.#cleanup ??= this.#teardown());
  }

  // ---- Events ----

  /** Calls `callback` on every `eventName` event of this instance. Returns the remover. */
  on<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): () => void {
    this.#ready('on');
    parse(eventNameSchema, eventName, 'eventName');
    parse(callbackSchema, callback, 'callback');
    return this.#emitter.on(eventName, callback);
  }

  /** Removes a listener added with `on` (the same function). A no-op after `cleanup()`. */
  off<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): void {
    if (this.#destroyed) return;
    parse(eventNameSchema, eventName, 'eventName');
    parse(callbackSchema, callback, 'callback');
    this.#emitter.off(eventName, callback);
  }

  // ---- Internals ----

  /** Throws when the instance is cleaned up, or an account method is called in uncontrolled mode. */
  #ready(method: string, accountMethod?: boolean): void {
    if (this.#destroyed) {
      throw new DestroyedError(`${method} was called after cleanup(): create a new Plugin.`);
    }
    if (accountMethod && this.authMode === 'uncontrolled') {
      throw new AccountMethodsDisabledError(`${method} is disabled in authMode "uncontrolled": use "jwt".`, { method });
    }
  }

  /** Logs how long something took, for `isDebug`. */
  #since(what: string, started: number): void {
    this.#log(what, `${Math.round(performance.now() - started)} ms`);
  }

  async #open<M extends 'openPlugin' | 'openEditorForVideo'>(
    method: M,
    opened: 'pluginOpened' | 'editorOpened',
    failed: 'pluginOpenFailed' | 'editorOpenFailed',
    params: Methods[M]['params'],
    { timeout = DEFAULT_OPEN_TIMEOUT, signal }: OpenEditorOptions,
  ): Promise<void> {
    const started = performance.now();
    const wasVisible = this.#frame.visible;
    this.#frame.show();
    try {
      const value = await this.#session.call(method, params, { timeout, signal });
      this.#since(method, started);
      this.#emitter.emit(opened, (opened === 'editorOpened' ? value : undefined) as never);
    } catch (error) {
      if (!this.#destroyed) {
        if (!wasVisible) this.#frame.hide();
        this.#emitter.emit(failed, error as VideoPluginError);
      }
      throw error;
    }
  }

  #subscribeStatus(topic: string, method: string, field: string, id: unknown, callback: unknown): () => void {
    this.#ready(method);
    const key = parse(idSchema, id, field);
    return this.#status.subscribe(topic, key, parse(callbackSchema, callback, 'callback') as StatusCallback);
  }

  #signal(options: SignalOptions | undefined): AbortSignal | undefined {
    return parse(signalOptionsSchema, options ?? {}, 'options').signal;
  }

  /** The status iterators (status.ts), checked and stopped as the `Plugin`'s own calls are. */
  #statusUpdates(
    topic: string,
    method: string,
    field: string,
    id: string,
    options: SignalOptions | undefined,
  ): AsyncGenerator<StatusPayload, void> {
    return this.#status.updates(
      (callback) => this.#subscribeStatus(topic, method, field, id, callback),
      () => this.#signal(options),
      () => this.#ready(method),
    );
  }

  #onEvent(name: string, payload: unknown): void {
    if (name === INTERNAL_EVENTS.height) {
      // A positive number (NaN and strings fail `> 0`); the iframe's min and max height clamp it.
      if (this.#config.height && (payload as number) > 0) this.#frame.iframe.style.height = `${payload}px`;
      return;
    }
    if (name === INTERNAL_EVENTS.closed) {
      this.#frame.hide();
      return;
    }
    if (name === INTERNAL_EVENTS.session) {
      this.#session.changed(payload);
      return;
    }
    // sessionLost is the Plugin's own: a frame cannot claim it.
    if (!EVENT_NAMES.includes(name as PluginEventName) || name === 'sessionLost') {
      this.#log('dropped', name, payload);
      return;
    }
    if (name === 'editorExited') this.#frame.hide();
    const isError = name === 'error' || name.endsWith('OpenFailed');
    this.#emitter.emit(name as PluginEventName, (isError ? deserializeError(payload as never) : payload) as never);
  }

  async #teardown(): Promise<void> {
    this.#destroyed = true;
    this.#status.wake();
    this.#log('cleanup');
    this.#session.stop();
    this.#frame.hide();
    if (this.authMode === 'jwt' && this.#connection.state === 'connected') {
      // Best effort: the session ends with the instance, but a dead frame must not hold cleanup up.
      await this.#connection.call('logoutAccount', undefined, { timeout: 2000 }).catch(() => {});
    }
    this.#status.stop();
    this.#connection.destroy();
    this.#frame.destroy();
    this.#emitter.clear();
  }
}
