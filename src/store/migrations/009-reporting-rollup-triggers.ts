// The reporting rollup (transaction_daily, migration 6) is kept by three triggers on
// transactions: every insert, update of a counted column and delete moves its row's
// count and net amount between the day's rollup rows. This migration creates them and
// recounts the rollup from every transaction, so a database that is never reported on
// has correct totals too. Databases from before it may already hold the triggers (they
// were once created on the first report): they are replaced.
import type { Migration } from './index.js';

const DIMENSIONS = 'group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id';
const rowKey = (r: 'NEW' | 'OLD') =>
  `${r}.group_id, substr(${r}.created_at, 1, 10), ${r}.status, ${r}.transaction_type, ${r}.method_detail, COALESCE(${r}.brand, ''), ${r}.source, ${r}.currency, ${r}.processor_id`;
const matchOld = `group_id = OLD.group_id AND day = substr(OLD.created_at, 1, 10) AND status = OLD.status
    AND transaction_type = OLD.transaction_type AND method_detail = OLD.method_detail AND brand = COALESCE(OLD.brand, '')
    AND source = OLD.source AND currency = OLD.currency AND processor_id = OLD.processor_id`;
const addNew = `INSERT INTO transaction_daily (${DIMENSIONS}, tx_count, net_amount)
    VALUES (${rowKey('NEW')}, 1, NEW.captured_amount - NEW.refunded_amount)
    ON CONFLICT (${DIMENSIONS}) DO UPDATE SET tx_count = tx_count + 1, net_amount = net_amount + excluded.net_amount;`;
const removeOld = `UPDATE transaction_daily SET tx_count = tx_count - 1, net_amount = net_amount - (OLD.captured_amount - OLD.refunded_amount)
    WHERE ${matchOld};`;

/** The triggers by name (bulk loads drop and recreate them around their inserts). */
export const ROLLUP_TRIGGERS: Readonly<Record<string, string>> = {
  transactions_daily_insert: `CREATE TRIGGER transactions_daily_insert AFTER INSERT ON transactions
  BEGIN
    ${addNew}
  END`,
  transactions_daily_update: `CREATE TRIGGER transactions_daily_update
  AFTER UPDATE OF group_id, created_at, status, transaction_type, method_detail, brand, source, currency, processor_id, captured_amount, refunded_amount
  ON transactions
  BEGIN
    ${removeOld}
    ${addNew}
  END`,
  transactions_daily_delete: `CREATE TRIGGER transactions_daily_delete AFTER DELETE ON transactions
  BEGIN
    ${removeOld}
  END`,
};

/** Add the transactions matching `where` to the rollup (a recount when it is empty). */
export const rollupInsertSelect = (where: string): string =>
  `INSERT INTO transaction_daily (${DIMENSIONS}, tx_count, net_amount)
   SELECT group_id, substr(created_at, 1, 10), status, transaction_type, method_detail, COALESCE(brand, ''), source, currency, processor_id,
          COUNT(*), SUM(captured_amount - refunded_amount)
   FROM transactions ${where}
   GROUP BY group_id, substr(created_at, 1, 10), status, transaction_type, method_detail, COALESCE(brand, ''), source, currency, processor_id
   ON CONFLICT (${DIMENSIONS}) DO UPDATE SET tx_count = tx_count + excluded.tx_count, net_amount = net_amount + excluded.net_amount`;

const migration: Migration = {
  version: 9,
  name: 'reporting-rollup-triggers',
  statements: [
    ...Object.keys(ROLLUP_TRIGGERS).map((name) => `DROP TRIGGER IF EXISTS ${name}`),
    'DELETE FROM transaction_daily',
    rollupInsertSelect(''),
    ...Object.values(ROLLUP_TRIGGERS),
  ],
};
export default migration;
