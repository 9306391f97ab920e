// Every table whose rows belong to a group, in one list, parents before children (a
// referenced row is inserted first on a fork and deleted last on a drop).
// Dropping a sandbox and forking one are driven from this list alone, so a new
// group-owned table is covered by adding one row here (test/store/group-tables.test.ts
// fails while a table with a group column, or one hanging off a listed table, is
// missing). Tables that belong to no group are named in PLATFORM_TABLES, with why.
//
// The SQL is portable (INSERT … SELECT with scalar subqueries, DELETE … WHERE … IN):
// ids are mapped through the fork_map table, filled from JavaScript with new UUIDs,
// instead of any database-specific id function.
import type { FinishedFork, ForkPhase, ForkProgress, GroupRowsStore } from '../interfaces/platform.js';
import type { Executor, Tx } from '../interfaces/db.js';
import { tableColumns } from './schema.js';
import { countGroupIntoRollup } from './rollup.js';

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
    table: 'plan_update_jobs',
    owner: { column: 'group_id' },
    forkSkip: "a plan update under way is the source's request: it finishes there (a fork copies each subscription as it is)",
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
  { table: 'webhook_inbox', owner: { column: 'group_id' }, id: 'id', forkSkip: "collected messages are the source's deliveries: a fork's collector collects its own" },
  // A fork keeps its source's faults and their counters: it goes on from the same point of each rule's sequence.
  { table: 'fault_rules', owner: { column: 'group_id' }, id: 'id' },
  { table: 'webhook_fault_rules', owner: { column: 'group_id' }, id: 'id', forkSkip: "rules of the source's endpoints, which a fork does not copy" },
  { table: 'sandbox_demos', owner: { column: 'group_id' }, forkSkip: "the demo's ids as the source's creation answered them, not the copy's" },
  { table: 'sandbox_recordings', owner: { column: 'group_id' }, forkSkip: 'a recording is of the source sandbox\'s own traffic' },
  { table: 'sandbox_leases', owner: { column: 'group_id' }, forkSkip: 'a fork gets a lease of its own, begun at the fork' },
  { table: 'request_journal', owner: { column: 'group_id' }, forkSkip: "the journal is the source sandbox's own traffic: a fork starts its own" },
  { table: 'request_journal_groups', owner: { column: 'group_id' }, forkSkip: "the counts of the source's journal" },
];

/** Tables whose rows belong to no group, and why. */
export const PLATFORM_TABLES: Record<string, string> = {
  schema_migrations: 'the schema version of the database',
  clock: 'the platform clock (a group clock is an offset on groups)',
  settings: 'demo seed and other database-wide values',
  tokens: 'minted payment tokens belong to no group until used',
  signup_forms: 'issued by the platform operator, shared by every onboarding',
  fork_jobs: 'forks under way: each names its new group, which is not whole until its fork is over',
  fork_map: "a fork's ids old → new, kept until the fork is over",
  config_version: 'one change counter for groups, processors and API keys (what a server caches), bumped by triggers',
  dropped_sandbox_keys: "dropped sandboxes' key fingerprints: they outlive their group (a stray call is told it was dropped), so a drop writes them and never deletes them",
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

/**
 * Remove every row of a group, children first, inside the caller's transaction, and its
 * fork if it is one still under way (the fork's next chunk then finds nothing to do).
 * Returns rows deleted per table.
 */
export async function deleteGroupRows(tx: Tx, groupId: string): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const t of [...GROUP_TABLES].reverse()) {
    const { changes } = await tx.run(`DELETE FROM ${t.table} WHERE ${ownerCondition(t)}`, [groupId]);
    deleted[t.table] = changes;
  }
  await tx.run('DELETE FROM fork_map WHERE fork_id = ?', [groupId]);
  await tx.run('DELETE FROM fork_jobs WHERE fork_id = ?', [groupId]);
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

/** Rows one step of a fork maps, copies or forgets (a chunk takes steps until its budget is spent). */
const STEP_ROWS = 500;

const MAPPED = GROUP_TABLES.filter((t) => t.id && !t.forkSkip);
const COPIED = GROUP_TABLES.filter((t) => !t.forkSkip);

interface ForkJobRow {
  fork_id: string;
  source_id: string;
  name: string;
  phase: ForkPhase;
  step: number;
  /** The last id done in the current table ('' before its first): ids, not rowids, so the same SQL runs on PostgreSQL. */
  cursor: string;
  copied: string;
  created_at: string;
}

/**
 * Record a fork of group `from` into the new group `to` (nothing else copied yet: chunks
 * do that). The new group's own row is written here, a copy of the source's with status
 * `forking`, so the fork has an identity from its first write: keys can be issued to it
 * (they are refused until it is whole) and it is listed with its progress.
 */
