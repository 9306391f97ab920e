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
//   one's completion callback, so no JS continuation sits between them (writer-pipe.ts);
// - inserts a write hands to `tx.deferInsert` are held and sent together as one
//   multi-row INSERT per table, before the commit or before any later statement that
//   could see them; compare-and-sets (`tx.deferChange`) and checks (`tx.deferCheck`)
//   of one SQL text likewise go as one statement for the batch (batch.ts, batch-sql.ts);
// - a batch whose writes ran no statement of their own is queued whole (BEGIN, its
//   statements, COMMIT) without a savepoint;
// - a write gets a SAVEPOINT (so that failing rolls back only itself) only when it
//   runs a statement that changes the database; its deferred inserts need none, they
//   are simply dropped when it fails;
// - per-batch work (`tx.accumulate`, e.g. the reporting rollup) runs once before COMMIT
//   over what the batch's successful writes contributed.
import { performance } from 'node:perf_hooks';
import type { BatchReducer, Params, RunResult, Store, Tx, WriteOptions, WriterStats } from '../interfaces/db.js';
import type { Repositories } from '../interfaces/store.js';
import { sqliteRepositories } from './repositories.js';
import { sqliteDialect } from './dialect.js';
import { asStoreUnavailable, classifyStoreError, StoreUnavailable } from '../errors.js';
import { sharedRead, type SharedRead } from '../shared-read.js';
import { AfterCommitWork, WriterCounters, writeEnded, type AfterCommitHook, type WriteTimer } from '../engine/write-tracking.js';
import { Connection, openRaw } from './connection.js';
import { WriterPipe } from './writer-pipe.js';
import { Batch } from './batch.js';
import { CHECK_TABLE } from './batch-sql.js';
import { WriteState } from './batch-work.js';

interface QueuedWrite {
  fn: (tx: Tx) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  alone?: boolean;
}

const MIN_SQLITE = [3, 51, 3];
const MAX_BATCH = 256;

export class Database implements Store {
  private queue: QueuedWrite[] = [];
  private draining: Promise<void> | null = null;
  private closed = false;
  private readonly afterCommitWork = new AfterCommitWork();
  private readonly counters = new WriterCounters();

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
  afterCommitSettled(): Promise<void> {
    return this.afterCommitWork.settled();
  }

  /** The writer's counters so far. */
  stats(): WriterStats {
    return this.counters.stats({ statements: this.writer.statementsRun, by_kind: structuredClone(this.writer.byKind) });
  }

  writeTimer: WriteTimer | undefined;

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
        writeEnded(timer, queued);
        const error = classifyStoreError(err);
        reject(error);
        // Another process held the lock past the busy timeout: the writes queued behind
        // this one have waited about as long, so they fail with it (a 503 to ask again)
        // rather than each wait 10 s more in turn (docs/operations.md, "locked").
        if (error instanceof StoreUnavailable && error.reason === 'locked') for (const w of this.queue.splice(0)) w.reject(error);
      };
      const done = timer ? (v: unknown) => (writeEnded(timer, queued), resolve(v as T)) : (resolve as (v: unknown) => void);
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
      deferChange: (update, id, params, expect) =>
        batch.deferred.push({ owner: w, kind: 'change', table: update.table, id, update, params, changes: expect.changes, error: expect.error }),
      deferCheck: (check, params, error) => batch.deferred.push({ owner: w, kind: 'check', table: '', check, params, error }),
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
        this.counters.busySince(started);
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
    const afterCommit: AfterCommitHook[] = [];
    items.forEach((item, i) => {
      const w = states[i]!;
      if (w.failed) return item.reject(w.failed.error);
      afterCommit.push(...w.hooks);
      item.resolve(w.value);
    });
    // Outside this loop: after-commit work may take seconds and write (../engine/write-tracking.ts).
    this.afterCommitWork.start(afterCommit);
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
