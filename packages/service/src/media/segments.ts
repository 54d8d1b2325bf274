/**
 * The scene cache: what a render made for each scene, kept under a key of everything it depends
 * on, so that the next render of the same scene takes it instead of making it again.
 *
 * - A scene has two entries: its **picture** (`<key>.mp4`, the H.264 segment of its frames: still,
 *   text, layout, image bytes, frame size, palette, fades, frame count) and its **voice**
 *   (`<key>.wav`, its narration spoken in the language at the pace, padded to the scene's length).
 *   An edit of a narration re-voices the scene without encoding it again, and the reverse.
 * - Every key also holds {@link RENDERER_VERSION} and the ffmpeg's version: a new renderer or
 *   encoder never reuses an old file.
 * - Entries are written under a temporary name and renamed: a reader sees a whole file or none.
 *   A render hard-links the entries it uses into its own work folder first, so an eviction while
 *   it runs cannot take a file from under it.
 * - **Size limit** ({@link CACHE_BYTES} by default): after each put, the least recently used
 *   entries go until the cache fits. It is emptied when the service starts (`Jobs`), so a restart
 *   with `--data` never serves a file made by another version of the code.
 * - **Shared through an S3 media store** (media/store.ts) when the service has one: `take`
 *   downloads the entry `cache/scenes/<key>.<ext>`, `put` uploads it, so every service on the
 *   bucket reuses the scenes any of them encoded. Such a cache is neither emptied at start nor
 *   trimmed (its keys hold the renderer's and the encoder's versions, so an old entry is never
 *   taken; a lifecycle rule of the bucket on `cache/` bounds it). A store that cannot be reached
 *   counts as a cache without the entry, and an entry that cannot be kept is left out: the
 *   render goes on either way.
 * - **Made once**: an entry being made is claimed ({@link SceneCache.claim}); a render that wants
 *   it meanwhile waits, then takes it. Across the services of a shared database the claim is also a
 *   PostgreSQL advisory lock ({@link SCENE_LOCKS}, jobs/claims.ts `WaitedLocks`).
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { link, mkdir, rename, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaStore } from './store.js';

/**
 * The renderer's version: raise it when a change to the renderer changes its output for the same
 * storyboard (a new layout, filter or encoder setting), so that old cache entries are not reused.
 */
export const RENDERER_VERSION = 5;

/** Default size limit of the scene cache: about 40 renders of 30 s at 4:5. */
export const CACHE_BYTES = 256 * 1024 * 1024;

/** The key of what `parts` describe: a SHA-256 of their JSON. */
export function cacheKey(...parts: unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify([RENDERER_VERSION, ...parts]))
    .digest('hex');
}

/** The prefix of the scene cache's entries in an S3 media store. */
export const REMOTE_CACHE_PREFIX = 'cache/scenes/';

/** The first key of the scenes' advisory locks on a shared database ("VPC1"); the second is the entry name's hash. */
export const SCENE_LOCKS = 0x56504331;

/** Waits until the caller alone may make an entry, in every process sharing the cache; resolves with the release. */
export type EntryLock = (name: string) => Promise<() => void>;

export class SceneCache {
  readonly dir: string;
  readonly #limit: number;
  readonly #remote: MediaStore | undefined;
  /** Across processes sharing the cache (a shared database): the lock of an entry being made. */
  readonly #lock: EntryLock | undefined;
  /** In this process: the last claim of each entry being made, which the next one waits for. */
  readonly #claims = new Map<string, Promise<void>>();
  #counter = 0;

  /**
   * A cache in `dir`, emptied now, or (with `remote`) in that store. The folder is made by the
   * first entry kept, so a service that never renders leaves no media folder behind.
   */
  constructor(dir: string, limit = CACHE_BYTES, remote?: MediaStore, lock?: EntryLock) {
    this.dir = dir;
    this.#limit = limit;
    this.#remote = remote;
    this.#lock = lock;
    rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Waits until no other render (in this process, or in another that shares the cache) is making
   * the entry `name`, and resolves with the release, to call once it is kept (or given up): a scene
   * that several renders want at once is made by the first, and taken from the cache by the others.
   */
  async claim(name: string): Promise<() => void> {
    const before = this.#claims.get(name) ?? Promise.resolve();
    let done!: () => void;
    const mine = before.then(() => new Promise<void>((resolve) => (done = resolve)));
    this.#claims.set(name, mine);
    // `done` is set by then: the `then` above was registered on `before` first.
    await before;
    const remote = this.#lock ? await this.#lock(name) : undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      remote?.();
      done();
      if (this.#claims.get(name) === mine) this.#claims.delete(name);
    };
  }

  /**
   * Takes the entry `name` into `target`, or makes it with `make` (which writes `target`) and keeps
   * it, under its claim: true when it was taken.
   */
  async takeOrMake(name: string, target: string, make: () => Promise<unknown>): Promise<boolean> {
    const release = await this.claim(name);
    try {
      if (await this.take(name, target)) return true;
      await make();
      await this.put(name, target);
      return false;
    } finally {
      release();
    }
  }

  /**
   * Links the entry `name` (`<key>.<ext>`) to `target` and marks it used; false when the cache
   * does not have it.
   */
  async take(name: string, target: string): Promise<boolean> {
    if (this.#remote) {
      return this.#remote.download(`${REMOTE_CACHE_PREFIX}${name}`, target).catch((error: unknown) => {
        console.warn(
          `video-plugin-service: the scene cache could not be read, the scene is made again: ${String(error)}`,
        );
        return false;
      });
    }
    const file = join(this.dir, name);
    try {
      await link(file, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    const now = new Date();
    await utimes(file, now, now).catch(() => {});
    return true;
  }

  /** Keeps `source` (a file of the render's work folder) as the entry `name`, then trims. */
  async put(name: string, source: string): Promise<void> {
    if (this.#remote) {
      // Tried once: the render does not wait for its cache.
      await this.#remote.put(`${REMOTE_CACHE_PREFIX}${name}`, source, { retry: false }).catch((error: unknown) => {
        console.warn(`video-plugin-service: a scene could not be kept in the scene cache: ${String(error)}`);
      });
      return;
    }
    const temporary = join(this.dir, `.${name}.${process.pid}.${++this.#counter}`);
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await link(source, temporary);
      await rename(temporary, join(this.dir, name));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    this.#trim();
  }

  /** Removes the least recently used entries until the cache is within its limit. */
  #trim(): void {
    const entries = readdirSync(this.dir)
      .filter((name) => !name.startsWith('.'))
      .flatMap((name) => {
        try {
          const stat = statSync(join(this.dir, name));
          return [{ name, size: stat.size, used: stat.mtimeMs }];
        } catch {
          return [];
        }
      })
      .sort((a, b) => a.used - b.used);
    let total = entries.reduce((sum, entry) => sum + entry.size, 0);
    for (const entry of entries) {
      if (total <= this.#limit) break;
      rmSync(join(this.dir, entry.name), { force: true });
      total -= entry.size;
    }
  }
}
