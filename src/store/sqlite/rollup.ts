// The reporting rollup's statements on SQLite (the maintenance both stores share is
// ../sql/rollup.ts; PostgreSQL's statements are ../postgres/rollup.ts). Updates and
// deletes of transactions reach the rollup through migration 21's triggers.
import type { RollupStatements } from '../sql/dialect.js';
import { rollupInsertSelect } from '../migrations/021-exact-money-rollup.js';
import { DIMENSION_COUNT, DIMENSIONS } from '../sql/rollup.js';

export const sqliteRollup: RollupStatements = {
  // `WHERE true`: an upsert on a SELECT needs it (SQLite's parser).
  addJsonRows: `INSERT INTO transaction_daily (${DIMENSIONS}, tx_count, net_high, net_low)
SELECT ${Array.from({ length: DIMENSION_COUNT + 3 }, (_, i) => `value ->> ${i}`).join(', ')} FROM json_each(?) WHERE true
ON CONFLICT (${DIMENSIONS}) DO UPDATE SET tx_count = tx_count + excluded.tx_count, net_high = net_high + excluded.net_high, net_low = net_low + excluded.net_low`,
  // The recount as migration 21 wrote it.
  addTransactions: rollupInsertSelect,
};
