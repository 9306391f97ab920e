// What both stores' writers keep the same way (src/store/sqlite/db.ts, src/store/postgres/db.ts):
// the work a write hands over to run after its COMMIT, the writer's counters, and the
// metrics' timing of each write from queued to done.
import { performance } from 'node:perf_hooks';
import type { WriterStats } from '../interfaces/db.js';

/** A write's `tx.afterCommit` callback. */
export type AfterCommitHook = () => void | Promise<void>;

/**
 * After-commit work (e.g. SMTP delivery) runs outside the writer: it may take seconds and
 * may write its outcome, a write that would queue behind a writer awaiting it. It is
 * tracked so that `settled()` (the store's afterCommitSettled) can wait for it.
 */
export class AfterCommitWork {
  private readonly running = new Set<Promise<void>>();

  start(hooks: readonly AfterCommitHook[]): void {
    for (const hook of hooks) {
      const work = Promise.resolve()
        .then(hook)
        .catch(() => undefined) // it records its own failures
        .finally(() => this.running.delete(work));
      this.running.add(work);
    }
  }

  /** Resolves once the work started so far (and any it started in turn) has finished. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}

/** The writer's counters (WriterStats without what only one store counts). */
export class WriterCounters {
  busy_ms = 0;
  batches = 0;
  writes = 0;
  statements = 0;

  /** Add the time since `started` (performance.now()) to busy_ms. */
  busySince(started: number): void {
    this.busy_ms += performance.now() - started;
  }

  stats(extra: Pick<WriterStats, 'by_kind'> & Partial<Pick<WriterStats, 'statements' | 'retries'>>): WriterStats {
    const out: WriterStats = { busy_ms: this.busy_ms, batches: this.batches, writes: this.writes, statements: extra.statements ?? this.statements, by_kind: extra.by_kind };
    if (extra.retries) out.retries = extra.retries;
    return out;
  }
}

/** The store's `writeTimer` (metrics), told the ms from `queuedAt` (performance.now()) when the write ends. */
export type WriteTimer = (ms: number) => void;

export function writeEnded(timer: WriteTimer | undefined, queuedAt: number): void {
  timer?.(performance.now() - queuedAt);
}
