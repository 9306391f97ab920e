// The PostgreSQL store: a pool of connections (pg), reads on any of them, each write one
// transaction. Writes of one process run one at a time (as on SQLite, so what a write
// read still holds when it writes); writes of different servers run concurrently under
// SERIALIZABLE and the one PostgreSQL gives up on (40001, 40P01) runs again, a bounded
// number of times. Background work that claims its rows (WriteOptions.claims: FOR UPDATE
// SKIP LOCKED) runs READ COMMITTED instead: its row locks, not SSI, keep servers apart. Deferred inserts, compare-and-sets and checks run in order before the
// write's next statement or its COMMIT; per-batch work once before COMMIT. Events are
// inserted last, under a transaction-scoped advisory lock held to the COMMIT, so their
// positions (`seq`) are taken in commit order and a reader never sees a later position
// before an earlier one (the live stream and Last-Event-ID never skip an event).
import type pgTypes from 'pg';
import type { BatchReducer, Params, RunResult, Store, Tx, WriteOptions, WriterStats } from '../interfaces/db.js';
import type { Repositories } from '../interfaces/store.js';
import { RETRYABLE, sqlState, toPgParams, toPgSql, UNIQUE_VIOLATION } from './sql.js';
import { EVENTS_CHANNEL, eventsPayload, type PgNotices } from './notices.js';
import type { SharedServerState } from '../interfaces/shared.js';

/** The advisory lock that orders event positions (an arbitrary constant of this store). */
export const EVENTS_LOCK = 7_262_011;
/** Attempts of a write PostgreSQL gave up on (serialization failure, deadlock), and of one that hit a unique violation. */
const MAX_ATTEMPTS = 20;
const MAX_UNIQUE_ATTEMPTS = 3;

/** Per-batch work's SQL on PostgreSQL, by reducer name: same JSON parameter as the SQLite text. */
export const PG_REDUCER_SQL: Record<string, string> = {
  transaction_daily: `INSERT INTO transaction_daily AS d (group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id, tx_count, net_high, net_low)
SELECT v ->> 0, v ->> 1, v ->> 2, v ->> 3, v ->> 4, v ->> 5, v ->> 6, v ->> 7, v ->> 8, (v ->> 9)::bigint, (v ->> 10)::bigint, (v ->> 11)::bigint
FROM json_array_elements($1::json) AS v
ON CONFLICT (group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id, slot)
DO UPDATE SET tx_count = d.tx_count + excluded.tx_count, net_high = d.net_high + excluded.net_high, net_low = d.net_low + excluded.net_low`,
};

type Pending =
  | { kind: 'row'; table: string; columns: readonly string[]; values: unknown[] }
  | { kind: 'change'; sql: string; params: unknown[]; changes: number; error: () => unknown }
  | { kind: 'check'; sql: string; params: unknown[]; error: () => unknown };

class PgTx implements Tx {
  private pending: Pending[] = [];
  private events: Array<{ columns: readonly string[]; values: unknown[] }> = [];
  private work = new Map<BatchReducer<unknown>, unknown[]>();
  readonly hooks: Array<() => void | Promise<void>> = [];

  constructor(
    private readonly client: pgTypes.PoolClient,
    readonly repos: Repositories,
    private readonly counters: { statements: number },
  ) {}

  /** The statement running or run last (a failure names it in the retry counts). */
  current = '';

  private async query<T>(sql: string, params?: Params): Promise<pgTypes.QueryResult<T & pgTypes.QueryResultRow>> {
    this.counters.statements++;
    this.current = sql;
    return this.client.query<T & pgTypes.QueryResultRow>(toPgSql(sql), toPgParams(params));
  }

  /** Send what was deferred, in order. */
  async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const items = this.pending;
      this.pending = [];
      for (const d of items) {
        if (d.kind === 'row') {
          await this.query(`INSERT INTO ${d.table} (${d.columns.join(', ')}) VALUES (${d.columns.map(() => '?').join(', ')})`, d.values);
        } else if (d.kind === 'change') {
          const r = await this.query(d.sql, d.params);
          if ((r.rowCount ?? 0) !== d.changes) throw d.error();
        } else {
          const r = await this.query(d.sql, d.params);
          if (r.rows.length === 0) throw d.error();
        }
      }
    }
  }

  async run(sql: string, params?: Params): Promise<RunResult> {
    await this.flush();
    return { changes: (await this.query(sql, params)).rowCount ?? 0 };
  }
  async all<T>(sql: string, params?: Params): Promise<T[]> {
    await this.flush();
    return (await this.query<T>(sql, params)).rows;
  }
  async get<T>(sql: string, params?: Params): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  getById<T>(_table: string, _id: string, sql: string, params: Params): Promise<T | undefined> {
    return this.get<T>(sql, params);
  }
  afterCommit(fn: () => void | Promise<void>): void {
    this.hooks.push(fn);
  }
  deferInsert(table: string, columns: readonly string[], values: unknown[]): void {
    if (table === 'events') this.events.push({ columns, values });
    else this.pending.push({ kind: 'row', table, columns, values });
  }
  deferChange(_table: string, _id: string | undefined, sql: string, params: unknown[], expect: { changes: number; error: () => unknown }): void {
    this.pending.push({ kind: 'change', sql, params, changes: expect.changes, error: expect.error });
  }
  deferCheck(sql: string, params: unknown[], error: () => unknown): void {
    this.pending.push({ kind: 'check', sql, params, error });
  }
  accumulate<T>(reducer: BatchReducer<T>, item: T): void {
    let list = this.work.get(reducer as BatchReducer<unknown>);
    if (!list) this.work.set(reducer as BatchReducer<unknown>, (list = []));
    list.push(item);
  }

  /** Before COMMIT: deferred work, per-batch work, then the events in commit order. */
  async finish(): Promise<void> {
    await this.flush();
    for (const [reducer, items] of this.work) {
      const sql = PG_REDUCER_SQL[reducer.name];
      if (!sql) throw new Error(`no PostgreSQL statement for per-batch work ${reducer.name}`);
      for (const st of reducer.statements(items)) {
        this.counters.statements++;
        this.current = sql;
        await this.client.query(sql, [st.json]);
      }
    }
    this.work.clear();
    if (this.events.length > 0) {
      // The notice names the groups; PostgreSQL sends it only once this transaction commits.
      const groups = this.events.map((e) => String(e.values[e.columns.indexOf('group_id')]));
      await this.query('SELECT pg_advisory_xact_lock(?), pg_notify(?, ?)', [EVENTS_LOCK, EVENTS_CHANNEL, eventsPayload(groups)]);
      for (const e of this.events) {
        await this.query(`INSERT INTO events (${e.columns.join(', ')}) VALUES (${e.columns.map(() => '?').join(', ')})`, e.values);
      }
      this.events = [];
    }
  }
}

