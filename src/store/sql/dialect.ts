// What SQL the two stores do not share. The repositories (./repositories) write one text
// for both stores in the SQL SQLite and PostgreSQL both accept; where the two really
// differ, the text asks the dialect of the executor it runs on (`ex.dialect`), each
// difference a named member here — the store's own SQL, never a rewrite of the other's
// (as Oban's engines or Kysely's dialect adapters do). Implementations:
// ../sqlite/dialect.ts and ../postgres/dialect.ts. docs/store.md says how to add one.

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';

  /**
   * A one-column subquery (`value`) of the elements of a JSON array parameter (its one
   * `?`, a JSON text): `x IN ${d.jsonValues()}`. Elements are text, or integers with
   * `'integer'`.
   */
  jsonValues(type?: 'text' | 'integer'): string;

  /** A two-column subquery of a JSON array parameter of [integer, integer] pairs: `(a, b) IN ${d.jsonIntegerPairs()}`. */
  jsonIntegerPairs(): string;

  /** The UTC day (`YYYY-MM-DD` text) of an instant column or expression. */
  utcDay(instant: string): string;

  /**
   * Appended to a SELECT that claims the rows it picks for the write it runs in (background
   * work: WriteOptions.claims): rows another transaction holds are passed over. SQLite has
   * one writer, so what a write read stays its own to COMMIT: nothing to add.
   */
  readonly skipLocked: string;
  /** Appended to a SELECT whose rows the write must hold, waiting for another holder (a fork's job row). */
  readonly lock: string;
  /** Appended to a SELECT whose rows must stay while the write runs, shared with other readers (the group a journal batch is written for: a drop of it waits, or the batch sees it gone). */
  readonly lockShared: string;

  /** A column compared without its index (SQLite's planner would pick the index of `column` over a better one). */
  unindexed(column: string): string;

  /** The value of a `LIMIT ?` parameter that sets no limit. */
  readonly noLimit: number | null;

  /** A query of the column names (`name`) of a table, in declaration order. */
  columnsOf(table: string): { sql: string; params: unknown[] };

  /** The reporting rollup (transaction_daily): the store's own statements (../sqlite/rollup.ts, ../postgres/rollup.ts). */
  readonly rollup: RollupStatements;
}

export interface RollupStatements {
  /**
   * Add rows given as one JSON parameter (an array of [group_id, day, status,
   * transaction_type, method_detail, brand, source, currency, processor_id, tx_count,
   * net_high, net_low]) to the rollup: per-batch work (sql/rollup.ts rollupOfInserts).
   */
  readonly addJsonRows: string;
  /** Add the transactions that `where` (a WHERE clause, or '') selects to the rollup. */
  addTransactions(where: string): string;
}
