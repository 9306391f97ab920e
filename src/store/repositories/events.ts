import type { Executor, Tx } from '../db.js';

export interface EventRow {
  id: string;
  group_id: string;
  type: string;
  created_at: string;
  request_id: string | null;
  idempotency_key: string | null;
  /** JSON: `{ object, previous_attributes? }`. */
  data: string;
}

const COLUMNS = ['id', 'group_id', 'type', 'created_at', 'request_id', 'idempotency_key', 'data'] as const;

export interface EventFilter {
  groupId: string;
  /** Exact types and `family.` prefixes (from `family.*`); none: every type. */
  types?: string[];
  prefixes?: string[];
  createdFrom?: string;
  createdTo?: string;
  /** Only events older than this id (ids are UUID v7, ordered by creation). */
  before?: string;
  limit: number;
}

export const eventRepo = {
  /** Deferred: sent with the write's other rows, in its transaction. */
  insert(tx: Tx, r: EventRow) {
    tx.deferInsert('events', COLUMNS, COLUMNS.map((c) => r[c]));
  },
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<EventRow>(`SELECT ${COLUMNS.join(', ')} FROM events WHERE group_id = ? AND id = ?`, [groupId, id]),
  /** Newest first. */
  list(ex: Executor, f: EventFilter) {
    const where = ['group_id = ?'];
    const params: unknown[] = [f.groupId];
    const kinds: string[] = [];
    for (const t of f.types ?? []) {
      kinds.push('type = ?');
      params.push(t);
    }
    for (const p of f.prefixes ?? []) {
      kinds.push("substr(type, 1, ?) = ?");
      params.push(p.length, p);
    }
    if (kinds.length > 0) where.push(`(${kinds.join(' OR ')})`);
    if (f.createdFrom) (where.push('created_at >= ?'), params.push(f.createdFrom));
    if (f.createdTo) (where.push('created_at <= ?'), params.push(f.createdTo));
    if (f.before) (where.push('id < ?'), params.push(f.before));
    params.push(f.limit);
    return ex.all<EventRow>(`SELECT ${COLUMNS.join(', ')} FROM events WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, params);
  },
};
