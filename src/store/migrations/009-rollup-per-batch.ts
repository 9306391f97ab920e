// The reporting rollup (transaction_daily) counts new transactions once per write batch
// (rollupOfInserts in src/store/repositories/reporting.ts) instead of a trigger per
// inserted row: the trigger goes. Its update and delete triggers stay (migration 11).
import type { Version } from './migration.js';

export default {
  version: 9,
  name: 'rollup-per-batch',
  sqlite: ['DROP TRIGGER IF EXISTS transactions_daily_insert'],
  postgres: [],
} satisfies Version;
