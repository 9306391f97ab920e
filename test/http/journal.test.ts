// The request journal over the real server (docs/journal.md): every call on a group —
// a sandbox or any other group, the demo group included — listed by
// GET /api/v1/sandboxes/{group_id}/requests with its method, path, route, status,
// latency, Idempotency-Key and fault, bodies masked; the filters, the cursor, the bound
// and its dropped count; who may read it; recordings as a view of it (only calls made
// for the sandbox, a body too deep recorded as refused, the bound said); PAYCTL_JOURNAL=off.
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, noonToday, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { JOURNAL_MAX_ENTRIES } from '../../src/domain/journal.js';
import type { JournalEntry } from '../../src/store/interfaces/journal.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const journal = (groupId: string, query = '') => s.call('GET', `/api/v1/sandboxes/${groupId}/requests${query}`, { key: ADMIN });
const sale = (sb: SandboxReply, headers: Record<string, string> = {}) =>
  s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions!, body: saleBody(sb.processor_id), headers });

test('every call on a sandbox is journaled: method, path, route, status, latency, Idempotency-Key, fault, bodies; newest last', async () => {
  const sb = await newSandbox(s, { clock: noonToday() });
  const made = await sale(sb, { 'Idempotency-Key': 'order-7' });
  assert.equal(made.status, 200, made.text);
  const txPath = `/api/v1/groups/${sb.group_id}/transaction/${made.body.id}`;
  assert.equal((await s.call('GET', txPath, { key: sb.keys.view_transactions! })).status, 200);
  assert.equal((await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/00000000-0000-7000-8000-000000000000`, { key: sb.keys.view_transactions! })).status, 404);
  const fault = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/faults`, { key: ADMIN, body: { operation: 'refund', action: 'error', status: 503, first: 1 } });
  assert.equal(fault.status, 201, fault.text);
  const refund = await s.call('POST', `${txPath}/refund`, { key: sb.keys.manage_transactions!, body: { amount: 100 } });
  assert.equal(refund.status, 503);

  const r = await journal(sb.group_id);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.has_more, false);
  assert.equal(r.body.data.dropped, 0);
  const items = r.body.data.items;
  assert.deepEqual(items.map((i: { method: string; status: number }) => `${i.method} ${i.status}`), ['POST 200', 'GET 200', 'GET 404', 'POST 201', 'POST 503']);
  assert.deepEqual(items.map((i: { seq: number }) => i.seq), [1, 2, 3, 4, 5], 'numbered per group, newest last');
  const [first, , , , last] = items;
  assert.equal(first.id, made.headers.get('request-id'), "an entry's id is its answer's Request-Id");
  assert.equal(first.path, `/api/v1/groups/${sb.group_id}/transaction`);
  assert.equal(first.route, '/api/v1/groups/:group_id/transaction');
  assert.equal(first.idempotency_key, 'order-7');
  assert.equal(first.body.payment_details.token, 'tok_visa');
  assert.equal(first.answer.id, made.body.id);
  assert.equal(typeof first.duration_ms, 'number');
  assert.match(first.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(last.fault, refund.headers.get('payctl-fault'));
  assert.ok(last.fault, 'the fault drawn is journaled');
  assert.equal(last.answer.error.type, refund.body.error.type);
});

test('filters (method, path, path prefix, status, status class, since), limit and the cursor', async () => {
  const sb = await newSandbox(s, { clock: noonToday() });
  const made = await sale(sb);
  const txPath = `/api/v1/groups/${sb.group_id}/transaction/${made.body.id}`;
  for (let i = 0; i < 3; i++) assert.equal((await s.call('GET', txPath, { key: sb.keys.view_transactions! })).status, 200);
  assert.equal((await s.call('GET', txPath, { key: 'sk_test_not_a_key' })).status, 401);

  const byMethod = await journal(sb.group_id, '?method=post');
  assert.deepEqual(byMethod.body.data.items.map((i: { method: string }) => i.method), ['POST']);
  assert.equal((await journal(sb.group_id, `?path=${encodeURIComponent(txPath)}`)).body.data.items.length, 4);
  assert.equal((await journal(sb.group_id, `?path=${encodeURIComponent(`/api/v1/groups/${sb.group_id}/transaction*`)}`)).body.data.items.length, 5);
  assert.equal((await journal(sb.group_id, '?status=401')).body.data.items.length, 1);
  assert.equal((await journal(sb.group_id, '?status=2xx')).body.data.items.length, 4);
  assert.equal((await journal(sb.group_id, '?since=2999-01-01T00:00:00Z')).body.data.items.length, 0);
  assert.equal((await journal(sb.group_id, '?since=2000-01-01T00:00:00Z')).body.data.items.length, 5);

  const page1 = await journal(sb.group_id, '?limit=2');
  assert.equal(page1.body.data.items.length, 2);
  assert.equal(page1.body.data.has_more, true);
  const page2 = await journal(sb.group_id, `?limit=2&starting_after=${page1.body.data.items[1].id}`);
  assert.deepEqual(page2.body.data.items.map((i: { seq: number }) => i.seq), [3, 4]);
  const page3 = await journal(sb.group_id, `?limit=2&starting_after=${page2.body.data.items[1].id}`);
  assert.deepEqual(page3.body.data.items.map((i: { seq: number }) => i.seq), [5]);
  assert.equal(page3.body.data.has_more, false);

  for (const [query, field] of [['?status=abc', 'status'], ['?method=TRACE', 'method'], ['?limit=0', 'limit'], ['?since=yesterday', 'since'], ['?colour=red', 'colour'], [`?starting_after=${sb.group_id}`, 'starting_after']]) {
    const bad = await journal(sb.group_id, query);
    assert.equal(bad.status, 400, `${query}: ${bad.text}`);
    assert.equal(bad.body.error.fields[0].path, field, bad.text);
  }
});

test('any group: the demo group is journaled; the route takes the admin token only; an unknown group is 404', async () => {
  const demoGroup = s.demo.group_id as string;
  const key = (s.demo.keys as Record<string, string>).view_transactions!;
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${demoGroup}/clock`, { key })).status, 200);
  const r = await journal(demoGroup, '?method=GET');
  assert.equal(r.status, 200, r.text);
  assert.ok(r.body.data.items.some((i: { route: string }) => i.route === '/api/v1/sandboxes/:group_id/clock'), r.text);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${demoGroup}/requests`)).status, 401);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${demoGroup}/requests`, { key })).status, 403);
  assert.equal((await journal('00000000-0000-7000-8000-000000000000')).status, 404);
  const before = (await journal(demoGroup)).body.data.items.length;
  assert.equal((await journal(demoGroup)).body.data.items.length, before, 'reading the journal is not journaled');
});

test('calls naming a group that does not exist are journaled nowhere', async () => {
  const ghost = '00000000-0000-7000-8000-00000000beef';
  assert.equal((await s.call('GET', `/api/v1/groups/${ghost}/transaction/${ghost}`)).status, 401);
  assert.equal((await s.call('POST', '/api/v1/tokens', { body: { card: { number: '4242' } }, headers: { 'Payctl-Sandbox': ghost } })).status, 400);
  await s.call('GET', `/api/v1/sandboxes/${s.demo.group_id}/requests`, { key: ADMIN }); // flushes the journal
  const n = await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM request_journal WHERE group_id = ?', [ghost]);
  assert.equal(n!.n, 0);
});

test(`the journal keeps a group's last ${JOURNAL_MAX_ENTRIES} calls and says how many it dropped`, async () => {
  const sb = await newSandbox(s, { clock: noonToday() });
  const calls = JOURNAL_MAX_ENTRIES + 7;
  const path = `/api/v1/sandboxes/${sb.group_id}/clock`;
  for (let i = 0; i < calls; i += 25) {
    await Promise.all(Array.from({ length: Math.min(25, calls - i) }, () => s.call('GET', path, { key: sb.keys.view_transactions! })));
  }
  const r = await journal(sb.group_id, '?limit=1000');
  assert.equal(r.body.data.dropped, 7);
  assert.equal(r.body.data.items.length, 1000);
  assert.equal(r.body.data.items[0].seq, 8, 'the oldest went');
  assert.equal(r.body.data.has_more, false);
});

