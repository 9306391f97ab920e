// GET /api/v1/groups/{group_id}/transactions/reporting/summary over seeded data,
// checked against SQL written here over the transactions table alone (no rollup), for
// every grouping, windows that start and end mid-day, rollup and non-rollup filters,
// and a second group whose rows must never count.
import '../helpers/env.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedTransactions } from '../../src/dev/seed.js';
import { createGroup, createProcessor } from '../../src/services/groups/groups.js';
import { createKey } from '../../src/services/groups/keys.js';
import { rollupSplit } from '../../src/store/sql/repositories/reporting.js';
import { SUMMARY_GROUPS } from '../../src/domain/reporting-summary.js';
import type { Dialect } from '../../src/store/sql/dialect.js';

const DAY = 86_400_000;
let s: TestServer;
let groupId: string;
let otherGroupId: string;
let key: string;
let nowMs: number;

before(async () => {
  s = await startTestServer();
  groupId = s.demo.group_id;
  key = s.demo.keys.view_transactions;
  await seedTransactions(s.p, { groupId, transactions: 4000, months: 2, seed: 7 });
  const other = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Summary other' });
  await execute(createProcessor, s.p, contextFor(s.p, other.id), { type: 'transaction_level', name: 'Other processor' });
  await seedTransactions(s.p, { groupId: other.id, transactions: 800, months: 2, seed: 8 });
  otherGroupId = other.id;
  // A change after the rollup was built: the rollup must follow it.
  await s.p.db.write((tx) => tx.run(
    `UPDATE transactions SET status = 'refunded', refunded_amount = captured_amount
     WHERE id IN (SELECT id FROM transactions WHERE group_id = ? AND status = 'settled' ORDER BY id LIMIT 25)`,
    [groupId],
  ));
  nowMs = s.p.clock.now().getTime();
});
after(() => s.close());

const KEY_SQL: Record<string, (d: Dialect) => string> = {
  day: (d) => d.utcDay('created_at'),
  status: () => 'status',
  brand: () => "COALESCE(brand, '')",
  payment_method: () => 'method_detail',
  source: () => 'source',
};

/** The expected answer, straight from transactions. */
async function rawSql(group: string, groupBy: string, start: string, end: string, filters: { statuses?: string[]; brands?: string[]; customer_ids?: string[] }) {
  const terms = ['group_id = ?', 'created_at >= ?', 'created_at <= ?'];
  const params: unknown[] = [group, start, end];
  for (const [name, column] of [['statuses', 'status'], ['brands', 'brand'], ['customer_ids', 'customer_id']] as const) {
    const v = filters[name];
    if (!v) continue;
    terms.push(`${column} IN (${v.map(() => '?').join(', ')})`);
    params.push(...v);
  }
  return s.p.db.all<{ key: string; count: number; amount: number }>(
    `SELECT ${KEY_SQL[groupBy]!(s.p.db.dialect)} AS key, COUNT(*) AS count,
       SUM(CASE WHEN status IN ('pending', 'settled', 'captured', 'partially_captured', 'partially_refunded', 'refunded')
           THEN captured_amount - refunded_amount ELSE 0 END) AS amount
     FROM transactions WHERE ${terms.join(' AND ')} GROUP BY key ORDER BY key`,
    params,
  );
}

const summary = (qs: string, group = groupId, k = key) => s.call('GET', `/api/v1/groups/${group}/transactions/reporting/summary?${qs}`, { key: k });

test('every grouping equals the SQL over transactions, for a window that starts and ends mid-day', async () => {
  const start = new Date(nowMs - 40 * DAY - 3_723_456).toISOString();
  const end = new Date(nowMs - 2 * DAY - 1_234_567).toISOString();
  assert.ok(rollupSplit({ groupId, start, end, filters: {} }), 'the window has whole days: the rollup is read');
  for (const groupBy of SUMMARY_GROUPS) {
    const r = await summary(`group_by=${groupBy}&start=${start}&end=${end}`);
    assert.equal(r.status, 200, r.text);
    const expected = await rawSql(groupId, groupBy, start, end, {});
    assert.ok(expected.length > 1, groupBy);
    assert.deepEqual(r.body.groups, expected, groupBy);
    assert.equal(r.body.total_count, expected.reduce((n, g) => n + g.count, 0));
    assert.equal(r.body.total_amount, expected.reduce((n, g) => n + g.amount, 0));
    assert.deepEqual([r.body.group_by, r.body.start, r.body.end], [groupBy, start, end]);
  }
});

