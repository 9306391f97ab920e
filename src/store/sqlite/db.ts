// The embedded SQLite database (node-sqlite3). Two connections: a reader for queries
// (WAL lets it read while the writer writes) and a writer that owns every write
// transaction. Writes go through one queue and the writes that arrive together share
// one transaction (group commit): durability (synchronous=FULL) costs one fsync per
// batch, not per request, and two async transactions can never interleave on one
// connection.
//
// The writer is the ceiling of concurrent writes, so a batch costs it as few statements
// (each a hop to the thread pool and back) as its writes allow:
// - the writer's statements run in submission order, each started from the previous
//   one's completion callback, so no JS continuation sits between them (WriterPipe);
// - inserts a write hands to `tx.deferInsert` are held and sent together as one
//   multi-row INSERT per table, before the commit or before any later statement that
//   could see them; compare-and-sets (`tx.deferChange`) and checks (`tx.deferCheck`)
//   of one SQL text likewise go as one statement for the batch;
// - a batch whose writes ran no statement of their own is queued whole (BEGIN, its
//   statements, COMMIT) without a savepoint;
// - a write gets a SAVEPOINT (so that failing rolls back only itself) only when it
//   runs a statement that changes the database; its deferred inserts need none, they
//   are simply dropped when it fails;
// - per-batch work (`tx.accumulate`, e.g. the reporting rollup) runs once before COMMIT
//   over what the batch's successful writes contributed.
import type sqlite3Types from 'sqlite3';
import { performance } from 'node:perf_hooks';
import type { BatchReducer, Executor, Params, RunResult, SqlReader, Store, Tx, WriteOptions, WriterStats } from '../interfaces/db.js';
import type { Repositories } from '../interfaces/store.js';
import { sqliteRepositories } from './repositories.js';
import { sqliteDialect } from './dialect.js';
import { asStoreUnavailable, classifyStoreError } from '../errors.js';
import { sharedRead, type SharedRead } from '../shared-read.js';

interface QueuedWrite {
  fn: (tx: Tx) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  alone?: boolean;
}

const MIN_SQLITE = [3, 51, 3];
const MAX_BATCH = 256;
const MAX_CACHED = 500;

type Done<T> = (err: Error | null, value?: T) => void;

class Connection implements SqlReader {
  // The pending prepare is cached, so two first uses of one SQL text share one statement.
  private statements = new Map<string, Promise<sqlite3Types.Statement>>();
  // Prepared statements, for a synchronous start from a completion callback.
  protected ready = new Map<string, sqlite3Types.Statement>();
  constructor(readonly raw: sqlite3Types.Database) {}

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.raw.exec(sql, (err) => (err ? reject(err) : resolve())));
  }

  protected statement(sql: string): Promise<sqlite3Types.Statement> {
    let pending = this.statements.get(sql);
    if (!pending) {
      pending = new Promise<sqlite3Types.Statement>((resolve, reject) => {
        const stmt = this.raw.prepare(sql, (err) => {
          if (err) return reject(err);
          this.ready.set(sql, stmt);
          resolve(stmt);
        });
      });
      this.statements.set(sql, pending);
      // A statement that fails to prepare is not kept (the next call reports the error again).
      pending.catch(() => this.statements.delete(sql));
    }
    return pending;
  }

  /** Cache up to MAX_CACHED statements; SQL texts past that (e.g. filter lists of varying length) run uncached. */
  protected cacheable(sql: string): boolean {
    return this.statements.has(sql) || this.statements.size < MAX_CACHED;
  }

  /** Start one statement now; `done` is called from node-sqlite3's completion callback. */
  protected start(kind: 'run' | 'all' | 'exec', sql: string, params: Params, done: Done<unknown>): void {
    if (kind === 'exec') {
      this.raw.exec(sql, (err) => done(err));
      return;
    }
    const onRun = function (this: sqlite3Types.RunResult, err: Error | null) {
      done(err, err ? undefined : { changes: this.changes });
    };
    const onAll = (err: Error | null, rows: unknown[]) => done(err, rows);
    const stmt = this.ready.get(sql);
    if (stmt) {
      // `all` steps the statement to the end and resets it, so no read snapshot stays open.
      if (kind === 'run') stmt.run(params as unknown[], onRun);
      else stmt.all(params as unknown[], onAll);
    } else if (!this.cacheable(sql)) {
      if (kind === 'run') this.raw.run(sql, params, onRun);
      else this.raw.all(sql, params, onAll);
    } else {
      this.statement(sql).then(
        () => this.start(kind, sql, params, done),
        (err: Error) => done(err),
      );
    }
  }

  protected submit<T>(kind: 'run' | 'all' | 'exec', sql: string, params: Params): Promise<T> {
    return new Promise<T>((resolve, reject) => this.start(kind, sql, params, (err, v) => (err ? reject(err) : resolve(v as T))));
  }

  run(sql: string, params: Params = []): Promise<RunResult> {
    return this.submit<RunResult>('run', sql, params);
  }
  all<T>(sql: string, params: Params = []): Promise<T[]> {
    return this.submit<T[]>('all', sql, params);
  }
  async get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async close(): Promise<void> {
    for (const pending of this.statements.values()) {
      const stmt = await pending.catch(() => undefined);
      if (stmt) await new Promise<void>((r) => stmt.finalize(() => r()));
    }
    this.statements.clear();
    this.ready.clear();
    await new Promise<void>((resolve, reject) => this.raw.close((err) => (err ? reject(err) : resolve())));
  }
}

