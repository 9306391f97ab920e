// Bulk loading for `payctl dev seed`. Binding tens of thousands of parameters per
// statement costs more than SQLite's own work (node-sqlite3 converts each on the main
// thread, and SQLite caps a statement at 32,766), so a chunk of rows travels as one
// JSON parameter that SQLite unpacks with json_each (into JSONB once per row, then
// one `->>` per column). Only the columns that vary are sent; values shared by every
// row are bound once, and columns left out take their table default. SQLite-only (a
// PostgreSQL store has its own: postgres/repositories.ts); used for seeding, never by
// the API.
import type { Tx } from '../interfaces/db.js';
import type { BulkShape, SeedStore, TransactionRow } from '../interfaces/seed.js';
import { seedBatches } from '../sql/repositories/seed.js';
import { sqliteRollup } from './rollup.js';

type Column = keyof TransactionRow;

const sqlCache = new Map<string, string>();
function insertSql(shape: BulkShape): string {
  const fixed = Object.keys(shape.constants) as Column[];
  const key = `${shape.columns.join(',')}|${fixed.join(',')}`;
  let sql = sqlCache.get(key);
  if (!sql) {
    sql = `WITH r AS MATERIALIZED (SELECT jsonb(value) AS v FROM json_each(?))
INSERT INTO transactions (${[...fixed, ...shape.columns].join(', ')})
SELECT ${[...fixed.map(() => '?'), ...shape.columns.map((_, i) => `v ->> ${i}`)].join(', ')} FROM r`;
    sqlCache.set(key, sql);
  }
  return sql;
}

/**
 * Insert many transactions (`insert`, e.g. a seed's multi-row statements) inside `tx`
 * and add them to the rollup in one aggregate in the same transaction, so every commit
 * leaves it exact. New rows are told apart by rowid (SQLite appends them above the largest).
 */
async function insertCountedInRollup(tx: Tx, insert: () => Promise<void>): Promise<void> {
  const before = (await tx.get<{ m: number | null }>('SELECT MAX(rowid) AS m FROM transactions'))?.m ?? 0;
  await insert();
  await tx.run(sqliteRollup.addTransactions('WHERE rowid > ?'), [before]);
}

export const sqliteSeed: SeedStore = {
  ...seedBatches,
  insertCountedInRollup,
  /** Many transaction rows in one statement. */
  async insertTransactions(ex: Tx, rows: TransactionRow[], shape: BulkShape): Promise<void> {
    if (rows.length === 0) return;
    const json = JSON.stringify(rows.map((r) => shape.columns.map((c) => r[c])));
    await ex.run(insertSql(shape), [json, ...Object.values(shape.constants)]);
  },
  /**
   * A bigger page cache for the connection that writes (64 MiB instead of SQLite's
   * 2 MiB): a million rows touch seven indexes, and re-reading their pages from disk
   * is what slows a long load down. Only `payctl dev seed` calls it (the process ends
   * after the load).
   */
  bulkLoadCache: (tx: Tx) => tx.run('PRAGMA cache_size = -65536'),
};
