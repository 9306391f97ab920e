// The budget of one chunk of catch-up work (DESIGN "Bounds: clock moves"). Work a clock
// move makes due — billing missed cycles and retries, settlement, auth expiry, past due —
// runs as a series of short write transactions: each stops taking on more once it has
// worked CHUNK_BUDGET_MS, commits, and the job yields before the next one, so the writes
// other groups queued meanwhile commit in between (in the next batch at the latest). A
// chunk is whole or absent after a kill -9, and every job reads what is still due from
// the database, so the next run (the server's tick, the next move) goes on from there.
import { performance } from 'node:perf_hooks';

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
