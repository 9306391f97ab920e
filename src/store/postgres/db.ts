// The PostgreSQL store: a pool of connections (pg), reads on any of them, each write one
// transaction — or, while a lane is busy, the writes queued meanwhile one transaction
// together (group commit, MAX_BATCH; one that fails runs each of them again alone). A
// process runs up to `writers` writes at once (lanes, PAYCTL_PG_WRITERS), each on a
// connection of its own — a lane beside a running one only once a write waited
// `laneWaitMs` for it (or a full batch waits): writes of one server meet as writes of different
// servers do, under SERIALIZABLE, and the one PostgreSQL gives up on (40001, 40P01) runs
// again, a bounded number of times (alone in the process after a few failures, so it
// cannot lose every time). Each lane counts into rollup and change-counter rows
// of its own (a slot, migration 27), so concurrent sales do not meet on one row. A write
// queued `alone` (a catch-up chunk) waits for the running ones and runs by itself.
// Background work that claims its rows (WriteOptions.claims: FOR UPDATE SKIP LOCKED) runs
// READ COMMITTED instead: its row locks, not SSI, keep writers apart. Deferred inserts,
// compare-and-sets and checks run in order before the write's next statement or its
// COMMIT; per-batch work once before COMMIT. Events are inserted last, the first under a
// transaction-scoped advisory lock of the writer's own (events.ts): a reader reads only up
// to the position every write holding such a lock has left final, so it never sees a later
// position before an earlier one (the live stream and Last-Event-ID never skip an event)
// and writers never wait for each other's COMMIT. Statements are prepared (named,
// sql.ts): each connection parses a text once.
import type pgTypes from 'pg';
import type { BatchReducer, Params, RunResult, Store, Tx, WriteOptions, WriterStats } from '../interfaces/db.js';
import type { Repositories } from '../interfaces/store.js';
import { isStalePlan, pgNamed, pgQuery, RETRYABLE, sqlState, UNIQUE_VIOLATION } from './sql.js';
import { pgDialect } from './dialect.js';
import { EVENTS_CHANNEL, eventsPayload, type PgNotices } from './notices.js';
import type { SharedServerState } from '../interfaces/shared.js';
import { EVENTS_WRITER_LOCK } from './events.js';
import { asStoreUnavailable, classifyStoreError, StoreUnavailable } from '../errors.js';
import { sharedRead, type SharedRead } from '../shared-read.js';


/** A connection that ended under a statement (its server shut it, restarted, or the network dropped it). */
function isLostConnection(err: unknown): boolean {
  const reason = asStoreUnavailable(err)?.reason;
  return reason === 'connection_lost' || reason === 'shutting_down';
}

/** Attempts of a write PostgreSQL gave up on (serialization failure, deadlock), and of one that hit a unique violation. */
const MAX_ATTEMPTS = 20;
const MAX_UNIQUE_ATTEMPTS = 3;
/** Runs of a write whose connection was lost before its COMMIT (each on a new connection). */
const MAX_LOST_CONNECTIONS = 3;
/**
 * Failures after which a write runs again alone in its process: new writes wait while
 * the running ones end. Lanes that keep meeting on the same rows (many subscriptions of
 * one customer made at once) could otherwise fail one write every time until its
 * attempts run out — a 500 for a request that did nothing wrong.
 */
const ALONE_AFTER = 3;

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

class PgTx implements Tx {
  readonly dialect = pgDialect;
  private pending: Pending[] = [];
  private events: Array<{ columns: readonly string[]; values: unknown[] }> = [];
  private work = new Map<BatchReducer<unknown>, unknown[]>();
  readonly hooks: Array<() => void | Promise<void>> = [];
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