interface PipeOp {
  kind: 'run' | 'all' | 'exec';
  sql: string;
  params: Params;
  done: Done<unknown>;
}

/**
 * The writer connection: statements run one at a time in the order they were submitted
 * (node-sqlite3 would run cached statements side by side, in no fixed order), the next
 * started from the previous one's completion callback. A statement that fails fails
 * every statement queued behind it unrun: a batch's later statements assume the
 * earlier ones (BEGIN, a flush of deferred rows, a savepoint) succeeded.
 */
class WriterPipe extends Connection {
  private ops: PipeOp[] = [];
  private busy = false;
  statementsRun = 0;
  readonly byKind: Record<string, { n: number; ms: number }> = {};

  protected override submit<T>(kind: 'run' | 'all' | 'exec', sql: string, params: Params): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.ops.push({ kind, sql, params, done: (err, v) => (err ? reject(err) : resolve(v as T)) });
      if (!this.busy) this.next();
    });
  }

  override exec(sql: string): Promise<void> {
    return this.submit<void>('exec', sql, []);
  }

  private next(): void {
    const op = this.ops.shift();
    if (!op) {
      this.busy = false;
      return;
    }
    this.busy = true;
    this.statementsRun++;
    const started = performance.now();
    this.start(op.kind, op.sql, op.params, (err, value) => {
      const kind = (/^\s*(\w+)/.exec(op.sql)?.[1] ?? '?').toUpperCase();
      const k = (this.byKind[kind] ??= { n: 0, ms: 0 });
      k.n++;
      k.ms += performance.now() - started;
      if (err) {
        for (const queued of this.ops.splice(0)) queued.done(err);
      }
      // The next statement starts before this one's caller continues.
      this.next();
      op.done(err, value);
    });
  }
}

function openRaw(sqlite3: typeof sqlite3Types, path: string): Promise<sqlite3Types.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE, (err) =>
      err ? reject(err) : resolve(db),
    );
  });
}

const isRead = (sql: string) => /^\s*(SELECT|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql);

/**
 * Work a write hands to the batch instead of running it at once:
 * - `row`: one row to insert (consecutive rows of one table travel as one statement);
 * - `change`: a statement that must change exactly `changes` rows, else the write fails
 *   with `error()` (a compare-and-set);
 * - `check`: a SELECT that must find a row, else the write fails with `error()` (what
 *   the write read outside its transaction must still be there).
 */
type Deferred = { owner: WriteState; table: string; id?: unknown } & (
  | { kind: 'row'; columns: readonly string[]; values: unknown[] }
  | { kind: 'change'; sql: string; params: unknown[]; changes: number; error: () => unknown }
  | { kind: 'check'; sql: string; params: unknown[]; error: () => unknown }
);

interface Contribution {
  owner: WriteState;
  reducer: BatchReducer<unknown>;
  item: unknown;
}

interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * Checks that fail a statement (and so the exec or pipeline it is in): a row is
 * inserted into this temp table only when a check fails, and no row may be.
 */
