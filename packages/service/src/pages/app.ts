/**
 * The service's iframe page: the AI flow, the editor and (in uncontrolled mode) its own sign-in,
 * serving the host's `Plugin` through the service side of the wire.
 */
import {
  createLogger,
  InvalidStateError,
  NotAuthenticatedError,
  VideoPluginError,
  serializeError,
  appearanceSchema,
  checkContrast,
  localeSchema,
  idSchema,
  sourceURLSchema,
  IDEMPOTENCY_KEY,
  tokenSchema,
  updatableAccountInfoSchema,
  updateSchema,
  videoGenerationParamsSchema,
  parse,
  VERSION,
  INTERNAL_EVENTS,
  TOPICS,
  hostConfigSchema,
  type FrameDiagnosis,
  type HostConfig,
  type PluginEventName,
  type Video,
  PROTOCOL_VERSION,
  serveHost,
  type HostInfo,
} from 'video-plugin/internal';
import * as z from 'zod/mini';
import { ApiClient, type EditorBoard, type Generation, type Topic } from './client.js';
import { StatusHub } from './status.js';
import { readStored, storageWorks, writeStored } from './storage.js';
import { renderView, type UserError, type View, type ViewActions } from './views.js';
import { scenesEditable } from './views/common.js';
import { LOCALES, resolveLocale, t, useLocale } from './i18n.js';
import { applyAppearance } from './theme.js';

const root = document.getElementById('app') ?? document.body;
const partnerID = new URLSearchParams(location.search).get('partner') ?? '';
const api = new ApiClient(partnerID);
const hub = new StatusHub(api);
let config: HostConfig | undefined;
let log = createLogger(false, 'service page');
let view: View = { name: 'blank' };
/** Stops the watchers that belong to the current view. */
let stopViewWatchers: (() => void)[] = [];

// ---- Session: in this frame's memory, one per channel (one user per Plugin instance) ----
//
// The session token lives in `api.session` and the account in `accountID`, for as long as this
// document lives. The frame's own storage holds a best-effort copy, per channel, so that a reload
// (a move without moveBefore, a navigation, a crash) finds the user still signed in where the
// browser allows it. Where it does not (third-party storage blocked or cleared) the reloaded page
// reports `accountID: null` in `ready`, and the host restores the session or reports it lost.

const hashChannel = new URLSearchParams(location.hash.slice(1)).get('channel');
const storageKey = `video-plugin:session:${partnerID}:${hashChannel ?? 'none'}`;
api.session = readStored(storageKey) ?? undefined;
let accountID: string | null = api.session ? readStored(`${storageKey}:account`) : null;
if (!accountID) api.session = undefined;

function setSession(session: string | undefined, account: string | null, lost?: string): void {
  api.session = session;
  accountID = account;
  const kept = session && account;
  writeStored(storageKey, kept ? session : undefined);
  writeStored(`${storageKey}:account`, kept ? account : undefined);
  hub.restart();
  endpoint.emit(INTERNAL_EVENTS.session, lost ? { accountID, lost } : { accountID });
}

// The service refused this frame's session (it restarted without its data, or the session ended
// elsewhere): signed out, and the host is told it was lost, not a logout, so that it restores it
// through getLoginToken or reports sessionLost. The refused call itself rejects after this.
api.onSessionRefused = (session) => {
  if (session === api.session) {
    setSession(undefined, null, 'in the service: it no longer knows it (it restarted without its data?)');
  }
};

function requireSession(method: string): void {
  if (!api.session) {
    throw new NotAuthenticatedError(
      'not_authenticated',
      `${method} needs a logged-in account: call loginAccount or createAccount first.`,
      { method },
    );
  }
}

async function endSession(): Promise<void> {
  if (!api.session) return;
  await api.logout().catch(() => {});
  setSession(undefined, null);
}

// ---- Events ----

function emit(name: PluginEventName, payload?: unknown): void {
  log(`event ${name}`, payload);
  endpoint.emit(name, payload);
}

function reportError(error: unknown): void {
  emit('error', serializeError(error));
}

/** A status update for the host: the status, the error of a FAILED one, and the progress. */
const statusPayload = ({ status, error, progress }: Pick<Topic, 'status' | 'error' | 'progress'>) => ({
  status,
  ...(error ? { error } : {}),
  ...(progress ? { progress } : {}),
});

/**
 * A video's status updates are its final render's: PENDING until the video is completed, then the
 * render's own status and progress (a video has one render; the service moves every render together).
 */
const renderPayload = ({ renders: [render] }: Video) => statusPayload(render ?? { status: 'PENDING' });

