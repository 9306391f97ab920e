// The lanes of the PostgreSQL store's writes: a process runs up to `writers` writes at
// once, each lane on a connection of its own — a lane beside a running one only once a
// write waited `laneWaitMs` for it (or a full batch waits); a lane that frees takes the
// writes queued by then together (group commit, MAX_BATCH); a write queued `alone` waits
// for the running ones and runs by itself; and one that keeps failing (retry.ts
// ALONE_AFTER) runs again with the others drained (drainFor).
import { performance } from 'node:perf_hooks';
import type { Tx } from '../interfaces/db.js';

/** A lane of writes: one at a time on it, counting into its own rollup slot (taken from the sequence when it first writes). */
export interface Lane {
  readonly index: number;
  slot: number | undefined;
}

/** A write waiting for a lane. */
export interface Queued {
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

export class Lanes {
  readonly all: Lane[];
  /** Lanes not writing, lowest first: a quiet process writes through few lanes (so few slots). */
  private free: Lane[];
  readonly queued: Queued[] = [];
  private running = 0;
  private aloneRunning = false;
  /** The lane of a write that failed ALONE_AFTER times, waiting for the others to end before it runs again. */
  private drainer: { lane: Lane; drained: () => void } | undefined;
  /** Set while writes wait behind running lanes: fires when the first has waited laneWaitMs. */
  private laneTimer: NodeJS.Timeout | undefined;

  constructor(
    writers: number,
    private readonly laneWaitMs: number,
    /** Run `batch` on `lane` (the store's transaction). */
    private readonly run: (lane: Lane, batch: Queued[]) => Promise<void>,
  ) {
    this.all = Array.from({ length: Math.max(1, writers) }, (_, index) => ({ index, slot: undefined }));
    this.free = [...this.all];
  }

  /** The writes of a batch that failed, back to the head of the queue, each for a lane of its own. */
  requeueAlone(batch: Queued[]): void {
    this.queued.unshift(...batch.map((w) => ({ ...w, single: true })));
  }

  /**
   * Start queued writes, in the order queued, while a lane opens for them (an `alone` one
   * once none runs); the writes queued behind the first that may share its transaction go
   * with it (MAX_BATCH).
   */
  pump(): void {
    while (this.queued.length > 0 && !this.aloneRunning && !this.drainer) {
      const next = this.queued[0]!;
      if (next.alone ? this.running > 0 : !this.laneOpens(next)) return;
      const batch = [this.queued.shift()!];
      if (batchable(next)) while (batch.length < MAX_BATCH && this.queued.length > 0 && batchable(this.queued[0]!)) batch.push(this.queued.shift()!);
      const lane = this.free.shift()!;
      this.running++;
      this.aloneRunning = next.alone;
      void this.run(lane, batch).finally(() => this.done(lane));
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

  /** Hold new writes back and wait until the write on `lane` is the only one running (at most one write waits so). */
  drainFor(lane: Lane): Promise<void> {
    if (this.drainer || this.aloneRunning) return Promise.resolve();
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

  close(): void {
    clearTimeout(this.laneTimer);
  }
}

/** A write that may share a transaction with others: one that claims rows runs READ COMMITTED, one queued `alone` by itself. */
function batchable(w: Queued): boolean {
  return !w.alone && !w.claims && !w.single;
}
