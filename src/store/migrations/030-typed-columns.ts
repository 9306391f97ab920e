// PostgreSQL's migration 30 types its instants (`timestamptz`) and the JSON documents no
// client sees in a key order of its own (`jsonb`); the store reads both back as the text
// SQLite holds. SQLite has one text type for both, so this version has nothing to do on
// SQLite; it keeps the two stores' version numbers in step.
import type { Version } from './migration.js';
import { eventDeliveriesFunction, rollupTransactionsFunction } from './postgres-functions.js';

/**
 * The UTC day (`YYYY-MM-DD`) of a `timestamptz` expression: what `substr(x, 1, 10)` gives
 * of the ISO-8601 UTC text SQLite holds (this version types instants; the store's queries use it too).
 */
export const utcDay = (expr: string): string => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * Every column holding an instant (the platform's fixed-width ISO-8601 UTC text with ms;
 * END_OF_TIME, 9999-12-31T24:00:00.000Z, is 10000-01-01 00:00 here). Dates without a
 * time stay text: invoices.due_date, the rollups' day (`YYYY-MM-DD`, compared and
 * answered as such), transactions.expiration_date (a card's MM/YY).
 */
export const INSTANT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  api_keys: ['created_at', 'revoked_at'],
  customer_bank_accounts: ['created_at'],
  customer_cards: ['created_at', 'updated_at'],
  customers: ['created_at', 'updated_at'],
  events: ['created_at'],
  fault_rules: ['created_at'],
  fork_jobs: ['created_at'],
  groups: ['created_at', 'updated_at'],
  idempotency_keys: ['created_at'],
  invoice_lines: ['created_at', 'updated_at'],
  invoices: ['created_at', 'updated_at', 'paid_at', 'archived_at', 'past_due_notified_at'],
  linked_accounts: ['created_at'],
  outbox: ['created_at', 'sent_at'],
  partners: ['created_at', 'updated_at'],
  payment_link_sessions: ['created_at', 'expires_at'],
  payment_links: ['created_at', 'updated_at', 'expires_at'],
  plan_update_jobs: ['updated_at'],
  plans: ['created_at', 'updated_at'],
  processors: ['created_at'],
  products: ['created_at', 'updated_at'],
  schema_migrations: ['applied_at'],
  settlement_batches: ['created_at', 'cutoff_at'],
  signup_entries: ['created_at'],
  signup_forms: ['created_at'],
  subscription_charges: ['created_at', 'due_at'],
  subscriptions: ['created_at', 'updated_at', 'start_at', 'anchor_at', 'billing_period_start', 'billing_period_end', 'next_bill_date', 'canceled_at'],
  tokens: ['created_at', 'expires_at', 'used_at'],
  transactions: ['created_at', 'updated_at'],
  webhook_attempts: ['created_at', 'scheduled_at', 'next_attempt_at'],
  webhook_deliveries: ['created_at', 'next_attempt_at'],
  webhook_endpoints: ['created_at', 'updated_at', 'previous_secret_expires_at'],
  webhook_fault_rules: ['created_at'],
};

/**
 * JSON documents made `jsonb` (migration 30), where jsonb's own key order changes nothing
 * a client sees (the store reads them back compact): arrays of strings (a key's
 * permissions, an endpoint's enabled events), retry policies (`{"steps":[{"delay_days":n}]}`,
 * one key per object) and a subscription's token snapshot (read field by field; its
 * answer is built in the service's order). The rest stay `json` (kept byte for byte):
 * addresses, custom fields, commissions and signup entries are answered in the key order
 * they were written in, which jsonb would not keep.
 */
export const JSONB_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  api_keys: ['permissions'],
  webhook_endpoints: ['enabled_events'],
  plans: ['retry_policy'],
  subscriptions: ['retry_policy', 'token_snapshot'],
};

/** The trigger moving a changed transaction's count between rollup rows (its column list names created_at). */
const TRANSACTIONS_DAILY_UPDATE = `CREATE TRIGGER transactions_daily_update
  AFTER UPDATE OF group_id, created_at, status, transaction_type, method_detail, brand, source, currency, processor_id, captured_amount, refunded_amount
  ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`;

export default {
  version: 30,
  name: 'typed-columns',
  sqlite: [],
  postgres: [
    // The one trigger naming created_at in its column list (a column a trigger's
    // definition uses cannot change type): dropped for the change, made again below.
    'DROP TRIGGER transactions_daily_update ON transactions',
    // One rewrite per table: its instants parsed from the ISO text (the Z makes the
    // session's time zone irrelevant), its jsonb documents from their JSON text.
    ...Object.keys({ ...INSTANT_COLUMNS, ...JSONB_COLUMNS }).map((table) => {
      const changes = [
        ...(INSTANT_COLUMNS[table] ?? []).map((c) => `ALTER COLUMN ${c} TYPE timestamptz USING ${c}::timestamptz`),
        ...(JSONB_COLUMNS[table] ?? []).map((c) => `ALTER COLUMN ${c} TYPE jsonb USING ${c}::jsonb`),
      ];
      return `ALTER TABLE ${table} ${changes.join(', ')}`;
    }),
    // The rollup's day of a transaction is the UTC day of its instant, not its text's first 10 characters.
    rollupTransactionsFunction((r) => utcDay(`${r}.created_at`)),
    TRANSACTIONS_DAILY_UPDATE,
    eventDeliveriesFunction('jsonb_array_elements_text'),
    // A column whose type changed loses its statistics, and a rewritten table its size
    // estimate: the planner would guess (an unanalyzed `groups` turns the claims'
    // group-scope join into a sort of every candidate; see migration 29).
    ...Object.keys({ ...INSTANT_COLUMNS, ...JSONB_COLUMNS }).map((table) => `ANALYZE ${table}`),
  ],
} satisfies Version;