/** Emits `videoCompleted` now and `videoRendered` once the video's render has finished. */
function followRender(video: Video): void {
  emit('videoCompleted', video);
  const stop = hub.watch('video', video.id, (latest) => {
    if (renderPayload(latest).status === 'COMPLETE') {
      stop();
      emit('videoRendered', latest);
      if (view.name === 'editor' && view.video.id === latest.id) show({ ...view, video: latest });
    }
  });
}

// ---- Views ----

function show(next: View): void {
  if (next.name !== view.name || viewKey(next) !== viewKey(view)) {
    for (const stop of stopViewWatchers) stop();
    stopViewWatchers = [];
  }
  view = next;
  renderView(root, view, actions, config);
}

function viewKey(v: View): string {
  switch (v.name) {
    case 'prompt':
      return v.topic.id;
    case 'preview':
      return v.generation.requestId;
    case 'editor':
      return v.video.id;
    default:
      return '';
  }
}

function showPrompt(topic: Topic): void {
  show({ name: 'prompt', topic });
  stopViewWatchers.push(
    hub.watch('topic', topic.id, (latest) => {
      if (view.name === 'prompt' && view.topic.id === latest.id) show({ ...view, topic: latest });
    }),
  );
}

function showPreview(generation: Generation): void {
  show({ name: 'preview', generation });
  const update = (patch: Partial<Extract<View, { name: 'preview' }>>): void => {
    if (view.name === 'preview' && view.generation.requestId === generation.requestId) show({ ...view, ...patch });
  };
  stopViewWatchers.push(
    hub.watch('generation', generation.requestId, (latest) => {
      update({ generation: latest });
      if (latest.status === 'COMPLETE') void api.video(latest.videoId).then((video) => update({ video }), reportError);
    }),
  );
}

/**
 * Opens the editor on a video with its scenes: the one way in, whether the user clicked "Open in
 * editor" in the AI page or the partner called `openEditorForVideo` (a partner's Edit button).
 */
async function openEditor(videoId: string): Promise<Video> {
  const [video, board] = await Promise.all([api.video(videoId), api.storyboard(videoId)]);
  showEditor(video, board);
  return video;
}

function showEditor(video: Video, board?: EditorBoard): void {
  show({ name: 'editor', video, confirming: false, ...(board ? { board } : {}) });
  // The video changes under the editor (a preview made again after a save, a render): show it.
  stopViewWatchers.push(
    hub.watch('video', video.id, (latest) => {
      if (view.name === 'editor' && view.video.id === latest.id) show({ ...view, video: latest });
    }),
  );
}

/** Shows `patch` in the editor, if it still shows the video `videoId`. */
function showInEditor(videoId: string, patch: Partial<Extract<View, { name: 'editor' }>>): void {
  if (view.name === 'editor' && view.video.id === videoId) show({ ...view, ...patch });
}

/**
 * An editor action the service refused: shown in the studio in its language (by the error's code),
 * and sent to the page as `error` with the technical message.
 */
function refused(videoId: string, error: unknown): void {
  showInEditor(videoId, { error: error as UserError });
  reportError(error);
}

async function startSearch(sourceURL: string): Promise<void> {
  show({ name: 'search', sourceURL, searching: true });
  try {
    const { topicId } = await api.startTopicSearch(sourceURL);
    const stop = hub.watch('topic', topicId, (topic) => {
      if (view.name !== 'search' || view.sourceURL !== sourceURL) return stop();
      if (topic.status === 'FAILED') {
        stop();
        show({ name: 'search', sourceURL, searching: false, error: topic.error ?? {} });
      } else if (topic.status === 'PROCESSING' || topic.status === 'COMPLETE') {
        stop();
        showPrompt(topic);
      } else {
        show({ name: 'search', sourceURL, searching: true, ...(topic.progress ? { progress: topic.progress } : {}) });
      }
    });
    stopViewWatchers.push(stop);
  } catch (error) {
    show({ name: 'search', sourceURL, searching: false, error: error as UserError });
  }
}

async function startGeneration(
  params: unknown,
  idempotencyKey?: string,
): Promise<{ requestId: string; videoId: string; topicId: string }> {
  const { replayed, ...started } = await api.startGeneration(params, idempotencyKey);
  // A repeated idempotency key answers the generation it started before: its video is not new.
  if (!replayed) void api.video(started.videoId).then((video) => emit('videoCreated', video), reportError);
  return started;
}