test('the byte bound drops the oldest entries too (both bounds at the store); a dropped group is journaled no more', async () => {
  const group = (await newSandbox(s)).group_id;
  const entry = (i: number, bytes: number): JournalEntry => ({
    group_id: group, request_id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`, at: '2030-01-01T00:00:00.000Z', method: 'GET', path: '/p', route: '/p',
    status: 200, duration_ms: 1, idempotency_key: null, fault: null, recordable: true, headers: null, body: null, answer: null, note: null, bytes,
  });
  await s.p.db.write((tx) => tx.repos.journal.append(tx, [entry(1, 400), entry(2, 400), entry(3, 400)], { entries: 10, bytes: 1000 }));
  let state = await s.p.db.repos.journal.state(s.p.db, group);
  assert.deepEqual(state, { last_seq: 3, entries: 2, bytes: 800, dropped: 1 });
  await s.p.db.write((tx) => tx.repos.journal.append(tx, [4, 5, 6, 7].map((i) => entry(i, 10)), { entries: 3, bytes: 1000 }));
  state = await s.p.db.repos.journal.state(s.p.db, group);
  assert.deepEqual(state, { last_seq: 7, entries: 3, bytes: 30, dropped: 4 });
  assert.equal(await s.p.db.repos.journal.firstSeq(s.p.db, group), 5);
  assert.equal((await s.call('DELETE', `/api/v1/sandboxes/${group}`, { key: ADMIN })).status, 200);
  assert.equal(await s.p.db.repos.journal.state(s.p.db, group), undefined, 'dropping a sandbox drops its journal');
  await s.p.db.write((tx) => tx.repos.journal.append(tx, [entry(8, 10)], { entries: 3, bytes: 1000 }));
  assert.equal(await s.p.db.repos.journal.state(s.p.db, group), undefined, 'an entry held while its group was dropped is not written');
  assert.equal((await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM request_journal WHERE group_id = ?', [group]))!.n, 0);
});

test('a recording is a view of the journal: calls by others (401/403) are journaled but not recorded; a body too deep is recorded as refused', async () => {
  const sb = await newSandbox(s, { clock: noonToday() });
  const other = await newSandbox(s, { clock: noonToday() });
  const rec = `/api/v1/sandboxes/${sb.group_id}/recording`;
  assert.equal((await s.call('POST', rec, { key: ADMIN })).status, 201);
  const made = await sale(sb);
  assert.equal(made.status, 200);
  const txPath = `/api/v1/groups/${sb.group_id}/transaction/${made.body.id}`;
  assert.equal((await s.call('GET', txPath)).status, 401, 'no key');
  assert.equal((await s.call('GET', txPath, { key: other.keys.view_transactions! })).status, 403, "another group's key");
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  const refused = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions!, raw: deep, headers: { 'content-type': 'application/json' } });
  assert.equal(refused.status, 400, refused.text);
  const stopped = await s.call('DELETE', rec, { key: ADMIN });
  assert.equal(stopped.status, 200, stopped.text);
  assert.equal(stopped.body.calls, 2, 'the sale and the deep call; not the calls by others');
  assert.equal(stopped.body.dropped, 0);

  const all = (await journal(sb.group_id)).body.data.items;
  assert.deepEqual(all.map((i: { status: number }) => i.status).filter((st: number) => st === 401 || st === 403), [401, 403], 'the journal holds every call');
  const got = await s.call('GET', rec, { key: ADMIN });
  assert.equal(got.status, 200, got.text);
  assert.equal(got.body.calls, 2);
  assert.equal(got.body.data.length, 2);
  const [, deepCall] = got.body.data;
  assert.equal(deepCall.status, 400);
  assert.equal(deepCall.body, null);
  assert.match(deepCall.note, /request body refused: nested deeper than 64 levels/);
  const scenario = await s.call('GET', `${rec}?format=scenario`, { key: ADMIN });
  assert.equal(scenario.status, 200, scenario.text);
});

test('a recording says how many of its calls the bound dropped', async () => {
  const sb = await newSandbox(s, { clock: noonToday() });
  const rec = `/api/v1/sandboxes/${sb.group_id}/recording`;
  assert.equal((await s.call('POST', rec, { key: ADMIN })).status, 201);
  const path = `/api/v1/groups/${sb.group_id}/transaction/00000000-0000-7000-8000-000000000000`; // a 404 of its own key: a step
  const calls = JOURNAL_MAX_ENTRIES + 3;
  for (let i = 0; i < calls; i += 25) {
    await Promise.all(Array.from({ length: Math.min(25, calls - i) }, () => s.call('GET', path, { key: sb.keys.view_transactions! })));
  }
  const got = await s.call('GET', rec, { key: ADMIN });
  assert.equal(got.status, 200);
  assert.equal(got.body.recording, true);
  assert.equal(got.body.dropped, 4, 'the oldest calls of its range: the start itself and the first three');
  assert.equal(got.body.calls, JOURNAL_MAX_ENTRIES);
  assert.equal(got.body.data.length, JOURNAL_MAX_ENTRIES);
});

test('PAYCTL_JOURNAL=off: nothing is journaled and a recording cannot start', async () => {
  const off = await startTestServer({ adminToken: ADMIN, env: { PAYCTL_JOURNAL: 'off' } });
  try {
    const sb = (await off.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: {} })).body as SandboxReply;
    assert.equal((await off.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions!, body: saleBody(sb.processor_id) })).status, 200);
    const r = await off.call('GET', `/api/v1/sandboxes/${sb.group_id}/requests`, { key: ADMIN });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.items, []);
    const rec = await off.call('POST', `/api/v1/sandboxes/${sb.group_id}/recording`, { key: ADMIN });
    assert.equal(rec.status, 400);
    assert.match(rec.body.error.message, /PAYCTL_JOURNAL=off/);
  } finally {
    await off.close();
  }
});

test('wait: a list waiting after the last call answers once the next call is journaled; at its deadline with none, 200 and empty; a bad wait or count is a 400 naming it', async () => {
  const sb = await newSandbox(s, { clock: noonToday() });
  const first = await sale(sb);
  assert.equal(first.status, 200, first.text);
  const last = (await journal(sb.group_id, '?method=POST')).body.data.items.at(-1);
  assert.equal(last.id, first.headers.get('request-id'));

  // Waiting for the call after `last`: the sale made meanwhile ends the wait, long before its 20 s deadline.
  const started = Date.now();
  const waiting = journal(sb.group_id, `?starting_after=${last.id}&method=POST&wait=20s`);
  await new Promise((r) => setTimeout(r, 200));
  const next = await sale(sb);
  const r = await waiting;
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.data.items.map((i: { id: string }) => i.id), [next.headers.get('request-id')]);
  assert.ok(Date.now() - started < 15_000, 'answered by the call, not the deadline');

  // Nothing more comes: the deadline answers 200 with what there is.
  const idle = await journal(sb.group_id, `?starting_after=${next.headers.get('request-id')}&method=POST&wait=300ms`);
  assert.equal(idle.status, 200, idle.text);
  assert.deepEqual(idle.body.data.items, []);

  for (const [query, field] of [['?wait=forever', 'wait'], ['?wait=31s', 'wait'], ['?wait=1s&count=0', 'count'], ['?wait=1s&limit=2&count=3', 'count']] as const) {
    const bad = await journal(sb.group_id, query);
    assert.equal(bad.status, 400, `${query}: ${bad.text}`);
    assert.equal(bad.body.error.fields[0].path, field, query);
  }
});
