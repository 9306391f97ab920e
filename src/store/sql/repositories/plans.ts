// Plans of a linked account (PlanStore). The retry policy and custom fields
// are JSON text columns; the services see objects.
import type { Executor, Tx } from '../../interfaces/db.js';
import type { PlanEntity } from '../../../domain/recurring/entities.js';
import type { PlanStore, PlanUpdateJob } from '../../interfaces/recurring.js';
import { fromJsonColumn, jsonColumn } from '../columns.js';

/** The stored columns: the record with its retry policy and custom fields as JSON text. */
type PlanRow = Omit<PlanEntity, 'billing_cycle' | 'proration_behavior' | 'retry_policy' | 'custom_fields'> & {
  billing_cycle: string;
  proration_behavior: string;
  retry_policy: string | null; // JSON {steps: [{delay_days}]}
  custom_fields: string | null; // JSON
};

const COLUMNS = [
  'id', 'group_id', 'linked_account_id', 'name', 'description', 'amount', 'initial_amount', 'trial_amount',
  'trial_period_days', 'billing_cycle', 'billing_factor', 'duration', 'tax', 'shipping_amount', 'max_retry_count',
  'retry_policy', 'proration_behavior', 'custom_fields', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof PlanRow>;

/** Columns a plan update rewrites (everything but identity and created_at). */
const MUTABLE = COLUMNS.filter((c) => !['id', 'group_id', 'linked_account_id', 'created_at'].includes(c));

function toRow(plan: PlanEntity): PlanRow {
  return { ...plan, retry_policy: jsonColumn(plan.retry_policy), custom_fields: jsonColumn(plan.custom_fields) };
}

function toEntity(row: PlanRow): PlanEntity {
  return {
    ...row,
    billing_cycle: row.billing_cycle as PlanEntity['billing_cycle'],
    proration_behavior: row.proration_behavior as PlanEntity['proration_behavior'],
    retry_policy: fromJsonColumn(row.retry_policy),
    custom_fields: fromJsonColumn(row.custom_fields),
  };
}

export const planRepo: PlanStore = {
  async insert(ex: Tx, plan: PlanEntity): Promise<void> {
    const row = toRow(plan);
    await ex.run(
      `INSERT INTO plans (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
      COLUMNS.map((c) => row[c]),
    );
  },
  async update(ex: Tx, plan: PlanEntity): Promise<void> {
    const row = toRow(plan);
    await ex.run(`UPDATE plans SET ${MUTABLE.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`, [
      ...MUTABLE.map((c) => row[c]),
      row.id,
    ]);
  },
  async find(ex: Executor, groupId: string, linkedAccountId: string, id: string) {
    const row = await ex.get<PlanRow>('SELECT * FROM plans WHERE group_id = ? AND linked_account_id = ? AND id = ?', [groupId, linkedAccountId, id]);
    return row && toEntity(row);
  },
  async list(ex: Executor, groupId: string, linkedAccountId: string, limit: number, offset: number) {
    const rows = await ex.all<PlanRow>(
      'SELECT * FROM plans WHERE group_id = ? AND linked_account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
      [groupId, linkedAccountId, limit, offset],
    );
    return rows.map(toEntity);
  },
  async count(ex: Executor, groupId: string, linkedAccountId: string): Promise<number> {
    const row = await ex.get<{ n: number }>('SELECT COUNT(*) AS n FROM plans WHERE group_id = ? AND linked_account_id = ?', [
      groupId,
      linkedAccountId,
    ]);
    return row?.n ?? 0;
  },
  async beginUpdate(ex: Tx, j: PlanUpdateJob): Promise<void> {
    await ex.run(
      `INSERT INTO plan_update_jobs (plan_id, group_id, linked_account_id, behavior, cursor, updated_at, request_id, idempotency_key) VALUES (?, ?, ?, ?, '', ?, ?, ?)
       ON CONFLICT (plan_id) DO UPDATE SET behavior = excluded.behavior, cursor = '', updated_at = excluded.updated_at, request_id = excluded.request_id, idempotency_key = excluded.idempotency_key`,
      [j.plan_id, j.group_id, j.linked_account_id, j.behavior, j.updated_at, j.request_id, j.idempotency_key],
    );
  },
  claimUpdate: (ex: Tx, planId: string) => ex.get<PlanUpdateJob>(`SELECT * FROM plan_update_jobs WHERE plan_id = ?${ex.dialect.lock}`, [planId]),
  async advanceUpdate(ex: Tx, planId: string, cursor: string): Promise<void> {
    await ex.run('UPDATE plan_update_jobs SET cursor = ? WHERE plan_id = ?', [cursor, planId]);
  },
  async endUpdate(ex: Tx, planId: string): Promise<void> {
    await ex.run('DELETE FROM plan_update_jobs WHERE plan_id = ?', [planId]);
  },
  pendingUpdates: async (ex: Executor) => (await ex.all<{ plan_id: string }>('SELECT plan_id FROM plan_update_jobs ORDER BY plan_id')).map((r) => r.plan_id),
};
