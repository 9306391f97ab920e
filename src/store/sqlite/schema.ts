// SQLite's schema, for the tests that check the store's lists of tables against it
// (test/store/group-tables.test.ts).
import type { Executor } from '../interfaces/db.js';

/** Every table of the database. */
export async function tableNames(ex: Executor): Promise<string[]> {
  const rows = await ex.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  return rows.map((r) => r.name);
}

/** Foreign keys of `table`: its column and the table it references. */
export async function foreignKeys(ex: Executor, table: string): Promise<Array<{ from: string; table: string }>> {
  return ex.all<{ from: string; table: string }>(`SELECT "from", "table" FROM pragma_foreign_key_list('${table}')`);
}
