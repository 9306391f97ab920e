// Recurring billing: plans, subscriptions and the ledger of subscription charges.
// A subscription keeps its own copy of every value it bills with (amounts, cycle,
// retries), so a plan update reaches it only when asked to (update_subscriptions).
// The ledger's UNIQUE (subscription_id, kind, period, attempt) is what makes billing
// idempotent: one billing period's attempt can be recorded, and so charged, once, even
// with two processes billing at once or a run killed half-way.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE plans (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      linked_account_id ${t.text} NOT NULL REFERENCES linked_accounts(id),
      name ${t.text} NOT NULL,
      description ${t.text} NOT NULL DEFAULT '',
      amount ${t.int} NOT NULL,
      initial_amount ${t.int},
      trial_amount ${t.int},
      trial_period_days ${t.int},
      billing_cycle ${t.text} NOT NULL,
      billing_factor ${t.int} NOT NULL,
      duration ${t.int} NOT NULL,
      tax ${t.int} NOT NULL DEFAULT 0,
      shipping_amount ${t.int} NOT NULL DEFAULT 0,
      max_retry_count ${t.int} NOT NULL,
      retry_policy ${t.json},
      proration_behavior ${t.text} NOT NULL,
      custom_fields ${t.json},
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX plans_account_created ON plans(group_id, linked_account_id, created_at DESC, id DESC)`,
  // Payment method: exactly one of card_id (stored card), bank_account_id (stored bank
  // account) or token_snapshot (JSON of a consumed token: brand, first six, last four,
  // expiry, holder, routing number and the test outcome; never a full number).
  // anchor_at / anchor_count: bill date n = anchor_at + (n - anchor_count) cycles; the
  // anchor moves when the billing cycle changes so the current period is kept.
  `CREATE TABLE subscriptions (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      linked_account_id ${t.text} NOT NULL REFERENCES linked_accounts(id),
      plan_id ${t.text} NOT NULL REFERENCES plans(id),
      customer_id ${t.text} NOT NULL REFERENCES customers(id),
      processor_id ${t.text} NOT NULL,
      description ${t.text} NOT NULL DEFAULT '',
      currency ${t.text} NOT NULL DEFAULT 'USD',
      amount ${t.int} NOT NULL,
      tax_amount ${t.int} NOT NULL DEFAULT 0,
      shipping_amount ${t.int} NOT NULL DEFAULT 0,
      initial_amount ${t.int},
      trial_amount ${t.int},
      trial_period_days ${t.int},
      billing_cycle ${t.text} NOT NULL,
      billing_factor ${t.int} NOT NULL,
      duration ${t.int} NOT NULL,
      max_retry_count ${t.int} NOT NULL,
      retry_policy ${t.json},
      start_at ${t.text} NOT NULL,
      anchor_at ${t.text} NOT NULL,
      anchor_count ${t.int} NOT NULL DEFAULT 0,
      trial_done ${t.int} NOT NULL DEFAULT 0,
      next_bill_date ${t.text},
      status ${t.text} NOT NULL CHECK (status IN ('active', 'failed', 'completed', 'canceled')),
      charge_count ${t.int} NOT NULL DEFAULT 0,
      failure_attempt_count ${t.int} NOT NULL DEFAULT 0,
      retry_count ${t.int} NOT NULL DEFAULT 0,
      billing_period_start ${t.text} NOT NULL,
      billing_period_end ${t.text} NOT NULL,
      pending_proration ${t.int} NOT NULL DEFAULT 0,
      proration_result ${t.text} NOT NULL DEFAULT 'none',
      payment_method ${t.text} NOT NULL CHECK (payment_method IN ('card', 'ach')),
      card_id ${t.text} REFERENCES customer_cards(id),
      bank_account_id ${t.text} REFERENCES customer_bank_accounts(id),
      token_snapshot ${t.json},
      billing_address ${t.json} NOT NULL,
      version ${t.int} NOT NULL DEFAULT 0,
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL,
      canceled_at ${t.text}
    )`,
  // The billing engine's sweep: due active subscriptions in (next_bill_date, id) order.
  `CREATE INDEX subscriptions_due ON subscriptions(status, next_bill_date, id)`,
  `CREATE INDEX subscriptions_plan ON subscriptions(plan_id, status, id)`,
  `CREATE INDEX subscriptions_account_created ON subscriptions(group_id, linked_account_id, created_at DESC, id DESC)`,
  // One row per charge attempt: kind trial (period -1), regular (period = index of the
  // billed cycle, attempt = 0 first try, 1.. retries) or proration (period = the cycle the
  // change fell in, attempt = sequence). outcome free = nothing to charge (amount 0).
  `CREATE TABLE subscription_charges (
      id ${t.text} PRIMARY KEY,
      subscription_id ${t.text} NOT NULL REFERENCES subscriptions(id),
      kind ${t.text} NOT NULL CHECK (kind IN ('trial', 'regular', 'proration')),
      period ${t.int} NOT NULL,
      attempt ${t.int} NOT NULL,
      amount ${t.int} NOT NULL,
      due_at ${t.text} NOT NULL,
      transaction_id ${t.text},
      outcome ${t.text} NOT NULL CHECK (outcome IN ('pending', 'approved', 'declined', 'free')),
      created_at ${t.text} NOT NULL,
      UNIQUE (subscription_id, kind, period, attempt)
    )`,
];

export default { version: 3, name: 'recurring', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
