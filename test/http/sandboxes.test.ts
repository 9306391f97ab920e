// Sandboxes over the real server: the admin token, create (with and without demo data,
// with a start clock), drop (every row gone, everyone else's rows byte-for-byte the
// same), fork (every row copied with new ids and the same relationships and clock), and
// a clock per group (one sandbox bills a month while another stands still; everything
// that reads time for a group reads that group's clock).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, dumpGroup, newSandbox, rowCount, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { PERMISSIONS } from '../../src/domain/permissions.js';
import { GROUP_TABLES } from '../../src/store/sql/group-tables.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const DAY = 86_400_000;
const sale = (sb: SandboxReply, opts: Parameters<typeof saleBody>[1] = {}, headers: Record<string, string> = {}) =>
  s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id, opts), headers });
const moveClock = (sb: SandboxReply, body: unknown, key = ADMIN) => s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key, body });
const subscriptionCharges = async (groupId: string) =>
  (await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE group_id = ? AND subscription_id IS NOT NULL', [groupId]))!.n;

describe('the sandbox admin token', () => {
  test('401 without a token or with an unknown one; 403 for a group key; never a sandbox for those', async () => {
    const before = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length;
    const none = await s.call('POST', '/api/v1/sandboxes', { body: {} });
    assert.equal(none.status, 401);
    assert.equal(none.body.error.type, 'authentication_error');
    assert.equal((await s.call('POST', '/api/v1/sandboxes', { key: 'padm_wrong', body: {} })).status, 401);
    for (const key of Object.values(s.demo.keys)) {
      const r = await s.call('POST', '/api/v1/sandboxes', { key, body: {} });
      assert.equal(r.status, 403, key);
      assert.match(r.body.error.message, /admin token/);
    }
    const sb = await newSandbox(s);
    for (const [method, path] of [
      ['GET', '/api/v1/sandboxes'],
      ['DELETE', `/api/v1/sandboxes/${sb.group_id}`],
      ['POST', `/api/v1/sandboxes/${sb.group_id}/fork`],
    ] as const) {
      assert.equal((await s.call(method, path, { key: sb.keys.manage_transactions })).status, 403, `${method} ${path}`);
      assert.equal((await s.call(method, path)).status, 401, `${method} ${path}`);
    }
    assert.equal((await s.call('GET', '/api/v1/sandboxes', { key: `Bearer ${ADMIN}` })).body.data.length, before + 1);
  });
});

describe('POST /api/v1/sandboxes', () => {
  test('201: a group with a processor, a linked account and a working key per permission kind', async () => {
    const sb = await newSandbox(s, { name: 'checkout suite' });
    assert.deepEqual(Object.keys(sb.keys).sort(), [...PERMISSIONS].sort());
    assert.equal(new Set(Object.values(sb.keys)).size, PERMISSIONS.length);
    assert.equal(sb.name, 'checkout suite');
    const t = await sale(sb);
    assert.equal(t.status, 200, t.text);
    assert.equal(t.body.status, 'pending');
    // The keys are the sandbox's own: the demo group is another group.
    assert.equal((await s.call('GET', `/api/v1/groups/${s.demo.group_id}/transaction/${(s.demo.transaction_ids as string[])[0]}`, { key: sb.keys.view_transactions })).status, 403);
    const listed = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.find((x: { group_id: string }) => x.group_id === sb.group_id);
    assert.equal(listed.name, 'checkout suite');
  });

  test('demo: true fills the sandbox like init --demo (same shape), usable with its keys', async () => {
    const sb = await newSandbox(s, { demo: true });
    for (const field of ['customer_id', 'card_id', 'transaction_ids', 'plan_ids', 'subscription_ids', 'product_ids', 'partner_ids', 'invoice_ids', 'payment_link_ids']) {
      assert.ok(field in sb && field in s.demo, field);
    }
    const [first] = sb.transaction_ids as string[];
    const got = await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${first}`, { key: sb.keys.view_transactions });
    assert.equal(got.status, 200);
    assert.notEqual(sb.customer_id, s.demo.customer_id);
  });

  test('clock: the sandbox starts at that time; its timestamps and report windows read it', async () => {
    const sb = await newSandbox(s, { clock: '2031-06-01T00:00:00Z' });
    assert.ok(sb.clock.startsWith('2031-06-01T00:00'), sb.clock);
    const t = await sale(sb);
    assert.ok(t.body.created_at.startsWith('2031-06-01'), t.body.created_at);
    // The default reporting window ends at the group's now: the 2031 sale is inside it.
    const report = await s.call('GET', `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/transactions/reporting?type=count`, {
      key: sb.keys.view_transactions,
    });
    assert.deepEqual(report.body, { total_count: 1 });
  });

  test('400 naming the field for a bad body; nothing is created', async () => {
    const before = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length;
    for (const [body, field] of [
      [{ clock: 'tomorrow' }, 'clock'],
      [{ demo: 'yes' }, 'demo'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ group_id: 'mine' }, 'group_id'],
    ] as const) {
      const r = await s.call('POST', '/api/v1/sandboxes', { key: ADMIN, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body.error.fields.map((f: { path: string }) => f.path), [field]);
    }
    // The answer carries keys, which are never stored: no Idempotency-Key (it would keep them).
    const idem = await s.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: {}, headers: { 'idempotency-key': 'k1' } });
    assert.equal(idem.status, 400);
    assert.equal(idem.body.error.fields[0].path, 'Idempotency-Key');
    assert.equal((await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length, before);
  });
});

describe('DELETE /api/v1/sandboxes/{group_id}', () => {
  test('removes every row of the sandbox in one go; keys stop at once; other groups are untouched', async () => {
    const doomed = await newSandbox(s, { demo: true });
    const others = [await newSandbox(s, { demo: true }), await newSandbox(s)];
    await sale(doomed, { orderId: 'doomed', emailReceipt: true }); // an e-mail in the outbox too
    await moveClock(doomed, { advance: '31d' }); // billing, settlement and ledger rows too
    const groups = [s.demo.group_id, ...others.map((o) => o.group_id)];
    const beforeOthers = await Promise.all(groups.map((g) => dumpGroup(s.p.db, g)));
    assert.ok(rowCount(await dumpGroup(s.p.db, doomed.group_id)) > 40);

    const r = await s.call('DELETE', `/api/v1/sandboxes/${doomed.group_id}`, { key: ADMIN });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.deleted, true);
    assert.ok(r.body.rows.transactions >= 5 && r.body.rows.subscription_charges >= 2 && r.body.rows.outbox >= 1, JSON.stringify(r.body.rows));

    assert.equal(rowCount(await dumpGroup(s.p.db, doomed.group_id, { traffic: true })), 0);
    for (const key of Object.values(doomed.keys)) {
      assert.equal((await s.call('GET', `/api/v1/groups/${doomed.group_id}/transaction/x`, { key })).status, 401);
    }
    assert.deepEqual(await Promise.all(groups.map((g) => dumpGroup(s.p.db, g))), beforeOthers);
    assert.equal((await s.call('DELETE', `/api/v1/sandboxes/${doomed.group_id}`, { key: ADMIN })).status, 404);
  });

  test('404 for a group that is not a sandbox (the demo group stays)', async () => {
    assert.equal((await s.call('DELETE', `/api/v1/sandboxes/${s.demo.group_id}`, { key: ADMIN })).status, 404);
    assert.ok(rowCount(await dumpGroup(s.p.db, s.demo.group_id)) > 0);
  });
});

describe('POST /api/v1/sandboxes/{group_id}/fork', () => {
  test('copies every row with new ids, the same relationships and the same clock; the original is unchanged', async () => {
    const original = await newSandbox(s, { demo: true });
    await moveClock(original, { advance: '40d' });
    const originalRows = await dumpGroup(s.p.db, original.group_id);

    const r = await s.call('POST', `/api/v1/sandboxes/${original.group_id}/fork`, { key: ADMIN, body: { name: 'fork of fixture' } });
    assert.equal(r.status, 201, r.text);
    const fork = r.body as SandboxReply & { id_map: Record<string, string>; forked_from: string };
    assert.equal(fork.forked_from, original.group_id);
    assert.equal(fork.name, 'fork of fixture');

    const forkRows = await dumpGroup(s.p.db, fork.group_id);
    for (const t of GROUP_TABLES) {
      if (t.forkSkip) continue;
      assert.equal(forkRows[t.table]!.length, originalRows[t.table]!.length, t.table);
    }
    // The reporting rollup is rebuilt by the triggers: the same counts and amounts per day.
    const rollup = (g: string) =>
      s.p.db.all('SELECT day, status, SUM(tx_count) AS n, SUM(net_high * 67108864 + net_low) AS amount FROM transaction_daily WHERE group_id = ? GROUP BY day, status HAVING SUM(tx_count) > 0 ORDER BY day, status', [g]);
    assert.deepEqual(await rollup(fork.group_id), await rollup(original.group_id));
    assert.equal(forkRows.api_keys!.length, PERMISSIONS.length);
    // No id of the original appears in the fork's rows (except where ids are shared: none).
    const originalIds = new Set<string>();
    for (const rows of Object.values(originalRows)) for (const row of rows) for (const m of row.matchAll(/"id":"([^"]+)"/g)) originalIds.add(m[1]!);
    for (const rows of Object.values(forkRows)) for (const row of rows) for (const id of originalIds) assert.ok(!row.includes(id), `fork row refers to ${id}: ${row}`);

    // Same relationships: the fork's subscription belongs to the fork's customer, plan and card.
    const [subId] = original.subscription_ids as string[];
    const forkSub = fork.id_map[subId!]!;
    const got = await s.call('GET', `/api/v1/groups/${fork.group_id}/processing/${fork.linked_account_id}/recurring/subscription/${forkSub}`, {
      key: fork.keys.manage_transactions,
    });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.customer_id, fork.id_map[original.customer_id as string]);
    assert.equal(got.body.plan_id, fork.id_map[(original.plan_ids as string[])[0]!]);
    // Same clock.
    const [a, b] = await Promise.all(
      [original, fork].map(async (x) => (await s.call('GET', `/api/v1/sandboxes/${x.group_id}/clock`, { key: ADMIN })).body),
    );
    assert.equal(a.offset_ms, b.offset_ms);
    // The original's keys do not open the fork, and moving the fork leaves the original.
    assert.equal((await s.call('GET', `/api/v1/groups/${fork.group_id}/transaction/x`, { key: original.keys.view_transactions })).status, 403);
    await moveClock(fork, { advance: '400d' });
    assert.deepEqual(await dumpGroup(s.p.db, original.group_id), originalRows);
    assert.ok((await subscriptionCharges(fork.group_id)) > (await subscriptionCharges(original.group_id)));
  });

  test('404 for an unknown sandbox; 400 for an unknown field', async () => {
    const sb = await newSandbox(s);
    assert.equal((await s.call('POST', '/api/v1/sandboxes/00000000-0000-7000-8000-000000000000/fork', { key: ADMIN })).status, 404);
    const bad = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/fork`, { key: ADMIN, body: { demo: true } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields[0].path, 'demo');
  });
});

describe('a clock per sandbox', () => {
  test('two sandboxes moved differently in parallel: one bills a month, the other stands still', async () => {
    const [billed, still] = await Promise.all([newSandbox(s, { demo: true }), newSandbox(s, { demo: true })]);
    const demoBefore = await dumpGroup(s.p.db, s.demo.group_id);
    const stillBefore = await dumpGroup(s.p.db, still.group_id);
    const [moved, saleInStill] = await Promise.all([moveClock(billed, { advance: '31d' }), sale(still, { orderId: 'meanwhile' })]);
    assert.equal(moved.status, 200, moved.text);
    assert.ok(moved.body.work['subscription-billing'] >= 1, JSON.stringify(moved.body.work));
    assert.equal(saleInStill.status, 200);
    assert.ok(Math.abs(Date.parse(saleInStill.body.created_at) - Date.now()) < DAY, 'the other sandbox kept its time');
    assert.ok((await subscriptionCharges(billed.group_id)) >= 1);
    assert.equal(await subscriptionCharges(still.group_id), 0);
    // The only change in the still sandbox is its own sale; the demo group did not move at all.
    const stillAfter = await dumpGroup(s.p.db, still.group_id);
    assert.deepEqual(stillAfter.subscriptions, stillBefore.subscriptions);
    assert.deepEqual(stillAfter.invoices, stillBefore.invoices);
    assert.deepEqual(await dumpGroup(s.p.db, s.demo.group_id), demoBefore);
    const clockOf = async (sb: SandboxReply) => (await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: sb.keys.view_transactions })).body;
    assert.equal((await clockOf(billed)).offset_ms >= 31 * DAY, true);
    assert.equal((await clockOf(still)).offset_ms, 0);
  });

  test("invoices fall past due, idempotency keys expire and sessions lapse on the group's clock", async () => {
    const [moved, still] = await Promise.all([newSandbox(s, { demo: true }), newSandbox(s, { demo: true })]);
    const invoiceStatus = async (sb: SandboxReply) =>
      (await s.call('GET', `/api/v1/groups/${sb.group_id}/invoices/${(sb.invoice_ids as string[])[0]}`, { key: sb.keys.view_invoices })).body.status;
    // Same Idempotency-Key in both, then a different body after 25 hours of one group's time.
    const idem = { 'idempotency-key': 'order-1' };
    assert.equal((await sale(moved, { amount: 100 }, idem)).status, 200);
    assert.equal((await sale(still, { amount: 100 }, idem)).status, 200);
    const session = await s.call('GET', `/api/v1/payment-links/${(moved.payment_link_ids as string[])[0]}`);
    assert.ok(Math.abs(Date.parse(session.body.session_expires_at) - (Date.now() + 30 * 60_000)) < 60_000);

    assert.equal((await moveClock(moved, { advance: '31d' })).status, 200);
    assert.equal(await invoiceStatus(moved), 'past_due');
    assert.equal(await invoiceStatus(still), 'pending');
    assert.equal((await sale(moved, { amount: 200 }, idem)).status, 200, 'the key expired on the moved clock');
    assert.equal((await sale(still, { amount: 200 }, idem)).status, 422, 'the key is still kept on the other clock');
    const pay = await s.call('POST', `/api/v1/payment-links/${(moved.payment_link_ids as string[])[0]}/pay`, {
      key: session.body.session_token,
      body: { token: 'tok_visa', billing_address: { first_name: 'A', last_name: 'B', line_1: '1 Main St', city: 'X', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'a@example.com' } },
    });
    assert.equal(pay.status, 401);
    assert.match(pay.body.error.message, /expired/);
  });

  test('a token minted on the platform clock works in a sandbox moved a month ahead', async () => {
    const sb = await newSandbox(s);
    await moveClock(sb, { advance: '30d' });
    const minted = await s.call('POST', '/api/v1/tokens', {
      body: { card: { number: '4111111111111111', expiration_month: 12, expiration_year: 2099, cvv: '123', holder_name: 'Ada' } },
    });
    const t = await sale(sb, { token: minted.body.token });
    assert.equal(t.status, 200, t.text);
    assert.ok(Date.parse(t.body.created_at) > Date.now() + 29 * DAY);
  });

  test('set moves to a time; never backwards (400 naming set); bad bodies name their field', async () => {
    const sb = await newSandbox(s, { clock: '2030-01-01T00:00:00Z' });
    const set = await moveClock(sb, { set: '2030-03-01T00:00:00Z' });
    assert.equal(set.status, 200, set.text);
    assert.ok(set.body.now.startsWith('2030-03-01T00:00'), set.body.now);
    for (const [body, field] of [
      [{ set: '2030-02-01T00:00:00Z' }, 'set'],
      [{ set: 'soon' }, 'set'],
      [{ advance: '-1d' }, 'advance'],
      [{ advance: 'a while' }, 'advance'],
      [{}, 'advance'],
      [{ advance: '1d', set: '2031-01-01T00:00:00Z' }, 'set'],
      [{ rewind: '1d' }, 'rewind'],
    ] as const) {
      const r = await moveClock(sb, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.error.fields.some((f: { path: string }) => f.path === field), `${JSON.stringify(body)}: ${r.text}`);
    }
    const now = (await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN })).body.now;
    assert.ok(now.startsWith('2030-03-01T00:00'), now);
  });

  test("the group's manage_transactions key may move its clock; other keys and other groups may not", async () => {
    const [a, b] = await Promise.all([newSandbox(s), newSandbox(s)]);
    assert.equal((await moveClock(a, { advance: '1d' }, a.keys.manage_transactions)).status, 200);
    assert.equal((await moveClock(a, { advance: '1d' }, a.keys.view_transactions)).status, 403);
    assert.equal((await moveClock(a, { advance: '1d' }, b.keys.manage_transactions)).status, 403);
    assert.equal((await moveClock(a, { advance: '1d' }, 'sk_test_unknown')).status, 401);
    assert.equal((await moveClock(a, { advance: '1d' })).status, 200);
    const c = (await s.call('GET', `/api/v1/sandboxes/${a.group_id}/clock`, { key: ADMIN })).body;
    assert.ok(Math.abs(c.offset_ms - 2 * DAY) < 1000, String(c.offset_ms));
  });

  test('a retried advance with the same Idempotency-Key moves the clock once', async () => {
    const sb = await newSandbox(s);
    const headers = { 'idempotency-key': 'advance-1' };
    // 12 hours: a key is kept 24 hours of the group's time, so a 1-day move would expire it.
    const first = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: sb.keys.manage_transactions, body: { advance: '12h' }, headers });
    const again = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: sb.keys.manage_transactions, body: { advance: '12h' }, headers });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN })).body.offset_ms, DAY / 2);
    const other = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: sb.keys.manage_transactions, body: { advance: '2d' }, headers });
    assert.equal(other.status, 422);
  });

  test('concurrent advances of one sandbox all take effect (each reads and moves the offset in one write)', async () => {
    const sb = await newSandbox(s);
    const replies = await Promise.all(Array.from({ length: 5 }, () => moveClock(sb, { advance: '1d' })));
    assert.deepEqual(replies.map((r) => r.status), [200, 200, 200, 200, 200]);
    const c = (await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN })).body;
    assert.equal(c.offset_ms, 5 * DAY);
  });
});

