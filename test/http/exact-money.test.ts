// Exact money (docs/decisions.md#amounts): the largest amount is held everywhere money
// is made (requests, invoice totals, accumulated prorations), and every sum the API
// answers is exact at any volume — including databases that hold amounts up to 2^53-1
// accepted before the bound. Sums are read from the raw JSON text (an exact integer
// literal), never through JSON.parse's doubles.
import '../helpers/env.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody, US_BILLING } from '../helpers/bodies.js';
import { transactionRepo } from '../../src/store/sql/repositories/transactions.js';
import { newId } from '../../src/lib/ids.js';
import * as money from '../../src/domain/money.js';

/** docs/decisions.md#amounts: the largest amount (written out, so this file checks the decision, not the constant). */
const MAX_AMOUNT = 99_999_999_999;
const LEGACY = 2 ** 53 - 1; // the largest amount accepted before the bound
const DAY = 86_400_000;

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

/** The integer literal of `field` in a JSON text, exactly (a BigInt). */
function exactField(text: string, field: string): bigint {
  const m = new RegExp(`"${field}":(-?\\d+)[,}]`).exec(text);
  assert.ok(m, `no integer ${field} in ${text.slice(0, 300)}`);
  return BigInt(m[1]!);
}

/** `n` transactions of `amount` in the sandbox, as a database from before the bound holds them. */
async function legacySales(sb: SandboxReply, n: number, amount: number, orderId = 'legacy'): Promise<void> {
  const r = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id, { amount: 100, orderId }) });
  assert.equal(r.status, 200, r.text);
  const template = (await transactionRepo.find(s.p.db, sb.group_id, r.body.id))!;
  await s.p.db.write((tx) => tx.run('DELETE FROM transactions WHERE id = ?', [template.id]));
  await s.p.db.write(async (tx) => {
    for (let i = 0; i < n; i++) {
      await transactionRepo.insert(tx, { ...template, id: newId(), requested_amount: amount, authorized_amount: amount, captured_amount: amount });
    }
  });
}

async function sums(sb: SandboxReply, query = ''): Promise<{ amountSum: bigint; summary: bigint; buckets: bigint }> {
  const key = sb.keys.view_transactions;
  const start = new Date(Date.parse(sb.clock) - 3 * DAY).toISOString();
  const a = await s.call('GET', `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/transactions/reporting?type=amount_sum&start=${start}${query}`, { key });
  assert.equal(a.status, 200, a.text);
  const b = await s.call('GET', `/api/v1/groups/${sb.group_id}/transactions/reporting/summary?group_by=status&start=${start}${query}`, { key });
  assert.equal(b.status, 200, b.text);
  const buckets = [...b.text.matchAll(/"amount":(\d+)/g)].reduce((n, m) => n + BigInt(m[1]!), 0n);
  return { amountSum: exactField(a.text, 'total_amount'), summary: exactField(b.text, 'total_amount'), buckets };
}

