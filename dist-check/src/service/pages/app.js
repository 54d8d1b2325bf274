/**
 * The service's iframe page: the AI flow, the editor and (in uncontrolled mode) its own sign-in,
 * serving the host's `Plugin` through the service side of the wire.
 */
import { createLogger } from '../../debug.js';
import { InvalidStateError, NotAuthenticatedError, VideoPluginError, serializeError } from '../../errors.js';
import { appearanceSchema, checkContrast, localeSchema } from '../../appearance.js';
import {
  idSchema,
  sourceURLSchema,
  tokenSchema,
  updatableAccountInfoSchema,
  updateSchema,
  videoGenerationParamsSchema,
} from '../../options.js';
import { parse } from '../../validate.js';
import { VERSION } from '../../version.js';
import { INTERNAL_EVENTS, TOPICS, hostConfigSchema } from '../../wire/api.js';
import { serveHost } from '../../wire/service.js';
import * as z from 'zod/mini';
import { ApiClient } from './client.js';
import { StatusHub } from './status.js';
import { readStored, writeStored } from './storage.js';
import { renderView } from './views.js';
import { LOCALES, resolveLocale, t, useLocale } from './i18n.js';
import { applyAppearance } from './theme.js';
const root = document.getElementById('app') ?? document.body;
const partnerID = new URLSearchParams(location.search).get('partner') ?? '';
const api = new ApiClient(partnerID);
const hub = new StatusHub(api);
let config;
let log = createLogger(false, 'service page');
let view = { name: 'blank' };
/** Stops the watchers that belong to the current view. */
let stopViewWatchers = [];
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
let accountID = api.session ? readStored(`${storageKey}:account`) : null;
if (!accountID) api.session = undefined;
function setSession(session, account) {
  api.session = session;
  accountID = account;
  const kept = session && account;
  writeStored(storageKey, kept ? session : undefined);
  writeStored(`${storageKey}:account`, kept ? account : undefined);
  hub.restart();
  endpoint.emit(INTERNAL_EVENTS.session, { accountID });
}
function requireSession(method) {
  if (!api.session) {
    throw new NotAuthenticatedError(
      'not_authenticated',
      `${method} needs a logged-in account: call loginAccount or createAccount first.`,
      { method },
    );
  }
}
async function endSession() {
  if (!api.session) return;
  await api.logout().catch(() => {});
  setSession(undefined, null);
}
// ---- Events ----
function emit(name, payload) {
  log(`event ${name}`, payload);
  endpoint.emit(name, payload);
}
function reportError(error) {
  emit('error', serializeError(error));
}
/** Emits `videoCompleted` now and `videoRendered` once every render of the video has finished. */
function followRender(video) {
  emit('videoCompleted', video);
  const stop = hub.watch('video', video.id, (latest) => {
    if (latest.renders.length > 0 && latest.renders.every((render) => render.status === 'COMPLETE')) {
      stop();
      emit('videoRendered', latest);
      if (view.name === 'editor' && view.video.id === latest.id) show({ ...view, video: latest });
    }
  });
}
// ---- Views ----
function show(next) {
  if (next.name !== view.name || viewKey(next) !== viewKey(view)) {
    for (const stop of stopViewWatchers) stop();
    stopViewWatchers = [];
  }
  view = next;
  renderView(root, view, actions, config);
}
function viewKey(v) {
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
function showPrompt(topic) {
  show({ name: 'prompt', topic });
  stopViewWatchers.push(
    hub.watch('topic', topic.id, (latest) => {
      if (view.name === 'prompt' && view.topic.id === latest.id) show({ ...view, topic: latest });
    }),
  );
}
function showPreview(generation) {
  show({ name: 'preview', generation });
  const update = (patch) => {
    if (view.name === 'preview' && view.generation.requestId === generation.requestId) show({ ...view, ...patch });
  };
  stopViewWatchers.push(
    hub.watch('generation', generation.requestId, (latest) => {
      update({ generation: latest });
      if (latest.status === 'COMPLETE') void api.video(latest.videoId).then((video) => update({ video }), reportError);
    }),
  );
}
function showEditor(video, board) {
  show({ name: 'editor', video, confirming: false, ...(board ? { board } : {}) });
  // The video changes under the editor (a preview made again after a save, a render): show it.
  stopViewWatchers.push(
    hub.watch('video', video.id, (latest) => {
      if (view.name === 'editor' && view.video.id === latest.id) show({ ...view, video: latest });
    }),
  );
}
async function startSearch(sourceURL) {
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
      }
    });
    stopViewWatchers.push(stop);
  } catch (error) {
    show({ name: 'search', sourceURL, searching: false, error: error });
  }
}
async function startGeneration(params) {
  const started = await api.startGeneration(params);
  void api.video(started.videoId).then((video) => emit('videoCreated', video), reportError);
  return started;
}
const actions = {
  search: (sourceURL) => void startSearch(sourceURL),
  generate: async (params) => {
    try {
      const started = await startGeneration(params);
      showPreview(await api.generation(started.requestId));
    } catch (error) {
      if (view.name === 'prompt') show({ ...view, error: error });
    }
  },
  openInEditor: async (videoId) => {
    try {
      const [video, board] = await Promise.all([api.video(videoId), api.storyboard(videoId)]);
      showEditor(video, board);
      emit('editorOpened', video);
    } catch (error) {
      reportError(error);
    }
  },
  save: async (name) => {
    if (view.name !== 'editor') return;
    const editing = view;
    try {
      const scenes = editing.board?.editable ? editing.board.scenes : undefined;
      const video = await api.saveVideo(editing.video.id, { name, ...(scenes ? { scenes } : {}) });
      if (view.name === 'editor' && view.video.id === video.id) show({ ...view, video });
      emit('videoSaved', video);
    } catch (error) {
      reportError(error);
    }
  },
  editScene: (index, patch) => {
    if (view.name !== 'editor' || !view.board) return;
    // Typing changes the scene in place: no re-render, the input already shows it.
    Object.assign(view.board.scenes[index] ?? {}, patch);
    if ('image' in patch) show({ ...view });
  },
  moveScene: (index, by) => {
    if (view.name !== 'editor' || !view.board) return;
    const scenes = [...view.board.scenes];
    const [scene] = scenes.splice(index, 1);
    if (!scene) return;
    scenes.splice(Math.max(0, Math.min(scenes.length, index + by)), 0, scene);
    show({ ...view, board: { ...view.board, scenes } });
    // Keyboard users keep their place: focus follows the moved scene, on the same button, or on the
    // other one when the scene reached the end it was moving to (that button is then disabled).
    const target = Math.max(0, Math.min(scenes.length - 1, index + by));
    const same = document.querySelector(`[data-move-${by < 0 ? 'up' : 'down'}="${target}"]`);
    const other = document.querySelector(`[data-move-${by < 0 ? 'down' : 'up'}="${target}"]`);
    (same && !same.disabled ? same : other)?.focus();
  },
  removeScene: (index) => {
    if (view.name !== 'editor' || !view.board || view.board.scenes.length <= 1) return;
    const scenes = view.board.scenes.filter((_, i) => i !== index);
    show({ ...view, board: { ...view.board, scenes } });
    document.querySelector(`#scene-${Math.min(index, scenes.length - 1)}-heading`)?.focus();
  },
  askComplete: () => {
    if (view.name !== 'editor') return;
    if (config?.completeVideoConfirmation?.shouldShow) show({ ...view, confirming: true });
    else void actions.complete();
  },
  cancelComplete: () => view.name === 'editor' && show({ ...view, confirming: false }),
  complete: async () => {
    if (view.name !== 'editor') return;
    try {
      const video = await api.completeVideo(view.video.id);
      show({ ...view, video, confirming: false });
      followRender(video);
    } catch (error) {
      reportError(error);
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
      show({ name: 'signIn', error: error });
    }
  },
  signOut: async () => {
    await endSession();
    show({ name: 'signIn' });
  },
};
// ---- The methods the host's Plugin calls ----
const tokenParams = z.object({ token: tokenSchema });
const videoParams = z.object({ videoID: idSchema });
const openParams = z.object({
  sourceURL: z.optional(sourceURLSchema),
  topicId: z.optional(idSchema),
  generationRequestId: z.optional(idSchema),
});
function requireStatus(kind, id, status) {
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
  createAccount: async (params) => {
    const { token } = parse(tokenParams, params, 'params');
    await endSession();
    const { account, session } = await api.createAccount(token);
    setSession(session, account.id);
    return { accountID: account.id };
  },
  loginAccount: async (params) => {
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
  updateAccountInfo: (params) => {
    requireSession('updateAccountInfo');
    const { info } = parse(z.object({ info: updatableAccountInfoSchema }), params, 'params');
    return api.updateAccount(info);
  },
  getVideos: () => (api.session ? api.videos() : []),
  getVideoData: async (params) => {
    const { videoID } = parse(videoParams, params, 'params');
    if (!api.session) return null;
    try {
      return await api.video(videoID);
    } catch (error) {
      if (error instanceof VideoPluginError && error.code === 'video_not_found') return null;
      throw error;
    }
  },
  startTopicSearch: (params) => {
    requireSession('startTopicSearch');
    const { sourceURL } = parse(z.object({ sourceURL: sourceURLSchema }), params, 'params');
    return api.startTopicSearch(sourceURL);
  },
  startVideoGeneration: (params) => {
    requireSession('startVideoGeneration');
    return startGeneration(parse(videoGenerationParamsSchema, params, 'videoGenerationParams'));
  },
  openPlugin: async (params) => {
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
  openEditorForVideo: async (params) => {
    const { videoID } = parse(videoParams, params, 'params');
    requireSession('openEditorForVideo');
    const video = await api.video(videoID);
    showEditor(video);
    return video;
  },
  close: () => {
    show({ name: 'blank' });
    return null;
  },
  configure: (params) => {
    const changes = parse(updateSchema, params, 'changes');
    checkLook(changes, 'changes');
    config = { ...config, ...changes };
    applyConfig();
    return null;
  },
};
// ---- Appearance and language ----
/** Checks `appearance` and `locale` (the Plugin only checked their types); throws naming the field. */
function checkLook({ appearance, locale }, name) {
  if (appearance !== undefined)
    checkContrast(parse(appearanceSchema, appearance, `${name}.appearance`), `${name}.appearance`);
  if (locale !== undefined) parse(localeSchema, locale, `${name}.locale`);
}
/** Applies the host's appearance and locale, then shows the current view in them. */
function applyConfig() {
  // The Plugin checked both; a host that did not gets the defaults rather than a broken page.
  const appearance = appearanceSchema.safeParse(config?.appearance ?? {});
  applyAppearance(appearance.success ? appearance.data : {});
  const requested = localeSchema.safeParse(config?.locale).data;
  const locale = resolveLocale(requested, navigator.languages);
  if (locale.unsupported) {
    log(`locale "${locale.unsupported}" is not available (${LOCALES.join(', ')}): using "${locale.tag}"`);
  }
  useLocale(locale);
  renderView(root, view, actions, config);
}
const topicPayload = (record) =>
  record.error ? { status: record.status, error: record.error } : { status: record.status };
function statusTopic(kind) {
  return (key, push) =>
    hub.watch(
      kind,
      key,
      (record) => push(topicPayload(record)),
      (error) => {
        const plain = serializeError(error);
        if (plain.code.endsWith('not_found'))
          push({ status: 'FAILED', error: { code: plain.code, message: plain.message } });
      },
    );
}
const endpoint = serveHost({
  methods,
  topics: { [TOPICS.topicSearch]: statusTopic('topic'), [TOPICS.videoGeneration]: statusTopic('generation') },
  info: () => ({ accountID }),
  async checkOrigin(origin, connect) {
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
    const { allowed } = await api.originAllowed(origin);
    return allowed
      ? undefined
      : {
          code: 'origin_not_allowed',
          message: `The page origin ${origin} is not allowed for partner ${partnerID}. Add it to the partner's allowed origins (the local service: --allowed-origin ${origin}).`,
          data: { origin, partnerID },
        };
  },
  onConnect(host) {
    config = hostConfigSchema.parse(host.config);
    log = createLogger(config.isDebug, 'service page');
    applyConfig();
  },
});
useLocale(resolveLocale(undefined, navigator.languages));
if (!endpoint.channel) root.textContent = t('studio.standalone');
//# sourceMappingURL=app.js.map
