// Reading the schema itself: a table's column names, the one query about the schema
// the store needs outside migrations (each store's own: Dialect.columnsOf).
import type { Executor } from '../interfaces/db.js';

const cache = new Map<string, string[]>();

/** Column names of `table`, in declaration order (cached: the schema changes only by migration, at open). */
export async function tableColumns(ex: Executor, table: string): Promise<string[]> {
  const key = `${ex.dialect.name}:${table}`;
  let columns = cache.get(key);
  if (!columns) {
    const q = ex.dialect.columnsOf(table);
    columns = (await ex.all<{ name: string }>(q.sql, q.params)).map((c) => c.name);
    if (columns.length === 0) throw new Error(`no table ${table}`);
    cache.set(key, columns);
  }
  return columns;
}
