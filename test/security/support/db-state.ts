// A fingerprint of everything in the database: one hash per table over all its rows.
// "Refused" must mean "nothing changed": compare before and after a request.
import { createHash } from 'node:crypto';
import type { Store } from '../../../src/store/interfaces/db.js';
import { cellText, tableNames, tableRows } from '../../helpers/store.js';
import { TRAFFIC_TABLES } from '../../helpers/sandboxes.js';

export type DbState = Map<string, string>;

/**
 * Server state, not data: the tables where PostgreSQL keeps what several servers share
 * and one SQLite process keeps in memory (migration 24) — a refused pay request still
 * counts against its address's limit, and servers renew their admin token leases on a
 * timer.
 */
const SERVER_STATE = new Set(['rate_limit_hits', 'admin_tokens']);

/** On either store: its own tables, read through it (helpers/store.ts). */
export async function dbState(store: Store): Promise<DbState> {
  const state: DbState = new Map();
  for (const name of await tableNames(store)) {
    if (SERVER_STATE.has(name) || TRAFFIC_TABLES.has(name)) continue;
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