  /**
   * Send a statement without waiting for its answer: the pool's connections pipeline
   * (pg's `pipeline`), so statements sent one after another travel together and the
   * write waits for one trip instead of one per statement.
   */
  private send(sql: string, query: pgTypes.QueryConfig, pending?: Pending): Sent {
    this.counters.statements++;
    const result = this.client.query(query);
    // Answered in order; a failure is read where the answers are awaited (below), never unhandled.
    result.catch(() => undefined);
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

/** The events notice (EVENTS_CHANNEL; payload: the groups), as its own transaction that need not wait for its WAL flush. */
const NOTICE_SQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`;

/** A lane of writes: one at a time on it, counting into its own rollup slot (taken from the sequence when it first writes). */
interface Lane {
  readonly index: number;
  slot: number | undefined;
}

/** A write waiting for a lane. */
interface Queued {
  fn: (tx: Tx) => Promise<unknown>;
  alone: boolean;
  claims: boolean;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  /** Its batch failed: it runs in a transaction of its own. */
  single?: boolean;
  /** When it was queued (performance.now()): a lane beside the running ones opens once it waited laneWaitMs. */
  at: number;
}

/**
 * Writes one transaction may carry (group commit): while the lanes are busy, a lane that
 * frees takes the writes queued by then together — one BEGIN, one trip of their
 * statements, one COMMIT and one WAL flush for all of them, as the SQLite writer's
 * batches do. A write that claims rows or runs alone is never in a batch.
 */
const MAX_BATCH = 64;

/**
 * Slots of the rollups and change counters (migration 27): every lane of every server
 * takes the next value of a sequence, modulo this, when it first writes — lanes started
 * one after another never share one until this many were taken. Rows per rollup key and
 * day grow by at most this factor (one per slot that counted into it).
 */
export const ROLLUP_SLOTS = 64;

export class PgDatabase implements Store {
  readonly dialect = pgDialect;
  schemaVersion = 0;
  private closed = false;
  private readonly afterCommitWork = new Set<Promise<void>>();
  private counters = { busy_ms: 0, batches: 0, writes: 0, statements: 0 };
  private readonly retries: Record<string, number> = {};
  private readonly lanes: Lane[];
  /** Lanes not writing, lowest first: a quiet process writes through few lanes (so few slots). */
  private free: Lane[];
  private readonly queued: Queued[] = [];
  private running = 0;
  private aloneRunning = false;
  /** The lane of a write that failed ALONE_AFTER times, waiting for the others to end before it runs again. */
  private drainer: { lane: Lane; drained: () => void } | undefined;
  /** Writes queued or running (close waits for them). */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Set while writes wait behind running lanes: fires when the first has waited laneWaitMs. */
  private laneTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly pool: pgTypes.Pool,
    readonly location: string,
    readonly repos: Repositories,
    /** Commits of every server on the database (LISTEN on a connection of its own). */
    readonly notices?: PgNotices,
    readonly shared?: SharedServerState,
    /** Writes this process runs at once, each on a pool connection (fewer than the pool's size: reads need one too). */
    readonly writers = 1,
    /**
     * How long a write waits for a running lane before another lane opens for it (ms; 0:
     * every lane opens as soon as a write is queued). One lane while it keeps up makes the
     * deepest batches — fewest transactions, trips and WAL flushes per write, where CPU is
     * what runs out; more lanes open when a batch is slow (a write waiting on a row lock,
     * a slow flush) or a full batch (MAX_BATCH) waits.
     */
    readonly laneWaitMs = 0,
  ) {
    this.lanes = Array.from({ length: Math.max(1, writers) }, (_, index) => ({ index, slot: undefined }));
    this.free = [...this.lanes];
  }

  /** The rollup slots this process's lanes counted into so far. */
  get rollupSlots(): number[] {
    return this.lanes.flatMap((l) => (l.slot === undefined ? [] : [l.slot]));
  }

  async get<T>(sql: string, params?: Params): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async all<T>(sql: string, params?: Params): Promise<T[]> {
    try {
      return (await this.pool.query<T & pgTypes.QueryResultRow>(pgQuery(sql, params))).rows;
    } catch (err) {
      // A pooled connection the server ended (a restart) fails its next query: a read runs
      // again once, on a new connection, so the first request after a restart succeeds.
      if (!isStalePlan(err) && !isLostConnection(err)) throw classifyStoreError(err);
      try {
        return (await this.pool.query<T & pgTypes.QueryResultRow>(pgQuery(sql, params))).rows;
      } catch (again) {
        throw classifyStoreError(again);
      }
    }
  }

  /**
   * `get(sql)` (no parameters) shared by the callers that ask at about the same time, as
   * on SQLite (../shared-read.ts): the counters every request reads (the clock,
   * config_version) were a trip and a transaction each per request.
   */
  getShared<T>(sql: string): Promise<T | undefined> {
    return sharedRead(this.sharedReads, sql, () => this.get<T>(sql));
  }
  private readonly sharedReads = new Map<string, SharedRead>();

  /** Run `fn` in one transaction (again, when PostgreSQL gave up on it); resolves after the COMMIT. */
  write<T>(fn: (tx: Tx) => Promise<T>, opts?: WriteOptions): Promise<T> {
    if (this.closed) return Promise.reject(new Error('database is closed'));
    // A write that claims its rows (background work) holds them with row locks, and
    // READ COMMITTED lets it pass over or wait for another writer's rows: under
    // SERIALIZABLE, two writers working one index range fail each other's commits.
    const claims = opts?.claims === true;
    const at = performance.now();
    const run = new Promise<T>((resolve, reject) => {
      this.queued.push({ fn, alone: opts?.alone === true, claims, resolve: resolve as (value: unknown) => void, reject, at });
    });
    const timer = this.writeTimer;
    const tracked: Promise<unknown> = run.catch(() => undefined).finally(() => {
      timer?.(performance.now() - at);
      this.inFlight.delete(tracked);
    });
    this.inFlight.add(tracked);
    this.pump();
    return run;
  }

  /**
   * Start queued writes, in the order queued, while a lane opens for them (an `alone` one
   * once none runs); the writes queued behind the first that may share its transaction go
   * with it (MAX_BATCH).
   */
  private pump(): void {
    while (this.queued.length > 0 && !this.aloneRunning && !this.drainer) {
      const next = this.queued[0]!;
      if (next.alone ? this.running > 0 : !this.laneOpens(next)) return;
      const batch = [this.queued.shift()!];
      if (batchable(next)) while (batch.length < MAX_BATCH && this.queued.length > 0 && batchable(this.queued[0]!)) batch.push(this.queued.shift()!);
      const lane = this.free.shift()!;
      this.running++;
      this.aloneRunning = next.alone;
      void this.runOn(lane, batch).finally(() => this.done(lane));
    }
  }

  /**
   * Whether `next` (the first write queued) starts now: on a free lane when none runs,
   * else only once it waited laneWaitMs or a full batch waits — until then the running
   * lanes' next batches take it. Arms the timer that asks again when it would have waited enough.
   */
  private laneOpens(next: Queued): boolean {
    if (this.free.length === 0) return false;
    if (this.running === 0 || this.queued.length >= MAX_BATCH) return true;
    const waited = performance.now() - next.at;
    if (waited >= this.laneWaitMs) return true;
    if (!this.laneTimer) {
      this.laneTimer = setTimeout(() => {
        this.laneTimer = undefined;
        this.pump();
      }, Math.ceil(this.laneWaitMs - waited));
      this.laneTimer.unref();
    }
    return false;
  }

  /**
   * The writes of `batch` on `lane`: in one transaction when there are several, in a
   * transaction of its own (with its retries) when there is one. When the shared one
   * failed for any reason but an unknown COMMIT, no write of it was saved, and each is
   * queued again to run alone: a write fails, or runs again, only for what it did itself.
   */
  private async runOn(lane: Lane, batch: Queued[]): Promise<void> {
    if (batch.length === 1) {
      const w = batch[0]!;
      await this.attempt(w.fn, w.claims, lane).then(w.resolve, w.reject);
    } else if (!(await this.attemptBatch(batch, lane))) {
      // Back to the head of the queue, each for a lane of its own (and so under the lanes'
      // rule for writes that keep failing: ALONE_AFTER).
      this.queued.unshift(...batch.map((w) => ({ ...w, single: true })));
    }
  }

  /** The writes of `batch` in one transaction; false when it did not commit (nothing of it was saved). */
  private async attemptBatch(batch: Queued[], lane: Lane): Promise<boolean> {
    const started = performance.now();
    const client = await this.pool.connect().catch(() => undefined);
    if (!client) return false; // each write alone then meets (and reports) the failure itself
    const tx = this.newTx(client);
    try {
      const values = await this.inTransaction(client, tx, false, lane, async () => {
        const out: unknown[] = [];
        for (const w of batch) out.push(await w.fn(tx));
        return out;
      });
      this.counters.writes += batch.length;
      batch.forEach((w, i) => w.resolve(values[i]));
      return true;
    } catch (err) {
      const outage = asStoreUnavailable(err);
      if (!outage) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release();
        return false;
      }
      client.release(err as Error);
      if (!tx.commitSent) return false;
      // The COMMIT was sent and never answered: every write of it may be saved (db.ts attempt).
      const unknown = new StoreUnavailable('commit_unknown', outage.detail);
      for (const w of batch) w.reject(unknown);
      return true;
    } finally {
      this.counters.busy_ms += performance.now() - started;
    }
  }

  private newTx(client: pgTypes.PoolClient): PgTx {
    return new PgTx(client, this.repos, this.counters, this.notices !== undefined);
  }

  /**
   * `run` (the statements of `tx`) as one transaction on `client`: BEGIN travels with its
   * first statement (pipelined; its answer is read before the COMMIT), then COMMIT, the
   * connection back to the pool and the after-commit work. Failures are the caller's (it
   * reads `tx.commitSent` and `tx.current`).
   */
  private async inTransaction<T>(client: pgTypes.PoolClient, tx: PgTx, claims: boolean, lane: Lane, run: () => Promise<T>): Promise<T> {
    this.counters.batches++;
    const begun = client.query(this.beginText(claims, lane)) as unknown as Promise<Array<pgTypes.QueryResult<{ slot: string }>>>;
    begun.catch(() => undefined);
    const value = await run();
    lane.slot ??= Number((await begun)[1]!.rows[0]!.slot);
    await tx.commit();
    client.release();
    this.startHooks(tx.hooks);
    return value;
  }

  /** Hold new writes back and wait until the write on `lane` is the only one running. */
  private drainFor(lane: Lane): Promise<void> {
    return new Promise((resolve) => {
      this.drainer = { lane, drained: resolve };
      if (this.running === 1) resolve();
    });
  }

  private done(lane: Lane): void {
    this.running--;
    if (this.drainer?.lane === lane) this.drainer = undefined;
    else if (this.drainer && this.running === 1) this.drainer.drained();
    this.aloneRunning = false;
    this.free.push(lane);
    this.free.sort((a, b) => a.index - b.index);
    this.pump();
  }

  /**
   * BEGIN and the transaction's settings, in one trip: the lane's rollup slot (taken from
   * the sequence on its first write) and, for a write that does not claim rows, plans
   * that may go generic (a statement run often is then planned once per connection;
   * claims and reads keep a plan made for their values: the pool's default).
   */
  private beginText(claims: boolean, lane: Lane): string {
    const slot = lane.slot === undefined ? `(nextval('payctl_rollup_slot') % ${ROLLUP_SLOTS})::text` : `'${lane.slot}'`;
    return claims
      ? `BEGIN ISOLATION LEVEL READ COMMITTED; SELECT set_config('payctl.rollup_slot', ${slot}, true) AS slot`
      : `BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT set_config('payctl.rollup_slot', ${slot}, true) AS slot, set_config('plan_cache_mode', 'auto', true)`;
  }

  private async attempt<T>(fn: (tx: Tx) => Promise<T>, claims: boolean, lane: Lane): Promise<T> {
    const started = performance.now();
    this.counters.writes++;
    let uniqueFailures = 0;
    let lostConnections = 0;
    try {
      for (let attempt = 1; ; attempt++) {
        const client = await this.pool.connect().catch((err: unknown) => {
          throw classifyStoreError(err);
        });
        // A connection reset while checked out fails its query; its error event has the
        // listener every pooled connection gets at connect (index.ts).
        const tx = this.newTx(client);
        try {
          return await this.inTransaction(client, tx, claims, lane, () => fn(tx));
        } catch (err) {
          const outage = asStoreUnavailable(err);
          if (outage) {
            client.release(err as Error); // not back into the pool: the connection is gone
            // The COMMIT was sent and never answered: the write may be saved. Never run again
            // here; the caller resolves it (an Idempotency-Key's record) or answers 503.
            if (tx.commitSent) throw new StoreUnavailable('commit_unknown', outage.detail);
            // Before COMMIT the server rolled the transaction back with its connection: run
            // it again on a new one (a terminated backend, a pooled connection a restart ended).
            if (!isLostConnection(err) || ++lostConnections >= MAX_LOST_CONNECTIONS) throw outage;
            continue;
          }
          await client.query('ROLLBACK').catch(() => undefined);
          client.release();
          const state = sqlState(err);
          const again =
            (state !== undefined && RETRYABLE.has(state) && attempt < MAX_ATTEMPTS) ||
            (state === UNIQUE_VIOLATION && ++uniqueFailures < MAX_UNIQUE_ATTEMPTS) ||
            (attempt < MAX_ATTEMPTS && isStalePlan(err));
          if (!again) throw err;
          const where = `${state} ${statementHead(tx.current || 'BEGIN')}`;
          this.retries[where] = (this.retries[where] ?? 0) + 1;
          if (attempt === ALONE_AFTER && !this.drainer && !this.aloneRunning) await this.drainFor(lane);
          // Apart again at random, a little longer each time (two writers on the same rows would collide again in step).
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

  writeTimer: ((ms: number) => void) | undefined;

  queuedWrites(): number {
    return this.queued.length;
  }

  stats(): WriterStats {
    return { busy_ms: this.counters.busy_ms, batches: this.counters.batches, writes: this.counters.writes, statements: this.counters.statements, by_kind: {}, retries: { ...this.retries } };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    clearTimeout(this.laneTimer);
    await this.notices?.close();
    await this.pool.end();
  }
}

/** A write that may share a transaction with others: one that claims rows runs READ COMMITTED, one queued `alone` by itself. */
function batchable(w: Queued): boolean {
  return !w.alone && !w.claims && !w.single;
}

/** The first words of a statement that say what it touches (`INSERT INTO transaction_daily`, `UPDATE subscriptions`). */
function statementHead(sql: string): string {
  const m = /^\s*(INSERT INTO|UPDATE|DELETE FROM|SELECT [\s\S]*? FROM|SELECT|COMMIT|BEGIN)\s*(\w*)/i.exec(sql);
  if (!m) return sql.trim().slice(0, 40);
  const verb = /^SELECT /i.test(m[1]!) && m[1]!.length > 6 ? 'SELECT … FROM' : m[1]!.toUpperCase();
  return `${verb} ${m[2] ?? ''}`.trim();
}
