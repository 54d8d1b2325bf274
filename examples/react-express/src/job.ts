// A job that outlives its component: "make a video from this website" is a topic search, then a
// generation from its topic. The studio that started it can go away mid-job (a route change
// unmounts <video-plugin>, which ends its session and its status iterators); the service goes on.
// So the job lives above the routes (App's state, and sessionStorage for a reload): its IDs once
// known, and an idempotency key per step, made once when the user asks. A new studio picks the
// job up where it is: it follows each step's status by its ID, and starts a step not yet known
// with that step's key, so that a start repeated (a remount while its answer was on the way,
// StrictMode's second effect run) resolves to the request already made instead of a second one.
import type { VideoPluginElement } from 'video-plugin/element';
import type { Progress } from 'video-plugin';

export interface Job {
  /** One per click on "Make a video". */
  id: string;
  sourceURL: string;
  /** The idempotency key of the topic search, and of the generation. */
  searchKey: string;
  generateKey: string;
  topicId?: string;
  requestId?: string;
  videoId?: string;
  phase: 'searching' | 'generating' | 'ready' | 'failed';
  error?: string;
}

const STORAGE_KEY = 'video-plugin-starter:job';

export function newJob(sourceURL: string): Job {
  const id = crypto.randomUUID();
  return { id, sourceURL, searchKey: `search-${id}`, generateKey: `generate-${id}`, phase: 'searching' };
}

/** The job the last page left, if any (a reload starts from it too). */
export function storedJob(): Job | undefined {
  const text = sessionStorage.getItem(STORAGE_KEY);
  return text ? (JSON.parse(text) as Job) : undefined;
}

export function storeJob(job: Job | undefined): void {
  if (job) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(job));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/**
 * Takes `job` from where it is to a generated video, on this studio (signed in). `save` records
 * each ID as soon as it is known; `show` gets each progress update. `signal` ends the wait when
 * the component unmounts (the job itself goes on at the service).
 */
export async function advance(
  studio: VideoPluginElement,
  job: Job,
  save: (changes: Partial<Job>) => void,
  show: (what: string, progress: Progress | undefined) => void,
  signal: AbortSignal,
): Promise<void> {
  let { topicId, requestId } = job;
  if (!topicId) {
    ({ topicId } = await studio.startTopicSearch(job.sourceURL, { idempotencyKey: job.searchKey, signal }));
    save({ topicId });
  }
  // By ID: the current status at once (COMPLETE, if it finished while nobody watched), then each change.
  for await (const update of studio.topicSearchStatus(topicId, { signal })) {
    show('Reading your website', update.progress);
    if (update.status === 'FAILED') throw new Error(update.error?.message ?? 'the search failed');
  }
  if (!requestId) {
    save({ phase: 'generating' });
    const started = await studio.startVideoGeneration(
      { topicId, aspectRatio: '16:9', duration: 5 },
      { idempotencyKey: job.generateKey, signal },
    );
    ({ requestId } = started);
    save({ requestId, videoId: started.videoId });
  }
  for await (const update of studio.videoGenerationStatus(requestId, { signal })) {
    show('Making your video', update.progress);
    if (update.status === 'FAILED') throw new Error(update.error?.message ?? 'the generation failed');
  }
  save({ phase: 'ready' });
}
