// The inbox of collected webhooks (migration 036): a message per attempt to a collector
// endpoint, written with the attempt's record, listed newest first per group.
import type { InboxMessageEntity, WebhookInboxStore } from '../../interfaces/webhooks.js';

const COLUMNS = [
  'group_id', 'id', 'endpoint_id', 'event_id', 'event_type', 'body', 'webhook_id', 'webhook_timestamp', 'webhook_signature', 'received_at',
] as const;

export const inboxRepo: WebhookInboxStore = {
  insert(tx, m) {
    tx.deferInsert('webhook_inbox', COLUMNS, COLUMNS.map((c) => m[c]));
  },
  list(ex, groupId, f) {
    const where = ['group_id = ?'];
    const params: unknown[] = [groupId];
    const kinds: string[] = [];
    for (const t of f.types ?? []) (kinds.push('event_type = ?'), params.push(t));
    for (const p of f.prefixes ?? []) (kinds.push('substr(event_type, 1, ?) = ?'), params.push(p.length, p));
    if (kinds.length > 0) where.push(`(${kinds.join(' OR ')})`);
    if (f.before) (where.push('id < ?'), params.push(f.before));
    params.push(f.limit);
    return ex.all<InboxMessageEntity>(`SELECT ${COLUMNS.join(', ')} FROM webhook_inbox WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, params);
  },
};
