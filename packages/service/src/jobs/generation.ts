/**
 * The generation job: PENDING, then PROCESSING while it writes the storyboard and (real media)
 * renders the preview, then COMPLETE with the video's thumbnail ready (or FAILED). Every step is
 * saved and published through the store.
 */
import type { AspectRatio, Duration, Language, Metadata } from 'video-plugin/internal';
import { renderName } from '../media/files.js';
import { imageURLsOf } from '../media/images.js';
import { buildStoryboard } from '../media/storyboard.js';
import type { GenerationRecord, VideoRecord } from '../store/store.js';
import { describe, renderFailure, track, type JobContext } from './job.js';

/** Parameters of a generation, already validated. */
export interface GenerationParams {
  topicId: string;
  aspectRatio: AspectRatio;
  duration: Duration;
  language: Language;
  videoInstructions?: string;
  /** The partner's metadata, kept on the generation and its video as given. */
  metadata?: Metadata;
}

/**
 * A generation whose `videoInstructions` contain this marker fails (code `generation_failed`) at
 * the end of PROCESSING: the emulator's way to let partners test their FAILED handling.
 */
export const FAIL_GENERATION_MARKER = '[fail]';

/** Share of `jobMs` a generation spends PENDING. */
const GENERATION_PENDING_SHARE = 0.2;

/** Runs (or resumes) `generation`. */
export async function generate(job: JobContext, generation: Readonly<GenerationRecord>): Promise<void> {
  const started = job.now();
  const change = { kind: 'generation', record: generation } as const;
  const video = job.store.videos.get(generation.videoId);
  const kind = video?.media === 'mp4' ? 'generationReal' : 'generation';
  const progress = track(generation.progress, kind, (current) => job.store.progressed(change, { progress: current }));
  if (generation.status === 'PENDING') {
    await job.hold('queued');
    await job.waitTicking(job.jobMs * GENERATION_PENDING_SHARE, (share) => progress.within(share));
    progress.stage('writing_storyboard', false);
    job.store.advance(change, 'PROCESSING', undefined, { progress: progress.current });
  }
  progress.stage('writing_storyboard');
  await job.hold('writing_storyboard');
  await job.waitTicking(started + job.jobMs - job.now(), (share) => progress.within(share));
  // A failure forced by a test (test-controls.ts) comes where the marker's does, before the preview
  // render (none is made): `generation_failed`, `render_failed` or `storage_full`.
  const failure =
    job.forced?.failure ??
    (generation.videoInstructions?.includes(FAIL_GENERATION_MARKER)
      ? {
          code: 'generation_failed',
          message: `The generation failed because its videoInstructions contain ${FAIL_GENERATION_MARKER} (the local service's test hook).`,
        }
      : undefined);
  if (failure) {
    progress.fail();
    job.store.advance(change, 'FAILED', failure, { progress: progress.current });
    return;
  }
  // The video gets its thumbnail (and, with real media, its storyboard and preview render) before
  // the generation says COMPLETE, so a page reacting to COMPLETE finds the video ready.
  let rendered: Pick<VideoRecord, 'storyboard' | 'preview' | 'hasPreview'> | undefined;
  if (video?.media === 'mp4') {
    const topic = job.store.topics.get(generation.topicId);
    const storyboard = buildStoryboard(
      {
        sourceURL: topic?.sourceURL ?? 'http://localhost/',
        ...(topic?.title !== undefined ? { title: topic.title } : {}),
        ...(topic?.description !== undefined ? { description: topic.description } : {}),
        ...(topic?.siteName !== undefined ? { siteName: topic.siteName } : {}),
        headings: topic?.headings ?? [],
        sentences: topic?.sentences ?? [],
        ...(topic?.sections !== undefined ? { sections: topic.sections } : {}),
        images: topic?.files ?? [],
        imageURLs: imageURLsOf(topic?.files ?? [], topic?.images ?? []),
      },
      generation,
    );
    try {
      const files = await job.renderFiles(generation, storyboard, renderName(video.id, 'preview'), progress);
      await job.keepRender(files);
      const preview = describe(files);
      rendered = { storyboard, preview, hasPreview: true };
    } catch (error) {
      const failure = renderFailure(error);
      if (!failure || job.signal.aborted) throw error;
      progress.fail();
      job.store.advance(
        change,
        'FAILED',
        { code: failure.code, message: `The preview render failed: ${failure.message}` },
        { progress: progress.current },
      );
      return;
    }
  }
  progress.stage('finishing');
  await job.hold('finishing');
  if (video) job.store.update({ kind: 'video', record: video }, { ...rendered, hasThumbnail: true });
  progress.complete();
  job.store.advance(change, 'COMPLETE', undefined, { progress: progress.current });
}
