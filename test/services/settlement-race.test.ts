// Settlement against a concurrent void: a batch's transaction_count and total_amount must
// describe exactly the transactions it settled, whichever of the two wins each race.
import '../helpers/env.js';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { demoPlatform } from '../helpers/platform.js';
import { createSale } from '../../src/services/transactions/sale.js';
import { voidTransaction } from '../../src/services/transactions/lifecycle.js';
import { runSettlement } from '../../src/services/transactions/settlement.js';
import { saleBody } from '../helpers/bodies.js';
import { contextFor } from '../../src/services/context.js';

const { p, demo } = await demoPlatform();
after(() => p.close());

test('void raced against settlement 1,000 times: every batch counts exactly the rows it settled', async () => {
  const ROUNDS = 1000;
  const dayLater = () => new Date(p.clock.now().getTime() + 86_400_000);
  let voided = 0;
  let settledRaces = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const sale = await createSale(p, contextFor(p, demo.group_id), saleBody(demo.processor_id, { amount: 100 + i }));
    assert.equal(sale.status, 'pending');
    // Both start before either writes: settlement reads its candidates while the void is queued.
    const [v, s] = await Promise.allSettled([voidTransaction(p, contextFor(p, demo.group_id), sale.id), runSettlement(p, dayLater(), { groupId: demo.group_id })]);
    if (v.status === 'fulfilled') voided++;
    if (s.status === 'fulfilled' && s.value > 0) settledRaces++;
  }
  const batches = await p.db.all<{ id: string; transaction_count: number; total_amount: number; settled: number; amount: number }>(
    `SELECT b.id, b.transaction_count, b.total_amount,
            (SELECT COUNT(*) FROM transactions t WHERE t.settlement_batch_id = b.id AND t.status = 'settled') AS settled,
            (SELECT COALESCE(SUM(captured_amount), 0) FROM transactions t WHERE t.settlement_batch_id = b.id AND t.status = 'settled') AS amount
     FROM settlement_batches b WHERE b.group_id = ?`,
    [demo.group_id],
  );
  assert.ok(voided > 0 && settledRaces > 0, `both sides must win some races (voided ${voided}, settled ${settledRaces})`);
  for (const b of batches) {
    assert.equal(b.transaction_count, b.settled, `batch ${b.id}: transaction_count`);
    assert.equal(b.total_amount, b.amount, `batch ${b.id}: total_amount`);
    assert.ok(b.transaction_count > 0, `batch ${b.id} is empty`);
  }
  const settledInBatches = batches.reduce((n, b) => n + b.transaction_count, 0);
  const settledRows = (await p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM transactions WHERE group_id = ? AND status = 'settled'", [demo.group_id]))!.n;
  assert.equal(settledInBatches, settledRows);
});
