// The docs test's ```sh server blocks: the placeholders a page shows become this run's
// values, and `curl` (the real one, or the Node stand-in on a machine without it) fails
// the block on an error status and answers the same as the real one.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { spawnServe } from '../helpers/serve-process.js';
import { curlPrelude, fillPlaceholders, hasCurl, type DemoIds } from './server-blocks.js';

const demo: DemoIds = { group_id: 'g-1', processor_id: 'p-1', linked_account_id: 'la-1', customer_id: 'c-1', keys: { manage_transactions: 'sk_test_real' } };

test('placeholders become the values of the run; an unknown key scope is an error', () => {
  const filled = fillPlaceholders(
    'curl -H "Authorization: sk_test_MANAGE_TRANSACTIONS_KEY" http://127.0.0.1:4000/api/v1/groups/GROUP_ID/processing/LINKED_ACCOUNT_ID -d \'{"processor_id": "PROCESSOR_ID"}\' -H "Authorization: padm_ADMIN_TOKEN"',
    { url: 'http://127.0.0.1:5555', adminToken: 'padm_x', demo },
  );
  assert.equal(filled, 'curl -H "Authorization: sk_test_real" http://127.0.0.1:5555/api/v1/groups/g-1/processing/la-1 -d \'{"processor_id": "p-1"}\' -H "Authorization: padm_x"');
  assert.throws(() => fillPlaceholders('sk_test_MANAGE_PLANETS_KEY', { url: '', adminToken: '', demo }), /no manage_planets key/);
});

test('curl in a server block fails it on an error status, with the real curl and the stand-in alike', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-docs-curl-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = path.join(dir, 'payctl.db');
  assert.equal((await runCli(['init', '--demo', '--json'], { db })).code, 0);
  const server = await spawnServe({ db });
  t.after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  const run = (shim: boolean, cmd: string) => spawnSync('bash', ['-eo', 'pipefail', '-c', curlPrelude(shim) + cmd], { cwd: dir, encoding: 'utf8' });
  const sides = hasCurl() ? [true, false] : [true];
  const bodies: string[] = [];
  for (const shim of sides) {
    const ok = run(shim, `curl -s ${server.url}/health`);
    assert.equal(ok.status, 0, ok.stderr);
    bodies.push(ok.stdout);
    const missing = run(shim, `curl -s -X POST ${server.url}/api/v1/groups/nope/transaction -H 'Content-Type: application/json' -d '{}'`);
    assert.equal(missing.status, 22, `shim=${shim}: ${missing.stdout}${missing.stderr}`);
    assert.match(missing.stdout, /"error"/, 'the error body is still shown');
    // A command that says -f itself keeps it, and fails the same way.
    assert.equal(run(shim, `curl -sf ${server.url}/api/v1/groups/nope/events`).status, 22);
  }
  if (bodies.length === 2) assert.equal(bodies[0], bodies[1]);
});
