// The request journal in SQL both stores accept (../../interfaces/journal.ts). A group's
// counter row (request_journal_groups) hands out its sequence numbers — an upsert that
// takes the row's lock on PostgreSQL, so servers sharing a database number one group's
// calls without gaps or repeats — and counts its entries and bytes, so the bound is
// checked without reading the entries: past the count the oldest go by number (a group's
// entries are numbered without gaps); only past the bytes are the entries read.
import type { JournalEntry, JournalQuery, JournalState, JournalStore, StoredJournalEntry } from '../../interfaces/journal.js';
import type { Executor } from '../../interfaces/db.js';

const COLUMNS = [
  'group_id', 'seq', 'request_id', 'at', 'method', 'path', 'route', 'status', 'duration_ms', 'idempotency_key', 'fault', 'recordable', 'headers', 'body', 'answer', 'note', 'bytes',
] as const;

const SELECT = `SELECT ${COLUMNS.join(', ')} FROM request_journal`;

type Row = Omit<StoredJournalEntry, 'recordable'> & { recordable: number };

const fromRow = (r: Row): StoredJournalEntry => ({ ...r, recordable: r.recordable === 1 });

function where(q: Omit<JournalQuery, 'limit'>): { sql: string; params: unknown[] } {
  const parts = ['group_id = ?'];
  const params: unknown[] = [q.group_id];
  const add = (cond: string, ...values: unknown[]) => (parts.push(cond), params.push(...values));
  if (q.after_seq !== undefined) add('seq > ?', q.after_seq);
  if (q.until_seq !== undefined) add('seq <= ?', q.until_seq);
  if (q.method !== undefined) add('method = ?', q.method);
  if (q.path !== undefined) add('path = ?', q.path);
  if (q.path_prefix !== undefined) add('substr(path, 1, ?) = ?', q.path_prefix.length, q.path_prefix);
  if (q.status_min !== undefined) add('status >= ?', q.status_min);
  if (q.status_max !== undefined) add('status <= ?', q.status_max);
  if (q.since !== undefined) add('at >= ?', q.since);
  if (q.recordable) add('recordable = 1');
  return { sql: parts.join(' AND '), params };
}

type AppendTx = Parameters<JournalStore['append']>[0];

/** Rows per INSERT: a few statements per write, and two SQL texts in all (a chunk, a single row). */
const CHUNK = 16;
const insertSql = (n: number) => `INSERT INTO request_journal (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: n }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')}`;
const INSERT_CHUNK = insertSql(CHUNK);
const INSERT_ONE = insertSql(1);

/**
 * The rows as plain bound values, not the store's deferred inserts: those travel as one
 * JSON text that the database parses again, which costs more than binding for rows of a
 * few KiB of text each (the bodies).
 */
async function insertRows(tx: AppendTx, rows: unknown[][]): Promise<void> {
  let i = 0;
  for (; i + CHUNK <= rows.length; i += CHUNK) await tx.run(INSERT_CHUNK, rows.slice(i, i + CHUNK).flat());
  for (; i < rows.length; i++) await tx.run(INSERT_ONE, rows[i]!);
}

/** Delete a group's entries up to `seq` (the oldest: a group's are numbered without gaps); its counter row says what is left and what went. */
async function dropThrough(tx: AppendTx, groupId: string, seq: number): Promise<{ entries: number; bytes: number }> {
  const gone = await tx.all<{ bytes: number }>('DELETE FROM request_journal WHERE group_id = ? AND seq <= ? RETURNING bytes', [groupId, seq]);
  const bytes = gone.reduce((n, r) => n + r.bytes, 0);
  return (await tx.get<{ entries: number; bytes: number }>(
    'UPDATE request_journal_groups SET entries = entries - ?, bytes = bytes - ?, dropped = dropped + ? WHERE group_id = ? RETURNING entries, bytes',
    [gone.length, bytes, gone.length, groupId],
  ))!;
}

/** The newest entries of a group that fit in `maxBytes`: the sequence number through which the rest goes, or undefined when all fit. */
async function byteCut(tx: AppendTx, groupId: string, maxBytes: number): Promise<number | undefined> {
  const rows = await tx.all<{ seq: number; bytes: number }>('SELECT seq, bytes FROM request_journal WHERE group_id = ? ORDER BY seq DESC', [groupId]);
  let bytes = 0;
  for (const r of rows) {
    if (bytes + r.bytes > maxBytes) return r.seq;
    bytes += r.bytes;
  }
  return undefined;
}

export const journalRepo: JournalStore = {
  async append(tx, entries, bounds) {
    const byGroup = new Map<string, JournalEntry[]>();
    for (const e of entries) {
      let list = byGroup.get(e.group_id);
      if (!list) byGroup.set(e.group_id, (list = []));
      list.push(e);
    }
    for (const [groupId, list] of byGroup) {
      const bytes = list.reduce((n, e) => n + e.bytes, 0);
      // No row back: the group was dropped since its calls were made (its journal went with it). The group's
      // row is held shared while the batch is written, so a drop's last transaction (store/sql/group-drop.ts) waits for it.
      const counts = await tx.get<{ last_seq: number; entries: number; bytes: number }>(
        `INSERT INTO request_journal_groups (group_id, last_seq, entries, bytes, dropped)
SELECT ?, ?, ?, ?, 0 WHERE EXISTS (SELECT 1 FROM groups WHERE id = ?${tx.dialect.lockShared})
ON CONFLICT (group_id) DO UPDATE SET last_seq = request_journal_groups.last_seq + excluded.last_seq,
  entries = request_journal_groups.entries + excluded.entries, bytes = request_journal_groups.bytes + excluded.bytes
RETURNING last_seq, entries, bytes`,
        [groupId, list.length, list.length, bytes, groupId],
      );
      if (!counts) continue;
      let seq = counts.last_seq - list.length;
      const rows = list.map((e) => [
        e.group_id, ++seq, e.request_id, e.at, e.method, e.path, e.route, e.status, e.duration_ms, e.idempotency_key, e.fault, e.recordable ? 1 : 0, e.headers, e.body, e.answer, e.note, e.bytes,
      ]);
      await insertRows(tx, rows);
      let now = { entries: counts.entries, bytes: counts.bytes };
      // Past the count: the oldest go by number, without reading them.
      if (now.entries > bounds.entries) now = await dropThrough(tx, groupId, counts.last_seq - bounds.entries);
      if (now.bytes > bounds.bytes) {
        const cut = await byteCut(tx, groupId, bounds.bytes);
        if (cut !== undefined) await dropThrough(tx, groupId, cut);
      }
    }
  },
  async list(ex, q) {
    const w = where(q);
    return (await ex.all<Row>(`${SELECT} WHERE ${w.sql} ORDER BY seq LIMIT ?`, [...w.params, q.limit])).map(fromRow);
  },
  async count(ex, q) {
    const w = where(q);
    return (await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM request_journal WHERE ${w.sql}`, w.params))!.n;
  },
  state: (ex: Executor, groupId: string) =>
    ex.get<JournalState>('SELECT last_seq, entries, bytes, dropped FROM request_journal_groups WHERE group_id = ?', [groupId]),
  seqOf: async (ex, groupId, requestId) =>
    (await ex.get<{ seq: number }>('SELECT seq FROM request_journal WHERE group_id = ? AND request_id = ?', [groupId, requestId]))?.seq,
  firstSeq: async (ex, groupId) =>
    (await ex.get<{ seq: number }>('SELECT seq FROM request_journal WHERE group_id = ? ORDER BY seq LIMIT 1', [groupId]))?.seq,
};
