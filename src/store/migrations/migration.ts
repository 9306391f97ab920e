// What a migration is: one schema version as written (both stores' statements side by
// side, in its NNN-name.ts file) and one store's part of it as that store's runner
// applies it (../sqlite/migrate.ts, ../postgres/migrate.ts).
import type { Tx } from '../interfaces/db.js';

/**
 * One schema version, under the same number and name on both stores. Tables both make
 * are written once, as `ddl(t)` over the column types of ../sql/ddl.ts, and each store's
 * list calls it with its own (`ddl(SQLITE_DDL)`, `ddl(POSTGRES_DDL)`); what one store does
 * its own way (SQLite's triggers and table rebuilds, PostgreSQL's trigger functions and
 * typed columns) is written out in that store's list. An empty list keeps the numbers in
 * step where a store has nothing to do.
 */
export interface Version {
  version: number;
  name: string;
  /** Statements, each run whole (a trigger body keeps its semicolons), or a change that needs to read before it writes. */
  sqlite: readonly string[] | ((tx: Tx) => Promise<void>);
  postgres: readonly string[];
}

/**
 * One store's schema change, applied inside one write transaction: a list of statements,
 * each run whole (a trigger body keeps its semicolons), or `up` for a change that needs to
 * read before it writes.
 */
export type Migration = { version: number; name: string } & (
  | { statements: readonly string[]; up?: never }
  | { up(tx: Tx): Promise<void>; statements?: never }
);
