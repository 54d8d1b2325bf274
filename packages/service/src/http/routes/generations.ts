/** Generations: starting a video generation from a topic, reading one. */
import * as z from 'zod/mini';
import { InvalidStateError, strictObject } from 'video-plugin/internal';
import { generationView } from '../../store/shapes.js';
import { authenticate, body, nonEmpty, once, spend, type Handler } from './request.js';

/** Languages a generation accepts (DESIGN §2). */
export const LANGUAGES = ['de', 'en-AU', 'en-GB', 'en-NZ', 'en-US', 'es', 'fr', 'it-IT', 'pt'] as const;
/** Longest accepted `videoInstructions`. */
export const MAX_INSTRUCTIONS_LENGTH = 2000;

const GenerationBody = strictObject({
  topicId: nonEmpty(),
  aspectRatio: z.enum(['16:9', '4:5']),
  duration: z.literal([5, 15, 30]),
  videoInstructions: z.optional(z.string().check(z.maxLength(MAX_INSTRUCTIONS_LENGTH))),
  language: z.optional(z.enum(LANGUAGES)),
});

export const startGeneration: Handler = async (request) => {
  const { owner } = authenticate(request);
  const params = await body(request, GenerationBody);
  spend(request, 'generations', { owner });
  const normalised = {
    topicId: params.topicId,
    aspectRatio: params.aspectRatio,
    duration: params.duration,
    language: params.language ?? 'en-US',
    ...(params.videoInstructions !== undefined ? { videoInstructions: params.videoInstructions } : {}),
  };
  // The generation, its video and its idempotency key are saved together.
  const started = once(request, 'generations', owner, normalised, () => {
    const topic = request.ctx.store.ownedTopic(owner, params.topicId);
    if (topic.status !== 'COMPLETE') {
      throw new InvalidStateError(
        'invalid_state',
        `Topic "${topic.id}" is ${topic.status}; start a video generation once its topic search is COMPLETE.`,
        { topicId: topic.id, status: topic.status },
      );
    }
    const { generation } = request.ctx.jobs.startGeneration(owner, topic, normalised);
    return { requestId: generation.requestId, videoId: generation.videoId, topicId: topic.id };
  });
  return { status: 202, body: started };
};

export const getGeneration: Handler = (request) => {
  const { owner } = authenticate(request);
  const generation = request.ctx.store.ownedGeneration(owner, request.params.requestId as string);
  return { status: 200, body: { generation: generationView(generation) } };
};
