/**
 * The render job: a completed video's final render, PROCESSING → COMPLETE (or FAILED) with its
 * files' hashes and quality report (real media), or over `jobMs` (stand-ins). Every step is saved
 * and published through the store; the `video.rendered` webhook follows a COMPLETE render.
 */
import type { RenderQuality } from 'video-plugin/internal';
import { renderName } from '../media/files.js';
import { measureQuality } from '../media/quality.js';
import { nowISO, type VideoRecord } from '../store/store.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import { describe, renderFailure, renderKind, track, type JobContext, type RenderDescription } from './job.js';

/** Runs (or resumes) the final render of `video`, which is completed. */
export async function renderFinal(
  job: JobContext,
  video: Readonly<VideoRecord>,
  webhooks: Pick<Webhooks, 'videoRendered'> | undefined,
): Promise<void> {
  // The progress is the first render's (a video has one), given to every render at the end.
  const change = { kind: 'video', record: video } as const;
  const progress = track(video.renders[0]?.progress, renderKind(video), (current) =>
    job.store.progressed(change, {
      renders: video.renders.map((render, index) => (index === 0 ? { ...render, progress: current } : render)),
    }),
  );
  await job.hold('queued');
  const forced = job.forced?.failure;
  if (forced) {
    // A failure forced by a test (test-controls.ts): the render's time, then FAILED with its
    // code, as a render that failed at the encode; nothing is rendered.
    progress.stage('rendering');
    await job.waitTicking(job.jobMs, (share) => progress.within(share));
    progress.fail();
    job.store.advanceRenders(video, 'FAILED', progress.current, { error: forced });
    return;
  }
  let quality: RenderQuality | undefined;
  let made: RenderDescription | undefined;
  if (video.media === 'mp4' && video.storyboard) {
    const board = video.storyboard;
    try {
      const files = await job.renderFiles(video, board, renderName(video.id, 'final'), progress);
      made = describe(files);
      // The quality report: measured on the finished file (quality.ts).
      quality = await measureQuality(files, board, job.signal).catch((error: unknown) => {
        if (job.signal.aborted) throw error;
        console.error(`video-plugin-service: the quality of ${video.id} could not be measured:`, error);
        return undefined;
      });
      await job.keepRender(files);
    } catch (error) {
      const failure = renderFailure(error);
      if (!failure || job.signal.aborted) throw error;
      progress.fail();
      job.store.advanceRenders(video, 'FAILED', progress.current, { error: failure });
      return;
    }
  } else {
    progress.stage('rendering');
    await job.hold('rendering');
    await job.waitTicking(job.jobMs, (share) => progress.within(share));
    progress.stage('finishing');
  }
  await job.hold('finishing');
  progress.complete();
  job.store.advanceRenders(video, 'COMPLETE', progress.current, {
    renderedAt: nowISO(),
    ...(quality ? { quality } : {}),
    ...made,
  });
  webhooks?.videoRendered(video);
}
