// Groups, processors, linked accounts, API keys, customers and their stored payment
// methods, tokens, idempotency records, the platform clock, the e-mail outbox and
// the scheduler's bookkeeping. Portable SQL: TEXT ids (UUID), TEXT timestamps
// (RFC 3339 UTC with ms, so they sort as text), INTEGER cents.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE groups (
      id ${t.text} PRIMARY KEY,
      name ${t.text} NOT NULL,
      pricing ${t.text} NOT NULL CHECK (pricing IN ('flat', 'interchange_plus')),
      status ${t.text} NOT NULL DEFAULT 'active',
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE TABLE processors (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      name ${t.text} NOT NULL,
      type ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX processors_group ON processors(group_id)`,
  `CREATE TABLE linked_accounts (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      processor_id ${t.text} NOT NULL REFERENCES processors(id),
      name ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX linked_accounts_group ON linked_accounts(group_id)`,
  `CREATE TABLE api_keys (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      key_hash ${t.text} NOT NULL UNIQUE,
      prefix ${t.text} NOT NULL,
      permissions ${t.json} NOT NULL,
      name ${t.text} NOT NULL DEFAULT '',
      created_at ${t.text} NOT NULL,
      revoked_at ${t.text}
    )`,
  `CREATE INDEX api_keys_group ON api_keys(group_id)`,
  `CREATE TABLE customers (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      first_name ${t.text} NOT NULL DEFAULT '',
      last_name ${t.text} NOT NULL DEFAULT '',
      email ${t.text} NOT NULL DEFAULT '',
      phone ${t.text} NOT NULL DEFAULT '',
      billing_address ${t.json},
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX customers_group ON customers(group_id)`,
  `CREATE TABLE customer_cards (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      customer_id ${t.text} NOT NULL REFERENCES customers(id),
      linked_account_id ${t.text},
      brand ${t.text} NOT NULL,
      card_type ${t.text} NOT NULL,
      card_category ${t.text} NOT NULL,
      first_six ${t.text} NOT NULL,
      last_four ${t.text} NOT NULL,
      exp_month ${t.int} NOT NULL,
      exp_year ${t.int} NOT NULL,
      holder_name ${t.text} NOT NULL DEFAULT '',
      issuer ${t.text} NOT NULL DEFAULT '',
      issuer_country ${t.text} NOT NULL DEFAULT '',
      regulated ${t.int} NOT NULL DEFAULT 0,
      commercial ${t.int} NOT NULL DEFAULT 0,
      test_outcome ${t.text} NOT NULL,
      billing_address ${t.json},
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX customer_cards_customer ON customer_cards(customer_id)`,
  `CREATE TABLE customer_bank_accounts (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      customer_id ${t.text} NOT NULL REFERENCES customers(id),
      routing_number ${t.text} NOT NULL,
      last_four ${t.text} NOT NULL,
      account_type ${t.text} NOT NULL,
      holder_name ${t.text} NOT NULL DEFAULT '',
      test_outcome ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX customer_bank_accounts_customer ON customer_bank_accounts(customer_id)`,
  // Minted payment tokens: only what may be kept (never the full number or CVV).
  // test_outcome is the simulated processor's scripted result for the card.
  `CREATE TABLE tokens (
      token ${t.text} PRIMARY KEY,
      type ${t.text} NOT NULL CHECK (type IN ('card', 'bank_account')),
      brand ${t.text},
      card_type ${t.text},
      first_six ${t.text},
      last_four ${t.text} NOT NULL,
      exp_month ${t.int},
      exp_year ${t.int},
      holder_name ${t.text} NOT NULL DEFAULT '',
      routing_number ${t.text},
      account_type ${t.text},
      cvv_supplied ${t.int} NOT NULL DEFAULT 0,
      test_outcome ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL,
      expires_at ${t.text} NOT NULL,
      used_at ${t.text}
    )`,
  `CREATE TABLE idempotency_keys (
      group_id ${t.text} NOT NULL,
      key ${t.text} NOT NULL,
      request_hash ${t.text} NOT NULL,
      status ${t.int} NOT NULL,
      body ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL,
      PRIMARY KEY (group_id, key)
    )`,
  `CREATE TABLE clock (
      id ${t.int} PRIMARY KEY CHECK (id = 1),
      offset_ms ${t.int} NOT NULL
    )`,
  `INSERT INTO clock (id, offset_ms) VALUES (1, 0)`,
  // Last platform time each scheduled job ran up to (settlement, billing, ...).
  `CREATE TABLE job_runs (
      job ${t.text} PRIMARY KEY,
      ran_until ${t.text} NOT NULL
    )`,
  // Small named values: the demo seed and the ids of the demo objects.
  `CREATE TABLE settings (
      name ${t.text} PRIMARY KEY,
      value ${t.text} NOT NULL
    )`,
  `CREATE TABLE outbox (
      id ${t.text} PRIMARY KEY,
      kind ${t.text} NOT NULL,
      to_address ${t.text} NOT NULL,
      subject ${t.text} NOT NULL,
      body ${t.text} NOT NULL,
      related_id ${t.text},
      status ${t.text} NOT NULL,
      error ${t.text},
      created_at ${t.text} NOT NULL,
      sent_at ${t.text}
    )`,
];

export default { version: 1, name: 'foundation', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
