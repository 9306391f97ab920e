// Sandbox test helpers: create one through the real API, and dump every row a group
// owns (walking the store's list of group-owned tables) to compare before and after.
import assert from 'node:assert/strict';
import type { TestServer } from './server.js';
import type { Executor, Store } from '../../src/store/interfaces/db.js';
import { GROUP_TABLES, ownerCondition } from '../../src/store/sql/group-tables.js';

export const ADMIN = 'padm_test_admin_token';

export interface SandboxReply {
  group_id: string;
  processor_id: string;
  linked_account_id: string;
  keys: Record<string, string>;
  clock: string;
  [more: string]: unknown;
}

/**
 * Noon UTC of today: a start for a sandbox clock that a test moves by minutes or hours,
 * twelve hours from the daily settlement cutoff (00:00 UTC) either way, so the test sees
 * no settlement it never asked for whatever hour it runs.
 */
export const noonToday = (): string => `${new Date().toISOString().slice(0, 10)}T12:00:00Z`;

export async function newSandbox(s: TestServer, body: Record<string, unknown> = {}): Promise<SandboxReply> {
  const r = await s.call('POST', '/api/v1/sandboxes', { key: ADMIN, body });
  assert.equal(r.status, 201, r.text);
  return r.body as SandboxReply;
}

/**
 * The request journal's tables: a group's traffic (every call is journaled, reads and
 * refused calls too: docs/journal.md), not its state — like the access log, left out of
 * "nothing changed" comparisons.
 */
export const TRAFFIC_TABLES: ReadonlySet<string> = new Set(['request_journal', 'request_journal_groups']);

/**
 * Every row of every group-owned table of `groupId`, as JSON text per table (sorted); the
 * request journal's only with `traffic` (a call on the group adds to it: a read too).
 */
export async function dumpGroup(ex: Executor, groupId: string, opts: { traffic?: boolean } = {}): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of GROUP_TABLES) {
    if (TRAFFIC_TABLES.has(t.table) && !opts.traffic) continue;
    const rows = await ex.all<Record<string, unknown>>(`SELECT * FROM ${t.table} WHERE ${ownerCondition(t)}`, [groupId]);
    out[t.table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

export const rowCount = (dump: Record<string, string[]>) => Object.values(dump).reduce((n, rows) => n + rows.length, 0);

/** `n` more customers in sandbox `sb`, written directly (for tests about copying rows, not making them). */
export async function addCustomers(db: Store, sb: SandboxReply, n: number): Promise<void> {
  await db.write((tx) =>
    tx.run(
      `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
       INSERT INTO customers (id, group_id, first_name, last_name, created_at, updated_at)
       SELECT 'cus_bulk_' || ? || '_' || i, ?, 'Bulk', 'Customer ' || i, '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z' FROM k`,
      [n, sb.group_id, sb.group_id],
    ),
  );
}

/** The number of rows of each table a fork copies, for group `groupId`. */
export async function forkedCounts(db: Store, groupId: string): Promise<Record<string, number>> {
  const rows = await dumpGroup(db, groupId);
  return Object.fromEntries(GROUP_TABLES.filter((t) => !t.forkSkip).map((t) => [t.table, rows[t.table]!.length]));
}
