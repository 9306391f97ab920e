// The reporting rollup's maintenance, both stores (the statements are each store's own:
// Dialect.rollup, ../sqlite/rollup.ts and ../postgres/rollup.ts). New transactions are
// counted once per write batch (rollupOfInserts); rows copied by INSERT … SELECT (a
// sandbox fork) are counted by group afterwards (countGroupIntoRollup); updates and
// deletes reach the rollup through each store's triggers.
import type { BatchReducer, JsonStatement, Tx } from '../interfaces/db.js';
import type { TransactionEntity } from '../../domain/transactions.js';
import { SPLIT } from '../../domain/money.js';
import type { Dialect } from './dialect.js';

/** The rollup's key columns (transaction_daily; PostgreSQL adds its slot). */
export const DIMENSIONS = 'group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id';
export const DIMENSION_COUNT = 9;
/** The split of a net amount into two halves (migration 21), as SQL text. */
export const SPLIT_SQL = String(SPLIT);

/** What the rollup counts of a new transaction. */
export type RollupItem = Pick<TransactionEntity, 'group_id' | 'created_at' | 'status' | 'transaction_type' | 'method_detail' | 'brand' | 'source' | 'currency' | 'processor_id' | 'captured_amount' | 'refunded_amount'>;

/**
 * New transactions into the rollup, once per write batch: the batch's rows summed per
 * day and dimensions in memory, then one upsert of those sums (instead of a trigger per
 * row). The store runs it before the batch's COMMIT, over the rows of the writes that
 * succeeded.
 */
export const rollupOfInserts: BatchReducer<RollupItem> = {
  name: 'transaction_daily',
  statements(rows: RollupItem[], dialect: Dialect): JsonStatement[] {
    const sums = new Map<string, Array<string | number>>();
    for (const r of rows) {
      const key = [r.group_id, r.created_at.slice(0, 10), r.status, r.transaction_type, r.method_detail, r.brand ?? '', r.source, r.currency, r.processor_id];
      const id = key.join('\u0000');
      // The net amount in the rollup's two halves (migration 21), as SQL splits it:
      // truncated division by a power of two is exact in doubles.
      const net = r.captured_amount - r.refunded_amount;
      const high = Math.trunc(net / SPLIT);
      const low = net % SPLIT;
      const seen = sums.get(id);
      if (seen) {
        (seen[DIMENSION_COUNT] as number)++;
        (seen[DIMENSION_COUNT + 1] as number) += high;
        (seen[DIMENSION_COUNT + 2] as number) += low;
      } else sums.set(id, [...key, 1, high, low]);
    }
    return [{ sql: dialect.rollup.addJsonRows, json: JSON.stringify([...sums.values()]) }];
  },
};

/** Add one group's transactions to the rollup (rows copied by INSERT … SELECT, e.g. a sandbox fork). */
export async function countGroupIntoRollup(tx: Tx, groupId: string): Promise<void> {
  await tx.run(tx.dialect.rollup.addTransactions('WHERE group_id = ?'), [groupId]);
}
