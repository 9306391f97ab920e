// `payctl serve --print-address`: the first line of stdout is the address alone, so a test
// in any language (docs/testing.md, "Any language") reads one line instead of parsing prose;
// without the flag the output is as before.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { packageRoot } from '../../src/lib/paths.js';
import { childEnv } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';

/** The first line `payctl serve` prints with `flags`, and the server's answer to GET /ready at that address. */
async function firstLine(flags: string[]): Promise<{ line: string; ready?: number }> {
  const db = tempDbPath();
  const args = ['serve', '--port', '0', '--tick', '0', '--access-log', 'off', ...flags];
  const child = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), ...args], {
    env: childEnv(args, db, { PAYCTL_ADMIN_TOKEN: 'padm_address_test' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    const [line] = (await once(lines, 'line')) as [string];
    const url = /^http:\/\/[^\s/]+$/.test(line) ? line : undefined;
    return { line, ...(url ? { ready: (await fetch(`${url}/ready`)).status } : {}) };
  } finally {
    clearTimeout(timer);
    lines.close();
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

test('--print-address: the first line is the address alone, and the server answers there', async () => {
  const { line, ready } = await firstLine(['--print-address']);
  assert.match(line, /^http:\/\/127\.0\.0\.1:\d{2,5}$/);
  assert.notEqual(line, 'http://127.0.0.1:0');
  assert.equal(ready, 200);
});

test('without it, the first line is the prose it always was', async () => {
  const { line } = await firstLine([]);
  assert.match(line, /^payctl serving http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(docs: /);
});
