/**
 * What the host's `Plugin` calls on the studio: its methods (exactly those of `Methods` in
 * src/wire/api.ts, each with the check of its params and metadata), and the status topics it
 * subscribes to.
 */
import {
  IDEMPOTENCY_KEY,
  InvalidStateError,
  PROTOCOL_VERSION,
  TOPICS,
  VERSION,
  VideoPluginError,
  check,
  idSchema,
  serializeError,
  sourceURLSchema,
  tokenSchema,
  updatableAccountInfoSchema,
  updateSchema,
  fullGenerationParamsSchema,
  type Handlers,
  type Methods,
  type Video,
} from 'video-plugin/internal';
import * as z from 'zod/mini';
import type { Topic } from './client.js';
import { renderPayload, statusPayload } from './payloads.js';
import { applyConfig, checkLook } from './look.js';
import { openEditor, show, showPrompt, showPreview, startGeneration, startSearch } from './navigation.js';
import { accountID, endSession, requireSession, setSession } from './session.js';
import { studio } from './state.js';
import { storageWorks } from './storage.js';

const { api, hub } = studio;

const tokenParams = z.object({ token: tokenSchema });
/** The start methods' metadata: the options' idempotency key (CallMeta in src/wire/api.ts). */
const startMeta = z.object({
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
      `The ${kind} ${id} is ${status}; openPlugin can open it only when it is PROCESSING or COMPLETE. Wait for its status update.`,
      { status, id },
    );
  }
}

export const methods: Handlers<Methods> = {
  ping: () => ({ version: VERSION, accountID }),

  /** What `diagnose()` asks the frame: what only the frame can see (FrameDiagnosis in wire/api.ts). */
  diagnose: (_params, _meta, host) => ({
    version: VERSION,
    protocolVersion: PROTOCOL_VERSION,
    storage: storageWorks(),
    referrer: document.referrer,
    hostOrigin: host.origin,
  }),

  createAccount: async (params) => {
    const { token } = check(tokenParams, params, 'params');
    await endSession();
    const { account, session } = await api.createAccount(token);
    setSession(session, account.id);
    return { accountID: account.id };
  },

  loginAccount: async (params) => {
    const { token } = check(tokenParams, params, 'params');
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
    const { info } = check(z.object({ info: updatableAccountInfoSchema }), params, 'params');
    return api.updateAccount(info as Record<string, string>);
  },

  getVideos: () => (api.session ? api.videos() : []),

  getVideoData: async (params) => {
    const { videoID } = check(videoParams, params, 'params');
    if (!api.session) return null;
    try {
      return await api.video(videoID);
    } catch (error) {
      if (error instanceof VideoPluginError && error.code === 'video_not_found') return null;
      throw error;
    }
  },

  startTopicSearch: async (params, meta) => {
    requireSession('startTopicSearch');
    const { idempotencyKey } = check(startMeta, meta, 'options');
    const { sourceURL } = check(z.object({ sourceURL: sourceURLSchema }), params, 'params');
    const { topicId, requestId } = await api.startTopicSearch(sourceURL, idempotencyKey);
    return { topicId, requestId };
  },

  startVideoGeneration: (params, meta) => {
    requireSession('startVideoGeneration');
    const { idempotencyKey } = check(startMeta, meta, 'options');
    // The Plugin checked that `metadata` is a plain object; its limits are checked here (and again by the API).
    return startGeneration(check(fullGenerationParamsSchema, params, 'videoGenerationParams'), idempotencyKey);
  },

  openPlugin: async (params) => {
    const { sourceURL, topicId, generationRequestId } = check(openParams, params, 'options');
    if (!api.session) {
      if (studio.config?.authMode === 'uncontrolled') {
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
    const { videoID } = check(videoParams, params, 'params');
    requireSession('openEditorForVideo');
    return openEditor(videoID);
  },

  close: () => {
    show({ name: 'blank' });
    return null;
  },

  configure: (params) => {
    const changes = check(updateSchema, params, 'changes');
    checkLook(changes, 'changes');
    studio.config = { ...studio.config!, ...changes };
    applyConfig();
    return null;
  },
};

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

/** The status topics the host subscribes to. */
export const topics = {
  [TOPICS.topicSearch]: statusTopic('topic'),
  [TOPICS.videoGeneration]: statusTopic('generation'),
  [TOPICS.videoRender]: statusTopic('video'),
};
