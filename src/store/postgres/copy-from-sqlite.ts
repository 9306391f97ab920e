// Moving a SQLite database to PostgreSQL (`payctl db copy`): every table, row for row.
//
// The source is opened read-only and read inside one read transaction (a consistent
// snapshot even if a server is writing it), table by table in primary-key order, a
// bounded page at a time. The target is migrated to the same schema version first, then
// filled in ONE transaction: a failure anywhere (a row PostgreSQL refuses, a count that
// differs) rolls the whole copy back, so the target is never half-written.
//
// Same values, not re-derived ones: integers are read as text (node-sqlite3 would give
// doubles, exact only below 2^53) and handed to PostgreSQL's bigint parser; text and
// JSON documents and instants go over as the strings SQLite holds: `json` keeps them byte
// for byte; `jsonb` documents and `timestamptz` instants are parsed, and the store reads
// them back as the same text (./types.ts).
// The target's own triggers are switched off for the copy (ALTER TABLE … DISABLE TRIGGER
// USER, inside the transaction): the rollups, the per-dimension rollup and the webhook
// deliveries an event makes are rows of the source already, and would be made twice.
// Tables are filled parents first (the foreign keys stay on and are checked row by row).
// Identity counters (events.seq, webhook_deliveries.id) are set past the copied rows, and
// past SQLite's AUTOINCREMENT high-water mark, so an id is never handed out twice.
import type sqlite3Types from 'sqlite3';
import type pgTypes from 'pg';
import { openPostgresStore } from './index.js';
import type { PgDatabase } from './db.js';

/** Tables that are the migrations' bookkeeping, not data: equal on both sides by the version check. */
const BOOKKEEPING = new Set(['schema_migrations']);
/** One-row tables every migrated database has (made by the migrations): overwritten by the source's row. */
/**
 * Columns only the SQLite schema has, left behind on purpose: the journal's `id` is SQLite's
 * rowid (a row goes in at the end of its b-tree); PostgreSQL keys the table by (group_id, seq).
 */
const SQLITE_ONLY_COLUMNS: Readonly<Record<string, readonly string[]>> = { request_journal: ['id'] };

export const SINGLETONS = new Set(['clock', 'config_version', 'vault_version']);
/** Change counters that PostgreSQL keeps as one row per server slot, read through a view of the SQLite table's name. */
const COUNTER_VIEWS: Record<string, string> = { config_version: 'config_version_slots', vault_version: 'vault_version_slots' };

export interface CopyProgress {
  (done: number, total: number, label: string): void;
}

export interface TableCount {
  table: string;
  source_rows: number;
  target_rows: number;
}

export interface SequenceSet {
  table: string;
  column: string;
  /** The next value the counter hands out. */
  next: number;
}

export interface CopyOutcome {
  tables: TableCount[];
  sequences: SequenceSet[];
}

/** What the copy found wrong before writing anything, or at the count check (then rolled back). */
export class CopyRefused extends Error {
  constructor(
    message: string,
    readonly reason: 'version' | 'target_not_empty' | 'schema' | 'count_mismatch',
    readonly table?: string,
  ) {
    super(message);
  }
}

/** A SQLite file opened read-only, inside one read transaction. */
export class SqliteSource {
  private constructor(private readonly raw: sqlite3Types.Database) {}

