// PostgreSQL's side of the differences ../sql/dialect.ts names. JSON array parameters are
// unpacked with json_array_elements[_text] (typed where the column is not text), instants
// are timestamptz, and claims are row locks: FOR UPDATE [SKIP LOCKED] in a write that
// runs READ COMMITTED (WriteOptions.claims), so a row another server's transaction holds
// is passed over (or waited for), and a claim ends with its transaction.
import type { Dialect } from '../sql/dialect.js';
import { pgRollup } from './rollup.js';
import { utcDay } from '../migrations/030-typed-columns.js';

export const pgDialect: Dialect = Object.freeze({
  name: 'postgres',
  jsonValues: (type: 'text' | 'integer' = 'text') =>
    type === 'integer' ? '(SELECT value::bigint FROM json_array_elements_text(?::json) AS value)' : '(SELECT value FROM json_array_elements_text(?::json) AS value)',
  jsonIntegerPairs: () => '(SELECT (p.value ->> 0)::bigint, (p.value ->> 1)::bigint FROM json_array_elements(?::json) AS p(value))',
  utcDay,
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  lock: ' FOR UPDATE',
  lockShared: ' FOR SHARE',
  // PostgreSQL's planner weighs the indexes itself.
  unindexed: (column: string) => column,
  // LIMIT NULL is no limit.
  noLimit: null,
  columnsOf: (table: string) => ({
    sql: 'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
    params: [table],
  }),
  rollup: pgRollup,
} satisfies Dialect);
