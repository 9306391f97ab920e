// A sandbox dropped in chunks (store/sql/group-drop.ts; docs/sandboxes.md): the first write
// removes its keys and records the drop, then each chunk deletes rows until its budget is
// spent and commits, paced like a fork's (chunks.ts), so other groups' writes are answered
// while a large sandbox goes. One run per drop in this process; where a drop is lives in
// the database, so the server's tick finishes one a kill -9 left part-way (resumeDrops).
import type { Platform } from '../platform.js';
import { platformClock } from '../platform.js';
import type { RequestContext } from '../context.js';
import type { Store } from '../../store/interfaces/db.js';
import { CHUNK_WRITE, chunkDeadline, Pacer, pastDeadline } from '../clock/chunks.js';
import { notFound } from '../../errors.js';
import { unitOfWork } from '../unit-of-work.js';
import { flushJournal } from '../journal/writer.js';
import { noteDroppedKeys } from './dropped-keys.js';

const runs = new WeakMap<Store, Map<string, Promise<Record<string, number>>>>();
const runsOf = (db: Store) => {
  let m = runs.get(db);
  if (!m) runs.set(db, (m = new Map()));
  return m;
};

/** Drop sandbox `groupId` and every row of it; its keys stop working with the first write. Rows deleted per table. */
export async function dropSandbox(p: Platform, ctx: RequestContext, groupId: string): Promise<Record<string, number>> {
  const base = platformClock(p);
  await base.refresh();
  const keys = await unitOfWork(ctx, async ({ tx }) => {
    if (!(await tx.repos.sandboxes.find(tx, groupId))) throw notFound('sandbox');
    await noteDroppedKeys(tx, groupId, 'drop');
    return tx.repos.groupRows.beginDrop(tx, groupId, base.nowIso());
  });
  const rows = await runDrop(p, groupId);
  return keys > 0 ? { ...rows, api_keys: (rows.api_keys ?? 0) + keys } : rows;
}

/** Drop a group that is no sandbox yet (an import that failed or was left by a killed server), in chunks too. */
export async function dropInChunks(p: Platform, groupId: string): Promise<void> {
  const base = platformClock(p);
  await p.db.write((tx) => tx.repos.groupRows.beginDrop(tx, groupId, base.nowIso()));
  await runDrop(p, groupId);
}

/** Run the drop of `groupId` to its end (a run going in this process is joined). */
function runDrop(p: Platform, groupId: string): Promise<Record<string, number>> {
  const mine = runsOf(p.db);
  const going = mine.get(groupId);
  if (going) return going;
  const run = (async () => {
    const rows: Record<string, number> = {};
    const pacer = new Pacer(p.db);
    // The table the last chunk stopped at: the ones before it are empty (a rerun after a kill starts at the first).
    let from = 0;
    for (;;) {
      pacer.start();
      const deadline = chunkDeadline();
      const chunk = await p.db.write((tx) => tx.repos.groupRows.dropChunk(tx, groupId, () => pastDeadline(deadline), from), CHUNK_WRITE);
      from = chunk.next;
      for (const [t, n] of Object.entries(chunk.deleted)) rows[t] = (rows[t] ?? 0) + n;
      if (chunk.done) {
        // Stragglers: a write already past its key check when the drop began (a sale) may have
        // committed rows between the chunks, after their table was emptied, and a journal
        // batch racing the last chunk may have written calls after its snapshot (PostgreSQL).
        // With the group gone nothing new can come (its rows reference it): one sweep of every
        // table, children first, takes what came meanwhile.
        await flushJournal(p);
        const swept = await p.db.write((tx) => tx.repos.groupRows.dropChunk(tx, groupId, () => false, 0), CHUNK_WRITE);
        for (const [t, n] of Object.entries(swept.deleted)) rows[t] = (rows[t] ?? 0) + n;
        return rows;
      }
      await pacer.rest();
    }
  })().finally(() => mine.delete(groupId));
  mine.set(groupId, run);
  return run;
}

/** Drops a killed server left part-way: finished. Returns drops finished. */
export async function resumeDrops(p: Platform): Promise<number> {
  let n = 0;
  for (const groupId of await p.db.repos.groupRows.pendingDrops(p.db)) {
    if (runsOf(p.db).has(groupId)) continue;
    await runDrop(p, groupId);
    n++;
  }
  return n;
}
