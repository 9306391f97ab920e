// Background work claimed with FOR UPDATE SKIP LOCKED (store/sql/dialect.ts): a row
// another server's write holds is passed over, never waited for or done twice, and is
// done by the next pass once that write is gone (a kill -9 rolls it back). Several
// servers (here: several stores, each a server's pool) running the same due work at once
// bill, settle and notify every row exactly once. PostgreSQL pass only.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { DbClock } from '../../src/services/clock/clock.js';
import { runDueWork } from '../../src/services/clock/scheduler.js';
import { billDueSubscriptions } from '../../src/services/recurring/billing.js';
import { createGroup, createLinkedAccount, createProcessor } from '../../src/services/groups/groups.js';
import { createCustomer, storeCard } from '../../src/services/customers/customers.js';
import { fixedToken } from '../../src/services/tokens/tokens.js';
import { createPlan } from '../../src/services/recurring/plans.js';
import { createSubscription } from '../../src/services/recurring/subscriptions.js';
import { createSale } from '../../src/services/transactions/sale.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw, withParams } from '../../src/services/use-case.js';
import { tempDbPath } from '../helpers/platform.js';
import { saleBody, US_BILLING } from '../helpers/bodies.js';
import { purgeIdempotencyKeys } from '../../src/services/idempotency.js';

const T0 = '2031-01-01T00:00:00.000Z';

/** A platform on `url` whose clock stands still at T0 until moved. */
async function frozen(url: string): Promise<Platform> {
  const p = await openPlatform({ db: url });
  p.clock = new DbClock(p.db, () => 0);
  await p.clock.refresh();
  return p;
}

/** A group with `n` daily subscriptions (each with a stored card) and `sales` pending sales, on a frozen platform. */
async function merchant(p: Platform, n: number, sales = 0): Promise<{ groupId: string; planId: string }> {
  await p.clock.setOffset(Date.parse(T0));
  const group = await execute(createGroup, p, contextFor(p, undefined), { name: 'Claims' });
  const processor = await execute(createProcessor, p, contextFor(p, group.id), { type: 'transaction_level' });
  const account = await execute(createLinkedAccount, p, contextFor(p, group.id), { processor_id: processor.id });
  const customer = await executeRaw(createCustomer, p, contextFor(p, group.id), { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  const plan = await executeRaw(createPlan, p, contextFor(p, group.id), withParams({ name: 'Daily', duration: 0, amount: 1000, billing_cycle: 'daily' }, { linked_account_id: account.id }));
  const card = await p.db.write((tx) =>
    storeCard(tx, {
      groupId: group.id, customerId: customer.id, linkedAccountId: account.id, token: fixedToken('tok_visa', p.clock.now())!,
      billing: { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' }, now: p.clock.nowIso(),
    }),
  );
  for (let i = 0; i < n; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, n - i) }, () =>
      executeRaw(createSubscription, p, contextFor(p, group.id), withParams({ plan_id: plan.id, customer_id: customer.id, billing_address: US_BILLING, card_id: card.id }, { linked_account_id: account.id }))));
  }
  for (let i = 0; i < sales; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, sales - i) }, (_, j) => executeRaw(createSale, p, contextFor(p, group.id), saleBody(processor.id, { amount: 100 + i + j }))));
  }
  return { groupId: group.id, planId: plan.id };
}

test('a billing pass passes over subscriptions another server holds, and bills them once that server is gone', async () => {
  const url = tempDbPath();
  const p = await frozen(url);
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    const { planId } = await merchant(p, 6);
    const ids = (await p.db.all<{ id: string }>('SELECT id FROM subscriptions WHERE plan_id = ? ORDER BY id', [planId])).map((r) => r.id);
    await p.clock.setOffset(Date.parse('2031-01-04T00:00:00.000Z'));
    // Another server mid-chunk: it holds two of the due subscriptions in its open transaction.
    await other.query('BEGIN');
    await other.query('SELECT id FROM subscriptions WHERE id = ANY($1) FOR UPDATE', [ids.slice(0, 2)]);
    const attempts = await billDueSubscriptions(p, p.clock.now());
    assert.equal(attempts, 4 * 3, 'the four free subscriptions billed their three due days, without waiting');
    const count = async (id: string) => (await p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM subscription_charges WHERE subscription_id = ?', [id]))!.n;
    assert.deepEqual(await Promise.all(ids.map(count)), [1, 1, 4, 4, 4, 4], 'the held two untouched (their first charge only)');
    // The other server dies: its transaction rolls back and the next pass bills the two.
    await other.query('ROLLBACK');
    assert.equal(await billDueSubscriptions(p, p.clock.now()), 2 * 3);
    assert.deepEqual(await Promise.all(ids.map(count)), [4, 4, 4, 4, 4, 4]);
  } finally {
    await other.end();
    await p.close();
  }
});