const CHECK_TABLE = 'CREATE TEMP TABLE IF NOT EXISTS payctl_check (failed INTEGER NOT NULL CHECK (failed = 0))';
const CHECK_CHANGES = 'INSERT INTO temp.payctl_check (failed) SELECT 1 WHERE changes() <> ?';
const checkExists = (sql: string) => `INSERT INTO temp.payctl_check (failed) SELECT 1 WHERE NOT EXISTS (${sql})`;

/** One queued write inside a batch. */
class WriteState {
  savepoint = false;
  /** Set when the write failed (possibly after its function returned: a deferred row). */
  failed: { error: unknown } | undefined;
  value: unknown;
  hooks: Array<() => void | Promise<void>> = [];
  constructor(readonly index: number) {}
  get name(): string {
    return `w${this.index}`;
  }
}

/** The state of the batch the writer is running. */
class Batch {
  deferred: Deferred[] = [];
  contributions: Contribution[] = [];
  /** BEGIN ran: it is issued by the batch's first statement, or never (see Database.runBatch). */
  begun = false;
  constructor(
    private readonly writer: WriterPipe,
    private readonly begin: () => Promise<void>,
  ) {}

  /** Whether a read of `sql` could see deferred work (it names a table that deferred work changes). */
  private readSees(sql: string): boolean {
    const tables = new Set(this.deferred.map((d) => d.table));
    for (const table of tables) if (table && new RegExp(`\\b${table}\\b`, 'i').test(sql)) return true;
    return false;
  }

  /** Whether deferred work changes the row of `table` with this id. */
  private pendingId(table: string, id: string): boolean {
    return this.deferred.some((d) => d.table === table && d.id === id);
  }

  private beginning: Promise<void> | undefined;

  /** BEGIN once (statements started together share it). */
  ensureBegun(): Promise<void> {
    this.beginning ??= this.begin().then(() => {
      this.begun = true;
    });
    return this.beginning;
  }

  /**
   * Run `sql` for write `w`: deferred work first when the statement could see it (or, for
   * a lookup by id, when it changes that row) or when it changes anything; a savepoint
   * before the write's first change.
   */
  async statement<T>(w: WriteState, kind: 'run' | 'all', sql: string, params: Params, byId?: { table: string; id: string }): Promise<T> {
    await this.ensureBegun();
    const read = kind === 'all' && isRead(sql);
    const sees = read && (byId ? this.pendingId(byId.table, byId.id) : this.readSees(sql));
    if (this.pending && (!read || sees)) await this.flush(w);
    if (!read && !w.savepoint) this.savepoint(w);
    return kind === 'run' ? ((await this.writer.run(sql, params)) as T) : ((await this.writer.all(sql, params)) as T);
  }

  private savepoint(w: WriteState): void {
    w.savepoint = true;
    // Not awaited: a failure reaches the statement queued behind it.
    this.writer.exec(`SAVEPOINT ${w.name}`).catch(() => undefined);
  }

  /** Whether anything waits to be sent. */
  get pending(): boolean {
    return this.deferred.length > 0 || this.contributions.length > 0;
  }

  /** Drop what a failed write left waiting. */
  drop(w: WriteState): void {
    this.deferred = this.deferred.filter((d) => d.owner !== w);
    this.contributions = this.contributions.filter((c) => c.owner !== w);
  }

  /** Everything waiting, as statements in order (deferred work, then per-batch work). */
  statements(): Statement[] {
    return [...toStatements(this.deferred), ...reducedStatements(this.contributions)];
  }

  /** Take everything waiting (empties both lists). */
  take(): { items: Deferred[]; work: Contribution[] } {
    const out = { items: this.deferred, work: this.contributions };
    this.deferred = [];
    this.contributions = [];
    return out;
  }

  /**
   * Send all deferred work and the per-batch work over it. `current` is the write running
   * now: its own go last, under its savepoint (it may still fail after they are in).
   * After the batch's writes ran, `current` is undefined. Work that fails fails its
   * write, which is rolled back.
   */
  async flush(current?: WriteState): Promise<void> {
    const { items, work } = this.take();
    const mine = <T extends { owner: WriteState }>(x: T) => x.owner === current;
    const own = current ? items.filter(mine) : [];
    const ownWork = current ? work.filter(mine) : [];
    await this.send(current ? items.filter((r) => !mine(r)) : items);
    await this.reduce(current ? work.filter((c) => !mine(c)) : work);
    if (own.length || ownWork.length) {
      if (!current!.savepoint) this.savepoint(current!);
      await this.send(own, current);
      await this.reduce(ownWork);
    }
  }