export async function beginFork(tx: Tx, from: string, to: string, name: string, at: string): Promise<void> {
  const columns = await tableColumns(tx, 'groups');
  const own: Record<string, unknown> = { id: to, name, status: 'forking', created_at: at, updated_at: at };
  const params: unknown[] = [];
  const exprs = columns.map((c) => {
    if (!(c in own)) return `s.${c}`;
    params.push(own[c]);
    return '?';
  });
  await tx.run(`INSERT INTO groups (${columns.join(', ')}) SELECT ${exprs.join(', ')} FROM groups s WHERE s.id = ?`, [...params, from]);
  await tx.run("INSERT INTO fork_jobs (fork_id, source_id, name, phase, copied, created_at) VALUES (?, ?, ?, 'map', ?, ?)", [to, from, name, JSON.stringify({ groups: 1 }), at]);
}

/** A fork's progress (undefined once it is over), with its size: ids mapped so far, and the source's rows now. */
export async function forkProgress(ex: Executor, forkId: string): Promise<ForkProgress | undefined> {
  const j = await ex.get<ForkJobRow>('SELECT * FROM fork_jobs WHERE fork_id = ?', [forkId]);
  if (!j) return undefined;
  const mapped = (await ex.get<{ n: number }>('SELECT COUNT(*) AS n FROM fork_map WHERE fork_id = ?', [forkId]))!.n;
  let total = 0;
  for (const t of COPIED) total += Number((await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.table} WHERE ${ownerCondition(t)}`, [j.source_id]))!.n);
  return { ...toProgress(j), size: { mapped: Number(mapped), total } };
}

function toProgress(j: ForkJobRow): ForkProgress {
  const tables = j.phase === 'map' ? MAPPED : COPIED;
  return {
    fork_id: j.fork_id,
    source_id: j.source_id,
    name: j.name,
    phase: j.phase,
    table: tables[j.step]?.table ?? null,
    copied: JSON.parse(j.copied) as Record<string, number>,
  };
}

/** Forks not over yet (the server's tick resumes them); imports (phase `import`, repositories/sandbox-files.ts) and drops (phase `delete`, group-drop.ts) are not forks. */
export async function pendingForks(ex: Executor): Promise<string[]> {
  return (await ex.all<{ fork_id: string }>("SELECT fork_id FROM fork_jobs WHERE phase NOT IN ('import', 'delete') ORDER BY created_at, fork_id")).map((r) => r.fork_id);
}

/**
 * One chunk of a fork, inside the caller's transaction: steps of STEP_ROWS rows until
 * `over()` says the chunk's budget is spent. Phases: `map` gives every row of the
 * source a new id (fork_map), table by table; `copy` inserts the mapped rows, parents
 * before children, pointing every id column at the copies; then the copied
 * transactions are counted into the rollup and the phase is `copied` (the service
 * names the fork and issues its keys: `finishFork`); `clean` forgets the map. Where it
 * stopped is written with the rows, so a chunk is whole or absent after a kill -9.
 */
export async function forkChunk(tx: Tx, forkId: string, fresh: { id(): string; secret(): string }, over: () => boolean): Promise<ForkProgress | undefined> {
  // Another server's chunk of the same fork is waited for, then gone on from where it left.
  const j = await tx.get<ForkJobRow>(`SELECT * FROM fork_jobs WHERE fork_id = ?${tx.dialect.lock}`, [forkId]);
  // Gone, or being dropped (group-drop.ts): the fork stops.
  if (!j || (j.phase as string) === 'delete') return undefined;
  const copied = JSON.parse(j.copied) as Record<string, number>;
  do {
    if (j.phase === 'map') {
      const t = MAPPED[j.step];
      if (!t) {
        Object.assign(j, { phase: 'copy', step: 0, cursor: '' });
        continue;
      }
      const rows = await tx.all<{ id: string }>(
        `SELECT s.${t.id} AS id FROM ${t.table} s WHERE ${ownerCondition(t, 's')} AND s.${t.id} > ? ORDER BY s.${t.id} LIMIT ${STEP_ROWS}`,
        [j.source_id, j.cursor],
      );
      if (rows.length > 0) {
        const params: string[] = [];
        for (const { id } of rows) params.push(forkId, t.table, id, t.table === 'groups' ? forkId : fresh.id(), t.secrets ? fresh.secret() : '');
        await tx.run(`INSERT INTO fork_map (fork_id, tbl, old_id, new_id, secret) VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}`, params);
      }
      if (rows.length < STEP_ROWS) Object.assign(j, { step: j.step + 1, cursor: '' });
      else j.cursor = rows[rows.length - 1]!.id;
    } else if (j.phase === 'copy') {
      const t = COPIED[j.step];
      if (!t) {
        // New transactions are counted into the rollup by the store's batches, not by a trigger.
        if (copied.transactions) await countGroupIntoRollup(tx, forkId);
        j.phase = 'copied';
        break;
      }
      if (t.table === 'groups') {
        // Written by beginFork.
        Object.assign(j, { step: j.step + 1, cursor: '' });
        continue;
      }
      const n = await copyStep(tx, j, t);
      copied[t.table] = (copied[t.table] ?? 0) + n.changes;
      if (n.last === undefined) Object.assign(j, { step: j.step + 1, cursor: '' });
      else j.cursor = n.last;
    } else if (j.phase === 'clean') {
      const { changes } = await tx.run(`DELETE FROM fork_map WHERE fork_id = ? AND old_id IN (SELECT old_id FROM fork_map WHERE fork_id = ? LIMIT ${STEP_ROWS * 4})`, [forkId, forkId]);
      if (changes === 0) {
        await tx.run('DELETE FROM fork_jobs WHERE fork_id = ?', [forkId]);
        return { ...toProgress(j), phase: 'over' };
      }
    } else break;
  } while (!over());
  j.copied = JSON.stringify(copied);
  await tx.run('UPDATE fork_jobs SET phase = ?, step = ?, cursor = ?, copied = ? WHERE fork_id = ?', [j.phase, j.step, j.cursor, j.copied, forkId]);
  return toProgress(j);
}

/** Copy the next STEP_ROWS mapped rows of `t` (a table without an id: all of the group's rows at once). `last`: the map's row to go on after, none when the table is done. */
async function copyStep(tx: Tx, j: ForkJobRow, t: GroupTable): Promise<{ changes: number; last?: string }> {
  const columns = await tableColumns(tx, t.table);
  const params: unknown[] = [];
  const exprs = columns.map((c) => {
    if (c === t.id) return 'c.new_id';
    if (!('parent' in t.owner) && c === t.owner.column) {
      params.push(j.fork_id);
      return '?';
    }
    if (t.secrets?.includes(c)) return 'c.secret';
    if (c === ('parent' in t.owner ? t.owner.column : '') || t.refs?.includes(c)) {
      params.push(j.fork_id);
      return `COALESCE((SELECT m.new_id FROM fork_map m WHERE m.fork_id = ? AND m.old_id = s.${c}), s.${c})`;
    }
    return `s.${c}`;
  });
  if (!t.id) {
    const { changes } = await tx.run(
      `INSERT INTO ${t.table} (${columns.join(', ')}) SELECT ${exprs.join(', ')} FROM ${t.table} s WHERE ${ownerCondition(t, 's')}`,
      [...params, j.source_id],
    );
    return { changes };
  }
  const end = await tx.get<{ r: string }>(
    `SELECT old_id AS r FROM fork_map WHERE fork_id = ? AND tbl = ? AND old_id > ? ORDER BY old_id LIMIT 1 OFFSET ${STEP_ROWS - 1}`,
    [j.fork_id, t.table, j.cursor],
  );
  // Rows the source lost since they were mapped are not copied (the join finds none).
  const { changes } = await tx.run(
    `INSERT INTO ${t.table} (${columns.join(', ')}) SELECT ${exprs.join(', ')} FROM fork_map c JOIN ${t.table} s ON s.${t.id} = c.old_id
     WHERE c.fork_id = ? AND c.tbl = ? AND c.old_id > ?${end ? ' AND c.old_id <= ?' : ''} ORDER BY c.old_id`,
    [...params, j.fork_id, t.table, j.cursor, ...(end ? [end.r] : [])],
  );
  return { changes, last: end?.r };
}

/** The ids a fork answers with (old → new, tables marked inIdMap), and its rows copied; marks the fork `clean` (its group is whole). */
export async function finishFork(tx: Tx, forkId: string): Promise<FinishedFork | undefined> {
  const j = await tx.get<ForkJobRow>("SELECT * FROM fork_jobs WHERE fork_id = ? AND phase = 'copied'", [forkId]);
  if (!j) return undefined;
  const tables = GROUP_TABLES.filter((t) => t.inIdMap).map((t) => t.table);
  const rows = await tx.all<{ old_id: string; new_id: string }>(
    `SELECT old_id, new_id FROM fork_map WHERE fork_id = ? AND tbl IN (${tables.map(() => '?').join(', ')}) ORDER BY old_id`,
    [forkId, ...tables],
  );
  await tx.run("UPDATE fork_jobs SET phase = 'clean', step = 0, cursor = '' WHERE fork_id = ?", [forkId]);
  return { name: j.name, source_id: j.source_id, idMap: Object.fromEntries(rows.map((r) => [r.old_id, r.new_id])), copied: JSON.parse(j.copied) as Record<string, number> };
}

/** Every row of one group at once. */
/** The group rows' store but its chunked drop (group-drop.ts adds it: repositories/index.ts). */
export const groupRowsRepo: Omit<GroupRowsStore, 'beginDrop' | 'dropChunk' | 'pendingDrops'> = {
  delete: deleteGroupRows,
  count: countGroupRows,
  beginFork,
  forkChunk,
  finishFork,
  forkProgress,
  pendingForks,
};
