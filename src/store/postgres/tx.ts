// A PostgreSQL write's transaction object (the `tx` of `store.write`): its statements are
// pipelined on one pooled connection (pg's `pipeline`), its deferred work (interfaces/db.ts)
// sent in order before its next statement or its COMMIT, its events last, under the
// writer's advisory lock (events.ts), and the events notice behind the COMMIT.
import type pgTypes from 'pg';
import type { BatchReducer, Check, Params, RunResult, Tx, Update } from '../interfaces/db.js';
import type { Repositories } from '../interfaces/store.js';
import { updateSql } from '../sql/update.js';
import type { AfterCommitHook } from '../engine/write-tracking.js';
import { pgNamed, pgQuery } from './sql.js';
import { pgDialect } from './dialect.js';
import { EVENTS_CHANNEL, eventsPayload } from './notices.js';
import { EVENTS_WRITER_LOCK } from './events.js';

type Pending =
  | { kind: 'row'; table: string; columns: readonly string[]; values: unknown[] }
  | { kind: 'change'; sql: string; params: unknown[]; changes: number; error: () => unknown }
  | { kind: 'check'; sql: string; params: unknown[]; error: () => unknown };

/** A statement sent and not yet answered (pipelined): its answer is checked in the order sent. */
interface Sent {
  sql: string;
  result: Promise<pgTypes.QueryResult>;
  pending?: Pending;
}

