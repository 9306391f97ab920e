// Every table whose rows belong to a group, in one list, parents before children (a
// referenced row is inserted first on a fork and deleted last on a drop).
// Dropping a sandbox and forking one are driven from this list alone, so a new
// group-owned table is covered by adding one row here (test/store/group-tables.test.ts
// fails while a table with a group column, or one hanging off a listed table, is
// missing). Tables that belong to no group are named in PLATFORM_TABLES, with why.
//
// The SQL is portable (INSERT … SELECT with scalar subqueries, DELETE … WHERE … IN):
// ids are mapped through the fork_id_map table, filled from JavaScript with new UUIDs,
// instead of any database-specific id function.
import type { GroupRowsStore } from '../interfaces/platform.js';
import type { Executor, Tx } from '../interfaces/db.js';
import { tableColumns } from './schema.js';
import { countGroupIntoRollup } from './repositories/reporting.js';

export interface GroupTable {
  table: string;
  /** The row's group: its own column, or (via `parent`) the group of the row it hangs off. */
  owner: { column: string } | { column: string; parent: string };
  /** Single-column primary key that a fork gives a new value (omit for composite keys). */
  id?: string;
  /** Columns holding ids of other rows of the same group: a fork points them at the copies. */
  refs?: string[];
  /** Unique secret columns (public page slugs): a fork gives each copy a fresh random value. */
  secrets?: string[];
  /** Not copied by a fork, and why (the fork makes its own, or the rows are derived). */
  forkSkip?: string;
  /** A fork answers with the old → new ids of this table's rows (objects a test addresses by id). */
  inIdMap?: boolean;
}

export const GROUP_TABLES: GroupTable[] = [
  { table: 'groups', owner: { column: 'id' }, id: 'id' },
  { table: 'processors', owner: { column: 'group_id' }, id: 'id', inIdMap: true },
  { table: 'linked_accounts', owner: { column: 'group_id' }, id: 'id', inIdMap: true, refs: ['processor_id'] },
  {
    table: 'api_keys',
    owner: { column: 'group_id' },
    id: 'id',
    forkSkip: 'keys are secrets shown once: a fork issues its own key per permission kind',
  },
  { table: 'customers', owner: { column: 'group_id' }, id: 'id', inIdMap: true },
  { table: 'customer_cards', owner: { column: 'group_id' }, id: 'id', inIdMap: true, refs: ['customer_id', 'linked_account_id'] },
  { table: 'customer_bank_accounts', owner: { column: 'group_id' }, id: 'id', inIdMap: true, refs: ['customer_id'] },
  { table: 'settlement_batches', owner: { column: 'group_id' }, id: 'id' },
  {
    table: 'transactions',
    owner: { column: 'group_id' },
    id: 'id',
    refs: [
      'linked_account_id', 'processor_id', 'customer_id', 'card_id', 'bank_account_id', 'subscription_id', 'plan_id',
      'invoice_id', 'payment_link_id', 'settlement_batch_id',
    ],
  },
  {
    table: 'plans',
    owner: { column: 'group_id' },
    id: 'id',
    inIdMap: true,
    refs: ['linked_account_id'],
  },
  {
    table: 'subscriptions',
    owner: { column: 'group_id' },
    id: 'id',
    inIdMap: true,
    refs: ['linked_account_id', 'plan_id', 'customer_id', 'processor_id', 'card_id', 'bank_account_id'],
  },
  { table: 'products', owner: { column: 'group_id' }, id: 'id', inIdMap: true },
  { table: 'partners', owner: { column: 'group_id' }, id: 'id', inIdMap: true },
  { table: 'invoice_counters', owner: { column: 'group_id' } },
  { table: 'invoices', owner: { column: 'group_id' }, id: 'id', inIdMap: true, refs: ['partner_id', 'processor_id', 'paid_transaction_id'], secrets: ['slug'] },
  { table: 'invoice_lines', owner: { column: 'invoice_id', parent: 'invoices' }, id: 'id', refs: ['product_id'] },
  { table: 'payment_links', owner: { column: 'group_id' }, id: 'id', inIdMap: true, refs: ['processor_id', 'paid_transaction_id'] },
  {
    table: 'transaction_daily',
    owner: { column: 'group_id' },
    forkSkip: 'the reporting rollup is derived: the copied transactions are counted into it after the copy (countGroupIntoRollup)',
  },
  {
    table: 'transaction_daily_dims',
    owner: { column: 'group_id' },
    forkSkip: 'derived from transaction_daily by its triggers: filled when the copied transactions are counted into it',
  },
  { table: 'subscription_charges', owner: { column: 'subscription_id', parent: 'subscriptions' }, id: 'id', refs: ['transaction_id'] },
  {
    table: 'payment_link_sessions',
    owner: { column: 'payment_link_id', parent: 'payment_links' },
    forkSkip: 'session tokens are bearer secrets kept as hashes: a copy could never be presented',
  },
  { table: 'signup_entries', owner: { column: 'group_id' }, id: 'id' },
  {
    table: 'idempotency_keys',
    owner: { column: 'group_id' },
    forkSkip: "a stored answer names the original sandbox's ids: a fork starts with no idempotency records",
  },
  { table: 'outbox', owner: { column: 'group_id' }, id: 'id', refs: ['related_id'] },
  {
    table: 'events',
    owner: { column: 'group_id' },
    id: 'id',
    forkSkip: "events record the source's history under its ids: a fork starts its own log",
  },
  {
    table: 'webhook_endpoints',
    owner: { column: 'group_id' },
    id: 'id',
    forkSkip: 'an endpoint signs with a secret shown once: a fork adds its own endpoints (and receivers)',
  },
  { table: 'webhook_deliveries', owner: { column: 'group_id' }, forkSkip: "deliveries are of the source's events, which a fork does not copy" },
  { table: 'webhook_attempts', owner: { column: 'group_id' }, forkSkip: "attempts are of the source's deliveries, which a fork does not copy" },
  // A fork keeps its source's faults and their counters: it goes on from the same point of each rule's sequence.
  { table: 'fault_rules', owner: { column: 'group_id' }, id: 'id' },
  { table: 'webhook_fault_rules', owner: { column: 'group_id' }, id: 'id', forkSkip: "rules of the source's endpoints, which a fork does not copy" },
];

