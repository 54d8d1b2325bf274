/** The caller's changes: the event stream, and the change feed. */
import type { Change } from '../../store/store.js';
import { owns } from '../changes.js';
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
  const header = request.req.headers['last-event-id'];
  // Another account's position is none of this stream's: it starts as from a position it cannot
  // resume from (an EventSource given 400 would stop reconnecting for good).
  const lastEventId =
    typeof header !== 'string' ? undefined : streams.log.isForeign(owner, header) ? 'another account' : header;
  // A stream of the whole account that resumes from a position the log no longer has (another run
  // of the service, a gap of more than its last changes) starts with the current state of every
  // record of the account: else what changed in the gap would be lost without a word.
  const wholeAccount = filter.topics.size + filter.generations.size + filter.videos.size === 0;
  if (wholeAccount && lastEventId !== undefined && streams.log.since(lastEventId, owner) === undefined) {
    const all: Change[] = [
      ...[...store.topics.values()].map((record): Change => ({ kind: 'topic', record })),
      ...[...store.generations.values()].map((record): Change => ({ kind: 'generation', record })),
      ...[...store.videos.values()].map((record): Change => ({ kind: 'video', record })),
    ];
    initial.push(...all.filter((change) => owns(owner, change)));
  }
  streams.open(request.res, owner, key, filter, initial, lastEventId);
  return undefined;
};

/** The change feed: the socket's replay as a plain request; answers at once, never holds the connection. */
export const changes: Handler = (request) => {
  const { owner } = authenticate(request);
  const after = request.url.searchParams.get('after') ?? undefined;
  request.ctx.streams.log.refuseForeign(owner, after, 'GET /api/changes');
  return { status: 200, body: request.ctx.streams.log.changes(owner, after) };
};
