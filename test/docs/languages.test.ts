// The Python and Java examples of docs/testing.md ("Any language") run as written: each
// code block is written to a file of a temporary folder and run with the language's own
// tool against this repository's payctl (PAYCTL_CMD: bin/run.js), which the example starts
// itself (`payctl serve --port 0 --print-address`). Where python3 or java is not installed
// the test says so and is skipped; everywhere else a failure of the example fails here.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

const page = readFileSync(path.join(packageRoot, 'docs', 'testing.md'), 'utf8');

/** The one ```lang block of the page's "Any language" section, as written. */
function block(lang: string): string {
  const section = page.slice(page.indexOf('\n## Any language\n'));
  const blocks = [...section.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);
  assert.equal(blocks.length, 1, `docs/testing.md has one \`\`\`${lang} block under "Any language"`);
  return blocks[0]!;
}

function installed(tool: string): boolean {
  return !spawnSync(tool, ['--version'], { stdio: 'ignore' }).error;
}

/** Run `args` in `cwd` with payctl as this repository's bin; resolves with the exit code and output (bounded: 4 minutes). */
function run(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PAYCTL_CMD: `${process.execPath} ${path.join(packageRoot, 'bin', 'run.js')}` };
  for (const k of ['PAYCTL_URL', 'PAYCTL_ADMIN_TOKEN', 'PAYCTL_DB']) delete env[k];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

test('the Python example (unittest, standard library) passes as written', async (t) => {
  if (!installed('python3')) return t.skip('python3 is not installed on this machine');
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-python-'));
  try {
    const code = block('python');
    writeFileSync(path.join(dir, 'test_payments.py'), code);
    const r = await run('python3', ['-m', 'unittest', '-v', 'test_payments.py'], dir);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /Ran 2 tests/);
    assert.match(r.out, /\nOK\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the Java example (java.net.http, a plain main) passes as written', async (t) => {
  if (!installed('java')) return t.skip('java is not installed on this machine');
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-java-'));
  try {
    const code = block('java');
    writeFileSync(path.join(dir, 'PaymentsTest.java'), code);
    const r = await run('java', ['PaymentsTest.java'], dir);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /ok - saleSettlesAndTheSignedWebhookSaysSo/);
    assert.match(r.out, /ok - declinedCardIsAnAnswer/);
    assert.doesNotMatch(r.out, /not ok/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