test('the sandbox routes are in the OpenAPI document, tagged extension, with the admin token scheme', async () => {
  const doc = (await s.call('GET', '/api/v1/openapi.json')).body;
  for (const [path, method] of [
    ['/api/v1/sandboxes', 'post'],
    ['/api/v1/sandboxes', 'get'],
    ['/api/v1/sandboxes/{group_id}', 'delete'],
    ['/api/v1/sandboxes/{group_id}/fork', 'post'],
    ['/api/v1/sandboxes/{group_id}/clock', 'post'],
  ]) {
    const op = doc.paths[path!][method!];
    assert.ok(op, `${method} ${path}`);
    assert.ok(op.tags.includes('extension'));
    assert.ok(op.security.some((s: Record<string, unknown>) => 'adminToken' in s));
  }
  assert.ok(doc.components.securitySchemes.adminToken);
});

test('dropping a sandbox in the middle of its traffic: every request answers cleanly, none half-done', async () => {
  for (let round = 0; round < 3; round++) {
    const sb = await newSandbox(s);
    const sales = Array.from({ length: 30 }, (_, i) => sale(sb, { orderId: `race-${i}` }));
    const dropped = s.call('DELETE', `/api/v1/sandboxes/${sb.group_id}`, { key: ADMIN });
    const replies = await Promise.all(sales);
    assert.equal((await dropped).status, 200);
    // Done before the drop (200, then dropped with it), or refused after it: 401 (key gone),
    // 404 (group gone under a running write), 400 (its processor gone) — never a 5xx.
    const bad = replies.filter((r) => r.status !== 200 && !(r.status >= 400 && r.status < 500 && typeof r.body?.error?.message === 'string'));
    assert.deepEqual(bad.map((r) => r.text), []);
    const left = await dumpGroup(s.p.db, sb.group_id, { traffic: true });
    assert.equal(rowCount(left), 0, JSON.stringify(Object.fromEntries(Object.entries(left).filter(([, v]) => Array.isArray(v) && v.length > 0).map(([k, v]) => [k, (v as unknown[]).length]))));
  }
});