export class PgDatabase implements Store {
  readonly dialect = 'postgres';
  schemaVersion = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly afterCommitWork = new Set<Promise<void>>();
  private counters = { busy_ms: 0, batches: 0, writes: 0, statements: 0 };
  private readonly retries: Record<string, number> = {};
  /**
   * The slot of this store's writes in the reporting rollups and the change counters
   * (migration 27): servers counting sales of the same day and dimensions, or changing
   * configuration at once, update rows of their own, not one shared row. Set once the
   * migrations ran (0 until then).
   */
  rollupSlot = 0;

  constructor(
    readonly pool: pgTypes.Pool,
    readonly location: string,
    readonly repos: Repositories,
    /** Commits of every server on the database (LISTEN on a connection of its own). */
    readonly notices?: PgNotices,
    readonly shared?: SharedServerState,
  ) {}

  async get<T>(sql: string, params?: Params): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async all<T>(sql: string, params?: Params): Promise<T[]> {
    return (await this.pool.query<T & pgTypes.QueryResultRow>(toPgSql(sql), toPgParams(params))).rows;
  }

  /** Run `fn` in one transaction (again, when PostgreSQL gave up on it); resolves after the COMMIT. */
  write<T>(fn: (tx: Tx) => Promise<T>, opts?: WriteOptions): Promise<T> {
    if (this.closed) return Promise.reject(new Error('database is closed'));
    // A write that claims its rows (background work) holds them with row locks, and
    // READ COMMITTED lets it pass over or wait for another server's rows: under
    // SERIALIZABLE, two servers working one index range fail each other's commits.
    const isolation = opts?.claims ? 'READ COMMITTED' : 'SERIALIZABLE';
    const run = this.queue.then(() => this.attempt(fn, isolation));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async attempt<T>(fn: (tx: Tx) => Promise<T>, isolation: string): Promise<T> {
    const started = performance.now();
    this.counters.writes++;
    let uniqueFailures = 0;
    try {
      for (let attempt = 1; ; attempt++) {
        const client = await this.pool.connect();
        let tx: PgTx | undefined;
        try {
          this.counters.batches++;
          // One trip: the transaction and the slot its rollup counts go to.
          await client.query(`BEGIN ISOLATION LEVEL ${isolation}; SET LOCAL payctl.rollup_slot = '${this.rollupSlot}'`);
          tx = new PgTx(client, this.repos, this.counters);
          const value = await fn(tx);
          await tx.finish();
          tx.current = 'COMMIT';
          await client.query('COMMIT');
          client.release();
          this.startHooks(tx.hooks);
          return value;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          client.release();
          const state = sqlState(err);
          const again =
            (state !== undefined && RETRYABLE.has(state) && attempt < MAX_ATTEMPTS) ||
            (state === UNIQUE_VIOLATION && ++uniqueFailures < MAX_UNIQUE_ATTEMPTS);
          if (!again) throw err;
          const where = `${state} ${statementHead(tx?.current ?? 'BEGIN')}`;
          this.retries[where] = (this.retries[where] ?? 0) + 1;
          // Apart again at random, a little longer each time (two servers on the same rows would collide again in step).
          await new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 5 * 2 ** attempt)));
        }
      }
    } finally {
      this.counters.busy_ms += performance.now() - started;
    }
  }

  private startHooks(hooks: Array<() => void | Promise<void>>): void {
    for (const hook of hooks) {
      const work = Promise.resolve()
        .then(hook)
        .catch(() => undefined) // it records its own failures
        .finally(() => this.afterCommitWork.delete(work));
      this.afterCommitWork.add(work);
    }
  }

  async afterCommitSettled(): Promise<void> {
    while (this.afterCommitWork.size > 0) await Promise.all(this.afterCommitWork);
  }

  stats(): WriterStats {
    return { busy_ms: this.counters.busy_ms, batches: this.counters.batches, writes: this.counters.writes, statements: this.counters.statements, by_kind: {}, retries: { ...this.retries } };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.notices?.close();
    await this.pool.end();
  }
}

/** The first words of a statement that say what it touches (`INSERT INTO transaction_daily`, `UPDATE subscriptions`). */
function statementHead(sql: string): string {
  const m = /^\s*(INSERT INTO|UPDATE|DELETE FROM|SELECT [\s\S]*? FROM|SELECT|COMMIT|BEGIN)\s*(\w*)/i.exec(sql);
  if (!m) return sql.trim().slice(0, 40);
  const verb = /^SELECT /i.test(m[1]!) && m[1]!.length > 6 ? 'SELECT … FROM' : m[1]!.toUpperCase();
  return `${verb} ${m[2] ?? ''}`.trim();
}