describe('sums are exact integers at any size', () => {
  test('three sales of 2^53-1: amount_sum, the summary and settlement_batch.closed are exact (not one unit low)', async () => {
    const sb = await newSandbox(s);
    await legacySales(sb, 3, LEGACY);
    const expected = 3n * BigInt(LEGACY);
    // Both the rollup path (whole days) and the row path (a filter the rollup lacks).
    for (const q of ['', '&order_id=legacy']) {
      const got = await sums(sb, q);
      assert.equal(got.amountSum, expected, `amount_sum${q}`);
      assert.equal(got.summary, expected, `summary${q}`);
      assert.equal(got.buckets, expected, `summary buckets${q}`);
    }
    // Settlement at the next cutoff: the batch's total in its event, exact.
    const moved = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body: { advance: '2d' } });
    assert.equal(moved.status, 200, moved.text);
    const events = await s.call('GET', `/api/v1/groups/${sb.group_id}/events?types=settlement_batch.closed`, { key: sb.keys.view_transactions });
    assert.equal(events.status, 200, events.text);
    assert.equal(exactField(events.text, 'total_amount'), expected);
  });

  test('1,100 sales of 2^53-1 (past a 64-bit integer): amount_sum, summary and fork answer 200, exact', async () => {
    const sb = await newSandbox(s);
    await legacySales(sb, 1100, LEGACY);
    const expected = 1100n * BigInt(LEGACY);
    assert.ok(expected > 2n ** 63n);
    for (const q of ['', '&order_id=legacy']) {
      const got = await sums(sb, q);
      assert.equal(got.amountSum, expected, `amount_sum${q}`);
      assert.equal(got.summary, expected, `summary${q}`);
    }
    const fork = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/fork`, { key: ADMIN, body: { name: 'big fork' } });
    assert.equal(fork.status, 201, fork.text);
    const copy = fork.body as SandboxReply;
    assert.equal((await sums(copy)).amountSum, expected);
  });
});

describe('the largest amount is held where money is made', () => {
  test('the largest amount is 99,999,999,999 cents', () => assert.equal(money.MAX_AMOUNT, MAX_AMOUNT));

  test('a sale of 99,999,999,999 is accepted, one cent more is a 400 naming the field', async () => {
    const sb = await newSandbox(s);
    const sale = (amount: number) => s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id, { amount }) });
    assert.equal((await sale(MAX_AMOUNT)).status, 200);
    const r = await sale(MAX_AMOUNT + 1);
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.body.error.fields.map((f: { path: string }) => f.path), ['amounts.requested_amount']);
  });

  test('an invoice whose Σ amount × quantity passes the bound is a 400 on products; nothing is written', async () => {
    const sb = await newSandbox(s, { demo: true });
    const key = sb.keys.manage_invoices;
    const product = await s.call('POST', `/api/v1/groups/${sb.group_id}/products`, {
      key: sb.keys.manage_products, body: { name: 'Big', description: 'big', amount: MAX_AMOUNT, unit_of_measure: 'pc' },
    });
    assert.equal(product.status, 200, product.text);
    const partnerId = (sb.partner_ids as string[])[0];
    const invoice = (quantity: number) => s.call('POST', `/api/v1/groups/${sb.group_id}/invoices`, {
      key,
      body: { partner_id: partnerId, due_date: '2030-01-01', processor_id: sb.processor_id, card_enabled: true, ach_enabled: false, products: [{ product_id: product.body.id, quantity }] },
    });
    const before = (await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM invoices WHERE group_id = ?', [sb.group_id]))!.n;
    const r = await invoice(2);
    assert.equal(r.status, 400, r.text);
    assert.ok(r.body.error.fields.some((f: { path: string; message: string }) => f.path === 'products' && /99999999999/.test(f.message)), r.text);
    assert.equal((await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM invoices WHERE group_id = ?', [sb.group_id]))!.n, before);
    assert.equal((await invoice(1)).status, 200);
  });

  test('prorations cannot add up past the bound: an update that would is a 400 naming the amount, and the next charge stays within it', async () => {
    const sb = await newSandbox(s, { demo: true });
    const key = sb.keys.manage_transactions;
    const base = `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/recurring`;
    const plan = await s.call('POST', `${base}/plans`, { key, body: { name: 'Big', amount: 50_000_000_000, billing_cycle: 'monthly', duration: '0' } });
    assert.equal(plan.status, 200, plan.text);
    const sub = await s.call('POST', `${base}/subscription`, { key, body: { plan_id: plan.body.id, customer_id: sb.customer_id, card_id: sb.card_id } });
    assert.equal(sub.status, 200, sub.text);
    const update = (amount: number) => s.call('PUT', `${base}/subscription/${sub.body.id}`, {
      key,
      body: {
        plan_id: plan.body.id, processor_id: sb.processor_id, currency: 'USD', amounts: { requested_amount: amount },
        billing_address: US_BILLING, billing_cycle: 'monthly', duration: '0', max_retry_count: '3', proration_behavior: 'create_prorations',
      },
    });
    // Up to the largest amount right after the first charge: the next charge would be
    // 99,999,999,999 + ~50,000,000,000 prorated. Refused, and nothing changed.
    const up = await update(MAX_AMOUNT);
    assert.equal(up.status, 400, up.text);
    assert.deepEqual(up.body.error.fields.map((f: { path: string }) => f.path), ['amounts.requested_amount']);
    const still = await s.call('GET', `${base}/subscription/${sub.body.id}`, { key });
    assert.equal(still.body.pending_proration_amount ?? 0, 0);
    // Up and down as the clock moves: every accepted state keeps the next charge and the credit within the bound.
    let refused = 0;
    for (let i = 0; i < 12; i++) {
      const r = await update(i % 2 === 0 ? 0 : MAX_AMOUNT);
      if (r.status === 400) {
        refused++;
        assert.deepEqual(r.body.error.fields.map((f: { path: string }) => f.path), ['amounts.requested_amount'], r.text);
      } else {
        assert.equal(r.status, 200, r.text);
        const pending = r.body.pending_proration_amount ?? 0;
        assert.ok(r.body.amounts.amount + pending <= MAX_AMOUNT, `next charge ${r.body.amounts.amount} + ${pending}`);
        assert.ok(pending >= -MAX_AMOUNT, `credit ${pending}`);
      }
      await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body: { advance: i % 2 === 0 ? '1d' : '20d' } });
    }
    assert.ok(refused > 0, 'some update passed the bound and was refused');
    // Whatever was charged stayed within the bound.
    const max = (await s.p.db.get<{ m: number }>('SELECT MAX(requested_amount) AS m FROM transactions WHERE group_id = ?', [sb.group_id]))!.m;
    assert.ok(max <= MAX_AMOUNT, `a charge of ${max}`);
  });
});
