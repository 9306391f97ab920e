// Settlement at the daily cutoff (00:00 UTC of the platform clock): every pending sale
// and captured auth created before a cutoff that has passed settles into that day's
// batch (one batch per group and cutoff). Auths never captured within 7 days expire.
// State-based and compare-and-set, so running it twice (or in two processes) is harmless.
import type { Platform } from '../platform.js';
import type { Progress } from '../clock/scheduler.js';
import { settlementRepo } from '../../store/repositories/settlement.js';
import { newId } from '../../lib/ids.js';
import type { GroupScope } from '../../store/repositories/group-clocks.js';

const DAY = 86_400_000;
export const AUTH_EXPIRY_MS = 7 * DAY;
const CHUNK = 2000;

/** The first cutoff after an instant: the next 00:00 UTC. */
export function cutoffAfter(iso: string): string {
  const t = new Date(iso).getTime();
  return new Date(Math.floor(t / DAY) * DAY + DAY).toISOString();
}

/** Settle and expire the transactions of the groups in `scope`, whose time is `until`. */
export async function runSettlement(p: Platform, until: Date, scope: GroupScope, progress?: Progress): Promise<number> {
  const lastCutoff = new Date(Math.floor(until.getTime() / DAY) * DAY).toISOString();
  const at = until.toISOString();
  let settled = 0;
  for (;;) {
    const rows = await settlementRepo.candidates(p.db, lastCutoff, CHUNK, scope);
    if (rows.length === 0) break;
    settled += await p.db.write(async (tx) => {
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
        await settlementRepo.insertBatch(tx, { id: b.id, group_id: b.group_id, cutoff_at: b.cutoff_at, transaction_count: 0, total_amount: 0, created_at: at });
        const moved = await settlementRepo.settle(tx, b.ids, b.id, at);
        if (moved.length === 0) await settlementRepo.deleteBatch(tx, b.id);
        else await settlementRepo.setBatchTotals(tx, b.id, moved.length, moved.reduce((sum, m) => sum + m.amount, 0));
        n += moved.length;
      }
      return n;
    });
    progress?.(settled, settled + (rows.length === CHUNK ? CHUNK : 0), 'settling');
    if (rows.length < CHUNK) break;
  }
  const expiredBefore = new Date(until.getTime() - AUTH_EXPIRY_MS).toISOString();
  // Checked on the reader first: most passes have nothing to expire and need no write.
  if (!(await settlementRepo.hasExpiringAuths(p.db, expiredBefore, scope))) return settled;
  const expired = await p.db.write((tx) => settlementRepo.expireAuths(tx, expiredBefore, at, scope));
  return settled + expired.changes;
}
