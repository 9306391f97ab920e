// The budget of one chunk of catch-up work (docs/decisions.md#clock-moves). Work a clock
// move makes due — billing missed cycles and retries, settlement, auth expiry, past due —
// runs as a series of short write transactions: each stops taking on more once it has
// worked CHUNK_BUDGET_MS, commits, and the job yields before the next one, so the writes
// other groups queued meanwhile commit in between (in the next batch at the latest). A
// chunk is whole or absent after a kill -9, and every job reads what is still due from
// the database, so the next run (the server's tick, the next move) goes on from there.
import { performance } from 'node:perf_hooks';
import type { WriteOptions } from '../../store/interfaces/db.js';

/** Told how far a long job is (chunks done of the total, what it is working on): the CLI's bar, a catch-up's report. */
export type Progress = (done: number, total: number, label: string) => void;

/**
 * How a chunk is queued on the writer: in a transaction of its own, so no request's write
 * shares (and waits out) its budget; and it claims the rows it works on, so several
 * servers running the same job take different rows (store/sql/dialect.ts).
 */
export const CHUNK_WRITE: WriteOptions = { alone: true, claims: true };

/** Work one chunk may do inside its write transaction before it commits (ms). */
export const CHUNK_BUDGET_MS = 20;

/** The moment (performance.now() ms) the chunk starting now should stop taking on work. */
export function chunkDeadline(budgetMs = CHUNK_BUDGET_MS): number {
  return performance.now() + budgetMs;
}

/** Whether the chunk is over its budget. */
export function pastDeadline(deadline: number): boolean {
  return performance.now() >= deadline;
}

/** Let I/O callbacks (other requests) run before the next chunk is queued. */
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What the pacer reads of the database: how many writes it has committed (any store that counts them). */
interface WriteCounter {
  stats?(): { writes: number };
}

/**
 * Paces a job's chunks: between two chunks it yields, and when other writes committed
 * while the chunk ran (other requests are active), it also rests as long as the chunk
 * ran (at most 2 × CHUNK_BUDGET_MS), so a catch-up takes at most about half of the
 * process's time (its main thread and its writer) while others need them, and all of it
 * when nobody does.
 */
export class Pacer {
  private started = 0;
  private writes = 0;
  constructor(private readonly db: WriteCounter) {}

  /** Before a chunk. */
  start(): void {
    this.started = performance.now();
    this.writes = this.db.stats?.().writes ?? 0;
  }

  /** After a chunk. */
  async rest(): Promise<void> {
    const others = (this.db.stats?.().writes ?? 0) - this.writes - 1;
    if (others <= 0) return yieldToOthers();
    const ran = performance.now() - this.started;
    await new Promise((resolve) => setTimeout(resolve, Math.min(ran, 2 * CHUNK_BUDGET_MS)));
  }
}
