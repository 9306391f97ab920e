// Settlement batches: the SettlementStore of the settlement job.
import { toTransactionEntity, type TransactionRow } from './transactions.js';
import { scopeCondition } from './group-clocks.js';
import type { SettleCandidate, SettlementStore } from '../../interfaces/transactions.js';
import type { Executor } from '../../interfaces/db.js';
import type { GroupScope } from './group-clocks.js';

/** Pending sales and captured auths of the groups in `scope` created before `before`, oldest first; `claim` ends the SELECT. */
function candidates(ex: Executor, before: string, limit: number, scope: GroupScope, claim: string) {
  const s = scopeCondition(scope);
  return ex.all<SettleCandidate>(
    `SELECT id, group_id, created_at, captured_amount AS amount FROM transactions
     WHERE status IN ('pending', 'captured', 'partially_captured') AND created_at < ? AND ${s.sql}
     ORDER BY created_at, id LIMIT ?${claim}`,
    [before, ...s.params, limit],
  );
}

export const settlementRepo: SettlementStore = {
  candidates: (ex, before, limit, scope) => candidates(ex, before, limit, scope, ''),
  claimCandidates: (tx, before, limit, scope) => candidates(tx, before, limit, scope, tx.dialect.skipLocked),
  async insertBatch(ex, b) {
    await ex.run(
      'INSERT INTO settlement_batches (id, group_id, cutoff_at, transaction_count, total_amount, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [b.id, b.group_id, b.cutoff_at, b.transaction_count, b.total_amount, b.created_at],
    );
  },
  /**
   * Compare-and-set of a batch's transactions to settled; returns the transactions it
   * actually moved, in id order (a transaction voided since it was read is left alone
   * and not returned).
   */
  async settle(ex, ids, batchId, at) {
    const rows = await ex.all<TransactionRow>(
      `UPDATE transactions SET status = 'settled', settlement_batch_id = ?, updated_at = ?
       WHERE id IN ${ex.dialect.jsonValues()} AND status IN ('pending', 'captured', 'partially_captured')
       RETURNING *`,
      // One statement text whatever the count (the ids travel as one JSON array), so it is prepared once.
      [batchId, at, JSON.stringify(ids)],
    );
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(toTransactionEntity);
  },
  /** A batch's totals, from the rows settle() moved into it. */
  setBatchTotals: (ex, id, transactionCount, totalAmount) =>
    ex.run('UPDATE settlement_batches SET transaction_count = ?, total_amount = ? WHERE id = ?', [transactionCount, typeof totalAmount === 'bigint' ? totalAmount.toString() : totalAmount, id]),
  deleteBatch: (ex, id) => ex.run('DELETE FROM settlement_batches WHERE id = ?', [id]),
  async hasExpiringAuths(ex, createdBefore, scope) {
    const s = scopeCondition(scope);
    return (await ex.get(`SELECT 1 AS x FROM transactions WHERE status = 'authorized' AND created_at < ? AND ${s.sql} LIMIT 1`, [createdBefore, ...s.params])) !== undefined;
  },
  /** Expire old auths, at most `limit`, oldest first; answers the rows it moved (for their events). */
  async expireAuths(ex, createdBefore, at, scope, limit) {
    const s = scopeCondition(scope);
    const rows = await ex.all<TransactionRow>(
      `UPDATE transactions SET status = 'expired', updated_at = ? WHERE id IN (
         SELECT id FROM transactions WHERE status = 'authorized' AND created_at < ? AND ${s.sql} ORDER BY created_at, id LIMIT ?${ex.dialect.skipLocked}
       ) RETURNING *`,
      [at, createdBefore, ...s.params, limit ?? ex.dialect.noLimit],
    );
    return rows.map(toTransactionEntity);
  },
};
