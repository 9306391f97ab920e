// Exact money in the reporting rollups (docs/decisions.md#amounts). A rollup row's net amount
// was one INTEGER: past 2^63 SQLite's `+` turns it into a float and SUM() fails with
// "integer overflow" (1,100 sales of 2^53-1 in a day made amount_sum answer 500), and a
// sum past 2^53 cannot reach JavaScript exactly as a number. Each net amount x is now
// kept in two halves: net_high = Σ (x div 2^26) and net_low = Σ (x mod 2^26) (integer
// division, truncated; high × 2^26 + low = x exactly). With |x| < 2^53 each row adds
// less than 2^27 to either half, so neither half overflows a 64-bit integer before 2^36
// transactions — and readers SUM them as text and recombine with BigInt (fromSplit).
// The triggers of migrations 11 and 14 are replaced by the same ones over the halves,
// and both rollups are recounted from the transactions.
import type { Tx } from '../interfaces/db.js';
import type { Version } from './migration.js';

export const SPLIT_SQL = '67108864'; // 2^26, as src/domain/money.ts SPLIT
const high = (x: string) => `((${x}) / ${SPLIT_SQL})`;
const low = (x: string) => `((${x}) % ${SPLIT_SQL})`;

const DIMENSIONS = 'group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id';
const rowKey = (r: 'NEW' | 'OLD') =>
  `${r}.group_id, substr(${r}.created_at, 1, 10), ${r}.status, ${r}.transaction_type, ${r}.method_detail, COALESCE(${r}.brand, ''), ${r}.source, ${r}.currency, ${r}.processor_id`;
const matchOld = `group_id = OLD.group_id AND day = substr(OLD.created_at, 1, 10) AND status = OLD.status
    AND transaction_type = OLD.transaction_type AND method_detail = OLD.method_detail AND brand = COALESCE(OLD.brand, '')
    AND source = OLD.source AND currency = OLD.currency AND processor_id = OLD.processor_id`;
const net = (r: 'NEW' | 'OLD') => `${r}.captured_amount - ${r}.refunded_amount`;
const upsertSums = 'tx_count = tx_count + excluded.tx_count, net_high = net_high + excluded.net_high, net_low = net_low + excluded.net_low';
const addNew = `INSERT INTO transaction_daily (${DIMENSIONS}, tx_count, net_high, net_low)
    VALUES (${rowKey('NEW')}, 1, ${high(net('NEW'))}, ${low(net('NEW'))})
    ON CONFLICT (${DIMENSIONS}) DO UPDATE SET ${upsertSums};`;
const removeOld = `UPDATE transaction_daily SET tx_count = tx_count - 1, net_high = net_high - ${high(net('OLD'))}, net_low = net_low - ${low(net('OLD'))}
    WHERE ${matchOld};`;

/** Add the transactions matching `where` to the rollup (all of them: a recount into an empty rollup). */
export const rollupInsertSelect = (where: string): string =>
  `INSERT INTO transaction_daily (${DIMENSIONS}, tx_count, net_high, net_low)
   SELECT group_id, substr(created_at, 1, 10), status, transaction_type, method_detail, COALESCE(brand, ''), source, currency, processor_id,
          COUNT(*), SUM(${high('captured_amount - refunded_amount')}), SUM(${low('captured_amount - refunded_amount')})
   FROM transactions ${where}
   GROUP BY group_id, substr(created_at, 1, 10), status, transaction_type, method_detail, COALESCE(brand, ''), source, currency, processor_id
   ON CONFLICT (${DIMENSIONS}) DO UPDATE SET ${upsertSums}`;

/** The four (dimension, value) pairs of one transaction_daily row (as migration 14). */
const pairs = (r: 'NEW' | 'OLD') =>
  `(SELECT '' AS dimension, '' AS value UNION ALL SELECT 'brand', ${r}.brand UNION ALL SELECT 'method_detail', ${r}.method_detail UNION ALL SELECT 'source', ${r}.source)`;
const addDims = (count: string, h: string, l: string) => `INSERT INTO transaction_daily_dims (group_id, dimension, day, status, value, tx_count, net_high, net_low)
    SELECT NEW.group_id, d.dimension, NEW.day, NEW.status, d.value, ${count}, ${h}, ${l} FROM ${pairs('NEW')} AS d WHERE true
    ON CONFLICT (group_id, dimension, day, status, value) DO UPDATE SET ${upsertSums};`;
const subtractDims = `UPDATE transaction_daily_dims SET tx_count = tx_count - OLD.tx_count, net_high = net_high - OLD.net_high, net_low = net_low - OLD.net_low
    WHERE group_id = OLD.group_id AND day = OLD.day AND status = OLD.status AND (dimension, value) IN ${pairs('OLD')};`;

/** The statements after the columns are in place: triggers, the index, the recount. */
const rebuild = [
  'CREATE INDEX transaction_daily_status ON transaction_daily(group_id, status, day, tx_count, net_high, net_low)',
  `CREATE TRIGGER transaction_daily_dims_insert AFTER INSERT ON transaction_daily
  BEGIN
    ${addDims('NEW.tx_count', 'NEW.net_high', 'NEW.net_low')}
  END`,
  `CREATE TRIGGER transaction_daily_dims_update AFTER UPDATE OF tx_count, net_high, net_low ON transaction_daily
  BEGIN
    ${addDims('NEW.tx_count - OLD.tx_count', 'NEW.net_high - OLD.net_high', 'NEW.net_low - OLD.net_low')}
  END`,
  `CREATE TRIGGER transaction_daily_dims_delete AFTER DELETE ON transaction_daily
  BEGIN
    ${subtractDims}
  END`,
  // The recount fills transaction_daily_dims through the triggers above.
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
];

