// A sandbox dropped in chunks (docs/sandboxes.md, "Dropping a large sandbox"): one
// transaction for every row of a 100,000-transaction sandbox held the writer for most of
// a second, and every other group's writes waited behind it. The first write removes the
// group's keys (they stop working at once) and records the drop as a job (fork_jobs,
// phase `delete`: the group is then left out of due work, as a fork's is); each chunk
// then deletes rows, children first, STEP_ROWS at a time, until its budget is spent; the
// last removes the group itself and the job. Where a drop is lives in the database, so
// the server's tick finishes one a kill -9 left part-way (pendingDrops). Portable SQL.
import type { Executor, Tx } from '../interfaces/db.js';
import { GROUP_TABLES, ownerCondition } from './group-tables.js';

/** Rows one statement of a chunk deletes. */
const STEP_ROWS = 500;

/** Children first: a referenced row goes last. */
const CHILDREN_FIRST = [...GROUP_TABLES].reverse().filter((t) => t.table !== 'groups');

/** Tables written after a call, in batches (the journal: services/journal/writer.ts), bounded per group, with no key to groups. */
const WRITTEN_AFTER = GROUP_TABLES.filter((t) => ['request_journal', 'request_journal_groups'].includes(t.table));

/** Record the drop of `groupId` and remove its API keys; a fork or import of it under way stops (its job is replaced). Returns keys removed. */
export async function beginDrop(tx: Tx, groupId: string, at: string): Promise<number> {
  const { changes } = await tx.run('DELETE FROM api_keys WHERE group_id = ?', [groupId]);
  await tx.run('DELETE FROM fork_jobs WHERE fork_id = ?', [groupId]);
  await tx.run("INSERT INTO fork_jobs (fork_id, source_id, name, phase, step, cursor, copied, created_at) VALUES (?, ?, '', 'delete', 0, '', '{}', ?)", [groupId, groupId, at]);
  return changes;
}

/**
 * One chunk of a drop, inside the caller's transaction: rows deleted, children first from
 * table `from` (the `next` of the chunk before: the tables before it are empty), until
 * `over()` says the chunk's budget is spent. `done` once the group itself is gone (then
 * also its fork map and its job); rows deleted per table.
 */
export async function dropChunk(tx: Tx, groupId: string, over: () => boolean, from = 0): Promise<{ deleted: Record<string, number>; done: boolean; next: number }> {
  const deleted: Record<string, number> = {};
  for (let i = from; i < CHILDREN_FIRST.length; i++) {
    const t = CHILDREN_FIRST[i]!;
    for (;;) {
      const { changes } = t.id
        ? // The owner condition outside too: an id that is not the table's key (events') is found through the group's index, not a scan.
          await tx.run(`DELETE FROM ${t.table} WHERE ${ownerCondition(t)} AND ${t.id} IN (SELECT s.${t.id} FROM ${t.table} s WHERE ${ownerCondition(t, 's')} LIMIT ${STEP_ROWS})`, [groupId, groupId])
        : await tx.run(`DELETE FROM ${t.table} WHERE ${ownerCondition(t)}`, [groupId]);
      if (changes > 0) deleted[t.table] = (deleted[t.table] ?? 0) + changes;
      const emptied = !t.id || changes < STEP_ROWS;
      if (over()) return { deleted, done: false, next: emptied ? i + 1 : i };
      if (emptied) break;
    }
  }
  // Rows written about the group after the fact (a call's journal entry, its last-request
  // time) may have come in since their table was emptied: gone in the transaction that
  // removes the group, after which nothing can write them (they check the group exists).
  // The group's row goes first: its lock waits for a journal batch holding it (and a later
  // batch then finds no group); the journal rows, read after, include what that batch wrote.
  await tx.run('DELETE FROM fork_map WHERE fork_id = ?', [groupId]);
  await tx.run('DELETE FROM sandbox_leases WHERE group_id = ?', [groupId]);
  const { changes } = await tx.run('DELETE FROM groups WHERE id = ?', [groupId]);
  if (changes > 0) deleted.groups = changes;
  for (const t of WRITTEN_AFTER) {
    const { changes: n } = await tx.run(`DELETE FROM ${t.table} WHERE ${ownerCondition(t)}`, [groupId]);
    if (n > 0) deleted[t.table] = (deleted[t.table] ?? 0) + n;
  }
  await tx.run('DELETE FROM fork_jobs WHERE fork_id = ?', [groupId]);
  return { deleted, done: true, next: CHILDREN_FIRST.length };
}

/** Drops not over yet (the server's tick finishes them). */
export async function pendingDrops(ex: Executor): Promise<string[]> {
  return (await ex.all<{ fork_id: string }>("SELECT fork_id FROM fork_jobs WHERE phase = 'delete' ORDER BY created_at, fork_id")).map((r) => r.fork_id);
}
