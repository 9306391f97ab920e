// Subscriptions and their charge ledger.
import type { Executor, Tx } from '../db.js';
import { scopeCondition, type GroupScope } from './group-clocks.js';
import type { CustomerBankAccountRow, CustomerCardRow } from './customers.js';

export interface SubscriptionRow {
  id: string;
  group_id: string;
  linked_account_id: string;
  plan_id: string;
  customer_id: string;
  processor_id: string;
  description: string;
  currency: string;
  amount: number;
  tax_amount: number;
  shipping_amount: number;
  initial_amount: number | null;
  trial_amount: number | null;
  trial_period_days: number | null;
  billing_cycle: string;
  billing_factor: number;
  duration: number;
  max_retry_count: number;
  retry_policy: string | null; // JSON {steps: [{delay_days}]}
  start_at: string;
  anchor_at: string;
  anchor_count: number;
  trial_done: number; // 0 | 1
  next_bill_date: string | null;
  status: string;
  charge_count: number;
  failure_attempt_count: number;
  retry_count: number;
  billing_period_start: string;
  billing_period_end: string;
  pending_proration: number;
  proration_result: string;
  payment_method: 'card' | 'ach';
  card_id: string | null;
  bank_account_id: string | null;
  token_snapshot: string | null; // JSON TokenRow without secrets (tokens hold none)
  billing_address: string; // JSON
  version: number;
  created_at: string;
  updated_at: string;
  canceled_at: string | null;
}

export interface SubscriptionChargeRow {
  id: string;
  subscription_id: string;
  kind: 'trial' | 'regular' | 'proration';
  period: number;
  attempt: number;
  amount: number;
  due_at: string;
  transaction_id: string | null;
  outcome: 'pending' | 'approved' | 'declined' | 'free';
  created_at: string;
}

const COLUMNS = [
  'id', 'group_id', 'linked_account_id', 'plan_id', 'customer_id', 'processor_id', 'description', 'currency', 'amount',
  'tax_amount', 'shipping_amount', 'initial_amount', 'trial_amount', 'trial_period_days', 'billing_cycle',
  'billing_factor', 'duration', 'max_retry_count', 'retry_policy', 'start_at', 'anchor_at', 'anchor_count', 'trial_done',
  'next_bill_date', 'status', 'charge_count', 'failure_attempt_count', 'retry_count', 'billing_period_start',
  'billing_period_end', 'pending_proration', 'proration_result', 'payment_method', 'card_id', 'bank_account_id',
  'token_snapshot', 'billing_address', 'version', 'created_at', 'updated_at', 'canceled_at',
] as const satisfies ReadonlyArray<keyof SubscriptionRow>;

const MUTABLE = COLUMNS.filter((c) => !['id', 'group_id', 'linked_account_id', 'customer_id', 'created_at', 'version'].includes(c));

export interface SubscriptionFilter {
  groupId: string;
  linkedAccountId: string;
  status?: string;
  planId?: string;
  customerId?: string;
}