export default {
  version: 21,
  name: 'exact-money-rollup',
  // Re-runnable (columns are changed only where they are not yet), so a database that
  // lost this migration's record is healed by running it again.
  sqlite: async (tx: Tx): Promise<void> => {
    for (const trigger of ['transactions_daily_insert', 'transactions_daily_update', 'transactions_daily_delete', 'transaction_daily_dims_insert', 'transaction_daily_dims_update', 'transaction_daily_dims_delete']) {
      await tx.run(`DROP TRIGGER IF EXISTS ${trigger}`);
    }
    await tx.run('DROP INDEX IF EXISTS transaction_daily_status');
    await tx.run('DELETE FROM transaction_daily_dims');
    await tx.run('DELETE FROM transaction_daily');
    for (const table of ['transaction_daily', 'transaction_daily_dims']) {
      const columns = new Set((await tx.all<{ name: string }>(`PRAGMA table_info(${table})`)).map((c) => c.name));
      if (columns.has('net_amount')) await tx.run(`ALTER TABLE ${table} DROP COLUMN net_amount`);
      if (!columns.has('net_high')) await tx.run(`ALTER TABLE ${table} ADD COLUMN net_high INTEGER NOT NULL DEFAULT 0`);
      if (!columns.has('net_low')) await tx.run(`ALTER TABLE ${table} ADD COLUMN net_low INTEGER NOT NULL DEFAULT 0`);
    }
    for (const sql of rebuild) await tx.run(sql);
  },
  postgres: [
    'DROP TRIGGER transactions_daily_update ON transactions',
    'DROP TRIGGER transactions_daily_delete ON transactions',
    'DROP TRIGGER transaction_daily_dims ON transaction_daily',
    'DROP INDEX transaction_daily_status',
    'DELETE FROM transaction_daily_dims',
    'DELETE FROM transaction_daily',
    ...['transaction_daily', 'transaction_daily_dims'].map(
      (t) => `ALTER TABLE ${t} DROP COLUMN net_amount, ADD COLUMN net_high BIGINT NOT NULL DEFAULT 0, ADD COLUMN net_low BIGINT NOT NULL DEFAULT 0`,
    ),
    'CREATE INDEX transaction_daily_status ON transaction_daily(group_id, status, day, tx_count, net_high, net_low)',
    // Net amounts in two halves (x / 2^26 and x % 2^26, truncated as on SQLite): see SQLite's above.
    `CREATE OR REPLACE FUNCTION payctl_rollup_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily SET tx_count = tx_count - 1,
      net_high = net_high - (OLD.captured_amount - OLD.refunded_amount) / ${SPLIT_SQL}, net_low = net_low - (OLD.captured_amount - OLD.refunded_amount) % ${SPLIT_SQL}
    WHERE group_id = OLD.group_id AND day = substr(OLD.created_at, 1, 10) AND status = OLD.status
      AND transaction_type = OLD.transaction_type AND method_detail = OLD.method_detail AND brand = COALESCE(OLD.brand, '')
      AND source = OLD.source AND currency = OLD.currency AND processor_id = OLD.processor_id;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO transaction_daily AS d (${DIMENSIONS}, tx_count, net_high, net_low)
    VALUES (NEW.group_id, substr(NEW.created_at, 1, 10), NEW.status, NEW.transaction_type, NEW.method_detail, COALESCE(NEW.brand, ''),
            NEW.source, NEW.currency, NEW.processor_id, 1,
            (NEW.captured_amount - NEW.refunded_amount) / ${SPLIT_SQL}, (NEW.captured_amount - NEW.refunded_amount) % ${SPLIT_SQL})
    ON CONFLICT (${DIMENSIONS}) DO UPDATE SET tx_count = d.tx_count + 1, net_high = d.net_high + excluded.net_high, net_low = d.net_low + excluded.net_low;
  END IF;
  RETURN NULL;
END $$`,
    `CREATE OR REPLACE FUNCTION payctl_rollup_dims() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily_dims SET tx_count = tx_count - OLD.tx_count, net_high = net_high - OLD.net_high, net_low = net_low - OLD.net_low
    WHERE group_id = OLD.group_id AND day = OLD.day AND status = OLD.status
      AND (dimension, value) IN (('', ''), ('brand', OLD.brand), ('method_detail', OLD.method_detail), ('source', OLD.source));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO transaction_daily_dims AS m (group_id, dimension, day, status, value, tx_count, net_high, net_low)
    SELECT NEW.group_id, d.dimension, NEW.day, NEW.status, d.value, NEW.tx_count, NEW.net_high, NEW.net_low
    FROM (VALUES ('', ''), ('brand', NEW.brand), ('method_detail', NEW.method_detail), ('source', NEW.source)) AS d(dimension, value)
    ON CONFLICT (group_id, dimension, day, status, value)
    DO UPDATE SET tx_count = m.tx_count + excluded.tx_count, net_high = m.net_high + excluded.net_high, net_low = m.net_low + excluded.net_low;
  END IF;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER transaction_daily_dims AFTER INSERT OR UPDATE OF tx_count, net_high, net_low OR DELETE ON transaction_daily
  FOR EACH ROW EXECUTE FUNCTION payctl_rollup_dims()`,
    `CREATE TRIGGER transactions_daily_update
  AFTER UPDATE OF group_id, created_at, status, transaction_type, method_detail, brand, source, currency, processor_id, captured_amount, refunded_amount
  ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`,
    `CREATE TRIGGER transactions_daily_delete AFTER DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`,
  ],
} satisfies Version;
