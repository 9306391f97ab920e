// The text of a deferred compare-and-set (interfaces/db.ts `Update`): written from its
// parts, once per statement object, so both stores send the same text and the SQLite
// writer can join many of one text (sqlite/batch-sql.ts) from the same parts.
import type { Update } from '../interfaces/db.js';

const texts = new WeakMap<Update, string>();

/** `UPDATE table SET set WHERE where` (or the text given whole). */
export function updateSql(u: Update): string {
  let sql = texts.get(u);
  if (sql === undefined) {
    sql = 'sql' in u ? u.sql : `UPDATE ${u.table} SET ${u.set} WHERE ${u.where}`;
    texts.set(u, sql);
  }
  return sql;
}

/** The tables `u` reads besides its own rows (the subquery of one given whole). */
export function updateReads(u: Update): readonly string[] {
  return 'sql' in u ? u.reads : [];
}