const actions: ViewActions = {
  search: (sourceURL) => void startSearch(sourceURL),
  generate: async (params) => {
    try {
      const started = await startGeneration(params);
      showPreview(await api.generation(started.requestId));
    } catch (error) {
      if (view.name === 'prompt') show({ ...view, error: error as UserError });
    }
  },
  openInEditor: async (videoId) => {
    try {
      emit('editorOpened', await openEditor(videoId));
    } catch (error) {
      reportError(error);
    }
  },
  save: async (name) => {
    if (view.name !== 'editor') return;
    const { video: editing, board } = view;
    try {
      const scenes = scenesEditable(view) ? board?.scenes : undefined;
      const video = await api.saveVideo(editing.id, { name, ...(scenes ? { scenes } : {}) });
      showInEditor(video.id, { video, error: undefined });
      emit('videoSaved', video);
    } catch (error) {
      refused(editing.id, error);
    }
  },
  editScene: (index, patch) => {
    if (view.name !== 'editor' || !view.board || !scenesEditable(view)) return;
    // Typing changes the scene in place: no re-render, the input already shows it.
    Object.assign(view.board.scenes[index] ?? {}, patch);
    if ('image' in patch) show({ ...view });
  },
  moveScene: (index, by) => {
    if (view.name !== 'editor' || !view.board || !scenesEditable(view)) return;
    const scenes = [...view.board.scenes];
    const [scene] = scenes.splice(index, 1);
    if (!scene) return;
    scenes.splice(Math.max(0, Math.min(scenes.length, index + by)), 0, scene);
    show({ ...view, board: { ...view.board, scenes } });
    // Keyboard users keep their place: focus follows the moved scene, on the same button, or on the
    // other one when the scene reached the end it was moving to (that button is then disabled).
    const target = Math.max(0, Math.min(scenes.length - 1, index + by));
    const same = document.querySelector<HTMLButtonElement>(`[data-move-${by < 0 ? 'up' : 'down'}="${target}"]`);
    const other = document.querySelector<HTMLButtonElement>(`[data-move-${by < 0 ? 'down' : 'up'}="${target}"]`);
    (same && !same.disabled ? same : other)?.focus();
  },
  removeScene: (index) => {
    if (view.name !== 'editor' || !view.board || !scenesEditable(view) || view.board.scenes.length <= 1) return;
    const scenes = view.board.scenes.filter((_, i) => i !== index);
    show({ ...view, board: { ...view.board, scenes } });
    document.querySelector<HTMLElement>(`#scene-${Math.min(index, scenes.length - 1)}-heading`)?.focus();
  },
  askComplete: () => {
    if (view.name !== 'editor') return;
    if (config?.completeVideoConfirmation?.shouldShow) show({ ...view, confirming: true });
    else void actions.complete();
  },
  cancelComplete: () => view.name === 'editor' && show({ ...view, confirming: false }),
  complete: async () => {
    if (view.name !== 'editor') return;
    const { id } = view.video;
    try {
      const video = await api.completeVideo(id);
      showInEditor(id, { video, confirming: false, error: undefined });
      followRender(video);
      // The scenes as saved, which the final render shows: edits not saved are dropped.
      void api.storyboard(id).then((board) => showInEditor(id, { board }), reportError);
    } catch (error) {
      if (view.name === 'editor') show({ ...view, confirming: false });
      refused(id, error);
    }
  },
  exitEditor: () => {
    show({ name: 'blank' });
    emit('editorExited');
  },
  close: () => {
    show({ name: 'blank' });
    endpoint.emit(INTERNAL_EVENTS.closed);
  },
  signIn: async (emailAddress) => {
    try {
      const result = await api.signInUncontrolled(emailAddress);
      setSession(result.session, result.account.id);
      show({ name: 'search', searching: false });
    } catch (error) {
      show({ name: 'signIn', error: error as UserError });
    }
  },
  signOut: async () => {
    await endSession();
    show({ name: 'signIn' });
  },
};

// ---- The methods the host's Plugin calls ----

const tokenParams = z.object({ token: tokenSchema });
/** The start methods' params carry the options' idempotency key beside the method's own. */
const startParams = z.looseObject({
  // The full check of the key's form (the Plugin checks only that it is a short string).
  idempotencyKey: z.optional(
    z.custom<string>(
      (value) => typeof value === 'string' && IDEMPOTENCY_KEY.test(value),
      'must be 1 to 255 visible ASCII characters (no spaces), e.g. crypto.randomUUID(): make one per user action and reuse it for its retries',
    ),
  ),
});
const videoParams = z.object({ videoID: idSchema });
const openParams = z.object({
  sourceURL: z.optional(sourceURLSchema),
  topicId: z.optional(idSchema),
  generationRequestId: z.optional(idSchema),
});