  private async reduce(work: Contribution[]): Promise<void> {
    for (const st of reducedStatements(work)) await this.writer.run(st.sql, st.params);
  }

  /**
   * Send deferred work: all at once; when something fails (all of it is undone), again
   * write by write, to find whose work fails. The writes of this work made no change after it (any change would have
   * sent it first), so rolling such a write back to its savepoint undoes only itself.
   */
  private async send(items: Deferred[], current?: WriteState): Promise<void> {
    if (items.length === 0) return;
    const statements = toStatements(items);
    // One statement fails whole; several are undone together when one fails.
    const wrap = statements.length > 1;
    try {
      const sent = [
        ...(wrap ? [this.writer.exec('SAVEPOINT s')] : []),
        ...statements.map((st) => this.writer.run(st.sql, st.params)),
        ...(wrap ? [this.writer.exec('RELEASE s')] : []),
      ];
      await Promise.all(sent);
      return;
    } catch {
      if (wrap) await this.writer.exec('ROLLBACK TO s; RELEASE s').catch(() => undefined);
    }
    for (const owner of new Set(items.map((r) => r.owner))) {
      if (owner.failed) continue;
      const mark = owner.savepoint ? owner.name : 'f';
      if (!owner.savepoint) await this.writer.exec('SAVEPOINT f');
      try {
        await this.sendOne(items.filter((r) => r.owner === owner));
        if (!owner.savepoint) await this.writer.exec('RELEASE f');
      } catch (error) {
        await this.writer.exec(`ROLLBACK TO ${mark}`);
        if (!owner.savepoint) await this.writer.exec('RELEASE f');
        owner.failed = { error };
        if (owner === current) throw error;
      }
    }
  }

  /** One write's deferred work, statement by statement, failing with the write's own error. */
  private async sendOne(items: Deferred[]): Promise<void> {
    let i = 0;
    while (i < items.length) {
      const d = items[i]!;
      if (d.kind === 'row') {
        const rows: Deferred[] = [];
        while (i < items.length && items[i]!.kind === 'row') rows.push(items[i++]!);
        for (const st of toStatements(rows, false)) await this.writer.run(st.sql, st.params);
        continue;
      }
      i++;
      if (d.kind === 'change') {
        const { changes } = await this.writer.run(d.sql, d.params);
        if (changes !== d.changes) throw d.error();
      } else {
        const found = await this.writer.all(`SELECT EXISTS (${d.sql}) AS found`, d.params);
        if (!(found[0] as { found: number } | undefined)?.found) throw d.error();
      }
    }
  }
}

/**
 * Deferred work → statements. Consecutive rows of one table and column list become one
 * INSERT: the columns whose value is the same in every row are bound once, the others
 * travel as one JSON parameter that SQLite unpacks (json_each, then `->>` per column) on
 * the writer's thread — binding every value (56 per transaction row) would convert each
 * on the main thread, the busiest part of a sale, and most of a batch's values repeat.
 * A change is followed by the check of its row count, a check by its test. `reorder`:
 * rows may be moved (see rowsLast); never when resending one write's work alone.
 */