  static async open(file: string): Promise<SqliteSource> {
    const { default: sqlite3 } = await import('sqlite3');
    const raw = await new Promise<sqlite3Types.Database>((resolve, reject) => {
      const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(db)));
    });
    const source = new SqliteSource(raw);
    await source.exec('PRAGMA busy_timeout = 10000; BEGIN');
    // The snapshot starts with the first read.
    await source.all('SELECT 1 FROM sqlite_master LIMIT 1');
    return source;
  }

  private exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.raw.exec(sql, (err) => (err ? reject(err) : resolve())));
  }

  all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return new Promise((resolve, reject) => this.raw.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));
  }

  /** The newest schema version recorded (0 when the file has no payctl schema). */
  async schemaVersion(): Promise<number> {
    const hasTable = await this.all<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'");
    if (hasTable[0]!.n === 0) return 0;
    return (await this.all<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations'))[0]?.v ?? 0;
  }

  async tables(): Promise<string[]> {
    const rows = await this.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
    return rows.map((r) => r.name);
  }

  async columns(table: string): Promise<{ columns: string[]; key: string[] }> {
    const rows = await this.all<{ name: string; pk: number }>('SELECT name, pk FROM pragma_table_info(?)', [table]);
    const key = rows.filter((r) => r.pk > 0).sort((a, b) => a.pk - b.pk).map((r) => r.name);
    return { columns: rows.map((r) => r.name), key };
  }

  async count(table: string): Promise<number> {
    return (await this.all<{ n: number }>(`SELECT COUNT(*) AS n FROM "${table}"`))[0]!.n;
  }

  /** AUTOINCREMENT's high-water mark of `table` (ids handed out before, even of rows since deleted). */
  async autoincrement(table: string): Promise<number> {
    const has = await this.all<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'");
    if (has[0]!.n === 0) return 0;
    return (await this.all<{ seq: number }>('SELECT seq FROM sqlite_sequence WHERE name = ?', [table]))[0]?.seq ?? 0;
  }

  /**
   * The rows of `table`, `pageRows` at a time, in key order (keyset paging: each page a
   * short indexed read). `integers` are read as text, exactly.
   */
  async *pages(table: string, columns: string[], integers: Set<string>, key: string[], pageRows: number): AsyncGenerator<unknown[][]> {
    const select = columns.map((c) => (integers.has(c) ? `CAST("${c}" AS TEXT) AS "${c}"` : `"${c}"`)).join(', ');
    const order = key.length > 0 ? key.map((c) => `"${c}"`) : ['rowid'];
    const keyList = order.join(', ');
    const keySelect = order.map((c, i) => `${c} AS __k${i}`).join(', ');
    const base = `SELECT ${select}, ${keySelect} FROM "${table}"`;
    let last: unknown[] | undefined;
    for (;;) {
      const where = last ? ` WHERE (${keyList}) > (${order.map(() => '?').join(', ')})` : '';
      const rows = await this.all<Record<string, unknown>>(`${base}${where} ORDER BY ${keyList} LIMIT ?`, [...(last ?? []), pageRows]);
      if (rows.length === 0) return;
      yield rows.map((r) => columns.map((c) => r[c]));
      const tail = rows[rows.length - 1]!;
      last = order.map((_, i) => tail[`__k${i}`]);
      if (rows.length < pageRows) return;
    }
  }

  async close(): Promise<void> {
    await this.exec('COMMIT').catch(() => undefined);
    await new Promise<void>((resolve) => this.raw.close(() => resolve()));
  }
}

export interface CopyOptions {
  /** The schema version this payctl's migrations reach: the source must be at it. */
  codeVersion: number;
  /** Empty the target's tables first (else a target holding data is refused). */
  replace?: boolean;
  /** Rows per page read and per INSERT (bounded by PostgreSQL's parameter limit). */
  batchRows?: number;
  progress?: CopyProgress;
}

interface PgColumn {
  table: string;
  column: string;
  type: string;
  identity: boolean;
}

/** Copy every table of `source` into the PostgreSQL database at `url` (made and migrated if needed). */
export async function copySqliteToPostgres(source: SqliteSource, url: string, opts: CopyOptions): Promise<CopyOutcome> {
  const version = await source.schemaVersion();
  if (version !== opts.codeVersion) {
    throw new CopyRefused(
      version < opts.codeVersion
        ? `the source is at schema version ${version}, this payctl at ${opts.codeVersion}: open it once with this payctl (any command, e.g. \`payctl clock show --db FILE\`) to migrate it, then copy`
        : `the source is at schema version ${version}, newer than this payctl (${opts.codeVersion}): copy with the payctl that wrote it`,
      'version',
    );
  }
  const store = (await openPostgresStore(url)) as PgDatabase;
  try {
    if (store.schemaVersion !== opts.codeVersion) {
      throw new CopyRefused(`the target is at schema version ${store.schemaVersion}, this payctl at ${opts.codeVersion}`, 'version');
    }
    const client = await store.pool.connect();
    try {
      return await copyInto(client, source, opts);
    } finally {
      client.release();
    }
  } finally {
    await store.close();
  }
}

