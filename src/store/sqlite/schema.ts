// Reading the schema itself. The one database-specific query the store needs outside
// migrations: a table's column names (PostgreSQL: information_schema.columns).
import type { Executor } from '../interfaces/db.js';

const cache = new Map<string, string[]>();

/** Column names of `table`, in declaration order (cached: the schema changes only by migration, at open). */
export async function tableColumns(ex: Executor, table: string): Promise<string[]> {
  let columns = cache.get(table);
  if (!columns) {
    columns = (await ex.all<{ name: string }>(`PRAGMA table_info(${table})`)).map((c) => c.name);
    if (columns.length === 0) throw new Error(`no table ${table}`);
    cache.set(table, columns);
  }
  return columns;
}

/** Every table of the database. */
export async function tableNames(ex: Executor): Promise<string[]> {
  const rows = await ex.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  return rows.map((r) => r.name);
}

/** Foreign keys of `table`: its column and the table it references. */
export async function foreignKeys(ex: Executor, table: string): Promise<Array<{ from: string; table: string }>> {
  return ex.all<{ from: string; table: string }>(`SELECT "from", "table" FROM pragma_foreign_key_list('${table}')`);
}
