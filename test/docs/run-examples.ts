// Every ```sh block of README.md and docs/*.md runs as written, against a demo database,
// the way a reader would type it: `payctl` is bin/payctl first on PATH, the working
// directory a fresh folder where `payctl init --demo` ran. The convention (which blocks
// run, `exit=N`, `server`) is written in docs/README.md, "Examples are tested".
// The pages are shared out among a few test files (examples-N.test.ts) so that no one
// file runs all of them: each file is held to the runner's per-file timeout, and two run at once.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { docExamples, docFiles } from './extract.js';
import { curlPrelude, fillPlaceholders, type DemoIds } from './server-blocks.js';

/** How many examples-N.test.ts files share the pages. */
export const SHARDS = 3;

// A block of many commands (docs/cli.md, invoices) takes 30–45 s on a loaded 2-core machine.
const BLOCK_TIMEOUT_MS = 120_000;

/** The environment of a reader's shell: no payctl settings of the test run leak in. */
function readerEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PAYCTL_') && !k.startsWith('BENCH_')) env[k] = v;
  return {
    ...env,
    PATH: `${path.join(packageRoot, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    PAYCTL_DB: path.join(dir, '.payctl', 'payctl.db'),
    HOME: dir,
    ...extra,
  };
}

function runBash(script: string, dir: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      out += `\n[killed after ${BLOCK_TIMEOUT_MS} ms]`;
      child.kill('SIGKILL');
    }, BLOCK_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const tail = (text: string): string => text.split('\n').slice(-25).join('\n');

/** Runs the examples of every page whose place in docFiles() is `shard` modulo SHARDS. */
export function testDocExamples(shard: number): void {
  const files = docFiles(packageRoot).filter((_, i) => i % SHARDS === shard);
  for (const file of files) {
  const examples = docExamples(readFileSync(path.join(packageRoot, file), 'utf8'));
  if (examples.length === 0) continue;
  test(`the examples of ${file} run as written`, async (t) => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'payctl-docs-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    // The reader's folder, and beside it (out of the examples' sight) the ids the demo printed.
    const dir = path.join(work, 'reader');
    mkdirSync(dir);
    const idsFile = path.join(work, 'demo.json');
    const init = await runBash(`payctl init --demo --json > ${JSON.stringify(idsFile)}`, dir, readerEnv(dir));
    assert.equal(init.code, 0, `payctl init --demo failed:\n${init.out}`);
    const demo = JSON.parse(readFileSync(idsFile, 'utf8')) as DemoIds;
    for (const ex of examples) {
      await t.test(`${file}:${ex.line}`, async () => {
        let server: ServeProcess | undefined;
        const extra: Record<string, string> = {};
        let script = ex.script;
        if (ex.server) {
          const adminToken = `padm_${randomBytes(20).toString('hex')}`;
          server = await spawnServe({ db: readerEnv(dir).PAYCTL_DB!, args: [], env: { PAYCTL_ADMIN_TOKEN: adminToken } });
          extra.PAYCTL_API_URL = server.url;
          extra.PAYCTL_ADMIN_TOKEN = adminToken;
          script = curlPrelude() + fillPlaceholders(ex.script, { url: server.url, adminToken, demo });
        }
        try {
          const r = await runBash(script, dir, readerEnv(dir, extra));
          assert.equal(r.code, ex.exit, `${file}:${ex.line} exited ${r.code}, documented ${ex.exit}:\n${ex.script}\n--- output ---\n${tail(r.out)}`);
        } finally {
          if (server) {
            server.child.kill('SIGTERM');
            await server.exited;
          }
        }
      });
    }
  });
}
}
