// A sandbox's rows for a file, and an import's rows back (the service: src/services/
// sandboxes/export.ts, import.ts). Driven by the list of group-owned tables, like drops
// and forks: a file holds every group table but those named in NOT_IN_FILE, in the
// list's order (parents first). An import under way is a fork_jobs row of phase
// `import` (its new group is left out of due work as a fork's is), its progress in the
// row: `step` rows written, `cursor` the real time of its last chunk, `copied` the total
// and the table it is at. Portable SQL.
import type { Tx } from '../../interfaces/db.js';
import type { FilePage, FileRow, FileTable, FreshValue, ImportProgress, SandboxFileStore } from '../../interfaces/sandbox-files.js';
import { GROUP_TABLES, ownerCondition } from '../group-tables.js';
import { tableColumns } from '../schema.js';
import { countGroupIntoRollup } from '../rollup.js';
import { SECRET_FIELDS } from '../../../domain/sensitive.js';

/** Group tables a sandbox file never holds, and why. */
export const NOT_IN_FILE: Record<string, string> = {
  api_keys: 'keys are secrets shown once: an import issues its own key per permission kind',
  plan_update_jobs: 'a plan update under way is work of the source server: it finishes there',
  transaction_daily: 'the reporting rollup is derived: an import counts its transactions into it',
  transaction_daily_dims: 'derived from transaction_daily',
  payment_link_sessions: 'session tokens are bearer secrets kept as hashes',
  idempotency_keys: "stored answers are the source's requests: an import starts with none",
  webhook_deliveries: "deliveries are sends of the source's events to its receivers: the import's endpoints get the events made after it",
  webhook_attempts: 'attempts are of the deliveries, which a file does not hold',
  webhook_inbox: "collected messages are the source's deliveries, signed with its secret: the import's collector collects the events made after it",
  sandbox_recordings: "a recording is of the source sandbox's own traffic (GET …/recording?format=scenario makes a file of it)",
  request_journal: "the journal is the source sandbox's own traffic (a recording is a view of it)",
  request_journal_groups: "the counts of the source's journal",
  sandbox_demos: "the demo's ids as the source's creation answered them: an import renews every id",
  sandbox_leases: "a time to live is the server's, not the data's: an import takes its own (the import request's ttl)",
};

/** Columns a file never holds: secrets, and the store's own sequence numbers (an import's rows get new ones, in file order). */
const OMIT: Record<string, string[]> = {
  events: ['seq'],
  webhook_endpoints: ['secret', 'previous_secret', 'previous_secret_expires_at'],
};

/** Columns an import fills anew (the file has none of them, or must not decide them). */
const FRESH: Record<string, Record<string, FreshValue>> = {
  invoices: { slug: 'invoice_slug' },
  webhook_endpoints: { secret: 'webhook_secret' },
};

/** References the fork's list does not name (its tables are not forked). */
const MORE_REFS: Record<string, string[]> = { webhook_fault_rules: ['endpoint_id'] };

/** The column a table's rows follow in the file (and page by): its id, the events' sequence (their list order). */
const orderColumn = (t: FileTable) => (t.table === 'events' ? 'seq' : t.id);

/** Bound parameters per INSERT (SQLite's default limit is 32,766, PostgreSQL's 65,535). */
const MAX_PARAMS = 30_000;

