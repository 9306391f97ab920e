// The contract between services and a store: what repositories read and write through.
// A store (src/store/sqlite, and a second one) hands out executors — itself for reads,
// a transaction inside `write` — and each executor carries the store's repositories,
// so a service takes them from the handle it was given, never from a module import.
import type { Repositories } from './store.js';
import type { SharedServerState, StoreNotices } from './shared.js';
import type { Dialect } from '../sql/dialect.js';

export type Params = ReadonlyArray<unknown> | Record<string, unknown>;

export interface RunResult {
  changes: number;
}

/** Plain SQL reads (SQL both stores accept, or the executor's dialect's own: sql/dialect.ts). */
export interface SqlReader {
  get<T>(sql: string, params?: Params): Promise<T | undefined>;
  all<T>(sql: string, params?: Params): Promise<T[]>;
}

/** What repositories read through: the store's reader, or a write transaction; with the store's repositories. */
export interface Executor extends SqlReader {
  readonly repos: Repositories;
  /** What the store's SQL does not share with the other store's (sql/dialect.ts). */
  readonly dialect: Dialect;
  /** On the store's reader: `get(sql)` shared with concurrent callers (see getFresh). */
  getShared?<T>(sql: string): Promise<T | undefined>;
}

/** One statement whose only parameter is a JSON text (its single `?`). */
export interface JsonStatement {
  sql: string;
  json: string;
}

/** Work done once per batch (or per early send of deferred rows) over the items the batch's successful writes added. */
export interface BatchReducer<T> {
  name: string;
  statements(items: T[], dialect: Dialect): JsonStatement[];
}

/**
 * A compare-and-set a write defers, stated by its parts so that no store reads its text:
 * the table it changes, and its SET and WHERE (`UPDATE table SET set WHERE where`, each `?`
 * a value: the SQLite writer joins many of one text into one statement), or, for one with
 * a subquery, its whole text and the tables that subquery reads (it is always sent alone).
 * Its text: sql/update.ts.
 */
export type Update = { readonly table: string } & (
  | { readonly set: string; readonly where: string }
  | { readonly sql: string; readonly reads: readonly string[] }
);

/** A check a write defers: a SELECT that must find a row, with the tables it reads. */
export interface Check {
  readonly sql: string;
  readonly reads: readonly string[];
}

/** The executor handed to a write: also takes callbacks to run after the commit. */
export interface Tx extends Executor {
  run(sql: string, params?: Params): Promise<RunResult>;
  afterCommit(fn: () => void | Promise<void>): void;
  /**
   * Insert one row, later: it is sent with the batch's other deferred rows of `table` as
   * one statement, before the commit or before a later statement that reads `table` or
   * changes anything. Use for plain INSERTs whose only failure is a constraint error.
   */
  deferInsert(table: string, columns: readonly string[], values: unknown[]): void;
  /**
   * Run a compare-and-set later, with the batch's deferred rows (one trip for the whole
   * batch): it must change exactly `changes` rows, else this write fails with `error()`.
   * `id` is the row it changes, if one (a later lookup by another id need not wait).
   */
  deferChange(update: Update, id: string | undefined, params: unknown[], expect: { changes: number; error: () => unknown }): void;
  /**
   * Check, with the batch's deferred rows, that `check.sql` (a SELECT) still finds a row, else
   * this write fails with `error()`: for what the write read before its transaction.
   */
  deferCheck(check: Check, params: unknown[], error: () => unknown): void;
  /**
   * Read one row by its id: deferred work on `table` is sent first only when it touches
   * that id (a lookup by id cannot see the rest).
   */
  getById<T>(table: string, id: string, sql: string, params: Params): Promise<T | undefined>;
  /**
   * Add an item to per-batch work (dropped if this write fails). It runs with the
   * deferred rows: once before COMMIT, or earlier when they are sent earlier (so a later
   * statement sees both, e.g. a DELETE of the rows and of what they added).
   */
  accumulate<T>(reducer: BatchReducer<T>, item: T): void;
}