function requireStatus(kind: string, id: string, status: Topic['status']): void {
  if (status === 'PENDING' || status === 'FAILED') {
    throw new InvalidStateError(
      'invalid_state',
      `The ${kind} ${id} is ${status}; openPlugin can open it only when it is PROCESSING or COMPLETE. Wait for its status update.`,
      { status, id },
    );
  }
}

const methods = {
  ping: () => ({ version: VERSION, accountID }),

  /** What `diagnose()` asks the frame: what only the frame can see (FrameDiagnosis in wire/api.ts). */
  diagnose: (_params: unknown, host: HostInfo): FrameDiagnosis => ({
    version: VERSION,
    protocolVersion: PROTOCOL_VERSION,
    storage: storageWorks(),
    referrer: document.referrer,
    hostOrigin: host.origin,
  }),

  createAccount: async (params: unknown) => {
    const { token } = parse(tokenParams, params, 'params');
    await endSession();
    const { account, session } = await api.createAccount(token);
    setSession(session, account.id);
    return { accountID: account.id };
  },

  loginAccount: async (params: unknown) => {
    const { token } = parse(tokenParams, params, 'params');
    await endSession();
    const { account, session } = await api.login(token);
    setSession(session, account.id);
    return account;
  },

  logoutAccount: async () => {
    await endSession();
    show({ name: 'blank' });
    return null;
  },

  getAccountInfo: () => {
    requireSession('getAccountInfo');
    return api.account();
  },

  updateAccountInfo: (params: unknown) => {
    requireSession('updateAccountInfo');
    const { info } = parse(z.object({ info: updatableAccountInfoSchema }), params, 'params');
    return api.updateAccount(info as Record<string, string>);
  },

  getVideos: () => (api.session ? api.videos() : []),

  getVideoData: async (params: unknown) => {
    const { videoID } = parse(videoParams, params, 'params');
    if (!api.session) return null;
    try {
      return await api.video(videoID);
    } catch (error) {
      if (error instanceof VideoPluginError && error.code === 'video_not_found') return null;
      throw error;
    }
  },

  startTopicSearch: async (params: unknown) => {
    requireSession('startTopicSearch');
    const { idempotencyKey } = parse(startParams, params, 'options');
    const { sourceURL } = parse(z.object({ sourceURL: sourceURLSchema }), params, 'params');
    const { topicId, requestId } = await api.startTopicSearch(sourceURL, idempotencyKey);
    return { topicId, requestId };
  },

  startVideoGeneration: (params: unknown) => {
    requireSession('startVideoGeneration');
    const { idempotencyKey, ...rest } = parse(startParams, params, 'options');
    return startGeneration(parse(videoGenerationParamsSchema, rest, 'videoGenerationParams'), idempotencyKey);
  },

  openPlugin: async (params: unknown) => {
    const { sourceURL, topicId, generationRequestId } = parse(openParams, params, 'options');
    if (!api.session) {
      if (config?.authMode === 'uncontrolled') {
        show({ name: 'signIn' });
        return null;
      }
      requireSession('openPlugin');
    }
    if (topicId !== undefined) {
      const topic = await api.topic(topicId);
      requireStatus('topic search', topicId, topic.status);
      showPrompt(topic);
    } else if (generationRequestId !== undefined) {
      const generation = await api.generation(generationRequestId);
      requireStatus('video generation', generationRequestId, generation.status);
      showPreview(generation);
    } else if (sourceURL !== undefined) {
      void startSearch(sourceURL);
    } else {
      show({ name: 'search', searching: false });
    }
    return null;
  },

  openEditorForVideo: async (params: unknown) => {
    const { videoID } = parse(videoParams, params, 'params');
    requireSession('openEditorForVideo');
    return openEditor(videoID);
  },

  close: () => {
    show({ name: 'blank' });
    return null;
  },

  configure: (params: unknown) => {
    const changes = parse(updateSchema, params, 'changes');
    checkLook(changes, 'changes');
    config = { ...config!, ...changes };
    applyConfig();
    return null;
  },
};

// ---- Appearance and language ----

/** Checks `appearance` and `locale` (the Plugin only checked their types); throws naming the field. */
function checkLook({ appearance, locale }: { appearance?: unknown; locale?: unknown }, name: string): void {
  if (appearance !== undefined)
    checkContrast(parse(appearanceSchema, appearance, `${name}.appearance`), `${name}.appearance`);
  if (locale !== undefined) parse(localeSchema, locale, `${name}.locale`);
}

