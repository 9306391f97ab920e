// The invoices whose due day has passed and that the clock has not yet told about
// (invoice.past_due), and the compare-and-set that records it once.
import type { InvoicePastDueStore } from '../../interfaces/platform.js';
import type { Executor, Tx } from '../../interfaces/db.js';
import type { InvoiceEntity } from '../../../domain/catalog-entities.js';
import { scopeCondition, type GroupScope } from './group-clocks.js';

type Row = Omit<InvoiceEntity, 'send_email' | 'card_enabled' | 'ach_enabled'> & { send_email: number; card_enabled: number; ach_enabled: number };

/** Pending invoices of `scope` due before `cutoffDay` not yet notified, oldest due first; `claim` ends the SELECT. */
async function candidates(ex: Executor, cutoffDay: string, scope: GroupScope, limit: number, claim: string): Promise<InvoiceEntity[]> {
  const s = scopeCondition(scope);
  const rows = await ex.all<Row>(
    `SELECT * FROM invoices WHERE status = 'pending' AND past_due_notified_at IS NULL AND due_date < ? AND ${s.sql} ORDER BY due_date, id LIMIT ?${claim}`,
    [cutoffDay, ...s.params, limit],
  );
  return rows.map((r) => ({ ...r, send_email: r.send_email === 1, card_enabled: r.card_enabled === 1, ach_enabled: r.ach_enabled === 1 }));
}

export const invoicePastDueRepo: InvoicePastDueStore = {
  /** Pending invoices of `scope` due before `cutoffDay` (YYYY-MM-DD) not yet notified, oldest due first. */
  candidates: (ex: Executor, cutoffDay: string, scope: GroupScope, limit: number) => candidates(ex, cutoffDay, scope, limit, ''),
  claimCandidates: (tx: Tx, cutoffDay: string, scope: GroupScope, limit: number) => candidates(tx, cutoffDay, scope, limit, tx.dialect.skipLocked),
  /** Record the notice; 0 changes when another process did, or the invoice was paid, archived or moved meanwhile. */
  markNotified: (tx: Tx, id: string, dueDate: string, at: string) =>
    tx.run("UPDATE invoices SET past_due_notified_at = ? WHERE id = ? AND status = 'pending' AND past_due_notified_at IS NULL AND due_date = ?", [at, id, dueDate]),
};
