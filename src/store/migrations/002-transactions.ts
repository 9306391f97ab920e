// Transactions and settlement batches. Card data kept: brand, first six, last four,
// expiry, holder name only.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE settlement_batches (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      cutoff_at ${t.text} NOT NULL,
      transaction_count ${t.int} NOT NULL,
      total_amount ${t.int} NOT NULL,
      created_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX settlement_batches_group ON settlement_batches(group_id, cutoff_at)`,
  `CREATE TABLE transactions (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      linked_account_id ${t.text},
      processor_id ${t.text} NOT NULL,
      transaction_type ${t.text} NOT NULL CHECK (transaction_type IN ('sale', 'auth')),
      payment_method ${t.text} NOT NULL,          -- spec value: card | ach
      method_detail ${t.text} NOT NULL,           -- reporting value: card | customer_card | ach | customer_ach
      customer_id ${t.text},
      card_id ${t.text},
      bank_account_id ${t.text},
      brand ${t.text},
      card_type ${t.text},
      first_six ${t.text},
      last_four ${t.text},
      customer_name ${t.text} NOT NULL DEFAULT '',
      expiration_date ${t.text},
      avs ${t.text},
      cvv ${t.text},
      issued_country ${t.text},
      dynamic_descriptor ${t.text},
      requested_amount ${t.int} NOT NULL,
      authorized_amount ${t.int} NOT NULL,
      captured_amount ${t.int} NOT NULL,
      refunded_amount ${t.int} NOT NULL DEFAULT 0,
      included_tax_amount ${t.int},
      included_shipping_amount ${t.int},
      currency ${t.text} NOT NULL,
      description ${t.text} NOT NULL DEFAULT '',
      source ${t.text} NOT NULL,
      order_id ${t.text} NOT NULL DEFAULT '',
      po_number ${t.text} NOT NULL DEFAULT '',
      ip_address ${t.text} NOT NULL DEFAULT '',
      email_receipt ${t.int} NOT NULL DEFAULT 0,
      email_address ${t.text} NOT NULL DEFAULT '',
      user_id ${t.text} NOT NULL DEFAULT '',
      username ${t.text} NOT NULL DEFAULT '',
      billing_address ${t.json},
      shipping_address ${t.json},
      form_id ${t.text},
      form_external_id ${t.text} NOT NULL DEFAULT '',
      form_entry_id ${t.text} NOT NULL DEFAULT '',
      subscription_id ${t.text},
      plan_id ${t.text},
      invoice_id ${t.text},
      invoice_number ${t.text},
      invoice_external_id ${t.text},
      payment_link_id ${t.text},
      destination_group_id ${t.text},
      custom_fields ${t.json},
      commissions ${t.json},
      response_code ${t.text} NOT NULL,
      response_text ${t.text} NOT NULL,
      status ${t.text} NOT NULL,
      settlement_batch_id ${t.text} REFERENCES settlement_batches(id),
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  // Newest-first listing of one group, and the settlement sweep.
  `CREATE INDEX transactions_group_created ON transactions(group_id, created_at DESC, id DESC)`,
  `CREATE INDEX transactions_status_created ON transactions(status, created_at)`,
];

export default { version: 2, name: 'transactions', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