/** Applies the host's appearance and locale, then shows the current view in them. */
function applyConfig(): void {
  // The Plugin checked both; a host that did not gets the defaults rather than a broken page.
  const appearance = appearanceSchema.safeParse(config?.appearance ?? {});
  applyAppearance(appearance.success ? appearance.data : {});
  const requested = localeSchema.safeParse(config?.locale).data;
  const locale = resolveLocale(requested, navigator.languages);
  if (locale.unsupported) {
    log(`locale "${locale.unsupported}" is not available (${LOCALES.join(', ')}): using "${locale.tag}"`);
  }
  useLocale(locale);
  document.documentElement.toggleAttribute('data-fit', config?.height === 'auto');
  renderView(root, view, actions, config);
  fitHeight();
}

// ---- Auto height: the host sizes the iframe to the page's content ----
//
// In auto mode (`data-fit` on the root) the stylesheet lays the page out at its natural height:
// nothing depends on the frame's own height (no `vh`, no `min-height: 100vh`), so the height sent
// cannot feed back into itself. The root's box is measured whenever it resizes: the observer
// reports at most once per rendered frame (coalesced with layout, like a requestAnimationFrame),
// and a height is sent only when it differs from the last one sent, in whole pixels (rounded up,
// so that the frame never scrolls a fraction of a pixel). A width change from the host (a narrower
// page) re-wraps the text and is measured the same way.

let sentHeight = 0;

function fitHeight(): void {
  if (config?.height !== 'auto' || !endpoint.host) return;
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === sentHeight) return;
  sentHeight = height;
  endpoint.emit(INTERNAL_EVENTS.height, height);
}

new ResizeObserver(fitHeight).observe(document.documentElement);

/** What each status topic follows: a topic search, a generation, or a video (its final render). */
function statusTopic(kind: 'topic' | 'generation' | 'video') {
  return (key: string, push: (value: unknown) => void) =>
    hub.watch(
      kind,
      key,
      (record) => push(kind === 'video' ? renderPayload(record as Video) : statusPayload(record as Topic)),
      (error) => {
        const plain = serializeError(error);
        if (plain.code.endsWith('not_found'))
          push({ status: 'FAILED', error: { code: plain.code, message: plain.message } });
      },
    );
}

const endpoint = serveHost({
  methods,
  topics: {
    [TOPICS.topicSearch]: statusTopic('topic'),
    [TOPICS.videoGeneration]: statusTopic('generation'),
    [TOPICS.videoRender]: statusTopic('video'),
  },
  // Without a session, why: if the host had one before this page loaded, it was lost on reload.
  info: () =>
    accountID
      ? { accountID }
      : {
          accountID,
          lost: 'on reload: the browser does not let it keep one (third-party storage blocked or cleared)',
        },
  async checkOrigin(origin: string, connect) {
    const host = hostConfigSchema.safeParse(connect.config);
    if (!host.success || host.data.partnerID !== partnerID) {
      return {
        code: 'bad_request',
        message: 'The handshake configuration does not match this page. Update video-plugin.',
      };
    }
    try {
      checkLook(host.data, 'options');
    } catch (error) {
      return serializeError(error);
    }
    let allowed: boolean;
    try {
      ({ allowed } = await api.originAllowed(origin, host.data.authMode));
    } catch (error) {
      // An unknown partner (partner_not_found), an authMode the partner did not enable
      // (account_methods_disabled) or a service that cannot answer: refused with why, at once,
      // rather than a host left waiting for its connect limit.
      return serializeError(error);
    }
    return allowed
      ? undefined
      : {
          code: 'origin_not_allowed',
          message: `The page origin ${origin} is not allowed for partner ${partnerID}. Add it to the partner's allowed origins (the local service: --allowed-origin ${origin}).`,
          data: { origin, partnerID },
        };
  },
  onConnect(host: HostInfo) {
    config = hostConfigSchema.parse(host.config);
    log = createLogger(config.isDebug, 'service page');
    applyConfig();
  },
});

// Esc closes the studio like its ✕ button (or, over the completion dialog, cancels that dialog):
// with the focus in this frame, the partner's page never sees the key.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || view.name === 'blank' || !endpoint.host) return;
  if (view.name === 'editor' && view.confirming) actions.cancelComplete();
  else actions.close();
});

useLocale(resolveLocale(undefined, navigator.languages));
if (!endpoint.channel) root.textContent = t('studio.standalone');
