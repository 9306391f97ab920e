import type { Executor, Tx } from '../db.js';
import { scopeCondition, type GroupScope } from './group-clocks.js';

export interface SettleCandidate {
  id: string;
  group_id: string;
  created_at: string;
  amount: number;
}

export const settlementRepo = {
  /** Pending sales and captured auths of the groups in `scope` created before `before`, oldest first. */
  candidates(ex: Executor, before: string, limit: number, scope: GroupScope) {
    const s = scopeCondition(scope);
    return ex.all<SettleCandidate>(
      `SELECT id, group_id, created_at, captured_amount AS amount FROM transactions
       WHERE status IN ('pending', 'captured', 'partially_captured') AND created_at < ? AND ${s.sql}
       ORDER BY created_at, id LIMIT ?`,
      [before, ...s.params, limit],
    );
  },
  async insertBatch(ex: Tx, b: { id: string; group_id: string; cutoff_at: string; transaction_count: number; total_amount: number; created_at: string }) {
    await ex.run(
      'INSERT INTO settlement_batches (id, group_id, cutoff_at, transaction_count, total_amount, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [b.id, b.group_id, b.cutoff_at, b.transaction_count, b.total_amount, b.created_at],
    );
  },
  /**
   * Compare-and-set of a batch's transactions to settled; returns the rows it actually
   * moved (a transaction voided since it was read is left alone and not returned).
   */
  settle: (ex: Executor, ids: readonly string[], batchId: string, at: string) =>
    ex.all<{ id: string; amount: number }>(
      `UPDATE transactions SET status = 'settled', settlement_batch_id = ?, updated_at = ?
       WHERE id IN (SELECT value FROM json_each(?)) AND status IN ('pending', 'captured', 'partially_captured')
       RETURNING id, captured_amount AS amount`,
      // One statement text whatever the count (the ids travel as one JSON array), so it is prepared once.
      [batchId, at, JSON.stringify(ids)],
    ),
  /** A batch's totals, from the rows settle() moved into it. */
  setBatchTotals: (ex: Tx, id: string, transactionCount: number, totalAmount: number) =>
    ex.run('UPDATE settlement_batches SET transaction_count = ?, total_amount = ? WHERE id = ?', [transactionCount, totalAmount, id]),
  deleteBatch: (ex: Tx, id: string) => ex.run('DELETE FROM settlement_batches WHERE id = ?', [id]),
  async hasExpiringAuths(ex: Executor, createdBefore: string, scope: GroupScope): Promise<boolean> {
    const s = scopeCondition(scope);
    return (await ex.get(`SELECT 1 AS x FROM transactions WHERE status = 'authorized' AND created_at < ? AND ${s.sql} LIMIT 1`, [createdBefore, ...s.params])) !== undefined;
  },
  expireAuths(ex: Tx, createdBefore: string, at: string, scope: GroupScope) {
    const s = scopeCondition(scope);
    return ex.run(`UPDATE transactions SET status = 'expired', updated_at = ? WHERE status = 'authorized' AND created_at < ? AND ${s.sql}`, [
      at,
      createdBefore,
      ...s.params,
    ]);
  },
};
