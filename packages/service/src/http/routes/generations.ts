/** Generations: starting a video generation from a topic, reading one. */
import { DEFAULT_LANGUAGE, InvalidStateError, fullGenerationParamsSchema } from 'video-plugin/internal';
import type { GenerationParams } from '../../jobs/generation.js';
import { generationView } from '../../store/shapes.js';
import { authenticate, body, once, spend, type Handler } from './request.js';

export const startGeneration: Handler = async (request) => {
  const { owner } = authenticate(request);
  // The `Plugin`'s own schema with `metadata` checked in full, which the iframe page parses with too:
  // the aspect ratios, durations, languages and limits of the contract (wire/values.ts), one set of
  // rules at every door. A refused body changes nothing: nothing is spent or saved.
  const params = await body(request, fullGenerationParamsSchema);
  spend(request, 'generations', { owner });
  // Without a language, the page's own (the topic's, read from `<html lang>`) when the service
  // speaks it, else the default; a retry that names the language this gives is the same request.
  // Read once the idempotency key is found good (a bad key is refused before an unknown topic).
  let normalised: (GenerationParams & Record<string, unknown>) | undefined;
  const normalise = (): GenerationParams & Record<string, unknown> =>
    (normalised ??= {
      topicId: params.topicId,
      aspectRatio: params.aspectRatio,
      duration: params.duration,
      language: params.language ?? request.ctx.store.ownedTopic(owner, params.topicId).language ?? DEFAULT_LANGUAGE,
      ...(params.videoInstructions !== undefined ? { videoInstructions: params.videoInstructions } : {}),
      // Kept as given, the same object: no key is sorted, trimmed or normalised.
      ...(params.metadata !== undefined ? { metadata: params.metadata } : {}),
    });
  // The generation, its video and its idempotency key are saved together.
  const started = once(request, 'generations', owner, normalise, () => {
    const topic = request.ctx.store.ownedTopic(owner, params.topicId);
    if (topic.status !== 'COMPLETE') {
      throw new InvalidStateError(
        `Topic "${topic.id}" is ${topic.status}; start a video generation once its topic search is COMPLETE.`,
        { topicId: topic.id, status: topic.status },
      );
    }
    const { generation } = request.ctx.jobs.startGeneration(owner, topic, normalise());
    return { requestId: generation.requestId, videoId: generation.videoId, topicId: topic.id };
  });
  return { status: 202, body: started };
};

export const getGeneration: Handler = (request) => {
  const { owner } = authenticate(request);
  const generation = request.ctx.store.ownedGeneration(owner, request.params.requestId as string);
  return { status: 200, body: { generation: generationView(generation) } };
};