export const sandboxFilesRepo: SandboxFileStore = {
  async tables(ex) {
    const out: FileTable[] = [];
    for (const t of GROUP_TABLES) {
      if (t.table in NOT_IN_FILE) continue;
      const all = await tableColumns(ex, t.table);
      // A column named like a sensitive field (the one list, domain/sensitive.ts) is never in a file either.
      const omit = [...new Set([...(OMIT[t.table] ?? []), ...all.filter((c) => SECRET_FIELDS.has(c))])];
      const columns = all.filter((c) => !omit.includes(c));
      const inIdMap = t.inIdMap === true || t.table === 'webhook_endpoints';
      const owner = { column: t.owner.column, parent: 'parent' in t.owner };
      out.push({ table: t.table, ...(t.id ? { id: t.id } : {}), omit, fresh: FRESH[t.table] ?? {}, inIdMap, owner, refs: [...(t.refs ?? []), ...(MORE_REFS[t.table] ?? [])], columns });
    }
    return out;
  },

  async schemaVersion(ex) {
    return Number((await ex.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations'))?.v ?? 0);
  },

  async count(ex, groupId) {
    const counts: Record<string, number> = {};
    for (const t of GROUP_TABLES) {
      if (t.table in NOT_IN_FILE) continue;
      counts[t.table] = Number((await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.table} WHERE ${ownerCondition(t)}`, [groupId]))!.n);
    }
    return counts;
  },

  async rangeEnd(ex, t, groupId, after, rows) {
    const group = GROUP_TABLES.find((g) => g.table === t.table)!;
    const order = orderColumn(t);
    if (!order) return after === undefined ? null : undefined;
    const past = after === undefined ? '' : ` AND s.${order} > ?`;
    const params = after === undefined ? [groupId] : [groupId, after];
    // The range's last row: one read of the group's rows in order (the cost every page paid before, now once a range).
    const end = await ex.get<{ v: string | number }>(`SELECT s.${order} AS v FROM ${t.table} s WHERE ${ownerCondition(group, 's')}${past} ORDER BY s.${order} LIMIT 1 OFFSET ?`, [...params, rows - 1]);
    if (end) return end.v;
    // Fewer left: the range is the rest.
    return (await ex.get<{ v: string | number | null }>(`SELECT MAX(s.${order}) AS v FROM ${t.table} s WHERE ${ownerCondition(group, 's')}${past}`, params))?.v ?? undefined;
  },

  async page(ex, t, groupId, after, limit, upTo): Promise<FilePage> {
    const group = GROUP_TABLES.find((g) => g.table === t.table)!;
    const order = orderColumn(t);
    const select = [...t.columns, ...(order && !t.columns.includes(order) ? [order] : [])].map((c) => `s.${c}`).join(', ');
    if (!order || upTo === null) {
      // A table without an id (one row per group, as invoice_counters): all of it at once.
      if (after !== undefined) return { rows: [] };
      return { rows: await ex.all<FileRow>(`SELECT ${select} FROM ${t.table} s WHERE ${ownerCondition(group, 's')}`, [groupId]) };
    }
    // Within a range the rows are found by the order column's own index (the owner's column unindexed, so a store
    // does not read every row of the group to sort them): a page costs its rows, however large the table.
    const owner = ownerCondition(group, 's').replace(/^s\.(\w+)/, (_, c: string) => ex.dialect.unindexed(`s.${c}`));
    const rows = await ex.all<FileRow>(
      // The limit is a parameter: pages of fat rows are smaller (src/services/sandboxes/export.ts), one statement text.
      `SELECT ${select} FROM ${t.table} s WHERE ${after === undefined ? '' : `s.${order} > ? AND `}s.${order} <= ? AND ${owner} ORDER BY s.${order} LIMIT ?`,
      after === undefined ? [upTo, groupId, limit] : [after, upTo, groupId, limit],
    );
    const last = rows.length === limit ? (rows[rows.length - 1]![order] as string | number) : undefined;
    const next = last === upTo ? undefined : last;
    if (!t.columns.includes(order)) for (const r of rows) delete r[order];
    return next === undefined ? { rows } : { rows, next };
  },

  async beginImport(tx, group, sourceId, rowsTotal, beatMs) {
    await insertRows(tx, 'groups', [group]);
    await tx.run("INSERT INTO fork_jobs (fork_id, source_id, name, phase, step, cursor, copied, created_at) VALUES (?, ?, ?, 'import', 0, ?, ?, ?)", [
      group.id,
      sourceId,
      group.name,
      String(beatMs),
      JSON.stringify({ total: rowsTotal, table: 'groups' }),
      group.created_at,
    ]);
  },

  insertRows,

  async noteImport(tx, groupId, rowsImported, table, beatMs) {
    const j = await tx.get<{ copied: string }>("SELECT copied FROM fork_jobs WHERE fork_id = ? AND phase = 'import'", [groupId]);
    if (!j) return false;
    const { total } = JSON.parse(j.copied) as { total: number };
    await tx.run("UPDATE fork_jobs SET step = ?, cursor = ?, copied = ? WHERE fork_id = ? AND phase = 'import'", [
      rowsImported,
      String(beatMs),
      JSON.stringify({ total, table }),
      groupId,
    ]);
    return true;
  },

  async finishImport(tx, groupId, at) {
    await countGroupIntoRollup(tx, groupId);
    await tx.run("UPDATE groups SET status = 'active', updated_at = ? WHERE id = ?", [at, groupId]);
    await tx.run("DELETE FROM fork_jobs WHERE fork_id = ? AND phase = 'import'", [groupId]);
  },

  async importProgress(ex, groupId): Promise<ImportProgress | undefined> {
    const j = await ex.get<{ fork_id: string; source_id: string; name: string; step: number; cursor: string; copied: string }>(
      "SELECT fork_id, source_id, name, step, cursor, copied FROM fork_jobs WHERE fork_id = ? AND phase = 'import'",
      [groupId],
    );
    if (!j) return undefined;
    const { total, table } = JSON.parse(j.copied) as { total: number; table: string | null };
    return { group_id: j.fork_id, source_id: j.source_id, name: j.name, rows_imported: Number(j.step), rows_total: Math.max(total, Number(j.step)), table, beat_ms: Number(j.cursor) };
  },

  async staleImports(ex, beatBeforeMs) {
    const rows = await ex.all<{ fork_id: string; cursor: string }>("SELECT fork_id, cursor FROM fork_jobs WHERE phase = 'import' ORDER BY fork_id");
    return rows.filter((r) => Number(r.cursor) < beatBeforeMs).map((r) => r.fork_id);
  },
};

/** Multi-row INSERTs of rows of one table: consecutive rows naming the same columns go in one statement. */
async function insertRows(tx: Tx, table: string, rows: readonly FileRow[]): Promise<void> {
  let i = 0;
  while (i < rows.length) {
    const columns = Object.keys(rows[i]!);
    const shape = columns.join(',');
    const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    const params: unknown[] = [];
    let n = 0;
    while (i < rows.length && n < per && Object.keys(rows[i]!).join(',') === shape) {
      const r = rows[i++]!;
      for (const c of columns) params.push(r[c]);
      n++;
    }
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    await tx.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: n }, () => tuple).join(', ')}`, params);
  }
}

