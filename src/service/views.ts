/**
 * The public JSON shapes of stored records (DESIGN §3 "Objects"): what the API and the status
 * stream send. Owner fields and internal flags stay inside; media URLs are built here because they
 * depend on where the service listens.
 */
import type { AccountRecord, GenerationRecord, StatusError, Status, TopicRecord, VideoRecord } from './store.js';

/** An account as the API returns it. */
export type AccountView = Omit<AccountRecord, 'partnerID' | 'signIn'>;

/** A topic as the API returns it. `title`, `description` and `images` fill in while PROCESSING. */
export interface TopicView {
  id: string;
  requestId: string;
  sourceURL: string;
  status: Status;
  error?: StatusError;
  title?: string;
  description?: string;
  images: string[];
}

/** A video generation as the API returns it. */
export interface GenerationView {
  requestId: string;
  videoId: string;
  topicId: string;
  status: Status;
  error?: StatusError;
}

/** A video as the API returns it. */
export interface VideoView {
  id: string;
  name: string;
  topicId?: string;
  aspectRatio: '16:9' | '4:5';
  duration: 5 | 15 | 30;
  language: string;
  createdAt: string;
  updatedAt: string;
  isCompleted: boolean;
  thumbnailURL?: string;
  renders: { format: string; status: Status; error?: StatusError; url?: string; renderedAt?: string }[];
}

/** The account without its owner field and internal flag. */
export function accountView({ partnerID: _partnerID, signIn: _signIn, ...account }: AccountRecord): AccountView {
  return account;
}

/** The topic without its owner and bookkeeping fields. */
export function topicView(topic: TopicRecord): TopicView {
  return {
    id: topic.id,
    requestId: topic.requestId,
    sourceURL: topic.sourceURL,
    status: topic.status,
    ...(topic.error ? { error: topic.error } : {}),
    ...(topic.title !== undefined ? { title: topic.title } : {}),
    ...(topic.description !== undefined ? { description: topic.description } : {}),
    images: [...topic.images],
  };
}

/** The generation without its owner and parameters. */
export function generationView(generation: GenerationRecord): GenerationView {
  return {
    requestId: generation.requestId,
    videoId: generation.videoId,
    topicId: generation.topicId,
    status: generation.status,
    ...(generation.error ? { error: generation.error } : {}),
  };
}

/** The video with absolute media URLs under `baseURL` (the service's origin). */
export function videoView(video: VideoRecord, baseURL: string): VideoView {
  const media = `${baseURL}/media/videos/${encodeURIComponent(video.id)}`;
  return {
    id: video.id,
    name: video.name,
    ...(video.topicId !== undefined ? { topicId: video.topicId } : {}),
    aspectRatio: video.aspectRatio,
    duration: video.duration,
    language: video.language,
    createdAt: video.createdAt,
    updatedAt: video.updatedAt,
    isCompleted: video.isCompleted,
    ...(video.hasThumbnail ? { thumbnailURL: `${media}/thumbnail.${video.media === 'mp4' ? 'jpg' : 'svg'}` } : {}),
    renders: video.renders.map((render) => ({
      format: render.format,
      status: render.status,
      ...(render.error ? { error: render.error } : {}),
      ...(render.status === 'COMPLETE' ? { url: `${media}/render.${render.format}` } : {}),
      ...(render.renderedAt !== undefined ? { renderedAt: render.renderedAt } : {}),
    })),
  };
}
