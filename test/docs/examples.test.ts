// Every ```sh block of README.md and docs/*.md runs as written, against a demo database,
// the way a reader would type it: `payctl` is bin/payctl first on PATH, the working
// directory a fresh folder where `payctl init --demo` ran. The convention (which blocks
// run, `exit=N`, `server`) is written in docs/README.md, "Examples are tested".
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { commandsOutsideSh, docExamples, docFiles, payctlCommands } from './extract.js';

const BLOCK_TIMEOUT_MS = 60_000;

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

for (const file of docFiles(packageRoot)) {
  const examples = docExamples(readFileSync(path.join(packageRoot, file), 'utf8'));
  if (examples.length === 0) continue;
  test(`the examples of ${file} run as written`, async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-docs-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const init = await runBash('payctl init --demo', dir, readerEnv(dir));
    assert.equal(init.code, 0, `payctl init --demo failed:\n${init.out}`);
    for (const ex of examples) {
      await t.test(`${file}:${ex.line}`, async () => {
        let server: ServeProcess | undefined;
        const extra: Record<string, string> = {};
        if (ex.server) {
          server = await spawnServe({ db: readerEnv(dir).PAYCTL_DB!, args: [] });
          extra.PAYCTL_API_URL = server.url;
        }
        try {
          const r = await runBash(ex.script, dir, readerEnv(dir, extra));
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

test('a new page in docs/ is picked up, and the examples say how to type payctl', () => {
  const files = docFiles(packageRoot);
  assert.ok(files.includes('README.md'));
  for (const f of readdirSync(path.join(packageRoot, 'docs'))) if (f.endsWith('.md')) assert.ok(files.includes(`docs/${f}`), f);
  for (const file of files) {
    for (const ex of docExamples(readFileSync(path.join(packageRoot, file), 'utf8'))) {
      assert.doesNotMatch(ex.script, /\bnpx payctl\b|bin\/run\.js/, `${file}:${ex.line}: type plain \`payctl\``);
    }
  }
});

test('no command a reader would type hides outside a ```sh block', () => {
  const commands = payctlCommands(packageRoot);
  const hidden: string[] = [];
  for (const file of docFiles(packageRoot)) {
    const lines = readFileSync(path.join(packageRoot, file), 'utf8').split('\n');
    for (const n of commandsOutsideSh(lines.join('\n'), commands)) hidden.push(`${file}:${n}: ${lines[n - 1]!.trim()}`);
  }
  assert.deepEqual(hidden, [], 'make these ```sh blocks (```sh no-run if they cannot run here), or split the output from the command');
});

test('every link of README.md and docs/ to a file names one in the repository', () => {
  const broken: string[] = [];
  for (const file of docFiles(packageRoot)) {
    const text = readFileSync(path.join(packageRoot, file), 'utf8').replace(/^(`{3,}|~{3,})[^]*?^\1/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
      const local = path.resolve(path.dirname(path.join(packageRoot, file)), decodeURI(target!.split('#')[0]!));
      if (!local.startsWith(packageRoot + path.sep) || !existsSync(local)) broken.push(`${file}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});

test('blocks are read by their info string', () => {
  const md = [
    '```sh', 'payctl a', '```',
    '```text', 'payctl b', '```',
    '```sh exit=2', 'payctl c', '```',
    '````md', '```sh', 'payctl nested', '```', '````',
    '```sh server', 'payctl d', '```',
    '```console', '$ payctl e', '```',
    '```sh no-run', 'payctl f', '```',
  ].join('\n');
  assert.deepEqual(docExamples(md), [
    { line: 2, script: 'payctl a', exit: 0, server: false },
    { line: 8, script: 'payctl c', exit: 2, server: false },
    { line: 16, script: 'payctl d', exit: 0, server: true },
  ]);
});

test('the hidden-command lint flags typed lines of text blocks and the first line of others', () => {
  const commands = new Set(['sale', 'serve']);
  const md = [
    '```text', 'payctl serving http://127.0.0.1:4000/api/v1', ' ›   Error: …', '```', // 2-3: output
    '```text', 'payctl sale --amount 1', '```', // 6
    '```', 'x', '$ ls', '```', // 10
    '```console', 'npm test', '```', // 13
    '```json', '{ "a": "payctl sale" }', '```', // 16: not a command
    '```yaml', 'run: npm test', 'curl -s x', '```', // 19-20: only the first line counts
    '```ts', 'node x.js', '```', // 23
    '```sh', 'payctl sale', 'curl x', '```',
    '```sh no-run', 'payctl serve', '```',
    '````md', '```text', 'payctl sale', '```', '````', // 34: the outer block is md, first line a fence
  ].join('\n');
  assert.deepEqual(commandsOutsideSh(md, commands), [6, 10, 13, 23]);
});
