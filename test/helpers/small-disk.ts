// Disks of their own for the fault suite: a small tmpfs mounted on a temp folder (root
// only: mount(2) needs CAP_SYS_ADMIN), which the test fills to the last byte and frees
// again; an ext4 filesystem on a loop device that the kernel makes read-only under the
// open database, as on a disk error. When one cannot be mounted, why — for the test to
// print, never a silent skip.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
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

export interface BreakableDisk {
  dir: string;
  /**
   * The kernel makes the filesystem read-only as it does on a disk error (ext4's
   * errors=remount-ro, through its own test hook /sys/fs/ext4/<dev>/trigger_fs_error):
   * every write to a file already open fails with EROFS from then on.
   */
  breakReadOnly(): void;
  /** What an operator does (nothing may hold files there): unmount, fsck, mount again. */
  repair(): void;
  close(): void;
}

/** An ext4 filesystem of `mib` MiB on a loop device (root only), or why there cannot be one here. */
export function breakableDisk(mib: number): BreakableDisk | { unavailable: string } {
  if (process.getuid?.() !== 0) return { unavailable: `a loop device and mount need root (running as uid ${process.getuid?.()})` };
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-ro-disk-'));
  const image = `${dir}.img`;
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'pipe' }).toString();
  const mount = () => run('mount', ['-o', 'loop,errors=remount-ro', image, dir]);
  try {
    run('truncate', ['-s', `${mib}M`, image]);
    // No journal: an ext4 error aborts a journal, and then only a fresh mount would do.
    run('mkfs.ext4', ['-q', '-F', '-O', '^has_journal', image]);
    mount();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    rmSync(image, { force: true });
    return { unavailable: `an ext4 loop mount failed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}` };
  }
  const device = () => path.basename(run('findmnt', ['-no', 'SOURCE', dir]).trim());
  return {
    dir,
    breakReadOnly() {
      writeFileSync(`/sys/fs/ext4/${device()}/trigger_fs_error`, 'payctl fault suite: read-only disk');
    },
    repair() {
      run('umount', [dir]);
      try {
        run('e2fsck', ['-fy', image]);
      } catch {
        // exit code 1: errors corrected (the error the test triggered is recorded in the superblock)
      }
      mount();
    },
    close() {
      run('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
      rmSync(image, { force: true });
    },
  };
}
