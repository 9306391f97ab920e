// The reporting rollups against the rows they sum: transaction_daily and
// transaction_daily_dims must equal the same sums computed from the transactions (one
// SQL text for both stores but the UTC day of an instant: the store's dialect's).
import assert from 'node:assert/strict';
import type { Platform } from '../../src/services/platform.js';
import type { Dialect } from '../../src/store/sql/dialect.js';

const RAW = (d: Dialect) => `SELECT group_id, ${d.utcDay('created_at')} AS day, status, transaction_type, method_detail, COALESCE(brand, '') AS brand,
  source, currency, processor_id, COUNT(*) AS tx_count, SUM(captured_amount - refunded_amount) AS net_amount
FROM transactions GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9`;
// The rollups keep the net amount in two halves (migration 21): high × 2^26 + low. On
// PostgreSQL a key has a row per slot that counted into it (each writer lane its own):
// the rollup of a key is the sum of its rows, as every report reads it.
const ROLLUP = `SELECT group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id, SUM(tx_count) AS tx_count,
  (SUM(net_high) * 67108864 + SUM(net_low)) AS net_amount
FROM transaction_daily GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 HAVING SUM(tx_count) <> 0 OR (SUM(net_high) * 67108864 + SUM(net_low)) <> 0`;

// The per-dimension rollup (status alone, and by brand, method_detail, source), from the rows.
const DIMS_RAW = (dialect: Dialect) => ['', 'brand', 'method_detail', 'source']
  .map(
    (d) => `SELECT group_id, '${d}' AS dimension, ${dialect.utcDay('created_at')} AS day, status, ${d === '' ? "''" : d === 'brand' ? "COALESCE(brand, '')" : d} AS value,
  COUNT(*) AS tx_count, SUM(captured_amount - refunded_amount) AS net_amount FROM transactions GROUP BY 1, 2, 3, 4, 5`,
  )
  .join(' UNION ALL ');
const DIMS = `SELECT group_id, dimension, day, status, value, SUM(tx_count) AS tx_count, (SUM(net_high) * 67108864 + SUM(net_low)) AS net_amount
FROM transaction_daily_dims GROUP BY 1, 2, 3, 4, 5 HAVING SUM(tx_count) <> 0 OR (SUM(net_high) * 67108864 + SUM(net_low)) <> 0`;

/** Both rollups equal the rows; returns the number of transactions. */
export async function assertRollupExact(p: Platform, label: string): Promise<number> {
  const order = (rows: Array<Record<string, unknown>>) => rows.map((r) => JSON.stringify(r)).sort();
  const raw = await p.db.all<Record<string, unknown>>(RAW(p.db.dialect));
  const rollup = await p.db.all<Record<string, unknown>>(ROLLUP);
  assert.deepEqual(order(rollup), order(raw), label);
  const dims = await p.db.all<Record<string, unknown>>(DIMS);
  assert.deepEqual(order(dims), order(await p.db.all<Record<string, unknown>>(DIMS_RAW(p.db.dialect))), `${label}: per dimension`);
  assert.ok(dims.length > 0, `${label}: the per-dimension rollup has rows`);
  return raw.reduce((n, r) => n + (r.tx_count as number), 0);
}
