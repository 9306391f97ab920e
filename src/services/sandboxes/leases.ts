// Sandboxes' time to live (docs/sandboxes.md "Time to live"): a sandbox made with `ttl`
// is dropped by the server's tick once it has had no request for that long, in real
// time. Keeping the last request's time costs no write per request: each request notes
// its group in this process's memory, and the tick writes the groups noted since its
// last run in one statement (so the time kept is exact to about a tick). Several servers
// on one database each write what they saw; a lease only moves forward.
import type { Executor, Tx } from '../../store/interfaces/db.js';
import type { Platform } from '../platform.js';
import { noteDroppedKeys } from './dropped-keys.js';

/** Expired sandboxes dropped per tick at most (each in a transaction of its own): the rest go at the next ticks. */
export const DROPS_PER_TICK = 20;

const noted = new WeakMap<object, Set<string>>();

/** A request came for `groupId` (any group: only sandboxes with a lease are written). */
export function noteRequest(db: object, groupId: string): void {
  let set = noted.get(db);
  if (!set) noted.set(db, (set = new Set()));
  set.add(groupId);
}

/** A new sandbox's lease, begun now; none without a ttl. */
export async function beginLease(tx: Tx, groupId: string, ttlMs: number | undefined): Promise<void> {
  if (ttlMs !== undefined) await tx.repos.leases.insert(tx, groupId, ttlMs, Date.now());
}

/** A fork's lease: the source's ttl, begun now. */
export function copyLease(tx: Tx, from: string, to: string): Promise<void> {
  return tx.repos.leases.copy(tx, from, to, Date.now());
}

/** The tick's job: write the requests noted since the last run (as made by `nowMs`), then drop sandboxes whose lease ran out by then. Returns sandboxes dropped. */
export async function expireSandboxes(p: Platform, nowMs = Date.now()): Promise<number> {
  const set = noted.get(p.db);
  if (set && set.size > 0) {
    const ids = [...set];
    set.clear();
    const at = nowMs;
    try {
      await p.db.write((tx) => tx.repos.leases.touch(tx, ids, at));
    } catch (err) {
      // Noted again for the next tick: a store that was away must not cost a sandbox its
      // last request (it would be dropped while in use), nor let the next tick's reads
      // pass for the store being back (services/store-watch.ts).
      for (const id of ids) set.add(id);
      throw err;
    }
  }
  let dropped = 0;
  for (const groupId of await p.db.repos.leases.expired(p.db, nowMs, DROPS_PER_TICK)) {
    const gone = await p.db.write(async (tx) => {
      // Checked again in the transaction: a request noted by another server meanwhile keeps it.
      const lease = await stillExpired(tx, groupId, nowMs);
      if (!lease) return false;
      await noteDroppedKeys(tx, groupId, 'ttl', lease.ttl_ms, nowMs);
      await tx.repos.groupRows.delete(tx, groupId);
      return true;
    });
    if (gone) dropped++;
  }
  return dropped;
}

/** The lease, if it still ran out by `nowMs`. */
async function stillExpired(ex: Executor, groupId: string, nowMs: number): Promise<{ ttl_ms: number } | undefined> {
  const lease = await ex.repos.leases.find(ex, groupId);
  return lease !== undefined && lease.last_request_ms + lease.ttl_ms <= nowMs ? lease : undefined;
}
