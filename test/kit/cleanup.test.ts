// The `payctl serve` that startPayctl() starts ends with the process that started it,
// however that process ends (SIGKILL, SIGTERM, an exit without stop()), and its temporary
// folder goes with it; a folder whose server and test process are both gone (the server
// itself killed) is removed by the next start. Real parent processes, really killed.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/lib/paths.js';
import { FOLDER_PREFIX, sweepDeadFolders } from '../../src/testing/server-process.js';

const KIT = pathToFileURL(path.join(packageRoot, 'dist/src/testing/index.js')).href;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls `check` every 50 ms until it holds or `ms` pass (a process's exit is real time). */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The temporary folder whose owners name server `pid`. */
function folderOf(pid: number): string | undefined {
  for (const name of readdirSync(os.tmpdir()).filter((n) => n.startsWith(FOLDER_PREFIX))) {
    try {
      const owners = JSON.parse(readFileSync(path.join(os.tmpdir(), name, 'owners.json'), 'utf8')) as { server: number };
      if (owners.server === pid) return path.join(os.tmpdir(), name);
    } catch {
      // another start's folder, not yet written
    }
  }
  return undefined;
}

/** A test process that starts its server, prints the server's pid and url, and waits (for `end`: what it does then). */
function parentProcess(end: 'wait' | 'exit'): Promise<{ parent: ReturnType<typeof spawn>; pid: number; url: string }> {
  const script = `
    import { startPayctl } from ${JSON.stringify(KIT)};
    const payctl = await startPayctl();
    process.stdout.write(JSON.stringify({ pid: payctl.pid, url: payctl.url }) + '\\n');
    ${end === 'exit' ? 'process.exit(0);' : 'setInterval(() => {}, 1000);'}
  `;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    parent.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ parent, ...(JSON.parse(line!) as { pid: number; url: string }) });
    });
    parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before its server started: ${out}`)));
  });
}

for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
  test(`${signal} to the test process: its server stops and its folder is removed`, async () => {
    const { parent, pid, url } = await parentProcess('wait');
    assert.equal((await fetch(`${url}/ready`)).status, 200);
    const dir = folderOf(pid);
    assert.ok(dir && existsSync(path.join(dir, 'payctl.db')), 'the server has its folder and database');
    parent.kill(signal);
    await until(() => !alive(pid), 15_000, `server ${pid} still runs`);
    await until(() => !existsSync(dir), 5_000, `${dir} is still there`);
    await assert.rejects(fetch(`${url}/ready`));
  });
}

test('a test process that exits without stop(): its server stops and its folder is removed', async () => {
  const { pid } = await parentProcess('exit');
  const dir = folderOf(pid);
  await until(() => !alive(pid), 15_000, `server ${pid} still runs`);
  await until(() => dir === undefined || !existsSync(dir), 5_000, `${dir} is still there`);
});

test('the next start sweeps folders whose server and test process are both gone, and only those', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'payctl-sweep-'));
  // A pid that is surely gone: a process that ran and exited.
  const dead = await new Promise<number>((resolve) => {
    const c = spawn(process.execPath, ['-e', '']);
    c.once('exit', () => resolve(c.pid!));
  });
  const folder = (name: string, owners: unknown) => {
    const dir = path.join(tmp, `${FOLDER_PREFIX}${name}`);
    mkdirSync(dir);
    if (owners !== undefined) writeFileSync(path.join(dir, 'owners.json'), JSON.stringify(owners));
    writeFileSync(path.join(dir, 'payctl.db'), 'x');
    return dir;
  };
  const gone = folder('gone', { server: dead, parent: dead });
  const serverAlive = folder('server-alive', { server: process.pid, parent: dead });
  const parentAlive = folder('parent-alive', { server: dead, parent: process.pid });
  const starting = folder('starting', undefined);
  assert.equal(sweepDeadFolders(tmp), 1);
  assert.equal(existsSync(gone), false);
  for (const dir of [serverAlive, parentAlive, starting]) assert.ok(existsSync(dir), dir);
  rmSync(tmp, { recursive: true, force: true });
});
