// The reporting rollup's statements on PostgreSQL (SQLite's: ../sqlite/rollup.ts; the
// maintenance both share: ../sql/rollup.ts). Each write lane counts into rows of its own
// slot (migration 27: `slot` defaults to the transaction's payctl.rollup_slot), so the
// conflict target names the slot, and an upsert adds to the existing row's columns,
// which PostgreSQL wants named by their table. Updates and deletes of transactions reach
// the rollup through the trigger functions of the migrations.
import type { RollupStatements } from '../sql/dialect.js';
import { DIMENSIONS, SPLIT_SQL } from '../sql/rollup.js';
import { utcDay } from '../migrations/030-typed-columns.js';

const ADD = (table: string) =>
  `tx_count = ${table}.tx_count + excluded.tx_count, net_high = ${table}.net_high + excluded.net_high, net_low = ${table}.net_low + excluded.net_low`;
const net = 'captured_amount - refunded_amount';

export const pgRollup: RollupStatements = {
  addJsonRows: `INSERT INTO transaction_daily AS d (${DIMENSIONS}, tx_count, net_high, net_low)
SELECT v ->> 0, v ->> 1, v ->> 2, v ->> 3, v ->> 4, v ->> 5, v ->> 6, v ->> 7, v ->> 8, (v ->> 9)::bigint, (v ->> 10)::bigint, (v ->> 11)::bigint
FROM json_array_elements($1::json) AS v
ON CONFLICT (${DIMENSIONS}, slot)
DO UPDATE SET ${ADD('d')}`,
  addTransactions: (where: string) =>
    `INSERT INTO transaction_daily (${DIMENSIONS}, tx_count, net_high, net_low)
   SELECT group_id, ${utcDay('created_at')}, status, transaction_type, method_detail, COALESCE(brand, ''), source, currency, processor_id,
          COUNT(*), SUM(((${net}) / ${SPLIT_SQL})), SUM(((${net}) % ${SPLIT_SQL}))
   FROM transactions ${where}
   GROUP BY group_id, ${utcDay('created_at')}, status, transaction_type, method_detail, COALESCE(brand, ''), source, currency, processor_id
   ON CONFLICT (${DIMENSIONS}, slot) DO UPDATE SET ${ADD('transaction_daily')}`,
};