test('the idempotency purge passes over a key another server holds, and deletes it once that server is gone', async () => {
  const url = tempDbPath();
  const p = await openPlatform({ db: url });
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  const group = 'purge-held';
  const left = async () => (await p.db.all<{ key: string }>('SELECT key FROM idempotency_keys WHERE group_id = ? ORDER BY key', [group])).map((r) => r.key);
  try {
    await p.db.write((tx) =>
      tx.run(
        `INSERT INTO idempotency_keys (group_id, key, request_hash, status, body, created_at)
         SELECT ?, 'key-' || n, 'h', 200, '{}', '2030-01-01T00:00:00.000Z' FROM generate_series(1, 10) n`,
        [group],
      ),
    );
    // Another server settling key-3's answer: its open transaction holds the row.
    await other.query('BEGIN');
    await other.query(`UPDATE idempotency_keys SET status = 201 WHERE group_id = $1 AND key = 'key-3'`, [group]);
    const until = new Date('2030-01-03T00:00:00.000Z');
    assert.equal(await purgeIdempotencyKeys(p, until, { groupId: group }), 9, 'the nine free keys, without waiting');
    assert.deepEqual(await left(), ['key-3']);
    // The other server dies: its transaction rolls back and the next purge deletes the key.
    await other.query('ROLLBACK');
    assert.equal(await purgeIdempotencyKeys(p, until, { groupId: group }), 1);
    assert.deepEqual(await left(), []);
  } finally {
    await other.end();
    await p.close();
  }
});

test('three servers running the due work at once: every cycle billed once, every sale settled once, no write given up', async () => {
  const url = tempDbPath();
  const first = await frozen(url);
  const SUBS = 60;
  const SALES = 150;
  const { groupId, planId } = await merchant(first, SUBS, SALES);
  const ps = [first, await frozen(url), await frozen(url)];
  try {
    await first.clock.setOffset(Date.parse('2031-01-11T00:00:00.000Z'));
    for (const p of ps) await p.clock.refresh();
    const done = await Promise.all(ps.map((p) => runDueWork(p)));
    const sum = (job: string) => done.reduce((n, d) => n + (d[job] ?? 0), 0);
    assert.equal(sum('subscription-billing'), SUBS * 10, 'ten daily cycles each, billed by exactly one server');
    // Due for settlement: what was made before the day's cutoff (the sales and first charges of T0; the cycles billed now are stamped now).
    assert.equal(sum('settlement'), SALES + SUBS, 'every sale and first charge settled by exactly one server');
    const ledger = await first.db.get<{ n: number; d: number }>(
      `SELECT COUNT(*) AS n, COUNT(DISTINCT c.subscription_id || ':' || c.period || ':' || c.attempt) AS d
       FROM subscription_charges c JOIN subscriptions s ON s.id = c.subscription_id WHERE s.plan_id = ?`,
      [planId],
    );
    assert.deepEqual(ledger, { n: SUBS * 11, d: SUBS * 11 });
    const txs = await first.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE plan_id = ?', [planId]);
    assert.equal(txs!.n, SUBS * 11);
    const batches = await first.db.all<{ id: string; transaction_count: number; rows: number }>(
      `SELECT b.id, b.transaction_count, (SELECT COUNT(*) FROM transactions t WHERE t.settlement_batch_id = b.id) AS rows
       FROM settlement_batches b WHERE b.group_id = ?`,
      [groupId],
    );
    for (const b of batches) assert.equal(b.rows, b.transaction_count, 'a batch counts exactly the rows it settled');
    const settled = await first.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM transactions WHERE group_id = ? AND status = 'settled'", [groupId]);
    assert.equal(settled!.n, SALES + SUBS);
    const closed = await first.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE group_id = ? AND type = 'settlement_batch.closed'", [groupId]);
    assert.equal(closed!.n, batches.length, 'one closed event per batch');
  } finally {
    await Promise.all(ps.map((p) => p.close()));
  }
});