/**
 * `get(sql)` on `ex`; on the store's reader, shared with concurrent callers: for a small
 * read every request makes.
 */
export function getFresh<T>(ex: Executor, sql: string): Promise<T | undefined> {
  return ex.getShared ? ex.getShared<T>(sql) : ex.get<T>(sql);
}

/** Whether an executor is a write's transaction (deferred inserts, per-batch work) rather than the reader. */
export function isTx(ex: Executor): ex is Tx {
  return typeof (ex as Partial<Tx>).deferInsert === 'function';
}

/** Whether an executor is the store itself (its reader, where caches may serve), not a write's transaction. */
export function isStore(ex: Executor): ex is Store {
  return typeof (ex as Partial<Store>).write === 'function';
}

/** Cumulative counters of the writer (for `payctl serve`'s stats line and the bench). */
export interface WriterStats {
  /** Milliseconds with a write transaction open (BEGIN submitted to COMMIT done; on PostgreSQL summed over the lanes writing at once). */
  busy_ms: number;
  batches: number;
  writes: number;
  /** Statements the writer connection ran (BEGIN, COMMIT, savepoints, multi-row inserts count one each). */
  statements: number;
  /** Per first keyword of the SQL: statements and ms from start to completion callback. */
  by_kind: Record<string, { n: number; ms: number }>;
  /**
   * Writes run again because the database gave up on them (PostgreSQL: serialization
   * failures and deadlocks across servers), by SQLSTATE and the statement that failed
   * (`40001 INSERT INTO transaction_daily`): where concurrent writers meet.
   */
  retries?: Record<string, number>;
}

/** How a write is queued. */
export interface WriteOptions {
  /**
   * A long write (a chunk of catch-up work, up to its budget): it gets a transaction of
   * its own, after the writes queued before it, so they never wait for it inside their
   * batch; the writes queued after it go in the next batch. The PostgreSQL store runs
   * every write in a transaction of its own, several at once: there the write waits for
   * the running ones and runs by itself, and the writes queued after it wait for its
   * COMMIT; test/services/write-options.test.ts holds both stores to it.
   */
  alone?: boolean;
  /**
   * Never in one batch with other writes (the request journal's: its statements would
   * send the deferred inserts of the sales batched with it in two rounds instead of
   * one). SQLite: a transaction of its own, as `alone`; PostgreSQL, where a write has
   * a transaction of its own already, ignores it.
   */
  apart?: boolean;
  /**
   * The write claims the rows it works on (SELECT … Dialect.skipLocked / lock, sql/dialect.ts):
   * on PostgreSQL it runs READ COMMITTED, where a row another server holds is skipped (or
   * waited for, then read as committed) instead of failing the write on serialization.
   */
  claims?: boolean;
}

/**
 * A store: reads on its reader, writes through `write` (one transaction each, resolved
 * after the commit), its repositories on every executor it hands out.
 */
export interface Store extends Executor {
  /** Where the data is, for messages: the file path, or the URL without its password. */
  readonly location: string;
  /** The schema version the store is at (set when it opened). */
  readonly schemaVersion: number;
  write<T>(fn: (tx: Tx) => Promise<T>, opts?: WriteOptions): Promise<T>;
  /** Resolves once the after-commit work started so far (and any it started in turn) has finished. */
  afterCommitSettled(): Promise<void>;
  /** The writer's counters so far. */
  stats(): WriterStats;
  /** Writes queued and not started yet (metrics: the queue's depth). */
  queuedWrites?(): number;
  /** When set, told how long each write took from queued to committed or failed, in ms (metrics). */
  writeTimer?: ((ms: number) => void) | undefined;
  /** Commits of other servers on the same database (absent with one process per database: SQLite). */
  readonly notices?: StoreNotices;
  /** State several servers on one database share (absent with one process per database: SQLite). */
  readonly shared?: SharedServerState;
  close(): Promise<void>;
}
