// Invoices, their lines and per-year numbering (InvoiceStore, InvoiceLineStore).
// The payment options and send_email are 0/1 columns; the services see booleans.
import type { InvoiceEntity, InvoiceLineEntity } from '../../../domain/catalog-entities.js';
import type { Executor, Tx } from '../../interfaces/db.js';
import { flagColumn } from '../columns.js';
import type { InvoiceEdit, InvoiceLineStore, InvoiceListFilter, InvoiceStore } from '../../interfaces/catalog.js';

/** The stored columns: the entity with its flags as 0/1. */
type InvoiceRow = Omit<InvoiceEntity, 'send_email' | 'card_enabled' | 'ach_enabled'> & { send_email: number; card_enabled: number; ach_enabled: number };

// A line's columns are its entity's.
type InvoiceLineRow = InvoiceLineEntity;


function toEntity(row: InvoiceRow): InvoiceEntity {
  return { ...row, send_email: row.send_email === 1, card_enabled: row.card_enabled === 1, ach_enabled: row.ach_enabled === 1 };
}

export const invoiceRepo: InvoiceStore = {
  /** Hand out the next number of the group's year (1, 2, …); call inside the creating write. */
  async nextNumber(ex: Tx, groupId: string, year: number): Promise<number> {
    await ex.run(
      `INSERT INTO invoice_counters (group_id, year, last_number) VALUES (?, ?, 1)
       ON CONFLICT (group_id, year) DO UPDATE SET last_number = invoice_counters.last_number + 1`,
      [groupId, year],
    );
    const row = await ex.get<{ n: number }>('SELECT last_number AS n FROM invoice_counters WHERE group_id = ? AND year = ?', [groupId, year]);
    return row!.n;
  },
  async insert(ex: Tx, r: InvoiceEntity) {
    await ex.run(
      `INSERT INTO invoices (id, group_id, partner_id, invoice_number, invoice_number_numeric, year, slug, note, external_id,
         due_date, send_email, processor_id, card_enabled, ach_enabled, amount, status, paid_transaction_id, paid_at,
         archived_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.group_id, r.partner_id, r.invoice_number, r.invoice_number_numeric, r.year, r.slug, r.note, r.external_id,
        r.due_date, flagColumn(r.send_email), r.processor_id, flagColumn(r.card_enabled), flagColumn(r.ach_enabled), r.amount, r.status, r.paid_transaction_id,
        r.paid_at, r.archived_at, r.created_at, r.updated_at],
    );
  },
  async find(ex: Executor, groupId: string, id: string) {
    const row = await ex.get<InvoiceRow>('SELECT * FROM invoices WHERE group_id = ? AND id = ?', [groupId, id]);
    return row && toEntity(row);
  },
  async findBySlug(ex: Executor, slug: string) {
    const row = await ex.get<InvoiceRow>('SELECT * FROM invoices WHERE slug = ?', [slug]);
    return row && toEntity(row);
  },
  updatePending: (ex: Tx, r: InvoiceEdit) =>
    ex.run(
      `UPDATE invoices SET note = ?, external_id = ?, due_date = ?, processor_id = ?, card_enabled = ?, ach_enabled = ?,
         amount = ?, updated_at = ?
       WHERE id = ? AND status = 'pending'`,
      [r.note, r.external_id, r.due_date, r.processor_id, flagColumn(r.card_enabled), flagColumn(r.ach_enabled), r.amount, r.updated_at, r.id],
    ),
  /** Archive (from any other status); 0 changes when it already was archived. */
  archive: (ex: Tx, id: string, at: string) =>
    ex.run("UPDATE invoices SET status = 'archived', archived_at = ?, updated_at = ? WHERE id = ? AND status <> 'archived'", [at, at, id]),
  /** pending → paid (compare-and-set). */
  markPaid: (ex: Tx, id: string, transactionId: string, at: string) =>
    ex.run("UPDATE invoices SET status = 'paid', paid_transaction_id = ?, paid_at = ?, updated_at = ? WHERE id = ? AND status = 'pending'", [
      transactionId, at, at, id,
    ]),
  /** Newest first. */
  async list(ex: Executor, groupId: string, f: InvoiceListFilter) {
    const where = ['group_id = ?'];
    const params: unknown[] = [groupId];
    if (f.partnerId !== undefined) (where.push('partner_id = ?'), params.push(f.partnerId));
    if (f.stored !== undefined) (where.push('status = ?'), params.push(f.stored));
    if (f.dueBefore !== undefined) (where.push('due_date < ?'), params.push(f.dueBefore));
    if (f.dueFrom !== undefined) (where.push('due_date >= ?'), params.push(f.dueFrom));
    const clause = where.join(' AND ');
    const [items, count] = await Promise.all([
      ex.all<InvoiceRow>(`SELECT * FROM invoices WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [...params, f.limit, f.offset]),
      ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM invoices WHERE ${clause}`, params),
    ]);
    return { items: items.map(toEntity), total_count: count?.n ?? 0 };
  },
};

export const invoiceLineRepo: InvoiceLineStore = {
  async insert(ex: Tx, r: InvoiceLineRow) {
    await ex.run(
      `INSERT INTO invoice_lines (id, invoice_id, product_id, position, name, description, amount, included_tax_amount,
         unit_of_measure, quantity, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.invoice_id, r.product_id, r.position, r.name, r.description, r.amount, r.included_tax_amount,
        r.unit_of_measure, r.quantity, r.created_at, r.updated_at],
    );
  },
  listByInvoice: (ex: Executor, invoiceId: string) =>
    ex.all<InvoiceLineRow>('SELECT * FROM invoice_lines WHERE invoice_id = ? ORDER BY position, id', [invoiceId]),
  async listByInvoices(ex: Executor, invoiceIds: readonly string[]): Promise<InvoiceLineRow[]> {
    if (invoiceIds.length === 0) return [];
    return ex.all<InvoiceLineRow>(
      `SELECT * FROM invoice_lines WHERE invoice_id IN (${invoiceIds.map(() => '?').join(', ')}) ORDER BY invoice_id, position, id`,
      [...invoiceIds],
    );
  },
  /** A kept line: its position, and its quantity (updated_at moves only when the quantity does). */
  keep: (ex: Tx, id: string, position: number, quantity: number, at: string) =>
    ex.run(
      `UPDATE invoice_lines SET position = ?, updated_at = CASE WHEN quantity = ? THEN updated_at ELSE ? END, quantity = ?
       WHERE id = ?`,
      [position, quantity, at, quantity, id],
    ),
  remove: (ex: Tx, id: string) => ex.run('DELETE FROM invoice_lines WHERE id = ?', [id]),
};
