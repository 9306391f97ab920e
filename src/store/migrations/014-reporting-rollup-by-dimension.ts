// A second, smaller rollup for the reporting summary: counts and net amounts per group,
// UTC day and status, alone (dimension '') and broken down by one of brand,
// method_detail or source. The summary by day or status reads the '' rows (one per
// day and status, instead of one per combination of nine dimensions in
// transaction_daily: ≈ 50× fewer rows over a busy six months); by brand, payment method
// or source it reads that dimension's rows. It serves windows whose only filter is
// the status; other filters read transaction_daily.
//
// It follows transaction_daily through triggers on it: whatever changes a rollup row
// (the per-batch upsert of new transactions, the triggers of migration 11, a recount, a
// sandbox fork counting its copies) adds the same difference here. Removal only
// subtracts from rows that exist, so deleting a group's rows in any table order leaves
// no negative rows behind.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

const ROLLUP_DIMENSIONS = ['', 'brand', 'method_detail', 'source'] as const;

/** The four (dimension, value) pairs of one transaction_daily row. */
const pairs = (r: 'NEW' | 'OLD') =>
  `(SELECT '' AS dimension, '' AS value UNION ALL SELECT 'brand', ${r}.brand UNION ALL SELECT 'method_detail', ${r}.method_detail UNION ALL SELECT 'source', ${r}.source)`;

const add = (count: string, amount: string) => `INSERT INTO transaction_daily_dims (group_id, dimension, day, status, value, tx_count, net_amount)
    SELECT NEW.group_id, d.dimension, NEW.day, NEW.status, d.value, ${count}, ${amount} FROM ${pairs('NEW')} AS d WHERE true
    ON CONFLICT (group_id, dimension, day, status, value) DO UPDATE SET tx_count = tx_count + excluded.tx_count, net_amount = net_amount + excluded.net_amount;`;

const subtractOld = `UPDATE transaction_daily_dims SET tx_count = tx_count - OLD.tx_count, net_amount = net_amount - OLD.net_amount
    WHERE group_id = OLD.group_id AND day = OLD.day AND status = OLD.status AND (dimension, value) IN ${pairs('OLD')};`;

/** The tables and indexes both stores make, in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE transaction_daily_dims (
      group_id ${t.text} NOT NULL,
      dimension ${t.text} NOT NULL CHECK (dimension IN (${ROLLUP_DIMENSIONS.map((d) => `'${d}'`).join(', ')})),
      day ${t.text} NOT NULL,
      status ${t.text} NOT NULL,
      value ${t.text} NOT NULL,
      tx_count ${t.int} NOT NULL,
      net_amount ${t.int} NOT NULL,
      PRIMARY KEY (group_id, dimension, day, status, value)
    )${t.withoutRowid}`,
];

export default {
  version: 14,
  name: 'reporting-rollup-by-dimension',
  sqlite: [
    ...ddl(SQLITE_DDL),
    // SQLite's own (PostgreSQL's: below).
    `INSERT INTO transaction_daily_dims (group_id, dimension, day, status, value, tx_count, net_amount)
     SELECT r.group_id, d.dimension, r.day, r.status,
            CASE d.dimension WHEN 'brand' THEN r.brand WHEN 'method_detail' THEN r.method_detail WHEN 'source' THEN r.source ELSE '' END AS value,
            SUM(r.tx_count), SUM(r.net_amount)
     FROM transaction_daily AS r, (${ROLLUP_DIMENSIONS.map((d, i) => `${i ? 'UNION ALL ' : ''}SELECT '${d}' AS dimension`).join(' ')}) AS d
     GROUP BY 1, 2, 3, 4, 5`,
    `CREATE TRIGGER transaction_daily_dims_insert AFTER INSERT ON transaction_daily
  BEGIN
    ${add('NEW.tx_count', 'NEW.net_amount')}
  END`,
    `CREATE TRIGGER transaction_daily_dims_update AFTER UPDATE OF tx_count, net_amount ON transaction_daily
  BEGIN
    ${add('NEW.tx_count - OLD.tx_count', 'NEW.net_amount - OLD.net_amount')}
  END`,
    `CREATE TRIGGER transaction_daily_dims_delete AFTER DELETE ON transaction_daily
  BEGIN
    ${subtractOld}
  END`,
  ],
  postgres: [
    ...ddl(POSTGRES_DDL),
    // The per-dimension rollup follows transaction_daily: (status + one dimension) rows.
    `CREATE OR REPLACE FUNCTION payctl_rollup_dims() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily_dims SET tx_count = tx_count - OLD.tx_count, net_amount = net_amount - OLD.net_amount
    WHERE group_id = OLD.group_id AND day = OLD.day AND status = OLD.status
      AND (dimension, value) IN (('', ''), ('brand', OLD.brand), ('method_detail', OLD.method_detail), ('source', OLD.source));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO transaction_daily_dims AS m (group_id, dimension, day, status, value, tx_count, net_amount)
    SELECT NEW.group_id, d.dimension, NEW.day, NEW.status, d.value, NEW.tx_count, NEW.net_amount
    FROM (VALUES ('', ''), ('brand', NEW.brand), ('method_detail', NEW.method_detail), ('source', NEW.source)) AS d(dimension, value)
    ON CONFLICT (group_id, dimension, day, status, value) DO UPDATE SET tx_count = m.tx_count + excluded.tx_count, net_amount = m.net_amount + excluded.net_amount;
  END IF;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER transaction_daily_dims AFTER INSERT OR UPDATE OF tx_count, net_amount OR DELETE ON transaction_daily
  FOR EACH ROW EXECUTE FUNCTION payctl_rollup_dims()`,
  ],
} satisfies Version;
