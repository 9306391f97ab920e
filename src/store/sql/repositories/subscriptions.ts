// Subscriptions and their charge ledger (SubscriptionStore,
// SubscriptionChargeStore). The retry policy, token snapshot and billing address are JSON
// text columns and the trial flag is 0/1; the services see objects and a boolean.
import type { Executor, Tx } from '../../interfaces/db.js';
import { scopeCondition, type GroupScope } from './group-clocks.js';
import { toCustomerCardEntity, type CustomerBankAccountRow, type CustomerCardRow } from './customers.js';
import type { SubscriptionChargeEntity, SubscriptionEntity, TokenSnapshot } from '../../../domain/recurring/entities.js';
import type { PaymentMethods, SubscriptionChargeStore, SubscriptionFilter, SubscriptionStore } from '../../interfaces/recurring.js';
import { flagColumn, fromJsonColumn, jsonColumn } from '../columns.js';

/** The stored columns: the entity with its objects as JSON text and the trial flag as 0/1. */
type SubscriptionRow = Omit<SubscriptionEntity, 'billing_cycle' | 'status' | 'proration_result' | 'retry_policy' | 'trial_done' | 'token_snapshot' | 'billing_address'> & {
  billing_cycle: string;
  status: string;
  proration_result: string;
  retry_policy: string | null; // JSON {steps: [{delay_days}]}
  trial_done: number; // 0 | 1
  token_snapshot: string | null; // JSON TokenSnapshot
  billing_address: string; // JSON
};

type SubscriptionChargeRow = SubscriptionChargeEntity;

const COLUMNS = [
  'id', 'group_id', 'linked_account_id', 'plan_id', 'customer_id', 'processor_id', 'description', 'currency', 'amount',
  'tax_amount', 'shipping_amount', 'initial_amount', 'trial_amount', 'trial_period_days', 'billing_cycle',
  'billing_factor', 'duration', 'max_retry_count', 'retry_policy', 'start_at', 'anchor_at', 'anchor_count', 'trial_done',
  'next_bill_date', 'status', 'charge_count', 'failure_attempt_count', 'retry_count', 'billing_period_start',
  'billing_period_end', 'pending_proration', 'proration_result', 'payment_method', 'card_id', 'bank_account_id',
  'token_snapshot', 'billing_address', 'version', 'created_at', 'updated_at', 'canceled_at',
] as const satisfies ReadonlyArray<keyof SubscriptionRow>;

const MUTABLE = COLUMNS.filter((c) => !['id', 'group_id', 'linked_account_id', 'customer_id', 'created_at', 'version'].includes(c));

function toRow(s: SubscriptionEntity): SubscriptionRow {
  return {
    ...s,
    retry_policy: jsonColumn(s.retry_policy),
    trial_done: flagColumn(s.trial_done),
    token_snapshot: jsonColumn(s.token_snapshot),
    billing_address: JSON.stringify(s.billing_address),
  };
}

/** A token snapshot's JSON: cvv_supplied is a boolean, or 0/1 in snapshots taken from token rows. */
function snapshotOf(text: string | null): TokenSnapshot | null {
  const t = fromJsonColumn<Omit<TokenSnapshot, 'cvv_supplied'> & { cvv_supplied: boolean | number }>(text);
  return t && { ...t, cvv_supplied: t.cvv_supplied === true || t.cvv_supplied === 1 };
}

function toEntity(row: SubscriptionRow): SubscriptionEntity {
  return {
    ...row,
    billing_cycle: row.billing_cycle as SubscriptionEntity['billing_cycle'],
    status: row.status as SubscriptionEntity['status'],
    proration_result: row.proration_result as SubscriptionEntity['proration_result'],
    retry_policy: fromJsonColumn(row.retry_policy),
    trial_done: row.trial_done === 1,
    token_snapshot: snapshotOf(row.token_snapshot),
    billing_address: JSON.parse(row.billing_address) as SubscriptionEntity['billing_address'],
  };
}

const entities = async (rows: Promise<SubscriptionRow[]>) => (await rows).map(toEntity);

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

/**
 * Due active subscriptions in (next_bill_date, id) order after `after`; `claim` ends the
 * SELECT (Dialect.skipLocked). The cursor is a row comparison, which both stores take as
 * the due index's lower bound; spelled as `a > ? OR (a = ? AND id > ?)` PostgreSQL only
 * filters with it, walking every row before the cursor on each chunk.
 */