function where(f: SubscriptionFilter): { sql: string; params: unknown[] } {
  const parts = ['group_id = ?', 'linked_account_id = ?'];
  const params: unknown[] = [f.groupId, f.linkedAccountId];
  const filters: Array<[string, string | undefined]> = [['status', f.status], ['plan_id', f.planId], ['customer_id', f.customerId]];
  for (const [column, value] of filters) {
    if (value === undefined) continue;
    parts.push(`${column} = ?`);
    params.push(value);
  }
  return { sql: parts.join(' AND '), params };
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export const subscriptionRepo = {
  async insert(ex: Tx, row: SubscriptionRow): Promise<void> {
    await ex.run(`INSERT INTO subscriptions (${COLUMNS.join(', ')}) VALUES (${placeholders(COLUMNS.length)})`, COLUMNS.map((c) => row[c]));
  },

  /**
   * Compare-and-set save: writes every mutable column when the stored version is still
   * `row.version`, and bumps it. Returns the number of rows changed (0 = someone else won).
   */
  async save(ex: Tx, row: SubscriptionRow): Promise<number> {
    const { changes } = await ex.run(
      `UPDATE subscriptions SET ${MUTABLE.map((c) => `${c} = ?`).join(', ')}, version = version + 1 WHERE id = ? AND version = ?`,
      [...MUTABLE.map((c) => row[c]), row.id, row.version],
    );
    return changes;
  },

  find: (ex: Executor, groupId: string, linkedAccountId: string, id: string) =>
    ex.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE group_id = ? AND linked_account_id = ? AND id = ?', [
      groupId,
      linkedAccountId,
      id,
    ]),

  list(ex: Executor, f: SubscriptionFilter, limit: number, offset: number): Promise<SubscriptionRow[]> {
    const w = where(f);
    return ex.all<SubscriptionRow>(`SELECT * FROM subscriptions WHERE ${w.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [
      ...w.params,
      limit,
      offset,
    ]);
  },

  async count(ex: Executor, f: SubscriptionFilter): Promise<number> {
    const w = where(f);
    return (await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM subscriptions WHERE ${w.sql}`, w.params))?.n ?? 0;
  },

  /** Active subscriptions due at `until`, after the keyset cursor (next_bill_date, id), oldest due first. */
  /** Due active subscriptions (of the groups in `scope`), in (next_bill_date, id) order after `after`. */
  dueBatch(ex: Executor, until: string, after: { at: string; id: string } | null, limit: number, scope?: GroupScope): Promise<SubscriptionRow[]> {
    const s = scope ? scopeCondition(scope) : { sql: '1 = 1', params: [] };
    return after
      ? ex.all<SubscriptionRow>(
          `SELECT * FROM subscriptions
           WHERE status = 'active' AND next_bill_date <= ? AND (next_bill_date > ? OR (next_bill_date = ? AND id > ?)) AND ${s.sql}
           ORDER BY next_bill_date, id LIMIT ?`,
          [until, after.at, after.at, after.id, ...s.params, limit],
        )
      : ex.all<SubscriptionRow>(
          `SELECT * FROM subscriptions WHERE status = 'active' AND next_bill_date <= ? AND ${s.sql} ORDER BY next_bill_date, id LIMIT ?`,
          [until, ...s.params, limit],
        );
  },

  async countDue(ex: Executor, until: string, scope?: GroupScope): Promise<number> {
    const s = scope ? scopeCondition(scope) : { sql: '1 = 1', params: [] };
    const row = await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM subscriptions WHERE status = 'active' AND next_bill_date <= ? AND ${s.sql}`, [until, ...s.params]);
    return row?.n ?? 0;
  },

  /** Active subscriptions of a plan, a page at a time in id order. */
  activeOfPlan: (ex: Executor, planId: string, afterId: string, limit: number) =>
    ex.all<SubscriptionRow>(`SELECT * FROM subscriptions WHERE plan_id = ? AND status = 'active' AND id > ? ORDER BY id LIMIT ?`, [
      planId,
      afterId,
      limit,
    ]),

  /** The stored cards and bank accounts a batch of subscriptions pays with (one query each). */
  async paymentMethods(
    ex: Executor,
    rows: SubscriptionRow[],
  ): Promise<{ cards: Map<string, CustomerCardRow>; banks: Map<string, CustomerBankAccountRow> }> {
    const cardIds = [...new Set(rows.map((r) => r.card_id).filter((x): x is string => x !== null))];
    const bankIds = [...new Set(rows.map((r) => r.bank_account_id).filter((x): x is string => x !== null))];
    const cards = cardIds.length
      ? await ex.all<CustomerCardRow>(`SELECT * FROM customer_cards WHERE id IN (${placeholders(cardIds.length)})`, cardIds)
      : [];
    const banks = bankIds.length
      ? await ex.all<CustomerBankAccountRow>(`SELECT * FROM customer_bank_accounts WHERE id IN (${placeholders(bankIds.length)})`, bankIds)
      : [];
    return { cards: new Map(cards.map((c) => [c.id, c])), banks: new Map(banks.map((b) => [b.id, b])) };
  },
};

export const subscriptionChargeRepo = {
  /** Claims one attempt; returns false when it was already recorded (the UNIQUE key). */
  async claim(ex: Tx, row: SubscriptionChargeRow): Promise<boolean> {
    const { changes } = await ex.run(
      `INSERT INTO subscription_charges (id, subscription_id, kind, period, attempt, amount, due_at, transaction_id, outcome, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (subscription_id, kind, period, attempt) DO NOTHING`,
      [row.id, row.subscription_id, row.kind, row.period, row.attempt, row.amount, row.due_at, row.transaction_id, row.outcome, row.created_at],
    );
    return changes === 1;
  },
  async settle(ex: Tx, id: string, outcome: SubscriptionChargeRow['outcome'], transactionId: string | null): Promise<void> {
    await ex.run('UPDATE subscription_charges SET outcome = ?, transaction_id = ? WHERE id = ?', [outcome, transactionId, id]);
  },
  /** Next free attempt number of a kind and period (proration charges are numbered in order). */
  async nextAttempt(ex: Executor, subscriptionId: string, kind: SubscriptionChargeRow['kind'], period: number): Promise<number> {
    const row = await ex.get<{ n: number | null }>(
      'SELECT MAX(attempt) AS n FROM subscription_charges WHERE subscription_id = ? AND kind = ? AND period = ?',
      [subscriptionId, kind, period],
    );
    return row?.n === null || row?.n === undefined ? 0 : row.n + 1;
  },
  listBySubscription: (ex: Executor, subscriptionId: string) =>
    ex.all<SubscriptionChargeRow>(
      'SELECT * FROM subscription_charges WHERE subscription_id = ? ORDER BY created_at, kind, period, attempt',
      [subscriptionId],
    ),
};
