import type { Executor, Tx } from '../db.js';

export interface OutboxRow {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  body: string;
  related_id: string | null;
  /** The group the e-mail was sent for (dropped with it); null for platform mail. */
  group_id: string | null;
  status: 'queued' | 'sent' | 'failed' | 'stored';
  error: string | null;
  created_at: string;
  sent_at: string | null;
}

export const outboxRepo = {
  async insert(ex: Tx, r: OutboxRow) {
    await ex.run(
      `INSERT INTO outbox (id, kind, to_address, subject, body, related_id, group_id, status, error, created_at, sent_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.kind, r.to_address, r.subject, r.body, r.related_id, r.group_id, r.status, r.error, r.created_at, r.sent_at],
    );
  },
  find: (ex: Executor, id: string) => ex.get<OutboxRow>('SELECT * FROM outbox WHERE id = ?', [id]),
  list: (ex: Executor, limit: number, offset: number, kind?: string) =>
    kind
      ? ex.all<OutboxRow>('SELECT * FROM outbox WHERE kind = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?', [kind, limit, offset])
      : ex.all<OutboxRow>('SELECT * FROM outbox ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?', [limit, offset]),
  markDelivered: (ex: Tx, id: string, status: 'sent' | 'failed', error: string | null, at: string) =>
    ex.run('UPDATE outbox SET status = ?, error = ?, sent_at = ? WHERE id = ?', [status, error, at, id]),
};