async function copyInto(client: pgTypes.PoolClient, source: SqliteSource, opts: CopyOptions): Promise<CopyOutcome> {
  const catalog = (
    await client.query<{ table_name: string; column_name: string; data_type: string; is_identity: string }>(
      `SELECT c.table_name, c.column_name, c.data_type, c.is_identity
       FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
       WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`,
    )
  ).rows.map((r): PgColumn => ({ table: r.table_name, column: r.column_name, type: r.data_type, identity: r.is_identity === 'YES' }));
  const sourceTables = new Set((await source.tables()).filter((t) => !BOOKKEEPING.has(t)));
  // Tables only PostgreSQL has hold what several servers share at run time (rate-limit
  // hits, admin token leases): nothing SQLite keeps, so nothing to copy; left as they are.
  const targetTables = [...new Set(catalog.map((c) => c.table))].filter((t) => !BOOKKEEPING.has(t) && sourceTables.has(t));
  // A change counter is a view over per-server rows here (its sum): the source's value goes to one row.
  const counters = [...sourceTables].filter((t) => COUNTER_VIEWS[t] !== undefined && !targetTables.includes(t));
  const extra = [...sourceTables].filter((t) => !targetTables.includes(t) && !counters.includes(t));
  if (extra.length > 0) {
    throw new CopyRefused(`the two schemas differ at the same version (${extra.map((t) => `${t} only in the source`).join(', ')})`, 'schema');
  }
  const order = await parentsFirst(client, targetTables);
  const pageRows = Math.max(1, opts.batchRows ?? 5000);

  await client.query('BEGIN');
  try {
    // Nobody else writes the target while it is filled (the copy's locks are taken up front).
    await client.query(`LOCK TABLE ${order.map((t) => client.escapeIdentifier(t)).join(', ')} IN ACCESS EXCLUSIVE MODE`);
    if (opts.replace) {
      await client.query(`TRUNCATE ${order.map((t) => client.escapeIdentifier(t)).join(', ')} RESTART IDENTITY`);
    } else {
      for (const t of order) {
        if (SINGLETONS.has(t)) continue;
        const r = await client.query(`SELECT 1 FROM ${client.escapeIdentifier(t)} LIMIT 1`);
        if (r.rows.length > 0) {
          throw new CopyRefused(`the target already holds data (table ${t} has rows): copy into an empty database, or pass --replace to empty it first`, 'target_not_empty', t);
        }
      }
      for (const t of SINGLETONS) if (order.includes(t)) await client.query(`DELETE FROM ${client.escapeIdentifier(t)}`);
    }

    const counts = new Map<string, number>();
    for (const t of [...order, ...counters]) counts.set(t, await source.count(t));
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    let done = 0;
    opts.progress?.(0, total, 'copying');

    for (const table of order) {
      const { columns: sourceColumns, key } = await source.columns(table);
      // A column only PostgreSQL has (the rollups' slot) takes its default.
      const cols = catalog.filter((c) => c.table === table && sourceColumns.includes(c.column));
      const columnNames = cols.map((c) => c.column);
      const surplus = sourceColumns.filter((c) => !columnNames.includes(c) && !SQLITE_ONLY_COLUMNS[table]?.includes(c));
      if (surplus.length > 0) {
        throw new CopyRefused(`table ${table}: the columns differ (${surplus.map((c) => `${c} only in the source`).join(', ')})`, 'schema', table);
      }
      const integers = new Set(cols.filter((c) => c.type === 'bigint' || c.type === 'integer' || c.type === 'smallint').map((c) => c.column));
      const tableSql = client.escapeIdentifier(table);
      await client.query(`ALTER TABLE ${tableSql} DISABLE TRIGGER USER`);
      // One statement per page: each column's values as one array parameter, unnested
      // (PostgreSQL parses a few arrays faster than thousands of parameters).
      // JSON documents go as text and are parsed per value; instants are parsed from their ISO text by the array's type.
      const isJson = (c: PgColumn) => c.type === 'json' || c.type === 'jsonb';
      const arrays = cols.map((c, i) => `$${i + 1}::${isJson(c) ? 'text' : c.type}[]`);
      const picks = cols.map((c, i) => (isJson(c) ? `u.c${i}::${c.type}` : `u.c${i}`));
      const insert = `INSERT INTO ${tableSql} (${columnNames.map((c) => client.escapeIdentifier(c)).join(', ')}) OVERRIDING SYSTEM VALUE
        SELECT ${picks.join(', ')} FROM unnest(${arrays.join(', ')}) AS u(${cols.map((_, i) => `c${i}`).join(', ')})`;
      for await (const page of source.pages(table, columnNames, integers, key, pageRows)) {
        const params = cols.map((_, i) => page.map((row) => row[i]));
        try {
          await client.query(insert, params);
        } catch (err) {
          throw new Error(`table ${table}: PostgreSQL refused a row (${(err as Error).message})`);
        }
        done += page.length;
        opts.progress?.(done, total, 'copying');
      }
      await client.query(`ALTER TABLE ${tableSql} ENABLE TRIGGER USER`);
    }

    for (const t of counters) {
      const slots = client.escapeIdentifier(COUNTER_VIEWS[t]!);
      const rows = await source.all<{ n: string }>(`SELECT CAST(n AS TEXT) AS n FROM "${t}"`);
      await client.query(`DELETE FROM ${slots}`);
      for (const r of rows) await client.query(`INSERT INTO ${slots} (slot, n) VALUES (0, $1::bigint)`, [r.n]);
      done += rows.length;
    }

    const sequences: SequenceSet[] = [];
    for (const c of catalog.filter((x) => x.identity && order.includes(x.table))) {
      const table = client.escapeIdentifier(c.table);
      const column = client.escapeIdentifier(c.column);
      const max = Number((await client.query<{ m: number | null }>(`SELECT MAX(${column}) AS m FROM ${table}`)).rows[0]?.m ?? 0);
      const high = Math.max(max, await source.autoincrement(c.table));
      // setval(…, n, true): the next value is n + 1; with no row at all, the counter starts at 1.
      await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), $3, $4)`, [c.table, c.column, Math.max(high, 1), high > 0]);
      sequences.push({ table: c.table, column: c.column, next: high + 1 });
    }

    // The check, before the COMMIT: a table whose count differs leaves nothing behind.
    const tables: TableCount[] = [];
    for (const t of [...order, ...counters]) {
      const target = Number((await client.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${client.escapeIdentifier(t)}`)).rows[0]!.n);
      tables.push({ table: t, source_rows: counts.get(t)!, target_rows: target });
    }
    const wrong = tables.find((t) => t.source_rows !== t.target_rows);
    if (wrong) {
      throw new CopyRefused(
        `row counts differ in table ${wrong.table}: ${wrong.source_rows} in the source, ${wrong.target_rows} in the target; nothing was copied`,
        'count_mismatch',
        wrong.table,
      );
    }
    await client.query('COMMIT');
    // Statistics for what was loaded: autovacuum analyzes a table only after 50 changed
    // rows, so a small table (groups) would stay unanalyzed and the planner, guessing its
    // size, take the claims' group-scope join for a few rows and sort a whole table
    // instead of walking an index. Vacuumed too (about a second per million rows): until
    // the visibility map is set, an index-only scan reads every row it counts, and the
    // planner, pricing that in, took a bitmap heap scan of the reporting rollup and a
    // parallel plan for amount_sum over a fresh copy, until autovacuum came round.
    await client.query(`VACUUM (ANALYZE) ${order.map((t) => client.escapeIdentifier(t)).join(', ')}`);
    return { tables: tables.sort((a, b) => a.table.localeCompare(b.table)), sequences };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * `tables` ordered so that every table comes after the tables its foreign keys name: the
 * same order on every run and version (the catalog's rows in name order), so the copy's
 * LOCK TABLE and VACUUM texts are the ones test/sql/postgres.sql.jsonl records.
 */
async function parentsFirst(client: pgTypes.PoolClient, tables: string[]): Promise<string[]> {
  const edges = (
    await client.query<{ child: string; parent: string }>(
      `SELECT c.relname AS child, p.relname AS parent
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE k.contype = 'f' AND n.nspname = current_schema() ORDER BY 1, 2`,
    )
  ).rows;
  const order: string[] = [];
  const placed = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (placed.has(t) || path.has(t)) return;
    path.add(t);
    for (const e of edges) if (e.child === t && e.parent !== t) visit(e.parent, path);
    path.delete(t);
    placed.add(t);
    order.push(t);
  };
  for (const t of [...tables].sort()) visit(t, new Set());
  return order.filter((t) => tables.includes(t));
}
