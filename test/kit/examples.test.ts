// The runner examples of docs/testing.md run as written: the node:test and vitest files
// under examples/testing/ import `payctl/testing` by its package name (the repository's
// own exports) and start their own server; the page shows every example file unchanged.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

const EXAMPLES = path.join(packageRoot, 'examples/testing');

/** A reader's environment: none of the test run's PAYCTL_* settings. */
const readerEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYCTL_') && k !== 'NODE_TEST_CONTEXT'));

function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: packageRoot, env: readerEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

test('docs/testing.md shows every example file unchanged, in a js block', () => {
  const doc = readFileSync(path.join(packageRoot, 'docs/testing.md'), 'utf8');
  const files = readdirSync(EXAMPLES, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'));
  assert.deepEqual(files.sort(), ['jest/payments.test.mjs', 'node-test/payments.test.mjs', 'vitest/payments.test.mjs']);
  for (const file of files) {
    assert.ok(doc.includes(`\`\`\`js\n${readFileSync(path.join(EXAMPLES, file), 'utf8')}\`\`\`\n`), `docs/testing.md does not show examples/testing/${file} as it is`);
  }
});

test('the node:test example passes with node --test', async () => {
  const r = await run(['--test', 'examples/testing/node-test/payments.test.mjs']);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /^# pass 3$/m);
  assert.match(r.out, /^# fail 0$/m);
});

test('the vitest example passes with vitest run', async () => {
  const r = await run([path.join(packageRoot, 'node_modules/vitest/vitest.mjs'), 'run', 'examples/testing/vitest/payments.test.mjs']);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /Tests\s+3 passed \(3\)/);
});
