/**
 * The public JSON shapes of stored records (docs/service.md, "Objects"): what the API and the status
 * stream send. Owner fields and internal flags stay inside; media URLs are built here because they
 * depend on where the service listens.
 */
import type { GenerationJSON, RenderFiles, RenderJSON, TopicJSON, VideoJSON } from 'video-plugin/internal';
import { altText, chapters } from '../media/accessibility.js';
import { MEDIA_FILES, SVG_TYPE, topicPicturePath, videoMediaURL, type MediaFileName } from '../media/files.js';
import type { AccountRecord, GenerationRecord, RenderRecord, TopicRecord, VideoRecord } from './store.js';

/** An account as the API returns it. */
export type AccountView = Omit<AccountRecord, 'partnerID' | 'signIn'>;

/** A topic, a generation, a video and a render as the API returns them: the contract's JSON types. */
export type TopicView = TopicJSON;
export type GenerationView = GenerationJSON;
export type VideoView = VideoJSON;
export type RenderView = RenderJSON;

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
    ...(topic.progress ? { progress: { ...topic.progress } } : {}),
    ...(topic.title !== undefined ? { title: topic.title } : {}),
    ...(topic.description !== undefined ? { description: topic.description } : {}),
    images: [...topic.images],
    pictures: (topic.files ?? []).map((file) => topicPicturePath(topic.id, file)),
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
    ...(generation.progress ? { progress: { ...generation.progress } } : {}),
    ...(generation.metadata ? { metadata: generation.metadata } : {}),
  };
}

/** The video with absolute media URLs under `baseURL` (the service's origin). */
export function videoView(video: VideoRecord, baseURL: string): VideoView {
  const media = videoMediaURL(baseURL, video.id);
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
      ...(render.progress ? { progress: { ...render.progress } } : {}),
      ...(render.status === 'COMPLETE' ? { url: `${media}/render.${render.format}` } : {}),
      ...(render.renderedAt !== undefined ? { renderedAt: render.renderedAt } : {}),
      // The scenes cannot change once the video is completed: the alt text and the transcript
      // describe what the render shows (the name may change; the alt text follows it).
      ...(render.status === 'COMPLETE'
        ? { files: renderFiles(video, media, render), altText: altText(video, video.storyboard) }
        : {}),
      ...(render.status === 'COMPLETE' && render.quality ? { quality: render.quality } : {}),
      ...(render.status === 'COMPLETE' && render.stats ? { stats: { ...render.stats } } : {}),
    })),
    // The chapters of the storyboard as it is now: what its preview, and once completed its final
    // render, shows (placeholder media has no storyboard, so no chapters).
    ...(video.storyboard ? { chapters: chapters(video.storyboard) } : {}),
    ...(video.metadata ? { metadata: video.metadata } : {}),
  };
}

/**
 * The files of a COMPLETE render under `media` (the video's media URL), each with its SHA-256 when
 * the render recorded it. Real media has all five, but a render made before renders wrote their
 * chapters has no chapters file (its record has no chapters hash), so it lists none; the SVG
 * stand-ins only a video and a poster (they have no narration to caption or transcribe).
 */
function renderFiles(video: VideoRecord, media: string, { format, sha256 }: RenderRecord): RenderFiles {
  if (video.media === 'mp4') {
    const file = (name: MediaFileName, hash: string | undefined) => ({
      url: `${media}/${name}`,
      type: MEDIA_FILES[name].type,
      ...(hash ? { sha256: hash } : {}),
    });
    return {
      video: file('render.mp4', sha256?.video),
      poster: file('poster.jpg', sha256?.thumbnail),
      captions: { ...file('captions.vtt', sha256?.captions), language: video.storyboard?.language ?? video.language },
      ...(sha256?.chapters ? { chapters: file('chapters.vtt', sha256.chapters) } : {}),
      transcript: file('transcript.txt', sha256?.transcript),
    };
  }
  return {
    video: { url: `${media}/render.${format}`, type: SVG_TYPE },
    poster: { url: `${media}/poster.svg`, type: SVG_TYPE },
  };
}
