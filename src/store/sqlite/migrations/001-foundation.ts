// Groups, processors, linked accounts, API keys, customers and their stored payment
// methods, tokens, idempotency records, the platform clock, the e-mail outbox and
// the scheduler's bookkeeping. Portable SQL: TEXT ids (UUID), TEXT timestamps
// (RFC 3339 UTC with ms, so they sort as text), INTEGER cents.
export default {
  version: 1,
  name: 'foundation',
  statements: [
    `CREATE TABLE groups (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      pricing TEXT NOT NULL CHECK (pricing IN ('flat', 'interchange_plus')),
      status TEXT NOT NULL DEFAULT 'active',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE processors (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX processors_group ON processors(group_id)`,
    `CREATE TABLE linked_accounts (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      processor_id TEXT NOT NULL REFERENCES processors(id),
      name TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX linked_accounts_group ON linked_accounts(group_id)`,
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      key_hash TEXT NOT NULL UNIQUE,
      prefix TEXT NOT NULL,
      permissions TEXT NOT NULL,
      name TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      revoked_at TEXT
    )`,
    `CREATE INDEX api_keys_group ON api_keys(group_id)`,
    `CREATE TABLE customers (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      first_name TEXT NOT NULL DEFAULT '',
      last_name TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '',
      phone TEXT NOT NULL DEFAULT '',
      billing_address TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customers_group ON customers(group_id)`,
    `CREATE TABLE customer_cards (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      customer_id TEXT NOT NULL REFERENCES customers(id),
      linked_account_id TEXT,
      brand TEXT NOT NULL,
      card_type TEXT NOT NULL,
      card_category TEXT NOT NULL,
      first_six TEXT NOT NULL,
      last_four TEXT NOT NULL,
      exp_month INTEGER NOT NULL,
      exp_year INTEGER NOT NULL,
      holder_name TEXT NOT NULL DEFAULT '',
      issuer TEXT NOT NULL DEFAULT '',
      issuer_country TEXT NOT NULL DEFAULT '',
      regulated INTEGER NOT NULL DEFAULT 0,
      commercial INTEGER NOT NULL DEFAULT 0,
      test_outcome TEXT NOT NULL,
      billing_address TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_cards_customer ON customer_cards(customer_id)`,
    `CREATE TABLE customer_bank_accounts (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      customer_id TEXT NOT NULL REFERENCES customers(id),
      routing_number TEXT NOT NULL,
      last_four TEXT NOT NULL,
      account_type TEXT NOT NULL,
      holder_name TEXT NOT NULL DEFAULT '',
      test_outcome TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_bank_accounts_customer ON customer_bank_accounts(customer_id)`,
    // Minted payment tokens: only what may be kept (never the full number or CVV).
    // test_outcome is the simulated processor's scripted result for the card.
    `CREATE TABLE tokens (
      token TEXT PRIMARY KEY,
      type TEXT NOT NULL CHECK (type IN ('card', 'bank_account')),
      brand TEXT,
      card_type TEXT,
      first_six TEXT,
      last_four TEXT NOT NULL,
      exp_month INTEGER,
      exp_year INTEGER,
      holder_name TEXT NOT NULL DEFAULT '',
      routing_number TEXT,
      account_type TEXT,
      cvv_supplied INTEGER NOT NULL DEFAULT 0,
      test_outcome TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT
    )`,
    `CREATE TABLE idempotency_keys (
      group_id TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      status INTEGER NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (group_id, key)
    )`,
    `CREATE TABLE clock (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      offset_ms INTEGER NOT NULL
    )`,
    `INSERT INTO clock (id, offset_ms) VALUES (1, 0)`,
    // Last platform time each scheduled job ran up to (settlement, billing, ...).
    `CREATE TABLE job_runs (
      job TEXT PRIMARY KEY,
      ran_until TEXT NOT NULL
    )`,
    // Small named values: the demo seed and the ids of the demo objects.
    `CREATE TABLE settings (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL
    )`,
    `CREATE TABLE outbox (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      to_address TEXT NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL,
      related_id TEXT,
      status TEXT NOT NULL,
      error TEXT,
      created_at TEXT NOT NULL,
      sent_at TEXT
    )`,
  ],
};
