// Plans of a linked account.
import type { Executor, Tx } from '../db.js';

export interface PlanRow {
  id: string;
  group_id: string;
  linked_account_id: string;
  name: string;
  description: string;
  amount: number;
  initial_amount: number | null;
  trial_amount: number | null;
  trial_period_days: number | null;
  billing_cycle: string;
  billing_factor: number;
  duration: number;
  tax: number;
  shipping_amount: number;
  max_retry_count: number;
  retry_policy: string | null; // JSON {steps: [{delay_days}]}
  proration_behavior: string;
  custom_fields: string | null; // JSON
  created_at: string;
  updated_at: string;
}

const COLUMNS = [
  'id', 'group_id', 'linked_account_id', 'name', 'description', 'amount', 'initial_amount', 'trial_amount',
  'trial_period_days', 'billing_cycle', 'billing_factor', 'duration', 'tax', 'shipping_amount', 'max_retry_count',
  'retry_policy', 'proration_behavior', 'custom_fields', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof PlanRow>;

/** Columns a plan update rewrites (everything but identity and created_at). */
const MUTABLE = COLUMNS.filter((c) => !['id', 'group_id', 'linked_account_id', 'created_at'].includes(c));

export const planRepo = {
  async insert(ex: Tx, row: PlanRow): Promise<void> {
    await ex.run(
      `INSERT INTO plans (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
      COLUMNS.map((c) => row[c]),
    );
  },
  async update(ex: Tx, row: PlanRow): Promise<void> {
    await ex.run(`UPDATE plans SET ${MUTABLE.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`, [
      ...MUTABLE.map((c) => row[c]),
      row.id,
    ]);
  },
  find: (ex: Executor, groupId: string, linkedAccountId: string, id: string) =>
    ex.get<PlanRow>('SELECT * FROM plans WHERE group_id = ? AND linked_account_id = ? AND id = ?', [groupId, linkedAccountId, id]),
  list: (ex: Executor, groupId: string, linkedAccountId: string, limit: number, offset: number) =>
    ex.all<PlanRow>(
      'SELECT * FROM plans WHERE group_id = ? AND linked_account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
      [groupId, linkedAccountId, limit, offset],
    ),
  async count(ex: Executor, groupId: string, linkedAccountId: string): Promise<number> {
    const row = await ex.get<{ n: number }>('SELECT COUNT(*) AS n FROM plans WHERE group_id = ? AND linked_account_id = ?', [
      groupId,
      linkedAccountId,
    ]);
    return row?.n ?? 0;
  },
};
