/**
 * The methods map (`Methods`, src/wire/api.ts) binds both ends of every call: each
 * `@ts-expect-error` below is a mistake on one end that must fail the type check (`npm run
 * typecheck`, which includes this file; nothing here runs). The studio's own handlers
 * (packages/service/src/pages/host-methods.ts) are declared `Handlers<Methods>`, so they are held
 * to the same rules.
 */
import { check, serveHost, type Handlers, type Unchecked } from '../../src/wire/service.js';
import type { HostConnection } from '../../src/wire/host.js';
import type { Account, Methods, Video } from '../../src/wire/api.js';
import { methods } from '../../packages/service/src/pages/host-methods.js';
import * as z from 'zod/mini';

declare const connection: HostConnection<Methods>;

// ---- The host's calls ----

export async function hostCalls(): Promise<void> {
  // A method of the map, its params, its answer: no cast.
  const video: Video | null = await connection.call('getVideoData', { videoID: 'v1' }, { resend: true });
  const videos: Video[] = await connection.call('getVideos');
  const account: Account = await connection.call('loginAccount', { token: 't' }, { early: true });
  await connection.call(
    'startTopicSearch',
    { sourceURL: 'https://example.com/' },
    { meta: { idempotencyKey: 'k1' }, resend: true },
  );
  void [video, videos, account];

  // @ts-expect-error A method renamed on the host side (the map says getVideoData).
  await connection.call('getVideo', { videoID: 'v1' });
  // @ts-expect-error A param renamed on the host side (the map says videoID).
  await connection.call('getVideoData', { videoId: 'v1' });
  // @ts-expect-error A param of the wrong type.
  await connection.call('getVideoData', { videoID: 1 });
  // @ts-expect-error Params left out where the method takes some.
  await connection.call('getVideoData');
  // @ts-expect-error The idempotency key folded into the params: it travels as call metadata.
  await connection.call('startTopicSearch', { sourceURL: 'https://example.com/', idempotencyKey: 'k1' });
  // @ts-expect-error Call metadata the service does not know.
  await connection.call('startTopicSearch', { sourceURL: 'https://example.com/' }, { meta: { key: 'k1' } });
  // @ts-expect-error The answer read as another method's (getVideoData answers one video or null).
  const wrongAnswer: Video[] = await connection.call('getVideoData', { videoID: 'v1' });
  void wrongAnswer;
}

// ---- The service page's handlers ----

const { ping: _ping, ...withoutPing } = methods;
const { getVideoData: _getVideoData, ...withoutGetVideoData } = methods;

// The studio's handlers are exactly the map's.
serveHost<Methods>({ methods });

// @ts-expect-error A handler missing (ping).
serveHost<Methods>({ methods: withoutPing });

serveHost<Methods>({
  // @ts-expect-error An extra handler, of a method the map does not have.
  methods: { ...methods, getVideo: () => null },
});

serveHost<Methods>({
  // @ts-expect-error A handler renamed (the map says getVideoData): missing and extra at once.
  methods: { ...withoutGetVideoData, getVideoDatum: () => null },
});

export const wrongParams: Handlers<Methods> = {
  ...methods,
  // @ts-expect-error A handler that expects other params than the host sends (videoId).
  getVideoData: (_params: Unchecked<{ videoId: string }>) => null,
};

export const trustingParams: Handlers<Methods> = {
  ...methods,
  // @ts-expect-error A handler that takes the params as checked: they come from the host page unchecked.
  getVideoData: (params: { videoID: string }) => (params.videoID ? null : null),
};

export const wrongAnswer: Handlers<Methods> = {
  ...methods,
  // @ts-expect-error A handler answering what the host does not expect (getVideos answers videos).
  getVideos: () => 'none',
};

export const wrongAsyncAnswer: Handlers<Methods> = {
  ...methods,
  // @ts-expect-error The same, as a promise (getAccountInfo answers an account).
  getAccountInfo: async () => null,
};

// A handler reads its params through `check`, with a schema whose result fits the map's params.
export const checked: Handlers<Methods> = {
  ...methods,
  getVideoData: (params) => {
    const { videoID } = check(z.object({ videoID: z.string() }), params, 'params');
    return videoID ? null : null;
  },
  startTopicSearch: (params, meta) => {
    const { sourceURL } = check(z.object({ sourceURL: z.string() }), params, 'params');
    const { idempotencyKey } = check(z.object({ idempotencyKey: z.optional(z.string()) }), meta, 'options');
    return { topicId: sourceURL, requestId: idempotencyKey ?? '' };
  },
};

export const uncheckedRead: Handlers<Methods> = {
  ...methods,
  // @ts-expect-error Read without a check: the params are unchecked.
  getVideoData: (params) => (params.videoID ? null : null),
};

export const staleSchema: Handlers<Methods> = {
  ...methods,
  getVideoData: (params) => {
    // @ts-expect-error A schema of other params than the map's (videoId): a rename on one side only.
    const { videoId } = check(z.object({ videoId: z.string() }), params, 'params');
    return videoId ? null : null;
  },
  startTopicSearch: (_params, meta) => {
    // @ts-expect-error Metadata read as the params of another method.
    check(z.object({ sourceURL: z.string() }), meta, 'params');
    return { topicId: '', requestId: '' };
  },
};
