/** Topics: starting a topic search of a source URL, listing and reading them. */
import * as z from 'zod/mini';
import { InvalidParameterError, strictObject } from 'video-plugin/internal';
import { topicView } from '../../store/shapes.js';
import { authenticate, body, once, spend, type Handler } from './request.js';

/** Longest accepted source URL. */
export const MAX_URL_LENGTH = 2048;

const TopicBody = strictObject({ sourceURL: z.string().check(z.maxLength(MAX_URL_LENGTH)) });

export const startTopicSearch: Handler = async (request) => {
  const { owner } = authenticate(request);
  const { sourceURL } = await body(request, TopicBody);
  let url: URL | undefined;
  try {
    url = new URL(sourceURL);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidParameterError(
      `POST /api/topics: body: "sourceURL" must be an absolute http or https URL, e.g. https://shop.example (got ${JSON.stringify(sourceURL.slice(0, 100))}).`,
      { field: 'sourceURL' },
    );
  }
  const href = url.href;
  spend(request, 'topicSearches', { owner });
  const started = once(request, 'topics', owner, { sourceURL: href }, () => {
    const topic = request.ctx.jobs.startTopicSearch(owner, href);
    return { topicId: topic.id, requestId: topic.requestId };
  });
  return { status: 202, body: started };
};

export const listTopics: Handler = (request) => {
  const { owner } = authenticate(request);
  const { store } = request.ctx;
  return { status: 200, body: { topics: store.ownedBy(store.topics, owner).map(topicView) } };
};

export const getTopic: Handler = (request) => {
  const { owner } = authenticate(request);
  return {
    status: 200,
    body: { topic: topicView(request.ctx.store.ownedTopic(owner, request.params.topicId as string)) },
  };
};