/** The events notice (EVENTS_CHANNEL; payload: the groups), as its own transaction that need not wait for its WAL flush. */
const NOTICE_SQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`;

export class PgTx implements Tx {
  readonly dialect = pgDialect;
  private pending: Pending[] = [];
  private events: Array<{ columns: readonly string[]; values: unknown[] }> = [];
  private work = new Map<BatchReducer<unknown>, unknown[]>();
  readonly hooks: AfterCommitHook[] = [];
  /** The groups whose events this write appended (the notice after its COMMIT names them). */
  groups: string[] = [];

  constructor(
    private readonly client: pgTypes.PoolClient,
    readonly repos: Repositories,
    private readonly counters: { statements: number },
    /** Whether servers may be listening for events (LISTEN/NOTIFY): the COMMIT then carries a notice behind it. */
    private readonly notify: boolean,
  ) {}

  /** The statement running or run last (a failure names it in the retry counts). */
  current = '';
  /** COMMIT was sent: a connection lost from then on may have committed the write. */
  commitSent = false;
  /** The first statement's failure: once one fails, PostgreSQL answers every later one 25P02 (in a failed transaction), which is never the cause. */
  firstFailure: unknown;

  /**
   * Send a statement without waiting for its answer: the pool's connections pipeline
   * (pg's `pipeline`), so statements sent one after another travel together and the
   * write waits for one trip instead of one per statement.
   */
  private send(sql: string, query: pgTypes.QueryConfig, pending?: Pending): Sent {
    this.counters.statements++;
    const result = this.client.query(query);
    // Answered in order; a failure is read where the answers are awaited (below), never unhandled.
    result.catch((err: unknown) => void (this.firstFailure ??= err));
    return { sql, result, pending };
  }

  /** Await pipelined answers in the order sent; a deferred change or check that did not hold throws its error. */
  private async settle(sent: Sent[]): Promise<void> {
    for (const s of sent) {
      this.current = s.sql;
      const r = await s.result;
      const d = s.pending;
      if (d?.kind === 'change' && (r.rowCount ?? 0) !== d.changes) throw d.error();
      if (d?.kind === 'check' && r.rows.length === 0) throw d.error();
    }
  }

  /** Send what was deferred, in order (not awaited). */
  private sendPending(): Sent[] {
    const sent: Sent[] = [];
    for (const d of this.pending) {
      if (d.kind === 'row') {
        const sql = `INSERT INTO ${d.table} (${d.columns.join(', ')}) VALUES (${d.columns.map(() => '?').join(', ')})`;
        sent.push(this.send(sql, pgQuery(sql, d.values), d));
      } else sent.push(this.send(d.sql, pgQuery(d.sql, d.params), d));
    }
    this.pending = [];
    return sent;
  }

  /** What was deferred, then `sql`, in one trip; the answer of `sql`. */
  private async query<T>(sql: string, params?: Params): Promise<pgTypes.QueryResult<T & pgTypes.QueryResultRow>> {
    const sent = this.sendPending();
    const last = this.send(sql, pgQuery(sql, params));
    await this.settle([...sent, last]);
    return (await last.result) as pgTypes.QueryResult<T & pgTypes.QueryResultRow>;
  }

  async run(sql: string, params?: Params): Promise<RunResult> {
    return { changes: (await this.query(sql, params)).rowCount ?? 0 };
  }
  async all<T>(sql: string, params?: Params): Promise<T[]> {
    return (await this.query<T>(sql, params)).rows;
  }
  async get<T>(sql: string, params?: Params): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  getById<T>(_table: string, _id: string, sql: string, params: Params): Promise<T | undefined> {
    return this.get<T>(sql, params);
  }
  afterCommit(fn: AfterCommitHook): void {
    this.hooks.push(fn);
  }
  deferInsert(table: string, columns: readonly string[], values: unknown[]): void {
    if (table === 'events') this.events.push({ columns, values });
    else this.pending.push({ kind: 'row', table, columns, values });
  }
  deferChange(update: Update, _id: string | undefined, params: unknown[], expect: { changes: number; error: () => unknown }): void {
    this.pending.push({ kind: 'change', sql: updateSql(update), params, changes: expect.changes, error: expect.error });
  }
  deferCheck(check: Check, params: unknown[], error: () => unknown): void {
    this.pending.push({ kind: 'check', sql: check.sql, params, error });
  }
  accumulate<T>(reducer: BatchReducer<T>, item: T): void {
    let list = this.work.get(reducer as BatchReducer<unknown>);
    if (!list) this.work.set(reducer as BatchReducer<unknown>, (list = []));
    list.push(item);
  }

  /**
   * Deferred work, per-batch work and the events, pipelined (one trip), then the COMMIT
   * on a trip of its own: a deferred change or check decides whether the write may
   * commit, and a connection lost before COMMIT was sent is known not to have committed
   * (the write runs again on a new one), where one lost with COMMIT pipelined behind
   * unanswered statements would leave every such write's outcome unknown.
   */
  async commit(): Promise<void> {
    const sent = this.sendPending();
    for (const [reducer, items] of this.work) {
      for (const st of reducer.statements(items, pgDialect)) sent.push(this.send(st.sql, pgQuery(st.sql, [st.json])));
    }
    this.work.clear();
    if (this.events.length > 0) {
      this.groups = this.events.map((e) => String(e.values[e.columns.indexOf('group_id')]));
      const [first, ...rest] = this.events;
      // The first event in the same statement as the writer lock (events.ts): the subquery
      // (kept apart by OFFSET 0) takes it before the row, and so its position, is made.
      const sql = `INSERT INTO events (${first!.columns.join(', ')}) SELECT ${first!.columns.map(() => '?').join(', ')} FROM (SELECT pg_advisory_xact_lock(?, pg_backend_pid()) OFFSET 0) AS writer_lock`;
      sent.push(this.send(sql, pgQuery(sql, [...first!.values, EVENTS_WRITER_LOCK])));
      for (const e of rest) {
        const text = `INSERT INTO events (${e.columns.join(', ')}) VALUES (${e.columns.map(() => '?').join(', ')})`;
        sent.push(this.send(text, pgQuery(text, e.values)));
      }
      this.events = [];
    }
    await this.settle(sent);
    this.current = 'COMMIT';
    const commit = this.send('COMMIT', { text: 'COMMIT' });
    this.commitSent = true;
    // The notice naming the groups, pipelined behind the COMMIT (the same trip): in a
    // transaction of its own, with synchronous_commit off — inside the write's, it would hold
    // PostgreSQL's global notify lock through that COMMIT's WAL flush, one notifying commit at
    // a time for the whole cluster. It is a wake-up, never the data: one sent after a COMMIT
    // that failed wakes listeners for nothing, one lost (a crash) is made up by the streams' poll.
    const notice = this.notify && this.groups.length > 0 ? this.send('NOTIFY', pgNamed(NOTICE_SQL, [EVENTS_CHANNEL, eventsPayload(this.groups)])) : undefined;
    if ((await commit.result).command !== 'COMMIT') throw new Error('the transaction was rolled back at COMMIT');
    // Its answer is read before the connection goes back to the pool; its failure is not the write's.
    await notice?.result.catch(() => undefined);
  }
}

/**
 * What a transaction failed of: a statement answered "in a failed transaction" (25P02) — a
 * later one, reached after a write caught an earlier failure and went on — stands for the
 * transaction's first failure (a read-only database, a serialization failure), which decides
 * whether it is a store outage (503) or runs again.
 */
export function causeOf(err: unknown, tx: PgTx): unknown {
  return (err as { code?: unknown } | null)?.code === '25P02' && tx.firstFailure !== undefined ? tx.firstFailure : err;
}
