// Transactions and settlement batches. Card data kept: brand, first six, last four,
// expiry, holder name only.
export default {
  version: 2,
  name: 'transactions',
  sql: `
CREATE TABLE settlement_batches (
  id TEXT PRIMARY KEY,
  group_id TEXT NOT NULL REFERENCES groups(id),
  cutoff_at TEXT NOT NULL,
  transaction_count INTEGER NOT NULL,
  total_amount INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX settlement_batches_group ON settlement_batches(group_id, cutoff_at);

CREATE TABLE transactions (
  id TEXT PRIMARY KEY,
  group_id TEXT NOT NULL REFERENCES groups(id),
  linked_account_id TEXT,
  processor_id TEXT NOT NULL,
  transaction_type TEXT NOT NULL CHECK (transaction_type IN ('sale', 'auth')),
  payment_method TEXT NOT NULL,          -- spec value: card | ach
  method_detail TEXT NOT NULL,           -- reporting value: card | customer_card | ach | customer_ach
  customer_id TEXT,
  card_id TEXT,
  bank_account_id TEXT,
  brand TEXT,
  card_type TEXT,
  first_six TEXT,
  last_four TEXT,
  customer_name TEXT NOT NULL DEFAULT '',
  expiration_date TEXT,
  avs TEXT,
  cvv TEXT,
  issued_country TEXT,
  dynamic_descriptor TEXT,
  requested_amount INTEGER NOT NULL,
  authorized_amount INTEGER NOT NULL,
  captured_amount INTEGER NOT NULL,
  refunded_amount INTEGER NOT NULL DEFAULT 0,
  included_tax_amount INTEGER,
  included_shipping_amount INTEGER,
  currency TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  order_id TEXT NOT NULL DEFAULT '',
  po_number TEXT NOT NULL DEFAULT '',
  ip_address TEXT NOT NULL DEFAULT '',
  email_receipt INTEGER NOT NULL DEFAULT 0,
  email_address TEXT NOT NULL DEFAULT '',
  user_id TEXT NOT NULL DEFAULT '',
  username TEXT NOT NULL DEFAULT '',
  billing_address TEXT,
  shipping_address TEXT,
  form_id TEXT,
  form_external_id TEXT NOT NULL DEFAULT '',
  form_entry_id TEXT NOT NULL DEFAULT '',
  subscription_id TEXT,
  plan_id TEXT,
  invoice_id TEXT,
  invoice_number TEXT,
  invoice_external_id TEXT,
  payment_link_id TEXT,
  destination_group_id TEXT,
  custom_fields TEXT,
  commissions TEXT,
  response_code TEXT NOT NULL,
  response_text TEXT NOT NULL,
  status TEXT NOT NULL,
  settlement_batch_id TEXT REFERENCES settlement_batches(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- Newest-first listing of one group, and the settlement sweep.
CREATE INDEX transactions_group_created ON transactions(group_id, created_at DESC, id DESC);
CREATE INDEX transactions_status_created ON transactions(status, created_at);
`,
};
