// A call with a key of a dropped sandbox (docs/sandboxes.md "After a drop"): 401 as for
// any key that no longer works, but saying the sandbox was dropped and why — its ttl ran
// out, or a DELETE dropped it — not "unknown API key". The server keeps only the keys'
// fingerprints (SHA-256), a week and at most a bounded number, the oldest forgotten
// first. On both stores.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox } from '../helpers/sandboxes.js';
import { expireSandboxes } from '../../src/services/sandboxes/leases.js';
import { FORGET_AFTER_MS, noteDroppedKeys } from '../../src/services/sandboxes/dropped-keys.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const events = (groupId: string, key: string) => s.call('GET', `/api/v1/groups/${groupId}/events`, { key });

test('a sandbox dropped for its ttl: a call with its key is a 401 saying so, with the sandbox, its name and the ttl', async () => {
  const t0 = Date.now();
  const sb = await newSandbox(s, { ttl: '1m', name: 'checkout test 7' });
  // A request noted now is written by the next tick, as made then: that tick is now, the next a minute on.
  assert.equal((await events(sb.group_id, sb.keys.manage_webhooks!)).status, 200);
  await expireSandboxes(s.p, t0);
  await expireSandboxes(s.p, t0 + 61_000);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${sb.group_id}`, { key: ADMIN })).status, 404, 'dropped');
  for (const key of Object.values(sb.keys)) {
    const r = await events(sb.group_id, key);
    assert.equal(r.status, 401, r.text);
    assert.equal(r.body.error.type, 'authentication_error');
    assert.match(r.body.error.message, new RegExp(`sandbox ${sb.group_id} \\("checkout test 7"\\) was dropped at \\S+Z because its ttl of 1m expired without a request; make a new sandbox`));
    assert.doesNotMatch(r.body.error.message, /unknown API key/);
  }
  // Only fingerprints are kept: no key, no part of one.
  const rows = await s.p.db.all<Record<string, unknown>>('SELECT * FROM dropped_sandbox_keys WHERE group_id = ?', [sb.group_id]);
  assert.equal(rows.length, Object.keys(sb.keys).length);
  for (const key of Object.values(sb.keys)) assert.ok(!JSON.stringify(rows).includes(key.slice(8, 16)), 'a key is not kept');
  // A key never issued is still just unknown.
  assert.match((await events(sb.group_id, 'sk_test_neverIssued0000000000000000000')).body.error.message, /^unknown API key$/);
});

test('a sandbox dropped with DELETE: a call with its key says it was dropped', async () => {
  const sb = await newSandbox(s, { name: 'dropped by hand' });
  assert.equal((await s.call('DELETE', `/api/v1/sandboxes/${sb.group_id}`, { key: ADMIN })).status, 200);
  const r = await events(sb.group_id, sb.keys.manage_webhooks!);
  assert.equal(r.status, 401, r.text);
  assert.match(r.body.error.message, new RegExp(`sandbox ${sb.group_id} \\("dropped by hand"\\) was dropped at \\S+Z \\(DELETE /api/v1/sandboxes/\\{group_id\\}\\); make a new sandbox`));
});

test('fingerprints are forgotten after a week, and past the newest kept (the oldest first); then the key is unknown again', async () => {
  const old = await newSandbox(s, { name: 'old' });
  const t0 = Date.now();
  await s.p.db.write((tx) => noteDroppedKeys(tx, old.group_id, 'drop', null, t0));
  await s.p.db.write((tx) => tx.run('DELETE FROM api_keys WHERE group_id = ?', [old.group_id]));
  assert.match((await events(old.group_id, old.keys.manage_webhooks!)).body.error.message, /\("old"\) was dropped/);
  // A drop a week and a moment later forgets it.
  const later = await newSandbox(s, { name: 'later' });
  await s.p.db.write((tx) => noteDroppedKeys(tx, later.group_id, 'drop', null, t0 + FORGET_AFTER_MS + 1));
  assert.equal((await events(old.group_id, old.keys.manage_webhooks!)).body.error.message, 'unknown API key');
  assert.ok((await s.p.db.get('SELECT 1 AS x FROM dropped_sandbox_keys WHERE group_id = ?', [later.group_id])) !== undefined);
  // The count bound: only the newest `keep` notes stay.
  const newer = await newSandbox(s, { name: 'newer' });
  const at = t0 + FORGET_AFTER_MS + 2;
  await s.p.db.write((tx) => tx.repos.droppedKeys.record(tx, newer.group_id, 'drop', null, at, { beforeMs: at - FORGET_AFTER_MS, keep: Object.keys(newer.keys).length }));
  const left = await s.p.db.all<{ group_id: string }>('SELECT DISTINCT group_id FROM dropped_sandbox_keys');
  assert.deepEqual(left.map((r) => r.group_id), [newer.group_id]);
});
