/** Videos: listing, reading, saving the name and scenes, the storyboard, completing. */
import * as z from 'zod/mini';
import { InvalidParameterError, InvalidStateError, strictObject } from 'video-plugin/internal';
import { topicPicturePath } from '../../media/files.js';
import { videoView } from '../../store/shapes.js';
import { authenticate, body, spend, type Handler } from './request.js';

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
  const { name, scenes } = await body(request, SaveBody);
  const images = store.topics.get(video.topicId ?? '')?.files ?? [];
  if (scenes !== undefined) {
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
  }
  // New scenes mean a new preview render.
  if (scenes !== undefined) spend(request, 'renders', { owner });
  // The scenes and the name are saved together, or neither is.
  store.transaction(() => {
    if (scenes !== undefined) request.ctx.jobs.editScenes(video, scenes, images);
    if (name !== undefined && video.name !== name) store.update({ kind: 'video', record: video }, { name });
  });
  return { status: 200, body: { video: videoView(video, request.ctx.baseURL()) } };
};

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

export const completeVideo: Handler = (request) => {
  const { owner } = authenticate(request);
  const { store, jobs } = request.ctx;
  const video = store.ownedVideo(owner, request.params.videoId as string);
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
  spend(request, 'renders', { owner });
  // The video and its `video.completed` webhook are saved together.
  store.transaction(() => jobs.completeVideo(video));
  return { status: 200, body: { video: videoView(video, request.ctx.baseURL()) } };
};