function toStatements(input: Deferred[], reorder = true): Statement[] {
  const items = reorder ? rowsLast(input) : input;
  const out: Statement[] = [];
  let i = 0;
  while (i < items.length) {
    const d = items[i]!;
    if (d.kind === 'row') {
      const rows: unknown[][] = [];
      while (i < items.length) {
        const r = items[i]!;
        if (r.kind !== 'row' || r.table !== d.table || !sameColumns(r.columns, d.columns)) break;
        rows.push(r.values);
        i++;
      }
      out.push(insertRows(d.table, d.columns, rows));
      continue;
    }
    if (d.kind === 'check') {
      // Consecutive checks of one SQL text: one statement over their parameters as JSON.
      const sets: unknown[][] = [];
      while (i < items.length) {
        const c = items[i]!;
        if (c.kind !== 'check' || c.sql !== d.sql) break;
        sets.push(c.params);
        i++;
      }
      const many = sets.length > 1 && sets.every((ps) => ps.every(jsonSafe)) ? checkEach(d.sql) : undefined;
      if (many) out.push({ sql: many, params: [JSON.stringify(sets)] });
      else for (const params of sets) out.push({ sql: checkExists(d.sql), params });
      continue;
    }
    // Consecutive compare-and-sets of one SQL text: one UPDATE over their parameters as
    // JSON, then one check that together they changed what each must. (Two of them on one
    // row change it once: the check fails, and the work is resent write by write.)
    const changes: Array<Extract<Deferred, { kind: 'change' }>> = [];
    while (i < items.length) {
      const c = items[i]!;
      if (c.kind !== 'change' || c.sql !== d.sql) break;
      changes.push(c);
      i++;
    }
    const many = changes.length > 1 && changes.every((c) => c.params.every(jsonSafe)) ? changeEach(d.sql) : undefined;
    if (many) {
      out.push(
        { sql: many, params: [JSON.stringify(changes.map((c) => c.params))] },
        { sql: CHECK_CHANGES, params: [changes.reduce((n, c) => n + c.changes, 0)] },
      );
    } else for (const c of changes) out.push({ sql: c.sql, params: c.params }, { sql: CHECK_CHANGES, params: [c.changes] });
  }
  return out;
}

const sameColumns = (a: readonly string[], b: readonly string[]): boolean => a === b || (a.length === b.length && a.every((c, i) => c === b[i]));

/** A parameter that survives JSON and `->>` unchanged. */
const jsonSafe = (v: unknown): boolean => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Each unquoted `?` of `sql` replaced by `value(n)` (n counting from 0), or undefined when a quote is left open. */
function eachParam(sql: string, value: (n: number) => string): string | undefined {
  let out = '';
  let n = 0;
  let quoted = false;
  for (const ch of sql) {
    if (ch === "'") quoted = !quoted;
    if (ch === '?' && !quoted) out += value(n++);
    else out += ch;
  }
  return quoted ? undefined : out;
}

/**
 * One UPDATE for many parameter sets (a JSON array of arrays) of a plain
 * `UPDATE t SET … WHERE …` (no subquery, FROM or RETURNING): joined with the sets, each
 * `?` becomes its set's value. The sets come through a materialized CTE whose only column
 * has a name no table uses, so the statement's own column names keep meaning the same, and
 * the join runs from the sets to the table: a row found by its key per set (as a subquery
 * in FROM, the planner walked an index of the table's other condition, e.g. every
 * authorized transaction, and scanned the sets for each). Exported for its tests.
 */
export function changeEach(sql: string): string | undefined {
  const m = /^\s*UPDATE\s+(\w+)\s+SET\s+([\s\S]+?)\s+WHERE\s+([\s\S]+)$/i.exec(sql);
  if (!m || /\b(SELECT|FROM|WHERE|RETURNING|WITH)\b/i.test(`${m[2]} ${m[3]}`)) return undefined;
  let n = 0;
  const param = () => `(payctl_j.payctl_p ->> ${n++})`;
  const set = eachParam(m[2]!, param);
  const where = eachParam(m[3]!, param);
  return (
    set &&
    where &&
    `WITH payctl_j AS MATERIALIZED (SELECT value AS payctl_p FROM json_each(?)) UPDATE ${m[1]} SET ${set} FROM payctl_j WHERE ${where}`
  );
}

/** One check statement for many parameter sets (a JSON array of arrays): each `?` becomes its value. */
function checkEach(sql: string): string | undefined {
  const test = eachParam(sql, (n) => `(j.value ->> ${n})`);
  return test && `INSERT INTO temp.payctl_check (failed) SELECT 1 FROM json_each(?) AS j WHERE NOT EXISTS (${test})`;
}

/**
 * The same work with its rows after its compare-and-sets and checks, so that the rows of a
 * batch travel as one statement (a stored-card sale defers a check then a row; a batch of
 * them would alternate) — when that changes nothing: no check reads a table the rows go
 * into, no compare-and-set changes one of the rows or reads another such table.
 */
