// A real small filesystem for the fault tests: a tmpfs mounted on a temporary folder (as root, with
// `mount`; CI runs as root). Filling it makes every later write fail with ENOSPC, as a full disk
// does; removing the filler gives the space back.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why a tmpfs cannot be mounted here (the tests then skip, saying so), or undefined when it can. */
export const cannotMount: string | undefined = (() => {
  if (process.platform !== 'linux') return `mounting a small filesystem needs Linux (this is ${process.platform})`;
  const probe = mkdtempSync(join(tmpdir(), 'video-plugin-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const reason = ((error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message).trim();
    return `cannot mount a tmpfs to fill (needs root and the mount command; CI runs as root): ${reason}`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

export interface SmallDisk {
  /** The mounted folder. */
  readonly dir: string;
  /** Fills the disk to the last byte: every write that needs space fails with ENOSPC from now on. */
  fill(): void;
  /** Gives the space back (removes the filler). */
  free(): void;
  /** Unmounts it (lazily, should a process still hold a file there) and removes the folder. */
  remove(): void;
}

/** Mounts a tmpfs of `megabytes` on a new temporary folder. */
export function smallDisk(megabytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'video-plugin-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Large writes first, then smaller ones, to the last byte.
        for (const size of [1 << 20, 1 << 12, 1]) {
          const block = Buffer.alloc(size);
          try {
            for (;;) writeSync(fd, block);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      unlinkSync(filler);
    },
    remove() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