/** Tables whose rows belong to no group, and why. */
export const PLATFORM_TABLES: Record<string, string> = {
  schema_migrations: 'the schema version of the database',
  clock: 'the platform clock (a group clock is an offset on groups)',
  settings: 'demo seed and other database-wide values',
  tokens: 'minted payment tokens belong to no group until used',
  signup_forms: 'issued by the platform operator, shared by every onboarding',
  fork_id_map: 'scratch space of a fork, empty outside one',
  config_version: 'one change counter for groups, processors and API keys (what a server caches), bumped by triggers',
  vault_version: 'one change counter for customers and their cards (what a server caches for stored-card sales), bumped by triggers',
};

const byName = new Map(GROUP_TABLES.map((t) => [t.table, t]));

/** `WHERE` condition selecting a table's rows of one group (one `?` bound to the group id). */
export function ownerCondition(t: GroupTable, alias = t.table): string {
  if (!('parent' in t.owner)) return `${alias}.${t.owner.column} = ?`;
  const parent = byName.get(t.owner.parent);
  if (!parent?.id) throw new Error(`group table ${t.table}: parent ${t.owner.parent} is not a listed table with an id`);
  return `${alias}.${t.owner.column} IN (SELECT p.${parent.id} FROM ${parent.table} p WHERE ${ownerCondition(parent, 'p')})`;
}

/** Remove every row of a group, children first, inside the caller's transaction. Returns rows deleted per table. */
export async function deleteGroupRows(tx: Tx, groupId: string): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const t of [...GROUP_TABLES].reverse()) {
    const { changes } = await tx.run(`DELETE FROM ${t.table} WHERE ${ownerCondition(t)}`, [groupId]);
    deleted[t.table] = changes;
  }
  return deleted;
}

/** Count a group's rows per table (a fork's size; tests compare these). */
export async function countGroupRows(ex: Executor, groupId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const t of GROUP_TABLES) {
    counts[t.table] = (await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.table} WHERE ${ownerCondition(t)}`, [groupId]))!.n;
  }
  return counts;
}

const MAP_CHUNK = 300;

/**
 * Copy every row of group `from` into the new group `to` (same relationships, new ids)
 * inside the caller's transaction; `fresh` makes the new ids and secrets. Returns rows
 * copied per table and the old → new ids of the tables marked inIdMap.
 */
export async function forkGroupRows(
  tx: Tx,
  from: string,
  to: string,
  fresh: { id(): string; secret(): string },
): Promise<{ copied: Record<string, number>; idMap: Record<string, string> }> {
  const idMap: Record<string, string> = {};
  await tx.run('DELETE FROM fork_id_map');
  // 1. An id map for every copied row (the group itself maps to `to`).
  for (const t of GROUP_TABLES) {
    if (!t.id || t.forkSkip) continue;
    const ids = await tx.all<{ id: string }>(`SELECT ${t.table}.${t.id} AS id FROM ${t.table} WHERE ${ownerCondition(t)}`, [from]);
    for (let i = 0; i < ids.length; i += MAP_CHUNK) {
      const chunk = ids.slice(i, i + MAP_CHUNK);
      const params: string[] = [];
      for (const { id } of chunk) {
        const next = t.table === 'groups' ? to : fresh.id();
        if (t.inIdMap) idMap[id] = next;
        params.push(id, next, t.secrets ? fresh.secret() : '');
      }
      await tx.run(`INSERT INTO fork_id_map (old_id, new_id, secret) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`, params);
    }
  }
  // 2. Copy table by table, parents first, pointing every id column at the copies.
  const copied: Record<string, number> = {};
  for (const t of GROUP_TABLES) {
    if (t.forkSkip) continue;
    const columns = await tableColumns(tx, t.table);
    const params: string[] = [];
    const exprs = columns.map((c) => {
      if (c === t.id) return `(SELECT m.new_id FROM fork_id_map m WHERE m.old_id = s.${c})`;
      if (!('parent' in t.owner) && c === t.owner.column) {
        params.push(to);
        return '?';
      }
      if (t.secrets?.includes(c)) return `(SELECT m.secret FROM fork_id_map m WHERE m.old_id = s.${t.id})`;
      if (c === ('parent' in t.owner ? t.owner.column : '') || t.refs?.includes(c)) {
        return `COALESCE((SELECT m.new_id FROM fork_id_map m WHERE m.old_id = s.${c}), s.${c})`;
      }
      return `s.${c}`;
    });
    const { changes } = await tx.run(
      `INSERT INTO ${t.table} (${columns.join(', ')}) SELECT ${exprs.join(', ')} FROM ${t.table} s WHERE ${ownerCondition(t, 's')}`,
      [...params, from],
    );
    copied[t.table] = changes;
  }
  await tx.run('DELETE FROM fork_id_map');
  // New transactions are counted into the rollup by the store's batches, not by a trigger.
  if (copied.transactions) await countGroupIntoRollup(tx, to);
  return { copied, idMap };
}

/** Every row of one group at once, on SQLite. */
export const groupRowsRepo: GroupRowsStore = { delete: deleteGroupRows, count: countGroupRows, fork: forkGroupRows };
