// Settlement at the daily cutoff (00:00 UTC of the platform clock): every pending sale
// and captured auth created before a cutoff that has passed settles into that day's
// batch (one batch per group and cutoff, of at most SETTLEMENT_BATCH_MAX transactions:
// a bigger day closes several). Auths never captured within 7 days expire.
// State-based and compare-and-set, so running it twice (or in two processes) is harmless.
import type { Platform } from '../platform.js';
import type { Progress } from '../clock/chunks.js';
import { newId } from '../../lib/ids.js';
import type { GroupScope } from '../../store/interfaces/scope.js';
import type { Tx } from '../../store/interfaces/db.js';
import type { TransactionEntity } from '../../domain/transactions.js';
import { findProcessor } from '../groups/groups.js';
import { toApiTransaction, type ProcessorInfo } from './mapper.js';
import { appendClockEvent, event } from '../events/events.js';
import { exactSum } from '../../domain/money.js';
import { END_OF_TIME, instantText, MAX_INSTANT_MS } from '../../domain/time.js';
import { CHUNK_WRITE, chunkDeadline, Pacer, pastDeadline } from '../clock/chunks.js';

const DAY = 86_400_000;
export const AUTH_EXPIRY_MS = 7 * DAY;
/**
 * Candidates read per chunk, and so the most transactions one settlement batch holds: a
 * cutoff with more transactions closes several batches, each whole in its own chunk (the
 * chunk's time budget may settle fewer batches; the rest are read again).
 */
export const SETTLEMENT_BATCH_MAX = 100;
const CHUNK = SETTLEMENT_BATCH_MAX;
/** Auths expired per write. */
const EXPIRE_CHUNK = 200;

/** The first cutoff after an instant: the next 00:00 UTC. */
export function cutoffAfter(iso: string): string {
  const t = new Date(iso).getTime();
  // The last day of year 9999 closes at END_OF_TIME (fixed width, src/domain/time.ts).
  return instantText(Math.floor(t / DAY) * DAY + DAY);
}

/**
 * The last cutoff that has passed at `until`: 00:00 UTC of its day, and END_OF_TIME at
 * the last instant a clock reaches (9999-12-31T23:59:59.999Z), so the last day settles too.
 */
export function lastCutoffAt(until: Date): string {
  return until.getTime() >= MAX_INSTANT_MS ? END_OF_TIME : new Date(Math.floor(until.getTime() / DAY) * DAY).toISOString();
}

/**
 * Settle and expire the transactions of the groups in `scope`, whose time is `until`, in
 * chunks (src/services/clock/chunks.ts): each write settles whole batches (one group and
 * cutoff) until its budget is spent, and the job yields before the next, so a backlog of
 * years of daily batches never holds the writer for long.
 */
export async function runSettlement(p: Platform, until: Date, scope: GroupScope, progress?: Progress): Promise<number> {
  const lastCutoff = lastCutoffAt(until);
  const at = until.toISOString();
  let settled = 0;
  const pacer = new Pacer(p.db);
  for (;;) {
    // Checked on the reader first: most passes have nothing to settle and need no write.
    if ((await p.db.repos.settlement.candidates(p.db, lastCutoff, 1, scope)).length === 0) break;
    pacer.start();
    const chunk = await p.db.write(async (tx) => {
      const deadline = chunkDeadline();
      // Claimed: another server settling the same day takes other transactions.
      const rows = await tx.repos.settlement.claimCandidates(tx, lastCutoff, CHUNK, scope);
      const batches = new Map<string, { id: string; group_id: string; cutoff_at: string; ids: string[] }>();
      for (const r of rows) {
        const cutoff = cutoffAfter(r.created_at);
        const key = `${r.group_id} ${cutoff}`;
        let b = batches.get(key);
        if (!b) batches.set(key, (b = { id: newId(), group_id: r.group_id, cutoff_at: cutoff, ids: [] }));
        b.ids.push(r.id);
      }
      let n = 0;
      for (const b of batches.values()) {
        // The batch row first (settled transactions reference it); its totals come from the
        // rows the compare-and-set actually moved, since a candidate may have been voided
        // between the read above and this write.
        await tx.repos.settlement.insertBatch(tx, { id: b.id, group_id: b.group_id, cutoff_at: b.cutoff_at, transaction_count: 0, total_amount: 0, created_at: at });
        const moved = await tx.repos.settlement.settle(tx, b.ids, b.id, at);
        if (moved.length === 0) await tx.repos.settlement.deleteBatch(tx, b.id);
        else {
          // Exact at any size (BigInt): amounts accepted before the bound reach 2^53-1 each.
          const total = exactSum(moved.map((m) => m.captured_amount));
          await tx.repos.settlement.setBatchTotals(tx, b.id, moved.length, total);
          await transactionEvents(tx, 'transaction.settled', moved, at);
          appendClockEvent(tx, b.group_id, at, event('settlement_batch.closed', {
            id: b.id, group_id: b.group_id, cutoff_at: b.cutoff_at, transaction_count: moved.length, total_amount: total, created_at: at,
          }));
        }
        n += moved.length;
        // The batches left are read again by the next chunk (still pending, still due).
        if (pastDeadline(deadline)) break;
      }
      return { n, read: rows.length };
    }, CHUNK_WRITE);
    settled += chunk.n;
    // None free: the rest are another server's, in its chunk now.
    if (chunk.read === 0) break;
    progress?.(settled, settled + (chunk.read === CHUNK ? CHUNK : 0), 'settling');
    await pacer.rest();
  }
  const expiredBefore = new Date(until.getTime() - AUTH_EXPIRY_MS).toISOString();
  let expired = 0;
  // Checked on the reader first: most passes have nothing to expire and need no write.
  while (await p.db.repos.settlement.hasExpiringAuths(p.db, expiredBefore, scope)) {
    pacer.start();
    const n = await p.db.write(async (tx) => {
      const rows = await tx.repos.settlement.expireAuths(tx, expiredBefore, at, scope, EXPIRE_CHUNK);
      await transactionEvents(tx, 'transaction.expired', rows, at);
      return rows.length;
    }, CHUNK_WRITE);
    expired += n;
    if (n === 0) break;
    await pacer.rest();
  }
  return settled + expired;
}

/** How many transactions of `scope` are due to settle at `until`, counted up to `cap`. */
export async function countToSettle(p: Platform, until: Date, scope: GroupScope, cap: number): Promise<number> {
  const lastCutoff = lastCutoffAt(until);
  return (await p.db.repos.settlement.candidates(p.db, lastCutoff, cap, scope)).length;
}

/** One event per transaction the clock moved, its object as the API shows it. */
async function transactionEvents(tx: Tx, type: 'transaction.settled' | 'transaction.expired', rows: TransactionEntity[], at: string): Promise<void> {
  const processors = new Map<string, ProcessorInfo>();
  for (const row of rows) {
    const key = `${row.group_id} ${row.processor_id}`;
    let info = processors.get(key);
    if (!info) processors.set(key, (info = (await findProcessor(tx, row.group_id, row.processor_id)) ?? { name: '', type: '' }));
    appendClockEvent(tx, row.group_id, at, event(type, toApiTransaction(row, info)));
  }
}
