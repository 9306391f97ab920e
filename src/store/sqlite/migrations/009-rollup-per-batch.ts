// The reporting rollup (transaction_daily) counts new transactions once per write batch
// (rollupOfInserts in src/store/repositories/reporting.ts) instead of a trigger per
// inserted row: the trigger goes. Its update and delete triggers stay (migration 11).
export default {
  version: 9,
  name: 'rollup-per-batch',
  statements: ['DROP TRIGGER IF EXISTS transactions_daily_insert'],
};
