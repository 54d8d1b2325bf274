/**
 * The render queue of the jobs (jobs.ts): renders at once (`renderConcurrency`), taken fairly
 * across partners and accounts (slots.ts), their scenes' encodes and the scene cache; and where a
 * render's files and a topic's pictures are kept when a media store holds them (media/store.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import { isFile, keptPictureHash, keptPicturePath, RENDER_FILE_KINDS, videosDir } from '../media/files.js';
import { renderVideo, type RenderedFiles } from '../media/render.js';
import { CACHE_BYTES, SceneCache, type EntryLock } from '../media/segments.js';
import { contentKey, MediaStoreUnavailable, type MediaStore } from '../media/store.js';
import type { Storyboard } from '../media/storyboard.js';
import type { Owner } from '../store/store.js';
import type { ProgressTracker } from './progress.js';
import { Slots } from './slots.js';
import type { WaitingJobs } from './waiting.js';

/** See the top of this file. */
export class Renders {
  readonly #mediaDir: string;
  /** Where finished renders are kept instead of the media folder (media/store.ts), if anywhere. */
  readonly #mediaStore: MediaStore | undefined;
  /**
   * Renders at once (`renderConcurrency`), taken fairly across partners and accounts (slots.ts); no
   * cap per account beyond the total.
   */
  readonly #slots: Slots;
  /** The scenes' encodes of every render, at most the cores at once (render.ts). */
  readonly #encodes: LimitFunction;
  /** The scene cache (segments.ts), in `<media>/cache/scenes`; real media only. */
  readonly #cache: SceneCache | undefined;
  readonly #stallMs: number | undefined;
  /** Each account's searches and renders waiting for their slot (waiting.ts), shared with the searches. */
  readonly #waiting: WaitingJobs;

  constructor(options: {
    media: 'real' | 'placeholder';
    mediaDir: string;
    mediaStore: MediaStore | undefined;
    renderConcurrency: number | undefined;
    sceneCacheBytes: number | undefined;
    sceneLock: EntryLock | undefined;
    renderStallMs: number | undefined;
    waiting: WaitingJobs;
  }) {
    this.#mediaDir = options.mediaDir;
    this.#mediaStore = options.mediaStore;
    const renders = Math.max(1, options.renderConcurrency ?? availableParallelism());
    this.#slots = new Slots({ perAccount: renders, total: renders });
    this.#encodes = pLimit(renders);
    // Emptied at every start: a restart never reuses what another version of the code made.
    this.#cache =
      options.media === 'real' && this.#mediaDir
        ? new SceneCache(
            join(this.#mediaDir, 'cache', 'scenes'),
            options.sceneCacheBytes ?? CACHE_BYTES,
            this.#mediaStore,
            options.sceneLock,
          )
        : undefined;
    this.#stallMs = options.renderStallMs;
    this.#waiting = options.waiting;
  }

  /** Renders running and waiting for their slot. */
  get counts(): { running: number; waiting: number } {
    return this.#slots.counts;
  }

  /**
   * Renders `board` (a video of `owner`) as `<name>.mp4/.jpg/.vtt` in the videos folder, in its
   * turn in the queue. The one place that takes a render slot: callers never wrap it in the queue
   * again. Until its slot, the render is one of the owner's waiting jobs.
   */
  async render(
    owner: Owner,
    board: Storyboard,
    name: string,
    signal: AbortSignal,
    progress?: ProgressTracker,
  ): Promise<RenderedFiles> {
    if (this.#slots.wouldWait(owner)) progress?.stage('waiting_to_render');
    const started = this.#waiting.enter(owner);
    try {
      return await this.#slots.run(
        owner,
        async () => {
          started();
          return renderVideo(await this.#localImages(board), videosDir(this.#mediaDir), name, {
            signal,
            progress,
            cache: this.#cache,
            encodes: this.#encodes,
            stallMs: this.#stallMs,
          });
        },
        signal,
      );
    } finally {
      started();
    }
  }

  /**
   * With a media store: stores a finished render's files there under their content's key
   * (waiting while the store cannot be reached, then throwing `MediaStoreUnavailable`), and
   * removes the local copies either way, since files are then served from the store only. Without
   * one, the files stay where the render put them.
   */
  async keep(files: RenderedFiles, signal: AbortSignal): Promise<void> {
    const store = this.#mediaStore;
    if (!store) return;
    const kept = RENDER_FILE_KINDS.map((file) => ({
      path: files[file],
      key: contentKey(files.sha256[file]),
    }));
    try {
      for (const { path, key } of kept) await store.put(key, path, { signal });
    } finally {
      await Promise.all(kept.map(({ path }) => rm(path, { force: true })));
    }
  }

  /**
   * With a media store: a topic's kept picture moved into the folder of its content's hash (its
   * path in the record then names its object: files.ts `keptPicturePath`) and stored there.
   * Undefined when the store could not take it: the picture is then left out, like one that could
   * not be downloaded. Without a store, the file as it is.
   */
  async keepPicture(file: string, signal: AbortSignal): Promise<string | undefined> {
    const store = this.#mediaStore;
    if (!store) return file;
    const hash = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
    const kept = keptPicturePath(file, hash);
    await mkdir(dirname(kept), { recursive: true, mode: 0o700 });
    await rename(file, kept);
    try {
      await store.put(contentKey(hash), kept, { signal });
      return kept;
    } catch (error) {
      if (signal.aborted || !(error instanceof MediaStoreUnavailable)) throw error;
      console.warn(`video-plugin-service: image skipped, the media store could not keep it: ${error.message}`);
      await rm(dirname(kept), { recursive: true, force: true });
      return undefined;
    }
  }

  /**
   * `board` with every scene's picture on this machine: with a media store, a kept picture that
   * another service downloaded (its path is in that service's media folder) is fetched from the
   * store into this one's, under the same topic and hash. The picture's bytes, not its path, are
   * part of the scene cache's key, so the scenes stay the same.
   */
  async #localImages(board: Storyboard): Promise<Storyboard> {
    const store = this.#mediaStore;
    if (!store || board.scenes.every((scene) => !scene.image)) return board;
    const local = new Map<string, string>();
    for (const image of new Set(board.scenes.flatMap((scene) => (scene.image ? [scene.image] : [])))) {
      const hash = keptPictureHash(image);
      if (!hash || (await isFile(image))) continue;
      // `<media>/topics/<topicId>/<hash>/<n>.<ext>`: the last three parts, in this media folder.
      const copy = join(this.#mediaDir, 'topics', ...image.split(/[\\/]/).slice(-3));
      if (!(await isFile(copy))) {
        await mkdir(dirname(copy), { recursive: true, mode: 0o700 });
        await store.download(contentKey(hash), copy);
      }
      local.set(image, copy);
    }
    if (local.size === 0) return board;
    return {
      ...board,
      scenes: board.scenes.map((scene) =>
        scene.image && local.has(scene.image) ? { ...scene, image: local.get(scene.image)! } : scene,
      ),
    };
  }
}
