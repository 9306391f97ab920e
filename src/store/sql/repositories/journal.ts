// The request journal in SQL both stores accept (../../interfaces/journal.ts). A group's
// counter row (request_journal_groups) hands out its sequence numbers — an upsert that
// takes the row's lock on PostgreSQL, so servers sharing a database number one group's
// calls without gaps or repeats — and counts its entries and bytes, so the bound is
// checked without reading the entries: past the count the oldest go by number (a group's
// entries are numbered without gaps); only past the bytes are the entries read.
// What a write costs is its statements (each a round trip to the store's thread, ~70 µs
// of CPU with SQLite, docs/benchmarks/journal.md), its bound values, and the turns of the
// event loop it waits for while it holds the writer: a group's batch is one upsert that
// also counts what the count bound drops, a few multi-row INSERTs numbered from it in the
// store, and one DELETE of the oldest, all sent together.
import type { JournalCall, JournalEntry, JournalQuery, JournalState, JournalStore, StoredJournalEntry } from '../../interfaces/journal.js';
import type { Executor } from '../../interfaces/db.js';
import { parseJson } from '../../../lib/exact-json.js';
import type { Dialect } from '../dialect.js';

const COLUMNS = [
  'group_id', 'seq', 'request_id', 'at', 'method', 'path', 'route', 'status', 'duration_ms', 'idempotency_key', 'fault', 'recordable', 'headers', 'body', 'answer', 'note', 'bytes',
] as const;

const SELECT = `SELECT ${COLUMNS.join(', ')} FROM request_journal`;

type Row = Omit<StoredJournalEntry, 'recordable'> & { recordable: number };

const fromRow = (r: Row): StoredJournalEntry => ({ ...r, recordable: r.recordable === 1 });

const json = (text: string | null): unknown => (text === null ? null : parseJson(text));

/** A call with its JSON columns read (only reads parse: the write path stays text). */
const toCall = (e: StoredJournalEntry): JournalCall => ({ ...e, headers: json(e.headers) as Record<string, string> | null, body: json(e.body), answer: json(e.answer) });

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

/** Rows per INSERT, largest first: any number of rows in a few statements (50 in three: 32 + 16 + 2), and seven SQL texts per store in all. */
const CHUNKS = [64, 32, 16, 8, 4, 2, 1];
/**
 * Columns bound as text only: a null as '' (none of them is ever empty: JSON texts, and the
 * server's own notes and fault descriptions), numbers as their decimal text (the columns'
 * INTEGER and REAL affinity on SQLite, and PostgreSQL's own input, store the same value).
 * node-sqlite3 binds a string in ~0.3 µs and a number or a null in ~1 µs (it checks each
 * for a RegExp first): a journal row's 17 values cost ~17 µs of the main thread a call
 * as they were, ~8 as text (docs/benchmarks/journal.md, session 18).
 */
const EMPTY_IS_NULL: ReadonlySet<string> = new Set(['fault', 'headers', 'body', 'answer', 'note']);
/** PostgreSQL's types of the columns that are not text (a VALUES list in a FROM is text there unless cast). */
const PG_TYPES: Readonly<Record<string, string>> = { seq: 'bigint', at: 'timestamptz', status: 'bigint', duration_ms: 'double precision', recordable: 'bigint', bytes: 'bigint' };

/**
 * n rows of one group, numbered from its counter row as the statement runs: a row's `seq`
 * is bound as its place from the batch's end (0 for the last, -1 for the one before, …),
 * added to the `last_seq` that the batch's upsert (countIn) left. So the rows need not wait
 * for the upsert's answer: the upsert, the INSERTs and the trim go to the store together,
 * and the writer runs them back to back without a turn of this thread between (each such
 * turn held the writer, and the sales behind it, while the event loop was busy).
 */
function insertSql(store: Dialect['name'], n: number): string {
  const cell = (c: string) => {
    const bound = store === 'postgres' && PG_TYPES[c] ? `CAST(? AS ${PG_TYPES[c]})` : '?';
    return EMPTY_IS_NULL.has(c) ? `NULLIF(${bound}, '')` : bound;
  };
  const row = `(${COLUMNS.map(cell).join(', ')})`;
  const picked = COLUMNS.map((c, i) => (c === 'seq' ? `g.last_seq + v.column${i + 1}` : `v.column${i + 1}`)).join(', ');
  return `INSERT INTO request_journal (${COLUMNS.join(', ')}) SELECT ${picked}
FROM (VALUES ${Array.from({ length: n }, () => row).join(', ')}) AS v
JOIN request_journal_groups g ON g.group_id = ? JOIN groups gr ON gr.id = g.group_id`;
}
const INSERTS = {
  sqlite: new Map(CHUNKS.map((n) => [n, insertSql('sqlite', n)])),
  postgres: new Map(CHUNKS.map((n) => [n, insertSql('postgres', n)])),
};
const text = (v: string | null) => v ?? '';

/**
 * A group's batch as rows of bound values (not the store's deferred inserts: those travel
 * as one JSON text that the database parses again, which costs more than binding for rows
 * of a few KiB of text each), in a few INSERTs, sent at once.
 */
function insertRows(tx: AppendTx, groupId: string, list: readonly JournalEntry[]): Promise<unknown>[] {
  const rows = list.map((e, k) => [
    e.group_id, String(k + 1 - list.length), e.request_id, e.at, e.method, e.path, e.route, String(e.status), String(e.duration_ms), e.idempotency_key,
    text(e.fault), e.recordable ? '1' : '0', text(e.headers), text(e.body), text(e.answer), text(e.note), String(e.bytes),
  ]);
  const inserts = INSERTS[tx.dialect.name];
  const sent: Promise<unknown>[] = [];
  let i = 0;
  for (const n of CHUNKS) {
    for (; i + n <= rows.length; i += n) sent.push(tx.run(inserts.get(n)!, [...rows.slice(i, i + n).flat(), groupId]));
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
    // Every group's batch sent at once: its upsert, its rows (numbered from the upsert's
    // counter, in the store), and the trim of what the count bound dropped (by number,
    // without reading them; nothing while a group is under the bound).
    const counted: Array<{ groupId: string; counts: Promise<{ last_seq: number; entries: number; bytes: number } | undefined> }> = [];
    const sent: Promise<unknown>[] = [];
    for (const [groupId, all] of byGroup) {
      for (const list of batchesOf(all, bounds.entries)) {
        counted.push({ groupId, counts: countIn(tx, groupId, list, bounds.entries) });
        sent.push(...insertRows(tx, groupId, list));
        sent.push(
          tx.run('DELETE FROM request_journal WHERE group_id = ? AND seq <= (SELECT last_seq FROM request_journal_groups WHERE group_id = ?) - ?', [groupId, groupId, bounds.entries]),
        );
      }
    }
    await Promise.all([...sent, ...counted.map((c) => c.counts)]);
    // Past the bytes (rare: bodies near their cap): the oldest go until the rest fit.
    for (const { groupId, counts } of counted) {
      const c = await counts;
      if (!c || c.bytes <= bounds.bytes) continue;
      const cut = await byteCut(tx, groupId, bounds.bytes);
      if (cut !== undefined) await dropThrough(tx, groupId, cut);
    }
  },
  async list(ex, q) {
    const w = where(q);
    const order = q.newest_first ? 'seq DESC' : 'seq';
    return (await ex.all<Row>(`${SELECT} WHERE ${w.sql} ORDER BY ${order} LIMIT ?`, [...w.params, q.limit])).map(fromRow);
  },
  async listCalls(ex, q) {
    return (await journalRepo.list(ex, q)).map(toCall);
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
