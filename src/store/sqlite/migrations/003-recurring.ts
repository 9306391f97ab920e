// Recurring billing: plans, subscriptions and the ledger of subscription charges.
// A subscription keeps its own copy of every value it bills with (amounts, cycle,
// retries), so a plan update reaches it only when asked to (update_subscriptions).
// The ledger's UNIQUE (subscription_id, kind, period, attempt) is what makes billing
// idempotent: one billing period's attempt can be recorded, and so charged, once, even
// with two processes billing at once or a run killed half-way.
export default {
  version: 3,
  name: 'recurring',
  statements: [
    `CREATE TABLE plans (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      linked_account_id TEXT NOT NULL REFERENCES linked_accounts(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      amount INTEGER NOT NULL,
      initial_amount INTEGER,
      trial_amount INTEGER,
      trial_period_days INTEGER,
      billing_cycle TEXT NOT NULL,
      billing_factor INTEGER NOT NULL,
      duration INTEGER NOT NULL,
      tax INTEGER NOT NULL DEFAULT 0,
      shipping_amount INTEGER NOT NULL DEFAULT 0,
      max_retry_count INTEGER NOT NULL,
      retry_policy TEXT,
      proration_behavior TEXT NOT NULL,
      custom_fields TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX plans_account_created ON plans(group_id, linked_account_id, created_at DESC, id DESC)`,
    // Payment method: exactly one of card_id (stored card), bank_account_id (stored bank
    // account) or token_snapshot (JSON of a consumed token: brand, first six, last four,
    // expiry, holder, routing number and the test outcome; never a full number).
    // anchor_at / anchor_count: bill date n = anchor_at + (n - anchor_count) cycles; the
    // anchor moves when the billing cycle changes so the current period is kept.
    `CREATE TABLE subscriptions (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      linked_account_id TEXT NOT NULL REFERENCES linked_accounts(id),
      plan_id TEXT NOT NULL REFERENCES plans(id),
      customer_id TEXT NOT NULL REFERENCES customers(id),
      processor_id TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      currency TEXT NOT NULL DEFAULT 'USD',
      amount INTEGER NOT NULL,
      tax_amount INTEGER NOT NULL DEFAULT 0,
      shipping_amount INTEGER NOT NULL DEFAULT 0,
      initial_amount INTEGER,
      trial_amount INTEGER,
      trial_period_days INTEGER,
      billing_cycle TEXT NOT NULL,
      billing_factor INTEGER NOT NULL,
      duration INTEGER NOT NULL,
      max_retry_count INTEGER NOT NULL,
      retry_policy TEXT,
      start_at TEXT NOT NULL,
      anchor_at TEXT NOT NULL,
      anchor_count INTEGER NOT NULL DEFAULT 0,
      trial_done INTEGER NOT NULL DEFAULT 0,
      next_bill_date TEXT,
      status TEXT NOT NULL CHECK (status IN ('active', 'failed', 'completed', 'canceled')),
      charge_count INTEGER NOT NULL DEFAULT 0,
      failure_attempt_count INTEGER NOT NULL DEFAULT 0,
      retry_count INTEGER NOT NULL DEFAULT 0,
      billing_period_start TEXT NOT NULL,
      billing_period_end TEXT NOT NULL,
      pending_proration INTEGER NOT NULL DEFAULT 0,
      proration_result TEXT NOT NULL DEFAULT 'none',
      payment_method TEXT NOT NULL CHECK (payment_method IN ('card', 'ach')),
      card_id TEXT REFERENCES customer_cards(id),
      bank_account_id TEXT REFERENCES customer_bank_accounts(id),
      token_snapshot TEXT,
      billing_address TEXT NOT NULL,
      version INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      canceled_at TEXT
    )`,
    // The billing engine's sweep: due active subscriptions in (next_bill_date, id) order.
    `CREATE INDEX subscriptions_due ON subscriptions(status, next_bill_date, id)`,
    `CREATE INDEX subscriptions_plan ON subscriptions(plan_id, status, id)`,
    `CREATE INDEX subscriptions_account_created ON subscriptions(group_id, linked_account_id, created_at DESC, id DESC)`,
    // One row per charge attempt: kind trial (period -1), regular (period = index of the
    // billed cycle, attempt = 0 first try, 1.. retries) or proration (period = the cycle the
    // change fell in, attempt = sequence). outcome free = nothing to charge (amount 0).
    `CREATE TABLE subscription_charges (
      id TEXT PRIMARY KEY,
      subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
      kind TEXT NOT NULL CHECK (kind IN ('trial', 'regular', 'proration')),
      period INTEGER NOT NULL,
      attempt INTEGER NOT NULL,
      amount INTEGER NOT NULL,
      due_at TEXT NOT NULL,
      transaction_id TEXT,
      outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'approved', 'declined', 'free')),
      created_at TEXT NOT NULL,
      UNIQUE (subscription_id, kind, period, attempt)
    )`,
  ],
};
