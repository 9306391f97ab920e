// The event log: the EventStore. The data column is JSON text; the entity's data the
// object — converted here. Positions (`seq`) are never reused (SQLite: AUTOINCREMENT,
// PostgreSQL: a sequence).
import type { EventEntity, EventStore, SequencedEvent } from '../../interfaces/events.js';
import { parseJson, stringifyJson } from '../../../lib/exact-json.js';

/** The entity as stored: `data` (`{ object, previous_attributes? }`) as JSON text. */
interface EventRow extends Omit<EventEntity, 'data'> {
  data: string;
}

const COLUMNS = ['id', 'group_id', 'type', 'created_at', 'request_id', 'idempotency_key', 'data'] as const;

/** The entity of a row read back (in place: the row is fresh from the driver). */
function toRecord(row: EventRow): EventEntity {
  // Exact: an event may carry a sum beyond 2^53 (settlement_batch.closed's total_amount).
  (row as EventEntity).data = parseJson(row.data) as EventEntity['data'];
  return row as EventEntity;
}

export const eventRepo: EventStore = {
  /** Deferred: sent with the write's other rows, in its transaction. */
  insert(tx, e) {
    tx.deferInsert('events', COLUMNS, [e.id, e.group_id, e.type, e.created_at, e.request_id, e.idempotency_key, stringifyJson(e.data)]);
  },
  async find(ex, groupId, id) {
    const row = await ex.get<EventRow>(`SELECT ${COLUMNS.join(', ')} FROM events WHERE group_id = ? AND id = ?`, [groupId, id]);
    return row && toRecord(row);
  },
  async list(ex, f) {
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
    const rows = await ex.all<EventRow>(`SELECT ${COLUMNS.join(', ')} FROM events WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, params);
    return rows.map(toRecord);
  },
  lastSeq: async (ex) => (await ex.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM events'))?.seq ?? 0,
  seqOf: async (ex, groupId, id) => (await ex.get<{ seq: number }>('SELECT seq FROM events WHERE group_id = ? AND id = ?', [groupId, id]))?.seq,
  // Walks the log by its primary key from that position, so a follower that keeps up reads only what is new
  // (group_id unindexed: not through the (group_id, id) index, which would read all of the group's events and sort them).
  async after(ex, groupId, seq, limit) {
    const rows = await ex.all<EventRow & { seq: number }>(
      `SELECT seq, ${COLUMNS.join(', ')} FROM events WHERE seq > ? AND ${ex.dialect.unindexed('group_id')} = ? ORDER BY seq LIMIT ?`,
      [seq, groupId, limit],
    );
    return rows.map((r) => toRecord(r) as SequencedEvent);
  },
};
