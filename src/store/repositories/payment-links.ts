import type { Executor, Tx } from '../db.js';

export type StoredLinkStatus = 'available' | 'paid' | 'deactivated' | 'expired';

export interface PaymentLinkRow {
  id: string;
  group_id: string;
  processor_id: string;
  /** Cents; null for an open-amount link (the payer names the amount). */
  amount: number | null;
  description: string;
  redirect_url: string;
  card_enabled: number;
  ach_enabled: number;
  status: StoredLinkStatus;
  expires_at: string | null;
  paid_transaction_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaymentLinkSessionRow {
  token_hash: string;
  payment_link_id: string;
  created_at: string;
  expires_at: string;
}

export interface PaymentLinkListFilter {
  groupId: string;
  /** Stored status; `expired` is derived, so the service translates it. */
  status?: 'available' | 'expired' | 'paid' | 'deactivated';
  now: string;
  limit: number;
  offset: number;
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

export const paymentLinkRepo = {
  async insert(ex: Tx, r: PaymentLinkRow) {
    await ex.run(
      `INSERT INTO payment_links (id, group_id, processor_id, amount, description, redirect_url, card_enabled, ach_enabled,
         status, expires_at, paid_transaction_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.group_id, r.processor_id, r.amount, r.description, r.redirect_url, r.card_enabled, r.ach_enabled,
        r.status, r.expires_at, r.paid_transaction_id, r.created_at, r.updated_at],
    );
  },
  find: (ex: Executor, id: string) => ex.get<PaymentLinkRow>('SELECT * FROM payment_links WHERE id = ?', [id]),
  findInGroup: (ex: Executor, groupId: string, id: string) =>
    ex.get<PaymentLinkRow>('SELECT * FROM payment_links WHERE group_id = ? AND id = ?', [groupId, id]),
  list(ex: Executor, f: PaymentLinkListFilter) {
    const s = statusClause(f);
    return ex.all<PaymentLinkRow>(
      `SELECT * FROM payment_links WHERE group_id = ?${s.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [f.groupId, ...s.params, f.limit, f.offset],
    );
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

export const paymentLinkSessionRepo = {
  async insert(ex: Tx, r: PaymentLinkSessionRow) {
    await ex.run(
      'INSERT INTO payment_link_sessions (token_hash, payment_link_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
      [r.token_hash, r.payment_link_id, r.created_at, r.expires_at],
    );
  },
  find: (ex: Executor, tokenHash: string) =>
    ex.get<PaymentLinkSessionRow>('SELECT * FROM payment_link_sessions WHERE token_hash = ?', [tokenHash]),
  deleteExpiredBefore: (ex: Tx, before: string) => ex.run('DELETE FROM payment_link_sessions WHERE expires_at < ?', [before]),
};
