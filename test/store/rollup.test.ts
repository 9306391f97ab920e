// The reporting rollups (transaction_daily, and transaction_daily_dims which follows it) are kept per write batch for new rows and by
// triggers for changes: after mixed concurrent writes — batched sales and auths, writes
// that fail after inserting, captures, voids, refunds, settlement by the clock — it must
// equal the same sums computed from the rows, on either store. (A SQLite database from
// before the rollup migration: rollup-migration.test.ts.)
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoPlatform } from '../helpers/platform.js';
import { saleBody } from '../helpers/bodies.js';
import { createSale } from '../../src/services/transactions/sale.js';
import { captureTransaction, refundTransaction, voidTransaction } from '../../src/services/transactions/lifecycle.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { assertRollupExact } from '../helpers/rollup.js';
import { newId } from '../../src/lib/ids.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw, withParams } from '../../src/services/use-case.js';

test('the rollup equals the rows after mixed concurrent writes, failed writes, voids, refunds and settlement', async () => {
  const { p, demo } = await demoPlatform();
  try {
    const before = await assertRollupExact(p, 'after the demo data');

    // 60 sales and 30 auths at once (group commit: several writes per batch), a third declined,
    // interleaved with writes that insert a transaction and then fail.
    const base = (await executeRaw(createSale, p, contextFor(p, demo.group_id), saleBody(demo.processor_id)));
    const template = (await p.db.repos.transactions.find(p.db, demo.group_id, base.id))!;
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 90; i++) {
      const token = i % 3 === 0 ? 'tok_visa_declined' : i % 5 === 0 ? 'tok_mastercard' : 'tok_visa';
      work.push(executeRaw(createSale, p, contextFor(p, demo.group_id), saleBody(demo.processor_id, { token, amount: 100 + i, type: i % 3 === 1 ? 'auth' : 'sale' })));
      if (i % 10 === 4) {
        work.push(
          p.db
            .write(async (tx) => {
              await tx.repos.transactions.insert(tx, { ...template, id: `fail-${i}`, status: 'pending', captured_amount: 999 });
              throw new Error('fails after inserting');
            })
            .catch((e: Error) => e.message),
        );
      }
    }
    const results = await Promise.allSettled(work);
    const sales = results.flatMap((r) => (r.status === 'fulfilled' && r.value && typeof r.value === 'object' ? [r.value as { id: string; status: string; transaction_type: string }] : []));
    assert.ok(sales.length >= 90, `${sales.length} sales`);
    assert.equal((await p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM transactions WHERE id LIKE 'fail-%'"))!.n, 0);
    const afterSales = await assertRollupExact(p, 'after concurrent sales, auths and failed writes');
    assert.equal(afterSales, before + 1 + 90);

    // Captures (full and partial), voids and refunds, concurrently; some refused.
    const auths = sales.filter((s) => s.status === 'authorized');
    const approvedSales = sales.filter((s) => s.status === 'pending' || s.status === 'captured');
    const changes: Array<Promise<unknown>> = [];
    auths.forEach((a, i) => changes.push(execute(captureTransaction, p, contextFor(p, demo.group_id), { transaction_id: a.id, capture: i % 2 ? { kind: 'up_to', amount: 50, path: 'amount' } : { kind: 'up_to', path: 'amount' } }).catch(() => 'refused')));
    approvedSales.slice(0, 10).forEach((s) => changes.push(execute(voidTransaction, p, contextFor(p, demo.group_id), { transaction_id: s.id }).catch(() => 'refused')));
    changes.push(execute(refundTransaction, p, contextFor(p, demo.group_id), { transaction_id: approvedSales[0]!.id, ...{ amount: 10 } }).catch(() => 'refused')); // voided: refused
    await Promise.all(changes);
    await assertRollupExact(p, 'after captures and voids');

    // Settlement by the clock, then refunds of settled transactions (full and partial).
    await advanceClock(p, 2 * 86_400_000);
    const settled = await p.db.all<{ id: string; captured_amount: number }>("SELECT id, captured_amount FROM transactions WHERE status = 'settled' LIMIT 6");
    assert.ok(settled.length >= 4);
    await Promise.all(settled.map((t, i) => execute(refundTransaction, p, contextFor(p, demo.group_id), { transaction_id: t.id, ...i % 2 ? { amount: 1 } : {} })));
    await assertRollupExact(p, 'after settlement and refunds');

    // New rows queued together (one batch): each counted once.
    const insertOne = (i: number) => p.db.write(async (tx) => tx.repos.transactions.insert(tx, { ...template, id: newId(), requested_amount: i, captured_amount: i }));
    const total = (await Promise.all(Array.from({ length: 16 }, (_, i) => insertOne(7 + i)))).length;
    assert.equal(total, 16);
    assert.equal(await assertRollupExact(p, 'after a batch of new rows'), afterSales + 16);
  } finally {
    await p.close();
  }
});

test('a stored card removed after a sale read it fails that sale alone (its check travels with the batch)', async () => {
  const { p, demo } = await demoPlatform();
  try {
    const { addCard } = await import('../../src/services/transactions/add-card.js');
    const ctx = () => contextFor(p, demo.group_id);
    const address = { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' };
    const keep = await executeRaw(addCard, p, ctx(), withParams({ token: 'tok_visa', billing_address: address }, { linked_account_id: demo.linked_account_id, customer_id: demo.customer_id }));
    const gone = await executeRaw(addCard, p, ctx(), withParams({ token: 'tok_mastercard', billing_address: address }, { linked_account_id: demo.linked_account_id, customer_id: demo.customer_id }));
    const body = (cardId: string) => ({
      type: 'sale', source: 'api', processor_id: demo.processor_id, currency: 'USD', email_address: 'a@example.com', email_receipt: false,
      amounts: { requested_amount: 500 }, payment_details: { customer: { customer_id: demo.customer_id, card_id: cardId } },
    });
    const before = (await p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions'))!.n;
    // The card goes in a write queued alone (the writes queued after it wait for its commit,
    // on either store) while the sales, which read both cards before their writes, queue.
    const removal = p.db.write(async (tx) => {
      await new Promise((r) => setTimeout(r, 80));
      await tx.run('DELETE FROM customer_cards WHERE id = ?', [gone.card_id]);
    }, { alone: true });
    const sales = await Promise.allSettled([...Array.from({ length: 6 }, () => executeRaw(createSale, p, ctx(), body(keep.card_id))), executeRaw(createSale, p, ctx(), body(gone.card_id))]);
    await removal;
    assert.deepEqual(sales.slice(0, 6).map((s) => s.status), Array(6).fill('fulfilled'));
    assert.equal(sales[6]!.status, 'rejected');
    assert.match(String((sales[6] as PromiseRejectedResult).reason), /card_id: is not a card of this customer/);
    assert.equal((await p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions'))!.n, before + 6);
    await assertRollupExact(p, 'after the sales');
  } finally {
    await p.close();
  }
});
