// The e-mail outbox: the OutboxStore (its rows are the entities: text only).
import type { OutboxEntity } from '../../../domain/email.js';
import type { OutboxStore } from '../../interfaces/outbox.js';

export const outboxRepo: OutboxStore = {
  async insert(ex, r) {
    await ex.run(
      `INSERT INTO outbox (id, kind, to_address, subject, body, related_id, group_id, status, error, created_at, sent_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.kind, r.to_address, r.subject, r.body, r.related_id, r.group_id, r.status, r.error, r.created_at, r.sent_at],
    );
  },
  find: (ex, id) => ex.get<OutboxEntity>('SELECT * FROM outbox WHERE id = ?', [id]),
  list: (ex, limit, offset, kind) =>
    kind
      ? ex.all<OutboxEntity>('SELECT * FROM outbox WHERE kind = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?', [kind, limit, offset])
      : ex.all<OutboxEntity>('SELECT * FROM outbox ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?', [limit, offset]),
  markDelivered: (ex, id, status, error, at) =>
    ex.run('UPDATE outbox SET status = ?, error = ?, sent_at = ? WHERE id = ?', [status, error, at, id]),
};