test('totals agree with the reporting endpoint count and amount_sum for the same filters', async () => {
  const qs = 'statuses=settled,refunded,pending&brands=Visa&brands=Mastercard';
  const sum = await summary(`group_by=status&${qs}`);
  assert.equal(sum.status, 200, sum.text);
  const base = `/api/v1/groups/${groupId}/processing/${s.demo.linked_account_id}/transactions/reporting?${qs}`;
  const count = await s.call('GET', `${base}&type=count`, { key });
  const amount = await s.call('GET', `${base}&type=amount_sum`, { key });
  assert.equal(sum.body.total_count, count.body.total_count);
  assert.equal(sum.body.total_amount, amount.body.total_amount);
  assert.deepEqual(sum.body.groups.map((g: { key: string }) => g.key), ['pending', 'refunded', 'settled']);
});

test('rollup filters, a filter the rollup lacks (customer_ids) and the status alone all equal the SQL', async () => {
  const start = new Date(nowMs - 30 * DAY).toISOString();
  const end = new Date(nowMs).toISOString();
  const customer = (await s.p.db.get<{ customer_id: string }>('SELECT customer_id FROM transactions WHERE group_id = ? AND customer_id IS NOT NULL LIMIT 1', [groupId]))!.customer_id;
  const cases = [
    { qs: 'statuses[]=settled&statuses[]=declined&brands=Discover', f: { statuses: ['settled', 'declined'], brands: ['Discover'] } },
    { qs: `customer_ids=${customer}`, f: { customer_ids: [customer] } },
    // The status as the only filter: whole days come from the per-dimension rollup.
    { qs: 'statuses=settled,pending', f: { statuses: ['settled', 'pending'] } },
  ];
  for (const c of cases) {
    for (const groupBy of SUMMARY_GROUPS) {
      const r = await summary(`group_by=${groupBy}&start=${start}&end=${end}&${c.qs}`);
      assert.equal(r.status, 200, r.text);
      const expected = await rawSql(groupId, groupBy, start, end, c.f);
      assert.ok(expected.length > 0, c.qs);
      assert.deepEqual(r.body.groups, expected, `${groupBy} ${c.qs}`);
    }
  }
});

test('only the path group is summarised; the default window is the last 6 months by day', async () => {
  const mine = await summary('');
  const theirs = await summary('', otherGroupId, (await execute(createKey, s.p, contextFor(s.p, otherGroupId), { permissions: ['view_transactions'] })).key);
  assert.equal(mine.status, 200);
  assert.equal(mine.body.group_by, 'day');
  const all = await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE group_id = ? AND created_at >= ?', [groupId, mine.body.start]);
  assert.equal(mine.body.total_count, all!.n);
  assert.equal(theirs.body.total_count, 800);
  // A key of one group cannot read another's summary.
  const cross = await summary('', otherGroupId);
  assert.ok([401, 403, 404].includes(cross.status), cross.text);
});

test('bad input: a 400 naming the parameter and the rule', async () => {
  const cases: Array<[string, RegExp]> = [
    ['group_by=week', /group_by.*"week" is not a summary grouping; use one of: day, status, brand, payment_method, source/],
    ['group_by=day&group_by=status', /group_by: must be given once/],
    ['type=count', /type/],
    ['limit=5', /limit/],
    ['statuses=nope', /statuses.*not a transaction status/],
    ['start=yesterday', /start.*RFC 3339/],
    [`start=${new Date(nowMs).toISOString()}&end=2020-01-01`, /start: must not be after end/],
  ];
  for (const [qs, re] of cases) {
    const r = await summary(qs);
    assert.equal(r.status, 400, qs);
    assert.equal(r.body.error.type, 'validation_error');
    assert.match(r.body.error.message, re, qs);
  }
  const noKey = await s.call('GET', `/api/v1/groups/${groupId}/transactions/reporting/summary`);
  assert.equal(noKey.status, 401);
});
