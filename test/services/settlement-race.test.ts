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
import { execute, executeRaw } from '../../src/services/use-case.js';

const { p, demo } = await demoPlatform();
after(() => p.close());

test('void raced against settlement 1,000 times: every batch counts exactly the rows it settled', async (t) => {
  const ROUNDS = 1000;
  const dayLater = () => new Date(p.clock.now().getTime() + 86_400_000);
  let voided = 0;
  let settledRaces = 0;
  const ids: string[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const sale = await executeRaw(createSale, p, contextFor(p, demo.group_id), saleBody(demo.processor_id, { amount: 100 + i }));
    assert.equal(sale.status, 'pending');
    // Every fourth round settlement runs alone first (so there are batches to count, and
    // the void then fails); the others start both at once, so settlement reads the sale as
    // a candidate while the void is queued to write: the window the counts must survive.
    const ctx = contextFor(p, demo.group_id);
    const settle = () => runSettlement(p, dayLater(), { groupId: demo.group_id });
    const voidIt = () => execute(voidTransaction, p, ctx, { transaction_id: sale.id });
    let voidOk: boolean;
    let settledNow: number;
    if (i % 4 === 3) {
      settledNow = await settle();
      voidOk = await voidIt().then(() => true, () => false);
    } else {
      const [v, s] = await Promise.allSettled([voidIt(), settle()]);
      voidOk = v.status === 'fulfilled';
      settledNow = s.status === 'fulfilled' ? s.value : 0;
    }
    ids.push(sale.id);
    if (voidOk) voided++;
    if (settledNow > 0) settledRaces++;
  }
  const batches = await p.db.all<{ id: string; transaction_count: number; total_amount: number; settled: number; amount: number }>(
    `SELECT b.id, b.transaction_count, b.total_amount,
            (SELECT COUNT(*) FROM transactions t WHERE t.settlement_batch_id = b.id AND t.status = 'settled') AS settled,
            (SELECT COALESCE(SUM(captured_amount), 0) FROM transactions t WHERE t.settlement_batch_id = b.id AND t.status = 'settled') AS amount
     FROM settlement_batches b WHERE b.group_id = ?`,
    [demo.group_id],
  );
  t.diagnostic(`${voided} sales voided, settlement moved rows in ${settledRaces} rounds; ${batches.length} batches`);
  assert.ok(voided > 0 && settledRaces > 0, `both outcomes must occur (voided ${voided}, settled ${settledRaces})`);
  // Each sale ended exactly one way: voided, or settled into a batch.
  const ends = await p.db.all<{ status: string; n: number }>(
    `SELECT status, COUNT(*) AS n FROM transactions WHERE id IN ${p.db.dialect.jsonValues()} GROUP BY status`,
    [JSON.stringify(ids)],
  );
  assert.deepEqual(ends.map((e) => e.status).filter((st) => st !== 'settled' && st !== 'voided'), []);
  assert.equal(ends.find((e) => e.status === 'voided')?.n ?? 0, voided);
  for (const b of batches) {
    assert.equal(b.transaction_count, b.settled, `batch ${b.id}: transaction_count`);
    assert.equal(b.total_amount, b.amount, `batch ${b.id}: total_amount`);
    assert.ok(b.transaction_count > 0, `batch ${b.id} is empty`);
  }
  const settledInBatches = batches.reduce((n, b) => n + b.transaction_count, 0);
  const settledRows = (await p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM transactions WHERE group_id = ? AND status = 'settled'", [demo.group_id]))!.n;
  assert.equal(settledInBatches, settledRows);
});
