import type { Executor, Tx } from '../db.js';

export interface SettleCandidate {
  id: string;
  group_id: string;
  created_at: string;
  amount: number;
}

export const settlementRepo = {
  /** Pending sales and captured auths created before `before`, oldest first. */
  candidates: (ex: Executor, before: string, limit: number) =>
    ex.all<SettleCandidate>(
      `SELECT id, group_id, created_at, captured_amount AS amount FROM transactions
       WHERE status IN ('pending', 'captured', 'partially_captured') AND created_at < ?
       ORDER BY created_at, id LIMIT ?`,
      [before, limit],
    ),
  async insertBatch(ex: Tx, b: { id: string; group_id: string; cutoff_at: string; transaction_count: number; total_amount: number; created_at: string }) {
    await ex.run(
      'INSERT INTO settlement_batches (id, group_id, cutoff_at, transaction_count, total_amount, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [b.id, b.group_id, b.cutoff_at, b.transaction_count, b.total_amount, b.created_at],
    );
  },
  settle: (ex: Tx, id: string, batchId: string, at: string) =>
    ex.run(
      "UPDATE transactions SET status = 'settled', settlement_batch_id = ?, updated_at = ? WHERE id = ? AND status IN ('pending', 'captured', 'partially_captured')",
      [batchId, at, id],
    ),
  expireAuths: (ex: Tx, createdBefore: string, at: string) =>
    ex.run("UPDATE transactions SET status = 'expired', updated_at = ? WHERE status = 'authorized' AND created_at < ?", [at, createdBefore]),
};
