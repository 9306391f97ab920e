// The request journal in SQL both stores accept (../../interfaces/journal.ts). A group's
// counter row (request_journal_groups) hands out its sequence numbers — an upsert that
// takes the row's lock on PostgreSQL, so servers sharing a database number one group's
// calls without gaps or repeats — and counts its entries and bytes, so the bound is
// checked without reading the entries: past the count the oldest go by number (a group's
// entries are numbered without gaps); only past the bytes are the entries read.
// What a write costs is mostly its statements (each a round trip to the store's thread,
// ~70 µs of CPU with SQLite, docs/benchmarks/journal.md), not its bytes: a group's batch
// is one upsert that also counts what the count bound drops, then, sent together, its
// rows in a few multi-row INSERTs and one DELETE of the oldest.
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

/** Rows per INSERT, largest first: any number of rows in a few statements (50 in three: 32 + 16 + 2), and seven SQL texts in all. */
const CHUNKS = [64, 32, 16, 8, 4, 2, 1];
const insertSql = (n: number) => `INSERT INTO request_journal (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: n }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')}`;
const INSERTS = new Map(CHUNKS.map((n) => [n, insertSql(n)]));

/**
 * The rows as plain bound values, not the store's deferred inserts: those travel as one
 * JSON text that the database parses again, which costs more than binding for rows of a
 * few KiB of text each (the bodies).
 */
function insertRows(tx: AppendTx, rows: unknown[][]): Promise<unknown>[] {
  const sent: Promise<unknown>[] = [];
  let i = 0;
  for (const n of CHUNKS) {
    for (; i + n <= rows.length; i += n) sent.push(tx.run(INSERTS.get(n)!, rows.slice(i, i + n).flat()));
  }
  return sent;
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

/**
 * Number a group's batch (`list`, at most `bounds.entries` long) on its counter row, counting
 * the oldest entries the count bound drops (their bytes summed in the same statement), or
 * undefined when the group was dropped since its calls were made (its journal went with it).
 * The group's row is held shared meanwhile, so a drop's last transaction
 * (store/sql/group-drop.ts) waits for the batch.
 */
function countIn(tx: AppendTx, groupId: string, list: readonly JournalEntry[], max: number) {
  const bytes = list.reduce((n, e) => n + e.bytes, 0);
  const total = 'request_journal_groups.entries + excluded.entries';
  return tx.get<{ last_seq: number; entries: number; bytes: number }>(
    `INSERT INTO request_journal_groups (group_id, last_seq, entries, bytes, dropped)
SELECT ?, ?, ?, ?, 0 WHERE EXISTS (SELECT 1 FROM groups WHERE id = ?${tx.dialect.lockShared})
ON CONFLICT (group_id) DO UPDATE SET last_seq = request_journal_groups.last_seq + excluded.last_seq,
  entries = CASE WHEN ${total} > ? THEN ? ELSE ${total} END,
  bytes = request_journal_groups.bytes + excluded.bytes
    - (SELECT COALESCE(SUM(j.bytes), 0) FROM request_journal j WHERE j.group_id = ? AND j.seq <= request_journal_groups.last_seq + excluded.last_seq - ?),
  dropped = request_journal_groups.dropped + CASE WHEN ${total} > ? THEN ${total} - ? ELSE 0 END
RETURNING last_seq, entries, bytes`,
    [groupId, list.length, list.length, bytes, groupId, max, max, groupId, max, max, max],
  );
}

/** A group's entries in batches of at most the count bound (so what it drops is among the rows already held). */
function* batchesOf(list: JournalEntry[], max: number): Generator<JournalEntry[]> {
  for (let i = 0; i < list.length; i += max) yield list.slice(i, i + max);
}

export const journalRepo: JournalStore = {
  async append(tx, entries, bounds) {
    const byGroup = new Map<string, JournalEntry[]>();
    for (const e of entries) {
      let list = byGroup.get(e.group_id);
      if (!list) byGroup.set(e.group_id, (list = []));
      list.push(e);
    }
    for (const [groupId, all] of byGroup) {
      for (const list of batchesOf(all, bounds.entries)) {
        const counts = await countIn(tx, groupId, list, bounds.entries);
        if (!counts) break;
        let seq = counts.last_seq - list.length;
        const rows = list.map((e) => [
          e.group_id, ++seq, e.request_id, e.at, e.method, e.path, e.route, e.status, e.duration_ms, e.idempotency_key, e.fault, e.recordable ? 1 : 0, e.headers, e.body, e.answer, e.note, e.bytes,
        ]);
        // Sent together, not one after another's answer: the store runs them back to back, with no turn of this thread between.
        const sent = insertRows(tx, rows);
        // At the count bound: the oldest went from the counts already; their rows go by number, without being read.
        if (counts.entries === bounds.entries && counts.last_seq > bounds.entries) {
          sent.push(tx.run('DELETE FROM request_journal WHERE group_id = ? AND seq <= ?', [groupId, counts.last_seq - bounds.entries]));
        }
        await Promise.all(sent);
        if (counts.bytes > bounds.bytes) {
          const cut = await byteCut(tx, groupId, bounds.bytes);
          if (cut !== undefined) await dropThrough(tx, groupId, cut);
        }
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