function rowsLast(items: Deferred[]): Deferred[] {
  const rows = items.filter((d) => d.kind === 'row');
  if (rows.length < 2) return items;
  if (rows.length === items.length) return byTable(rows);
  const tables = [...new Set(rows.map((r) => r.table))];
  const ids = new Set(rows.map((r) => r.id).filter((id) => id !== undefined));
  const names = (sql: string, except?: string) => tables.some((t) => t !== except && new RegExp(`\\b${t}\\b`, 'i').test(sql));
  const movable = items.every((d) => {
    if (d.kind === 'row') return true;
    if (d.kind === 'check') return !names(d.sql);
    return d.id !== undefined && !ids.has(d.id) && !names(d.sql, d.table);
  });
  return movable ? [...items.filter((d) => d.kind !== 'row'), ...byTable(rows)] : items;
}

/**
 * Rows grouped by table, tables in the order of their first row, rows of a table in their
 * order: a sale defers its transaction then its event, and a batch of sales would
 * otherwise alternate (one INSERT per row). Inserts of different tables do not see each
 * other, except through a foreign key between two deferred tables; then the grouped
 * statement fails and the work is resent write by write, in each write's own order.
 */
function byTable(rows: Deferred[]): Deferred[] {
  const groups = new Map<string, Deferred[]>();
  for (const r of rows) {
    let g = groups.get(r.table);
    if (!g) groups.set(r.table, (g = []));
    g.push(r);
  }
  return groups.size === 1 ? rows : [...groups.values()].flat();
}

function insertRows(table: string, columns: readonly string[], rows: unknown[][]): Statement {
  const first = rows[0]!;
  const same = columns.map((_, c) => rows.every((r) => r[c] === first[c]));
  const varying = columns.flatMap((_, c) => (same[c] ? [] : [c]));
  const json = JSON.stringify(rows.map((r) => varying.map((c) => r[c])));
  return { sql: insertSql(table, columns, same), params: [json, ...columns.flatMap((_, c) => (same[c] ? [first[c]] : []))] };
}

const insertSqlCache = new Map<string, string>();
function insertSql(table: string, columns: readonly string[], same: boolean[]): string {
  const key = `${table}\u0000${columns.join(',')}\u0000${same.map((x) => (x ? 1 : 0)).join('')}`;
  let sql = insertSqlCache.get(key);
  if (!sql) {
    let k = 0;
    const select = columns.map((_, c) => (same[c] ? '?' : `v ->> ${k++}`));
    // MATERIALIZED: each row is parsed into JSONB once, not once per column.
    sql = `WITH r AS MATERIALIZED (SELECT jsonb(value) AS v FROM json_each(?))
INSERT INTO ${table} (${columns.join(', ')}) SELECT ${select.join(', ')} FROM r`;
    // Shapes vary little (which columns repeat); a cap keeps an odd workload from growing it.
    if (insertSqlCache.size > 1000) insertSqlCache.clear();
    insertSqlCache.set(key, sql);
  }
  return sql;
}

/** Per-batch work over the contributions of the writes that have not failed, in reducer order of first use. */
function reducedStatements(work: Contribution[]): Statement[] {
  const byReducer = new Map<BatchReducer<unknown>, unknown[]>();
  for (const { owner, reducer, item } of work) {
    if (owner.failed) continue;
    let list = byReducer.get(reducer);
    if (!list) byReducer.set(reducer, (list = []));
    list.push(item);
  }
  return [...byReducer].flatMap(([reducer, list]) => reducer.statements(list, sqliteDialect).map((st) => ({ sql: st.sql, params: [st.json] })));
}

export class Database implements Store {
  private queue: QueuedWrite[] = [];
  private draining: Promise<void> | null = null;
  private closed = false;
  private readonly afterCommitWork = new Set<Promise<void>>();
  private counters = { busy_ms: 0, batches: 0, writes: 0 };

  readonly dialect = sqliteDialect;
  /** Set by the opener once migrations ran (src/store/sqlite/index.ts). */
  schemaVersion = 0;

  private constructor(
    readonly path: string,
    private readonly writer: WriterPipe,
    private readonly reader: Connection,
    readonly repos: Repositories,
  ) {}

  get location(): string {
    return this.path;
  }

