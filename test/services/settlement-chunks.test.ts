// Settlement in chunks: a day of 250 sales settles into three batches of its cutoff (at
// most SETTLEMENT_BATCH_MAX each), each whole: its totals are its rows and it has its own
// settlement_batch.closed; nothing is left pending and nothing is settled twice.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempPlatform } from '../helpers/platform.js';
import { createSale } from '../../src/services/transactions/sale.js';
import { runSettlement, SETTLEMENT_BATCH_MAX } from '../../src/services/transactions/settlement.js';
import { createGroup, createLinkedAccount, createProcessor } from '../../src/services/groups/groups.js';
import { saleBody } from '../helpers/bodies.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

test(`a cutoff with 250 sales closes batches of at most ${SETTLEMENT_BATCH_MAX}, each whole with its own closed event`, async () => {
  const p = await tempPlatform();
  try {
    const group = await execute(createGroup, p, contextFor(p, undefined), { name: 'Busy day' });
    const processor = await execute(createProcessor, p, contextFor(p, group.id), { type: 'transaction_level' });
    await execute(createLinkedAccount, p, contextFor(p, group.id), { processor_id: processor.id });
    const SALES = 250;
    for (let i = 0; i < SALES; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => executeRaw(createSale, p, contextFor(p, group.id), saleBody(processor.id, { amount: 100 + i + j }))));
    }
    const settled = await runSettlement(p, new Date(p.clock.now().getTime() + 86_400_000), { groupId: group.id });
    assert.equal(settled, SALES);
    const batches = await p.db.all<{ id: string; cutoff_at: string; transaction_count: number; total_amount: number; rows: number; amount: number }>(
      `SELECT b.id, b.cutoff_at, b.transaction_count, b.total_amount,
              (SELECT COUNT(*) FROM transactions t WHERE t.settlement_batch_id = b.id) AS rows,
              (SELECT SUM(captured_amount) FROM transactions t WHERE t.settlement_batch_id = b.id) AS amount
       FROM settlement_batches b WHERE b.group_id = ? ORDER BY b.transaction_count DESC`,
      [group.id],
    );
    assert.deepEqual(batches.map((b) => b.transaction_count), [100, 100, 50]);
    assert.equal(new Set(batches.map((b) => b.cutoff_at)).size, 1, 'one cutoff');
    for (const b of batches) assert.deepEqual([b.rows, b.amount], [b.transaction_count, b.total_amount]);
    const closed = await p.db.all<{ data: string }>("SELECT data FROM events WHERE group_id = ? AND type = 'settlement_batch.closed'", [group.id]);
    assert.deepEqual(closed.map((c) => (JSON.parse(c.data) as { object: { id: string } }).object.id).sort(), batches.map((b) => b.id).sort());
    const left = await p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM transactions WHERE group_id = ? AND status <> 'settled'", [group.id]);
    assert.equal(left!.n, 0);
  } finally {
    await p.close();
  }
});
