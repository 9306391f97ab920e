// The reporting rollup (transaction_daily, migration 6) follows every transaction: new
// rows are added once per write batch by the store (rollupOfInserts, migration 9), and
// these two triggers move a row's count and net amount when a counted column changes or
// the row is deleted. This migration creates them and recounts the rollup from every
// transaction, so a database that is never reported on has exact totals too. Databases
// from before it may hold the triggers already (they were once created by the first
// report): they are replaced.
import type { Version } from './migration.js';

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

/** Add the transactions matching `where` to the rollup (all of them: a recount into an empty rollup). */
export const rollupInsertSelect = (where: string): string =>
  `INSERT INTO transaction_daily (${DIMENSIONS}, tx_count, net_amount)
   SELECT group_id, substr(created_at, 1, 10), status, transaction_type, method_detail, COALESCE(brand, ''), source, currency, processor_id,
          COUNT(*), SUM(captured_amount - refunded_amount)
   FROM transactions ${where}
   GROUP BY group_id, substr(created_at, 1, 10), status, transaction_type, method_detail, COALESCE(brand, ''), source, currency, processor_id
   ON CONFLICT (${DIMENSIONS}) DO UPDATE SET tx_count = tx_count + excluded.tx_count, net_amount = net_amount + excluded.net_amount`;

export default {
  version: 11,
  name: 'reporting-rollup-triggers',
  sqlite: [
    'DROP TRIGGER IF EXISTS transactions_daily_insert',
    'DROP TRIGGER IF EXISTS transactions_daily_update',
    'DROP TRIGGER IF EXISTS transactions_daily_delete',
    'DELETE FROM transaction_daily',
    rollupInsertSelect(''),
    `CREATE TRIGGER transactions_daily_update
  AFTER UPDATE OF group_id, created_at, status, transaction_type, method_detail, brand, source, currency, processor_id, captured_amount, refunded_amount
  ON transactions
  BEGIN
    ${removeOld}
    ${addNew}
  END`,
    `CREATE TRIGGER transactions_daily_delete AFTER DELETE ON transactions
  BEGIN
    ${removeOld}
  END`,
  ],
  postgres: [
    // Emptied as on SQLite, but not recounted by a trigger on inserts: inserts count per
    // write (rollup.ts addJsonRows); updates and deletes of transactions move their
    // counts between rollup rows.
    'DELETE FROM transaction_daily',
    `CREATE OR REPLACE FUNCTION payctl_rollup_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily SET tx_count = tx_count - 1, net_amount = net_amount - (OLD.captured_amount - OLD.refunded_amount)
    WHERE group_id = OLD.group_id AND day = substr(OLD.created_at, 1, 10) AND status = OLD.status
      AND transaction_type = OLD.transaction_type AND method_detail = OLD.method_detail AND brand = COALESCE(OLD.brand, '')
      AND source = OLD.source AND currency = OLD.currency AND processor_id = OLD.processor_id;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO transaction_daily AS d (${DIMENSIONS}, tx_count, net_amount)
    VALUES (NEW.group_id, substr(NEW.created_at, 1, 10), NEW.status, NEW.transaction_type, NEW.method_detail, COALESCE(NEW.brand, ''),
            NEW.source, NEW.currency, NEW.processor_id, 1, NEW.captured_amount - NEW.refunded_amount)
    ON CONFLICT (${DIMENSIONS}) DO UPDATE SET tx_count = d.tx_count + 1, net_amount = d.net_amount + excluded.net_amount;
  END IF;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER transactions_daily_update
  AFTER UPDATE OF group_id, created_at, status, transaction_type, method_detail, brand, source, currency, processor_id, captured_amount, refunded_amount
  ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`,
    `CREATE TRIGGER transactions_daily_delete AFTER DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`,
  ],
} satisfies Version;
