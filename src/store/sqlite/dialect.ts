// SQLite's side of the differences ../sql/dialect.ts names. Rows are claimed by being the
// one writer: a SELECT that claims needs no clause.
import type { Dialect } from '../sql/dialect.js';
import { sqliteRollup } from './rollup.js';

export const sqliteDialect: Dialect = Object.freeze({
  name: 'sqlite',
  jsonValues: () => '(SELECT value FROM json_each(?))',
  jsonIntegerPairs: () => '(SELECT p.value ->> 0, p.value ->> 1 FROM json_each(?) p)',
  // Instants are ISO-8601 UTC text: the day is their first ten characters.
  utcDay: (instant: string) => `substr(${instant}, 1, 10)`,
  skipLocked: '',
  lock: '',
  lockShared: '',
  // A unary + makes the column an expression: the planner cannot use its index.
  unindexed: (column: string) => `+${column}`,
  noLimit: -1,
  columnsOf: (table: string) => ({ sql: `PRAGMA table_info(${table})`, params: [] }),
  rollup: sqliteRollup,
} satisfies Dialect);
