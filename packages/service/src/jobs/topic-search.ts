/**
 * The topic search job: PENDING until it has a fetch slot, then PROCESSING while it reads the
 * source page and keeps its images one by one, then COMPLETE (or FAILED when the page cannot be
 * read). Every step is saved and published through the store.
 */
import { downloadImage } from '../media/images.js';
import { topicDir } from '../media/files.js';
import { fetchSourcePage, SourceError, type SourceErrorCode } from '../media/source.js';
import { videoLanguageOf } from '../media/source/language.js';
import type { TopicRecord } from '../store/store.js';
import { track, type JobContext } from './job.js';

/** Share of `jobMs` a topic search spends PENDING before its fetch starts. */
const TOPIC_PENDING_SHARE = 0.1;

/**
 * Runs (or resumes) the search of `topic`. `onSlot` is told when it starts reading (its first
 * fetch has its slot, or a test forced its outcome): until then the search is one of its account's
 * waiting jobs (jobs/waiting.ts).
 */
export async function searchTopic(
  job: JobContext,
  topic: Readonly<TopicRecord>,
  onSlot: () => void = () => {},
): Promise<void> {
  const started = job.now();
  const change = { kind: 'topic', record: topic } as const;
  const progress = track(topic.progress, 'topic', (current) => job.store.progressed(change, { progress: current }));
  if (topic.status === 'PENDING') {
    await job.hold('queued');
    await job.waitTicking(job.jobMs * TOPIC_PENDING_SHARE, (share) => progress.within(share));
  }
  const reading = () => {
    onSlot();
    job.signal.throwIfAborted();
    if (topic.status === 'PENDING') {
      progress.stage('reading_page', false);
      job.store.advance(change, 'PROCESSING', undefined, { progress: progress.current });
    }
    progress.stage('reading_page');
  };
  // A search stays PENDING until it has a fetch slot (jobs/slots.ts): however many are
  // started, only so many read pages and decode images at once.
  let page;
  try {
    // A failure or a stall forced by a test (test-controls.ts) at reading_page takes no fetch
    // slot: it never holds up the account's other searches. A forced failure fetches nothing.
    const forced = job.forced;
    if (
      forced &&
      ('fail' in forced.outcome || ('stall' in forced.outcome && forced.outcome.stall === 'reading_page'))
    ) {
      reading();
      await job.hold('reading_page');
      if (forced.failure) throw new SourceError(forced.failure.code as SourceErrorCode, forced.failure.message);
    }
    page = await job.searches.run(
      topic,
      () => {
        reading();
        return fetchSourcePage(topic.sourceURL, {
          timeoutMs: job.fetchTimeoutMs,
          signal: job.signal,
          egress: job.egress,
        });
      },
      job.signal,
    );
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    progress.fail();
    job.store.advance(change, 'FAILED', { code: error.code, message: error.message }, { progress: progress.current });
    return;
  }
  // The topic fills in while PROCESSING, as the real service streams it: text first, then the
  // images one by one over the rest of the job's time.
  progress.stage('collecting_images', false);
  const language = videoLanguageOf(page.language);
  job.store.update(change, {
    title: page.title ?? new URL(topic.sourceURL).hostname,
    ...(page.description !== undefined ? { description: page.description } : {}),
    ...(page.siteName !== undefined ? { siteName: page.siteName } : {}),
    headings: page.headings,
    sentences: page.sentences,
    sections: page.sections,
    ...(language !== undefined ? { language } : {}),
    images: [],
    files: [],
    progress: progress.current,
  });
  await job.hold('collecting_images');
  const images: string[] = [];
  const files: string[] = [];
  const steps = page.images.length + 1;
  const stepMs = Math.max(0, started + job.jobMs - job.now()) / steps;
  for (const [index, image] of page.images.entries()) {
    await job.waitTicking(stepMs, (share) => progress.within((index + share) / steps));
    // The service keeps its own copy (videos and the studio never hot-link the source site), in
    // both media modes when it has a media folder; an image that cannot be used is left out of
    // the video and the studio's pictures, not of the topic's `images`.
    if (job.mediaDir !== '') {
      const kept = await job.searches.run(
        topic,
        () =>
          downloadImage(image, topicDir(job.mediaDir, topic.id), index, {
            timeoutMs: job.fetchTimeoutMs,
            signal: job.signal,
            egress: job.egress,
          }),
        job.signal,
      );
      const file = 'file' in kept ? await job.keepPicture(kept.file) : undefined;
      if (file !== undefined) files.push(file);
    }
    images.push(image);
    progress.note((index + 1) / steps);
    job.store.update(change, { images: [...images], files: [...files], progress: progress.current });
  }
  await job.waitTicking(stepMs, (share) => progress.within((steps - 1 + share) / steps));
  progress.stage('finishing');
  await job.hold('finishing');
  progress.complete();
  job.store.advance(change, 'COMPLETE', undefined, { progress: progress.current });
}
