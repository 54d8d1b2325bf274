/** The caller's changes: the event stream, and the change feed. */
import type { Change } from '../../store/store.js';
import { authenticate, type Handler } from './request.js';

export const events: Handler = (request) => {
  const { owner, key } = authenticate(request);
  const { store, streams } = request.ctx;
  const { searchParams } = request.url;
  const filter = {
    topics: new Set(searchParams.getAll('topic')),
    generations: new Set(searchParams.getAll('generation')),
    videos: new Set(searchParams.getAll('video')),
  };
  // Unknown IDs are refused before the stream starts, with the same errors as the GET routes.
  const initial: Change[] = [
    ...[...filter.topics].map((id): Change => ({ kind: 'topic', record: store.ownedTopic(owner, id) })),
    ...[...filter.generations].map((id): Change => ({ kind: 'generation', record: store.ownedGeneration(owner, id) })),
    ...[...filter.videos].map((id): Change => ({ kind: 'video', record: store.ownedVideo(owner, id) })),
  ];
  const lastEventId = request.req.headers['last-event-id'];
  streams.open(request.res, owner, key, filter, initial, typeof lastEventId === 'string' ? lastEventId : undefined);
  return undefined;
};

/** The change feed: the socket's replay as a plain request; answers at once, never holds the connection. */
export const changes: Handler = (request) => {
  const { owner } = authenticate(request);
  const after = request.url.searchParams.get('after') ?? undefined;
  return { status: 200, body: request.ctx.streams.log.changes(owner, after) };
};
