/** The account without its owner field and internal flag. */
export function accountView({ partnerID: _partnerID, signIn: _signIn, ...account }) {
  return account;
}
/** The topic without its owner and bookkeeping fields. */
export function topicView(topic) {
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
export function generationView(generation) {
  return {
    requestId: generation.requestId,
    videoId: generation.videoId,
    topicId: generation.topicId,
    status: generation.status,
    ...(generation.error ? { error: generation.error } : {}),
  };
}
/** The video with absolute media URLs under `baseURL` (the service's origin). */
export function videoView(video, baseURL) {
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
//# sourceMappingURL=views.js.map
