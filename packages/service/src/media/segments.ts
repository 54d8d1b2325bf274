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
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { link, mkdir, rename, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';

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

export class SceneCache {
  readonly dir: string;
  readonly #limit: number;
  #counter = 0;

  /**
   * A cache in `dir`, emptied now. The folder is made by the first entry kept, so a service that
   * never renders leaves no media folder behind.
   */
  constructor(dir: string, limit = CACHE_BYTES) {
    this.dir = dir;
    this.#limit = limit;
    rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Links the entry `name` (`<key>.<ext>`) to `target` and marks it used; false when the cache
   * does not have it.
   */
  async take(name: string, target: string): Promise<boolean> {
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
