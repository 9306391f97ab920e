// A fingerprint of everything in the database: one hash per table over all its rows.
// "Refused" must mean "nothing changed": compare before and after a request.
import { createHash } from 'node:crypto';
import type { Store } from '../../../src/store/interfaces/db.js';
import { cellText, tableNames, tableRows } from '../../helpers/store.js';

export type DbState = Map<string, string>;

/** On either store: its own tables, read through it (helpers/store.ts). */
export async function dbState(store: Store): Promise<DbState> {
  const state: DbState = new Map();
  for (const name of await tableNames(store)) {
    const rows = await tableRows(store, name);
    const lines = rows.map((r) => JSON.stringify(Object.entries(r).map(([k, v]) => [k, v === null ? null : cellText(v)]))).sort();
    state.set(name, createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16) + `:${rows.length}`);
  }
  return state;
}

/** Tables whose contents differ (empty when nothing changed). */
export function changedTables(before: DbState, after: DbState): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}
