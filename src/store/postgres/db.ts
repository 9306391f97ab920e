// The PostgreSQL store: a pool of connections (pg), reads on any of them, each write one
// transaction — or, while a lane is busy, the writes queued meanwhile one transaction
// together (group commit; one that fails runs each of them again alone). A process runs
// up to `writers` writes at once (lanes.ts, PAYCTL_PG_WRITERS): writes of one server meet
// as writes of different servers do, under SERIALIZABLE, and the one PostgreSQL gives up
// on (40001, 40P01) runs again, a bounded number of times (retry.ts; alone in the process
// after a few failures, so it cannot lose every time). Each lane counts into rollup and
// change-counter rows of its own (a slot, migration 27), so concurrent sales do not meet
// on one row. Background work that claims its rows (WriteOptions.claims: FOR UPDATE SKIP
// LOCKED) runs READ COMMITTED instead: its row locks, not SSI, keep writers apart. A
// write's statements, deferred work and events are pipelined (tx.ts): events are inserted
// last, the first under a transaction-scoped advisory lock of the writer's own
// (events.ts): a reader reads only up to the position every write holding such a lock has
// left final, so it never sees a later position before an earlier one (the live stream
// and Last-Event-ID never skip an event) and writers never wait for each other's COMMIT.
// Statements are prepared (named, sql.ts): each connection parses a text once.
import type pgTypes from 'pg';
import type { Params, Store, Tx, WriteOptions, WriterStats } from '../interfaces/db.js';
import type { Repositories } from '../interfaces/store.js';
import { isStalePlan, pgQuery } from './sql.js';
import { pgDialect } from './dialect.js';
import type { PgNotices } from './notices.js';
import type { SharedServerState } from '../interfaces/shared.js';
import { asStoreUnavailable, classifyStoreError, StoreUnavailable } from '../errors.js';
import { sharedRead, type SharedRead } from '../shared-read.js';
import { AfterCommitWork, WriterCounters, writeEnded, type WriteTimer } from '../engine/write-tracking.js';
import { causeOf, PgTx } from './tx.js';
import { Lanes, type Lane, type Queued } from './lanes.js';
import { ALONE_AFTER, backOff, isLostConnection, retryKey, Retries } from './retry.js';

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
  private readonly afterCommitWork = new AfterCommitWork();
  private readonly counters = new WriterCounters();
  private readonly retries: Record<string, number> = {};
  private readonly lanes: Lanes;
  /** Writes queued or running (close waits for them). */
  private readonly inFlight = new Set<Promise<unknown>>();

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
     * a slow flush) or a full batch (lanes.ts MAX_BATCH) waits.
     */
    readonly laneWaitMs = 0,
  ) {
    this.lanes = new Lanes(writers, laneWaitMs, (lane, batch) => this.runOn(lane, batch));
  }

  /** The rollup slots this process's lanes counted into so far. */
  get rollupSlots(): number[] {
    return this.lanes.all.flatMap((l) => (l.slot === undefined ? [] : [l.slot]));
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
      this.lanes.queued.push({ fn, alone: opts?.alone === true, claims, resolve: resolve as (value: unknown) => void, reject, at });
    });
    const timer = this.writeTimer;
    const tracked: Promise<unknown> = run.catch(() => undefined).finally(() => {
      writeEnded(timer, at);
      this.inFlight.delete(tracked);
    });
    this.inFlight.add(tracked);
    this.lanes.pump();
    return run;
  }

  /** The writes of `batch` on `lane`; those of a shared transaction that did not commit, again each alone. */
  private async runOn(lane: Lane, batch: Queued[]): Promise<void> {
    // Back to the head of the queue, each for a lane of its own (and so under the lanes'
    // rule for writes that keep failing: ALONE_AFTER).
    if (!(await this.inTransaction(lane, batch))) this.lanes.requeueAlone(batch);
  }

  /**
   * The writes of `batch` as one transaction on `lane`, each resolved (or rejected) once
   * it is known: BEGIN travels with the first statement (pipelined; its answer is read
   * before the COMMIT), then COMMIT, the connection back to the pool and the after-commit
   * work. A write alone runs again when PostgreSQL gave it up (retry.ts) or its connection
   * was lost before COMMIT. Writes sharing a transaction that failed for any reason but
   * an unknown COMMIT saved nothing: false, and each runs again alone — a write fails, or
   * runs again, only for what it did itself.
   */
  private async inTransaction(lane: Lane, batch: readonly Queued[]): Promise<boolean> {
    const started = performance.now();
    const shared = batch.length > 1;
    if (!shared) this.counters.writes++;
    const retries = new Retries();
    try {
      for (let attempt = 1; ; attempt++) {
        let client: pgTypes.PoolClient;
        try {
          client = await this.pool.connect();
        } catch (err) {
          if (shared) return false; // each write alone then meets (and reports) the failure itself
          throw classifyStoreError(err);
        }
        // A connection reset while checked out fails its query; its error event has the
        // listener every pooled connection gets at connect (index.ts).
        const tx = new PgTx(client, this.repos, this.counters, this.notices !== undefined);
        try {
          this.counters.batches++;
          const begun = client.query(this.beginText(batch[0]!.claims, lane)) as unknown as Promise<Array<pgTypes.QueryResult<{ slot: string }>>>;
          begun.catch(() => undefined);
          const values: unknown[] = [];
          for (const w of batch) values.push(await w.fn(tx));
          lane.slot ??= Number((await begun)[1]!.rows[0]!.slot);
          await tx.commit();
          client.release();
          this.afterCommitWork.start(tx.hooks);
          if (shared) this.counters.writes += batch.length;
          batch.forEach((w, i) => w.resolve(values[i]));
          return true;
        } catch (caught) {
          const err = causeOf(caught, tx);
          const outage = asStoreUnavailable(err);
          if (outage) {
            client.release(err as Error); // not back into the pool: the connection is gone
            // The COMMIT was sent and never answered: the writes may be saved. Never run again
            // here; the caller resolves it (an Idempotency-Key's record) or answers 503.
            if (tx.commitSent) throw new StoreUnavailable('commit_unknown', outage.detail);
            if (shared) return false;
            // Before COMMIT the server rolled the transaction back with its connection: run
            // it again on a new one (a terminated backend, a pooled connection a restart ended).
            if (!retries.againOnNewConnection(err)) throw outage;
            continue;
          }
          await client.query('ROLLBACK').catch(() => undefined);
          client.release();
          if (shared) return false;
          if (!retries.again(err, attempt)) throw err;
          const where = retryKey(err, tx.current);
          this.retries[where] = (this.retries[where] ?? 0) + 1;
          if (attempt === ALONE_AFTER) await this.lanes.drainFor(lane);
          await backOff(attempt);
        }
      }
    } catch (err) {
      for (const w of batch) w.reject(err);
      return true;
    } finally {
      this.counters.busySince(started);
    }
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

  afterCommitSettled(): Promise<void> {
    return this.afterCommitWork.settled();
  }

  writeTimer: WriteTimer | undefined;

  queuedWrites(): number {
    return this.lanes.queued.length;
  }

  stats(): WriterStats {
    return this.counters.stats({ by_kind: {}, retries: { ...this.retries } });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    this.lanes.close();
    await this.notices?.close();
    await this.pool.end();
  }
}
