// The `payctl serve` a test process starts for itself (`startPayctl()` without a url): a
// free port, a temporary SQLite database in a folder of its own. It ends with the test
// process however that ends: its stdin is a pipe from the test process
// (`--stop-with-stdin`), which the operating system closes when that process dies (a
// SIGKILL or a CI cancel included), and the server then stops and removes its folder
// (`--remove-on-stop`). A server killed itself cannot remove anything: each folder names
// its server and the test process, and the next start removes folders whose both are gone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../lib/paths.js';
import { ENV } from '../config/env.js';

/** The temporary folders' prefix, in os.tmpdir(). */
export const FOLDER_PREFIX = 'payctl-testing-';
/** The file in each folder naming who uses it. */
const OWNERS_FILE = 'owners.json';

export interface ServerProcess {
  url: string;
  pid: number;
  /** The server's temporary folder (its database). */
  dir: string;
  stop(): Promise<void>;
}

const alive = (pid: unknown): boolean => {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists (another user's).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Remove the folders of servers whose server and test process are both gone (a server killed with SIGKILL). Returns how many. */
export function sweepDeadFolders(tmp = os.tmpdir()): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(tmp).filter((n) => n.startsWith(FOLDER_PREFIX));
  } catch {
    return 0;
  }
  for (const name of names) {
    const dir = path.join(tmp, name);
    let owners: { server?: unknown; parent?: unknown };
    try {
      owners = JSON.parse(readFileSync(path.join(dir, OWNERS_FILE), 'utf8')) as typeof owners;
    } catch {
      // Not ours, or its owners file half-written: left alone.
      continue;
    }
    if (alive(owners.server) || alive(owners.parent)) continue;
    try {
      if (statSync(dir).isDirectory()) rmSync(dir, { recursive: true, force: true });
      removed++;
    } catch {
      // Removed meanwhile by another sweep.
    }
  }
  return removed;
}

/** Start `payctl serve` on a free port over a temporary SQLite database; resolves with its address. */
export async function spawnServer(opts: { args?: string[]; env?: Record<string, string> }, adminToken: string): Promise<ServerProcess> {
  sweepDeadFolders();
  const dir = mkdtempSync(path.join(os.tmpdir(), FOLDER_PREFIX));
  // Named at once: a test process killed before the server starts leaves a folder the next start removes.
  writeFileSync(path.join(dir, OWNERS_FILE), JSON.stringify({ parent: process.pid }));
  const args = [
    path.join(packageRoot, 'bin/run.js'), 'serve', '--port', '0', '--db', path.join(dir, 'payctl.db'), '--access-log', 'off',
    '--stop-with-stdin', '--remove-on-stop', dir, ...(opts.args ?? []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, NO_COLOR: '1', ...(opts.env ?? {}), [ENV.adminToken]: adminToken },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  writeFileSync(path.join(dir, OWNERS_FILE), JSON.stringify({ server: child.pid, parent: process.pid }));
  // The pipe is the server's lifeline, not a reason for this process to stay alive.
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child.stdin?.on('error', () => undefined);
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /payctl serving (http:\/\/[^\s/]+)\/api\/v1/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('error', reject);
    void exited.then(() => reject(new Error(`payctl serve exited before listening:\n${out}`)));
  }).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    dir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      // The server removed it (--remove-on-stop) unless it was killed.
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