  /** Open (no migrations: see openSqliteStore). */
  static async open(path: string, repos: Repositories = sqliteRepositories): Promise<Database> {
    const { default: sqlite3 } = await import('sqlite3');
    const writerRaw = await openRaw(sqlite3, path);
    const writer = new WriterPipe(writerRaw);
    const version = (await writer.get<{ v: string }>('SELECT sqlite_version() AS v'))!.v;
    assertSqliteVersion(version);
    await writer.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;',
    );
    await writer.exec(CHECK_TABLE);
    const reader = new Connection(await openRaw(sqlite3, path));
    await reader.exec('PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000; PRAGMA query_only = ON;');
    return new Database(path, writer, reader, repos);
  }

  get<T>(sql: string, params?: Params): Promise<T | undefined> {
    return this.reader.get<T>(sql, params);
  }
  all<T>(sql: string, params?: Params): Promise<T[]> {
    return this.reader.all<T>(sql, params);
  }

  private readonly sharedReads = new Map<string, SharedRead>();

  /** `get(sql)` (no parameters) shared by the callers that ask at about the same time (../shared-read.ts). */
  getShared<T>(sql: string): Promise<T | undefined> {
    return sharedRead(this.sharedReads, sql, () => this.reader.get<T>(sql));
  }

  /** Run schema statements outside the queue (migrations, at open time only). */
  execSchema(sql: string): Promise<void> {
    return this.writer.exec(sql);
  }

  /** Resolves once the after-commit work started so far (and any it started in turn) has finished. */
  async afterCommitSettled(): Promise<void> {
    while (this.afterCommitWork.size > 0) await Promise.all(this.afterCommitWork);
  }

  /** The writer's counters so far. */
  stats(): WriterStats {
    return { ...this.counters, statements: this.writer.statementsRun, by_kind: structuredClone(this.writer.byKind) };
  }

  writeTimer: ((ms: number) => void) | undefined;

  queuedWrites(): number {
    return this.queue.length;
  }

  /**
   * Run `fn` inside a write transaction. Resolves only after the commit, so an
   * acknowledged write is durable. `fn` must use only `tx` (never `db.write` again).
   */
  write<T>(fn: (tx: Tx) => Promise<T>, opts: WriteOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('database is closed'));
    const timer = this.writeTimer;
    const queued = timer ? performance.now() : 0;
    return new Promise<T>((resolve, reject) => {
      // A full or read-only disk, a lock held past busy_timeout: one StoreUnavailable for every store.
      const fail = (err: unknown) => {
        timer?.(performance.now() - queued);
        reject(classifyStoreError(err));
      };
      const done = timer ? (v: unknown) => (timer(performance.now() - queued), resolve(v as T)) : (resolve as (v: unknown) => void);
      this.queue.push({ fn, resolve: done, reject: fail, ...(opts.alone || opts.apart ? { alone: true } : {}) });
      this.kick();
    });
  }

  /** The next batch: up to MAX_BATCH writes in arrival order, stopping before a write queued `alone` (which is then a batch by itself). */
  private nextBatch(): QueuedWrite[] {
    const alone = this.queue.findIndex((w) => w.alone);
    if (alone === 0) return this.queue.splice(0, 1);
    return this.queue.splice(0, alone < 0 ? MAX_BATCH : Math.min(alone, MAX_BATCH));
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      // A write queued after the loop saw an empty queue but before this ran.
      if (this.queue.length > 0) this.kick();
    });
  }

  private begin(): Promise<void> {
    // busy_timeout waits 10 s for another process's lock; past that the batch fails as
    // StoreUnavailable (a 503 to ask again), never a request hanging on.
    return this.writer.exec('BEGIN IMMEDIATE');
  }

  private txFor(batch: Batch, w: WriteState): Tx {
    return {
      repos: this.repos,
      dialect: sqliteDialect,
      run: (s, p = []) => batch.statement<RunResult>(w, 'run', s, p),
      all: <T>(s: string, p: Params = []) => batch.statement<T[]>(w, 'all', s, p),
      get: async <T>(s: string, p: Params = []) => (await batch.statement<T[]>(w, 'all', s, p))[0],
      getById: async <T>(table: string, id: string, s: string, p: Params) => (await batch.statement<T[]>(w, 'all', s, p, { table, id }))[0],
      afterCommit: (fn) => w.hooks.push(fn),
      deferInsert: (table, columns, values) => {
        const at = columns.indexOf('id');
        batch.deferred.push({ owner: w, kind: 'row', table, id: at >= 0 ? values[at] : undefined, columns, values });
      },
      deferChange: (table, id, sql, params, expect) =>
        batch.deferred.push({ owner: w, kind: 'change', table, id, sql, params, changes: expect.changes, error: expect.error }),
      deferCheck: (sql, params, error) => batch.deferred.push({ owner: w, kind: 'check', table: '', sql, params, error }),
      accumulate: (reducer, item) => batch.contributions.push({ owner: w, reducer: reducer as BatchReducer<unknown>, item }),
    };
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const items = this.nextBatch();
      const started = performance.now();
      try {
        await this.runBatch(items);
      } finally {
        this.counters.busy_ms += performance.now() - started;
        this.counters.batches++;
        this.counters.writes += items.length;
      }
    }
  }

  private async runBatch(items: QueuedWrite[]): Promise<void> {
    const batch = new Batch(this.writer, () => this.begin());
    const states = items.map((_, i) => new WriteState(i));
    for (const [i, item] of items.entries()) {
      const w = states[i]!;
      const tx = this.txFor(batch, w);
      try {
        w.value = await item.fn(tx);
      } catch (error) {
        w.failed ??= { error };
        // Its changes (if any ran) go back to its savepoint; what it left waiting is dropped.
        batch.drop(w);
        if (w.savepoint) await this.writer.exec(`ROLLBACK TO ${w.name}`).catch(() => undefined);
      }
    }
    try {
      // Prepared statements, not one exec of the batch: an exec compiles every statement
      // again and needs the parameters written into its text on the main thread.
      if (batch.begun || !(await this.commitInOne(batch))) {
        await batch.ensureBegun();
        await batch.flush();
        await this.writer.exec('COMMIT');
      }
    } catch (error) {
      if (batch.begun) await this.writer.exec('ROLLBACK').catch(() => undefined);
      for (const item of items) item.reject(error);
      return;
    }
    const afterCommit: Array<() => void | Promise<void>> = [];
    items.forEach((item, i) => {
      const w = states[i]!;
      if (w.failed) return item.reject(w.failed.error);
      afterCommit.push(...w.hooks);
      item.resolve(w.value);
    });
    // After-commit work (e.g. SMTP delivery) runs outside this loop: it may take seconds
    // and may write its outcome, a write that would queue behind the loop awaiting it.
    for (const hook of afterCommit) {
      const work = Promise.resolve()
        .then(hook)
        .catch(() => undefined) // it records its own failures
        .finally(() => this.afterCommitWork.delete(work));
      this.afterCommitWork.add(work);
    }
  }

  /**
   * A batch whose writes ran no statement (only deferred work and per-batch work, e.g.
   * token, stored-card sales and captures) is submitted whole: BEGIN, its statements,
   * COMMIT, queued on the writer at once, so SQLite runs them back to back with no JS
   * turn between and no savepoint. False when a statement failed (the rest then fail
   * unrun and it is rolled back, to be redone with savepoints, which finds the failing
   * write) — or when there was nothing to write at all, true.
   */
  private async commitInOne(batch: Batch): Promise<boolean> {
    const statements = batch.statements();
    if (statements.length === 0) return true;
    const sent = [
      this.writer.exec('BEGIN IMMEDIATE'),
      ...statements.map((st) => this.writer.run(st.sql, st.params)),
      this.writer.exec('COMMIT'),
    ];
    try {
      await Promise.all(sent);
      batch.take();
      return true;
    } catch (err) {
      await this.writer.exec('ROLLBACK').catch(() => undefined); // "no transaction" when BEGIN itself failed
      // A store that cannot write now fails the batch (redone with savepoints it would only wait again).
      if (asStoreUnavailable(err)) throw err;
      return false;
    }
  }

  /** Wait for queued writes, then close both connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.draining) await this.draining;
    await this.reader.close();
    // A checkpoint on close merges the WAL into the main file.
    await this.writer.exec('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => undefined);
    await this.writer.close();
  }
}

export function assertSqliteVersion(version: string): void {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const have = parts[i] ?? 0;
    const need = MIN_SQLITE[i]!;
    if (have > need) return;
    if (have < need) {
      throw new Error(
        `SQLite ${version} is too old: payctl needs ${MIN_SQLITE.join('.')} or newer (WAL-reset corruption fix). Reinstall sqlite3 (npm rebuild sqlite3).`,
      );
    }
  }
}
