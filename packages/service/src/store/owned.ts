/**
 * A record read on behalf of an account (store.ts, `ownedVideo` and the others): another partner's
 * or account's record is reported as missing, so that its existence is not told either.
 */
import { NotFoundError } from 'video-plugin/internal';
import type { GenerationRecord, Owner, TopicRecord, VideoRecord } from './records.js';

export function isOwner(record: Owner, owner: Owner): boolean {
  return record.partnerID === owner.partnerID && record.accountID === owner.accountID;
}

/** The account's video, or a `video_not_found` error. */
export function ownedVideo(
  videos: ReadonlyMap<string, Readonly<VideoRecord>>,
  owner: Owner,
  id: string,
): Readonly<VideoRecord> {
  const video = videos.get(id);
  if (video && isOwner(video, owner)) return video;
  throw new NotFoundError('video_not_found', `No video "${id}" on this account.`, { videoId: id });
}

/** The account's topic, or a `topic_not_found` error. */
export function ownedTopic(
  topics: ReadonlyMap<string, Readonly<TopicRecord>>,
  owner: Owner,
  id: string,
): Readonly<TopicRecord> {
  const topic = topics.get(id);
  if (topic && isOwner(topic, owner)) return topic;
  throw new NotFoundError(
    'topic_not_found',
    `No topic "${id}" on this account. Use a topicId returned by startTopicSearch for this account.`,
    { topicId: id },
  );
}

/** The account's generation, or a `generation_not_found` error. */
export function ownedGeneration(
  generations: ReadonlyMap<string, Readonly<GenerationRecord>>,
  owner: Owner,
  requestId: string,
): Readonly<GenerationRecord> {
  const generation = generations.get(requestId);
  if (generation && isOwner(generation, owner)) return generation;
  throw new NotFoundError(
    'generation_not_found',
    `No video generation "${requestId}" on this account. Use a requestId returned by startVideoGeneration.`,
    { requestId },
  );
}

/** Every record of a collection that belongs to the account, newest first. */
export function ownedBy<T extends Owner & { createdAt: string }>(
  collection: ReadonlyMap<string, T>,
  owner: Owner,
): T[] {
  return [...collection.values()]
    .filter((record) => isOwner(record, owner))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
