/** Videos: listing, reading, saving the name and scenes, the storyboard, completing. */
import * as z from 'zod/mini';
import { InvalidParameterError, InvalidStateError, strictObject } from 'video-plugin/internal';
import { topicPicturePath } from '../../media/files.js';
import { videoView } from '../../store/shapes.js';
import type { VideoRecord } from '../../store/records.js';
import { authenticate, body, spend, type Handler, type Request } from './request.js';

const SceneInput = strictObject({
  heading: z.string().check(z.trim(), z.minLength(1, { error: 'must not be empty' }), z.maxLength(120)),
  body: z.optional(z.string().check(z.trim(), z.maxLength(300))),
  narration: z.string().check(z.trim(), z.minLength(1, { error: 'must not be empty' }), z.maxLength(400)),
  image: z.nullable(z.int().check(z.gte(0), z.lte(63))),
  /** The sources the storyboard gave (sent back as read): ignored, the service keeps its own. */
  sources: z.optional(z.unknown()),
});
/** What the editor saves: the name, and (real media) the scenes, in order. */
const SaveBody = strictObject({
  name: z.optional(
    z.string().check(z.trim(), z.minLength(1, { error: 'must not be empty: give the video a name' }), z.maxLength(200)),
  ),
  scenes: z.optional(z.array(SceneInput).check(z.minLength(1, { error: 'keep at least one scene' }), z.maxLength(12))),
});
type SaveEdits = z.infer<typeof SaveBody>;

export const listVideos: Handler = (request) => {
  const { owner } = authenticate(request);
  const { store } = request.ctx;
  return {
    status: 200,
    body: { videos: store.ownedBy(store.videos, owner).map((video) => videoView(video, request.ctx.baseURL())) },
  };
};

export const getVideo: Handler = (request) => {
  const { owner } = authenticate(request);
  const video = request.ctx.store.ownedVideo(owner, request.params.videoId as string);
  return { status: 200, body: { video: videoView(video, request.ctx.baseURL()) } };
};

export const renameVideo: Handler = async (request) => {
  const { owner } = authenticate(request);
  const { store } = request.ctx;
  const video = store.ownedVideo(owner, request.params.videoId as string);
  const edits = await body(request, SaveBody);
  const images = checkEdits(request, video, edits);
  // New scenes mean a new preview render.
  if (edits.scenes !== undefined) spend(request, 'renders', { owner });
  // The scenes and the name are saved together, or neither is.
  store.transaction(() => saveEdits(request, video, edits, images, { preview: true }));
  return { status: 200, body: { video: videoView(video, request.ctx.baseURL()) } };
};

/**
 * Checks the `edits` of a save or a completion before anything changes: scenes only with real
 * media and before completion, each picture one of the topic's. Returns the topic's images.
 */
function checkEdits(request: Request, video: Readonly<VideoRecord>, { scenes }: SaveEdits): readonly string[] {
  const images = request.ctx.store.topics.get(video.topicId ?? '')?.files ?? [];
  if (scenes === undefined) return images;
  if (video.media !== 'mp4' || !video.storyboard) {
    throw new InvalidStateError(`Video "${video.id}" has no scenes to edit (placeholder media).`, {
      videoId: video.id,
    });
  }
  if (video.isCompleted) {
    throw new InvalidStateError(`Video "${video.id}" is completed: its scenes can no longer change.`, {
      videoId: video.id,
    });
  }
  for (const [index, scene] of scenes.entries()) {
    if (scene.image !== null && scene.image >= images.length) {
      throw new InvalidParameterError(
        `scenes.${index}.image: the topic has ${images.length} image(s); give an index below ${images.length}, or null.`,
        { field: `scenes.${index}.image` },
      );
    }
  }
  return images;
}

/** Saves checked `edits` (in the caller's transaction); `preview`: render the preview again from new scenes. */
function saveEdits(
  request: Request,
  video: Readonly<VideoRecord>,
  { name, scenes }: SaveEdits,
  images: readonly string[],
  { preview }: { preview: boolean },
): void {
  const { store, jobs } = request.ctx;
  if (scenes !== undefined) jobs.editScenes(video, scenes, images, { preview });
  if (name !== undefined && video.name !== name) store.update({ kind: 'video', record: video }, { name });
}

/** The editor's view of a video's storyboard: its scenes and the topic's images to choose from. */
export const getStoryboard: Handler = (request) => {
  const { owner } = authenticate(request);
  const { store } = request.ctx;
  const video = store.ownedVideo(owner, request.params.videoId as string);
  const files = store.topics.get(video.topicId ?? '')?.files ?? [];
  const board = video.storyboard;
  return {
    status: 200,
    body: {
      scenes: (board?.scenes ?? []).map((scene) => ({
        heading: scene.heading,
        ...(scene.body !== undefined ? { body: scene.body } : {}),
        narration: scene.narration,
        image: scene.image === undefined ? null : files.indexOf(scene.image),
        ...(scene.sources ? { sources: scene.sources } : {}),
      })),
      images: files.map((file) => request.ctx.baseURL() + topicPicturePath(video.topicId ?? '', file)),
      editable: board !== undefined && !video.isCompleted,
      // The current preview render: its files' SHA-256 and what it did (real media).
      ...(video.preview ? { preview: { sha256: { ...video.preview.sha256 }, stats: { ...video.preview.stats } } } : {}),
    },
  };
};

/**
 * Completes a video. The body, optional, is a save's (`{ name?, scenes? }`): the editor's edits not
 * saved yet, saved with the completion or not at all, so the final render is made from what the
 * user sees; no preview is rendered from them, the final render follows.
 */
export const completeVideo: Handler = async (request) => {
  const { owner } = authenticate(request);
  const { store, jobs } = request.ctx;
  const video = store.ownedVideo(owner, request.params.videoId as string);
  const edits = (await body(request, z.optional(SaveBody))) ?? {};
  if (video.isCompleted) {
    throw new InvalidStateError(`Video "${video.id}" is already completed.`, { videoId: video.id });
  }
  const generation = video.requestId === undefined ? undefined : store.generations.get(video.requestId);
  if (generation && generation.status !== 'COMPLETE') {
    throw new InvalidStateError(
      `Video "${video.id}" cannot be completed while its generation is ${generation.status}; wait until it is COMPLETE.`,
      { videoId: video.id, status: generation.status },
    );
  }
  const images = checkEdits(request, video, edits);
  spend(request, 'renders', { owner });
  // The edits, the video and its `video.completed` webhook are saved together.
  store.transaction(() => {
    saveEdits(request, video, edits, images, { preview: false });
    jobs.completeVideo(video);
  });
  return { status: 200, body: { video: videoView(video, request.ctx.baseURL()) } };
};
