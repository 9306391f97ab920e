// The clock's past-due notice: when an invoice's due day ends on its group's clock and it
// is still unpaid, invoice.past_due is emitted once (request null, stamped with the
// group's time at which the clock saw it). The status itself stays derived on read.
import type { Platform } from '../platform.js';
import type { GroupScope } from '../../store/interfaces/scope.js';
import type { Progress } from '../clock/chunks.js';
import { pastDueCutoffDay } from '../../domain/catalog.js';
import { appendClockEvent, event } from '../events/events.js';
import { loadInvoice } from './invoices.js';
import { CHUNK_WRITE, chunkDeadline, Pacer, pastDeadline } from '../clock/chunks.js';

const CHUNK = 200;

export async function notifyPastDueInvoices(p: Platform, until: Date, scope: GroupScope, progress?: Progress): Promise<number> {
  const at = until.toISOString();
  const cutoffDay = pastDueCutoffDay(at);
  let done = 0;
  const pacer = new Pacer(p.db);
  for (;;) {
    // Checked on the reader first: most passes have nothing to notify and need no write.
    if ((await p.db.repos.invoicePastDue.candidates(p.db, cutoffDay, scope, 1)).length === 0) break;
    let all = true;
    pacer.start();
    const chunk = await p.db.write(async (tx) => {
      const deadline = chunkDeadline();
      // Claimed: another server's pass takes other invoices.
      const rows = await tx.repos.invoicePastDue.claimCandidates(tx, cutoffDay, scope, CHUNK);
      let n = 0;
      for (const row of rows) {
        // The rest are read again by the next chunk (still not notified).
        if (n > 0 && pastDeadline(deadline)) {
          all = false;
          break;
        }
        if ((await tx.repos.invoicePastDue.markNotified(tx, row.id, row.due_date, at)).changes !== 1) continue;
        appendClockEvent(tx, row.group_id, at, event('invoice.past_due', await loadInvoice(tx, row, at)));
        n++;
      }
      return { n, read: rows.length };
    }, CHUNK_WRITE);
    done += chunk.n;
    progress?.(done, done + (chunk.read === CHUNK ? CHUNK : 0), 'invoices past due');
    // Fewer than a chunk free: the rest (if any) are another server's, in its chunk now.
    if (chunk.read < CHUNK && all) break;
    await pacer.rest();
  }
  return done;
}
