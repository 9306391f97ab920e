// A fingerprint of everything in the database: one hash per table over all its rows.
// "Refused" must mean "nothing changed": compare before and after a request.
import { createHash } from 'node:crypto';
import type { Executor } from '../../../src/store/interfaces/db.js';

export type DbState = Map<string, string>;

export async function dbState(ex: Executor): Promise<DbState> {
  const tables = await ex.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  const state: DbState = new Map();
  for (const { name } of tables) {
    const rows = await ex.all<Record<string, unknown>>(`SELECT * FROM "${name.replace(/"/g, '""')}"`);
    const lines = rows.map((r) => JSON.stringify(r)).sort();
    state.set(name, createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16) + `:${rows.length}`);
  }
  return state;
}

/** Tables whose contents differ (empty when nothing changed). */
export function changedTables(before: DbState, after: DbState): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}