function due(ex: Executor, until: string, after: { at: string; id: string } | null, limit: number, scope: GroupScope | undefined, claim: string) {
  const s = scope ? scopeCondition(scope) : { sql: '1 = 1', params: [] };
  return entities(after
    ? ex.all<SubscriptionRow>(
        `SELECT * FROM subscriptions
         WHERE status = 'active' AND next_bill_date <= ? AND (next_bill_date, id) > (?, ?) AND ${s.sql}
         ORDER BY next_bill_date, id LIMIT ?${claim}`,
        [until, after.at, after.id, ...s.params, limit],
      )
    : ex.all<SubscriptionRow>(
        `SELECT * FROM subscriptions WHERE status = 'active' AND next_bill_date <= ? AND ${s.sql} ORDER BY next_bill_date, id LIMIT ?${claim}`,
        [until, ...s.params, limit],
      ));
}

export const subscriptionRepo: SubscriptionStore = {
  async insert(ex: Tx, subscription: SubscriptionEntity): Promise<void> {
    const row = toRow(subscription);
    await ex.run(`INSERT INTO subscriptions (${COLUMNS.join(', ')}) VALUES (${placeholders(COLUMNS.length)})`, COLUMNS.map((c) => row[c]));
  },

  /**
   * Compare-and-set save: writes every mutable column when the stored version is still
   * `row.version`, and bumps it. Returns the number of rows changed (0 = someone else won).
   */
  async save(ex: Tx, subscription: SubscriptionEntity): Promise<number> {
    const row = toRow(subscription);
    const { changes } = await ex.run(
      `UPDATE subscriptions SET ${MUTABLE.map((c) => `${c} = ?`).join(', ')}, version = version + 1 WHERE id = ? AND version = ?`,
      [...MUTABLE.map((c) => row[c]), row.id, row.version],
    );
    return changes;
  },

  async find(ex: Executor, groupId: string, linkedAccountId: string, id: string) {
    const row = await ex.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE group_id = ? AND linked_account_id = ? AND id = ?', [
      groupId,
      linkedAccountId,
      id,
    ]);
    return row && toEntity(row);
  },

  list(ex: Executor, f: SubscriptionFilter, limit: number, offset: number) {
    const w = where(f);
    return entities(ex.all<SubscriptionRow>(`SELECT * FROM subscriptions WHERE ${w.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [
      ...w.params,
      limit,
      offset,
    ]));
  },

  async count(ex: Executor, f: SubscriptionFilter): Promise<number> {
    const w = where(f);
    return (await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM subscriptions WHERE ${w.sql}`, w.params))?.n ?? 0;
  },

  /** Due active subscriptions (of the groups in `scope`), in (next_bill_date, id) order after `after`. */
  dueBatch: (ex: Executor, until: string, after: { at: string; id: string } | null, limit: number, scope?: GroupScope) => due(ex, until, after, limit, scope, ''),
  claimDue: (tx: Tx, until: string, after: { at: string; id: string } | null, limit: number, scope?: GroupScope) => due(tx, until, after, limit, scope, tx.dialect.skipLocked),

  async countDue(ex: Executor, until: string, scope?: GroupScope): Promise<number> {
    const s = scope ? scopeCondition(scope) : { sql: '1 = 1', params: [] };
    const row = await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM subscriptions WHERE status = 'active' AND next_bill_date <= ? AND ${s.sql}`, [until, ...s.params]);
    return row?.n ?? 0;
  },

  /** Active subscriptions of a plan, a page at a time in id order (claimed for the write: a plan update changes them). */
  activeOfPlan: (ex: Executor, planId: string, afterId: string, limit: number) =>
    entities(ex.all<SubscriptionRow>(`SELECT * FROM subscriptions WHERE plan_id = ? AND status = 'active' AND id > ? ORDER BY id LIMIT ?${ex.dialect.lock}`, [
      planId,
      afterId,
      limit,
    ])),

  /** The stored cards and bank accounts a batch of subscriptions pays with (one query each). */
  async paymentMethods(ex: Executor, rows: readonly SubscriptionEntity[]): Promise<PaymentMethods> {
    const cardIds = [...new Set(rows.map((r) => r.card_id).filter((x): x is string => x !== null))];
    const bankIds = [...new Set(rows.map((r) => r.bank_account_id).filter((x): x is string => x !== null))];
    const cards = cardIds.length
      ? await ex.all<CustomerCardRow>(`SELECT * FROM customer_cards WHERE id IN (${placeholders(cardIds.length)})`, cardIds)
      : [];
    const banks = bankIds.length
      ? await ex.all<CustomerBankAccountRow>(`SELECT * FROM customer_bank_accounts WHERE id IN (${placeholders(bankIds.length)})`, bankIds)
      : [];
    return { cards: new Map(cards.map((c) => [c.id, toCustomerCardEntity(c)])), banks: new Map(banks.map((b) => [b.id, b])) };
  },
};

export const subscriptionChargeRepo: SubscriptionChargeStore = {
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
