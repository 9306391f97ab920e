// Payment links and their pay-page sessions (PaymentLinkStore,
// PaymentLinkSessionStore). The payment options are 0/1 columns; the services see booleans.
import type { Executor, Tx } from '../../interfaces/db.js';
import type { PaymentLinkEntity, PaymentLinkSessionEntity } from '../../../domain/payment-links.js';
import type { PaymentLinkListFilter, PaymentLinkSessionStore, PaymentLinkStore } from '../../interfaces/payment-links.js';
import { flagColumn } from '../columns.js';

/** The stored columns: the entity with its payment options as 0/1. */
type PaymentLinkRow = Omit<PaymentLinkEntity, 'card_enabled' | 'ach_enabled'> & { card_enabled: number; ach_enabled: number };

function toEntity(row: PaymentLinkRow): PaymentLinkEntity {
  return { ...row, card_enabled: row.card_enabled === 1, ach_enabled: row.ach_enabled === 1 };
}

/** WHERE fragment for a status as the API shows it (expired derived from expires_at). */
function statusClause(f: PaymentLinkListFilter): { sql: string; params: unknown[] } {
  switch (f.status) {
    case undefined:
      return { sql: '', params: [] };
    case 'available':
      return { sql: " AND status = 'available' AND (expires_at IS NULL OR expires_at > ?)", params: [f.now] };
    case 'expired':
      return { sql: " AND (status = 'expired' OR (status = 'available' AND expires_at IS NOT NULL AND expires_at <= ?))", params: [f.now] };
    default:
      return { sql: ' AND status = ?', params: [f.status] };
  }
}

export const paymentLinkRepo: PaymentLinkStore = {
  async insert(ex: Tx, r: PaymentLinkEntity) {
    await ex.run(
      `INSERT INTO payment_links (id, group_id, processor_id, amount, description, redirect_url, card_enabled, ach_enabled,
         status, expires_at, paid_transaction_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.group_id, r.processor_id, r.amount, r.description, r.redirect_url, flagColumn(r.card_enabled), flagColumn(r.ach_enabled),
        r.status, r.expires_at, r.paid_transaction_id, r.created_at, r.updated_at],
    );
  },
  async find(ex: Executor, id: string) {
    const row = await ex.get<PaymentLinkRow>('SELECT * FROM payment_links WHERE id = ?', [id]);
    return row && toEntity(row);
  },
  async findInGroup(ex: Executor, groupId: string, id: string) {
    const row = await ex.get<PaymentLinkRow>('SELECT * FROM payment_links WHERE group_id = ? AND id = ?', [groupId, id]);
    return row && toEntity(row);
  },
  async list(ex: Executor, f: PaymentLinkListFilter) {
    const s = statusClause(f);
    const rows = await ex.all<PaymentLinkRow>(
      `SELECT * FROM payment_links WHERE group_id = ?${s.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [f.groupId, ...s.params, f.limit, f.offset],
    );
    return rows.map(toEntity);
  },
  async count(ex: Executor, f: PaymentLinkListFilter): Promise<number> {
    const s = statusClause(f);
    const row = await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM payment_links WHERE group_id = ?${s.sql}`, [f.groupId, ...s.params]);
    return row?.n ?? 0;
  },
  /** Compare-and-set: only a link that is available and not past its expiry becomes paid. */
  markPaid: (ex: Tx, id: string, now: string) =>
    ex.run(
      `UPDATE payment_links SET status = 'paid', updated_at = ?
       WHERE id = ? AND status = 'available' AND (expires_at IS NULL OR expires_at > ?)`,
      [now, id, now],
    ),
  setPaidTransaction: (ex: Tx, id: string, transactionId: string) =>
    ex.run("UPDATE payment_links SET paid_transaction_id = ? WHERE id = ? AND status = 'paid'", [transactionId, id]),
  /** Undo markPaid in the same write when the charge was declined: back to available, as it was. */
  reopen: (ex: Tx, id: string, updatedAt: string) =>
    ex.run("UPDATE payment_links SET status = 'available', updated_at = ? WHERE id = ? AND status = 'paid' AND paid_transaction_id IS NULL", [updatedAt, id]),
  /** Compare-and-set: available (expired or not) → deactivated. */
  deactivate: (ex: Tx, id: string, now: string) =>
    ex.run("UPDATE payment_links SET status = 'deactivated', updated_at = ? WHERE id = ? AND status = 'available'", [now, id]),
};

export const paymentLinkSessionRepo: PaymentLinkSessionStore = {
  async insert(ex: Tx, r: PaymentLinkSessionEntity) {
    await ex.run(
      'INSERT INTO payment_link_sessions (token_hash, payment_link_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
      [r.token_hash, r.payment_link_id, r.created_at, r.expires_at],
    );
  },
  find: (ex: Executor, tokenHash: string) =>
    ex.get<PaymentLinkSessionEntity>('SELECT * FROM payment_link_sessions WHERE token_hash = ?', [tokenHash]),
  deleteExpiredBefore: (ex: Tx, before: string) => ex.run('DELETE FROM payment_link_sessions WHERE expires_at < ?', [before]),
};
