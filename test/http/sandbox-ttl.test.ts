// A sandbox's time to live (docs/sandboxes.md "Time to live"): the ttl field (a duration
// or seconds, bounded), the server's tick dropping a sandbox that had no request for that
// long (real time), a request starting the lease again (written by the tick, not per
// request), a fork's lease and an import's. On both stores.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox } from '../helpers/sandboxes.js';
import { expireSandboxes } from '../../src/services/sandboxes/leases.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

// Read from the store: a GET naming the sandbox would count as a request to it.
const exists = async (groupId: string) => (await s.p.db.get('SELECT id FROM groups WHERE id = ?', [groupId])) !== undefined;
const lease = (groupId: string) => s.p.db.get<{ ttl_ms: number; last_request_ms: number }>('SELECT ttl_ms, last_request_ms FROM sandbox_leases WHERE group_id = ?', [groupId]);

test('ttl: a duration or whole seconds, 1s to 30d; anything else is a 400 naming the field, and nothing is made', async () => {
  for (const [ttl, ms] of [['1h', 3_600_000], [90, 90_000], ['1d12h', 129_600_000], ['1s', 1000], ['30d', 2_592_000_000]] as const) {
    const sb = await newSandbox(s, { ttl });
    assert.equal((await lease(sb.group_id))?.ttl_ms, ms, String(ttl));
  }
  const count = async () => (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length;
  const before = await count();
  for (const ttl of ['0s', 0, 'forever', '31d', 1.5, -5, '']) {
    const r = await s.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: { ttl } });
    assert.equal(r.status, 400, `${JSON.stringify(ttl)}: ${r.text}`);
    assert.match(r.body.error.message, /ttl/);
    assert.match(r.body.error.message, /from 1s to 30d/);
  }
  assert.equal(await count(), before);
  // Shown by GET and the list: the ttl and when it runs out without a request.
  const shown = await newSandbox(s, { ttl: '2h' });
  const one = (await s.call('GET', `/api/v1/sandboxes/${shown.group_id}`, { key: ADMIN })).body;
  assert.equal(one.ttl_seconds, 7200);
  assert.equal(Date.parse(one.expires_at), (await lease(shown.group_id))!.last_request_ms + 7_200_000);
  const listed = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.find((x: { group_id: string }) => x.group_id === shown.group_id);
  assert.equal(listed.ttl_seconds, 7200);
  // Without ttl: no lease, kept until dropped.
  const plain = await newSandbox(s);
  assert.equal(await lease(plain.group_id), undefined);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${plain.group_id}`, { key: ADMIN })).body.ttl_seconds, undefined);
});

test('the tick drops a sandbox after ttl without a request; a request starts the lease again; others are untouched', async () => {
  const t0 = Date.now();
  const idle = await newSandbox(s, { ttl: '1m' });
  const busy = await newSandbox(s, { ttl: '1m' });
  const forever = await newSandbox(s);
  await expireSandboxes(s.p, t0 + 30_000);
  assert.ok((await exists(idle.group_id)) && (await exists(busy.group_id)));
  // A request with the sandbox's key (noted in memory; the next tick writes it, as made then).
  assert.equal((await s.call('GET', `/api/v1/groups/${busy.group_id}/events`, { key: busy.keys.manage_webhooks })).status, 200);
  const before = (await lease(busy.group_id))!.last_request_ms;
  assert.ok(before < t0 + 30_000, 'a request writes nothing itself');
  await expireSandboxes(s.p, t0 + 45_000);
  assert.equal((await lease(busy.group_id))!.last_request_ms, t0 + 45_000);
  assert.ok((await exists(idle.group_id)) && (await exists(busy.group_id)));
  // A minute after its last request the idle one is gone, every row of it; the busy one stays.
  assert.ok((await expireSandboxes(s.p, t0 + 61_000)) >= 1);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${idle.group_id}`, { key: ADMIN })).status, 404);
  assert.equal((await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys WHERE group_id = ?', [idle.group_id]))!.n, 0);
  assert.equal((await s.call('GET', `/api/v1/groups/${idle.group_id}/events`, { key: idle.keys.manage_webhooks })).status, 401);
  assert.ok(await exists(busy.group_id));
  // An admin call naming the sandbox counts as a request too.
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${busy.group_id}/clock`, { key: ADMIN })).status, 200);
  await expireSandboxes(s.p, t0 + 100_000);
  assert.ok(await exists(busy.group_id), 'its lease began again at the tick after the request');
  await expireSandboxes(s.p, t0 + 160_001);
  assert.equal(await exists(busy.group_id), false);
  assert.ok(await exists(forever.group_id), 'a sandbox without ttl stays');
});

test('a fork has a lease like its source, begun at the fork; a sandbox of no lease forks into none', async () => {
  const src = await newSandbox(s, { ttl: '10m' });
  const fork = await s.call('POST', `/api/v1/sandboxes/${src.group_id}/fork`, { key: ADMIN, body: {} });
  assert.equal(fork.status, 201, fork.text);
  const l = (await lease(fork.body.group_id))!;
  assert.equal(l.ttl_ms, 600_000);
  assert.ok(Math.abs(l.last_request_ms - Date.now()) < 60_000);
  const plain = await s.call('POST', `/api/v1/sandboxes/${(await newSandbox(s)).group_id}/fork`, { key: ADMIN, body: {} });
  assert.equal(await lease(plain.body.group_id), undefined);
});

test('an import takes ?ttl=', async () => {
  const src = await newSandbox(s, { demo: true });
  const file = await fetch(`${s.url}/api/v1/sandboxes/${src.group_id}/export`, { headers: { authorization: ADMIN } });
  const text = await file.text();
  const r = await s.call('POST', '/api/v1/sandboxes/import?ttl=120', { key: ADMIN, raw: text, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(r.status, 201, r.text);
  assert.equal((await lease(r.body.group_id))?.ttl_ms, 120_000);
  const bad = await s.call('POST', '/api/v1/sandboxes/import?ttl=0', { key: ADMIN, raw: text, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bad.status, 400, bad.text);
  assert.match(bad.body.error.message, /ttl/);
});

test("the server's own tick drops an expired sandbox (real time)", async () => {
  const ticking = await startTestServer({ adminToken: ADMIN, tickMs: 100 });
  try {
    const r = await ticking.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: { ttl: 1 } });
    assert.equal(r.status, 201, r.text);
    // Waits on the server's real-time tick (a ttl is real time: no clock move stands in for it), bounded;
    // read from the store, as a GET naming the sandbox would keep it alive.
    const deadline = Date.now() + 20_000;
    const there = async () => (await ticking.p.db.get('SELECT id FROM groups WHERE id = ?', [r.body.group_id])) !== undefined;
    while ((await there()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await there(), false);
    assert.equal((await ticking.call('GET', `/api/v1/sandboxes/${r.body.group_id}`, { key: ADMIN })).status, 404);
  } finally {
    await ticking.close();
  }
});

test('a lease write that fails (the store away) keeps the requests noted: the next tick writes them, and the sandbox is not dropped while in use', async () => {
  const t0 = Date.now();
  const sb = await newSandbox(s, { ttl: '1m' });
  assert.equal((await s.call('GET', `/api/v1/groups/${sb.group_id}/events`, { key: sb.keys.manage_webhooks })).status, 200);
  const db = s.p.db;
  const write = db.write;
  db.write = (() => Promise.reject(new Error('store away'))) as typeof db.write;
  try {
    await assert.rejects(expireSandboxes(s.p, t0 + 30_000), /store away/);
  } finally {
    db.write = write;
  }
  await expireSandboxes(s.p, t0 + 45_000);
  assert.equal((await lease(sb.group_id))!.last_request_ms, t0 + 45_000, 'the request noted before the failure is written by the next tick');
  await expireSandboxes(s.p, t0 + 90_000);
  assert.ok(await exists(sb.group_id), 'within a minute of the request: kept');
});
