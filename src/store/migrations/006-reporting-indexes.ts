// Transaction reporting at a million rows (query plans and timings: docs/reporting.md).
//
// - transactions_report_page: one group's rows in created_at, id order with the
//   low-cardinality filter columns and the amounts inside the index, so a filtered
//   page and the rows its offset skips are found without reading table rows, and the
//   partial days at the ends of a window are counted and summed from the index alone.
//   It covers the older (group_id, created_at, id) index, which is dropped.
// - partial indexes for the selective link filters (customer, subscription, plan,
//   invoice, settlement batch): only rows that have the link are indexed.
// - transaction_daily: counts and net amounts per group, UTC day and the dimensions
//   reporting filters on. count and amount_sum read whole days here and only the
//   partial first and last day from transactions. WITHOUT ROWID (SQLite; a plain table
//   with this primary key elsewhere): a scan over days reads the key and the counts
//   together; the status index carries the counts too, so it answers alone. Its
//   triggers and backfill are migration 9.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE INDEX transactions_report_page ON transactions(group_id, created_at, id, status, brand, source, method_detail, transaction_type, captured_amount, refunded_amount)`,
  `DROP INDEX IF EXISTS transactions_group_created`,
  `CREATE INDEX transactions_report_customer ON transactions(group_id, customer_id, created_at) WHERE customer_id IS NOT NULL`,
  `CREATE INDEX transactions_report_subscription ON transactions(group_id, subscription_id, created_at) WHERE subscription_id IS NOT NULL`,
  `CREATE INDEX transactions_report_plan ON transactions(group_id, plan_id, created_at) WHERE plan_id IS NOT NULL`,
  `CREATE INDEX transactions_report_invoice ON transactions(group_id, invoice_id, created_at) WHERE invoice_id IS NOT NULL`,
  `CREATE INDEX transactions_report_batch ON transactions(group_id, settlement_batch_id, created_at) WHERE settlement_batch_id IS NOT NULL`,
  `CREATE TABLE transaction_daily (
      group_id ${t.text} NOT NULL,
      day ${t.text} NOT NULL,
      status ${t.text} NOT NULL,
      transaction_type ${t.text} NOT NULL,
      method_detail ${t.text} NOT NULL,
      brand ${t.text} NOT NULL,
      source ${t.text} NOT NULL,
      currency ${t.text} NOT NULL,
      processor_id ${t.text} NOT NULL,
      tx_count ${t.int} NOT NULL,
      net_amount ${t.int} NOT NULL,
      PRIMARY KEY (group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id)
    )${t.withoutRowid}`,
  `CREATE INDEX transaction_daily_status ON transaction_daily(group_id, status, day, tx_count, net_amount)`,
];

export default { version: 6, name: 'reporting-indexes', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
