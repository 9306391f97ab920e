// A small disk of its own for the fault suite: a tmpfs mounted on a temp folder (root
// only: mount(2) needs CAP_SYS_ADMIN), which the test fills to the last byte and frees
// again. When it cannot be mounted, why — for the test to print, never a silent skip.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Fill every free byte (a file of its own); returns the bytes written. */
  fill(): number;
  /** Delete what `fill` wrote. */
  free(): void;
  /** Unmount and remove (nothing may hold files there any more). */
  close(): void;
}

/** A tmpfs of `mib` MiB, or why there cannot be one here. */
export function smallDisk(mib: number): SmallDisk | { unavailable: string } {
  if (process.getuid?.() !== 0) return { unavailable: `mounting a tmpfs needs root (running as uid ${process.getuid?.()})` };
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mib}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `mount -t tmpfs failed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}` };
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      let written = 0;
      try {
        // Big blocks first, then small ones for the last pages.
        for (const size of [1 << 20, 1 << 12]) {
          const block = Buffer.alloc(size, 0x5a);
          for (;;) {
            try {
              written += writeSync(fd, block);
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw err;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return written;
    },
    free() {
      unlinkSync(filler);
    },
    close() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
