// What a batch of the SQLite writer holds for its writes: each write's state, and the work
// the writes hand to the batch instead of running it at once (batch.ts sends it,
// batch-sql.ts writes its statements).
import type { BatchReducer, Check, Update } from '../interfaces/db.js';
import type { AfterCommitHook } from '../engine/write-tracking.js';

/** One queued write inside a batch. */
export class WriteState {
  savepoint = false;
  /** Set when the write failed (possibly after its function returned: a deferred row). */
  failed: { error: unknown } | undefined;
  value: unknown;
  hooks: AfterCommitHook[] = [];
  constructor(readonly index: number) {}
  get name(): string {
    return `w${this.index}`;
  }
}

/**
 * Work a write hands to the batch instead of running it at once, with the table it changes
 * (none for a check) and the row's id if one:
 * - `row`: one row to insert (consecutive rows of one table travel as one statement);
 * - `change`: a compare-and-set that must change exactly `changes` rows, else the write
 *   fails with `error()`;
 * - `check`: a SELECT that must find a row, else the write fails with `error()` (what
 *   the write read outside its transaction must still be there).
 */
export type Deferred = { owner: WriteState; table: string; id?: unknown } & (
  | { kind: 'row'; columns: readonly string[]; values: unknown[] }
  | { kind: 'change'; update: Update; params: unknown[]; changes: number; error: () => unknown }
  | { kind: 'check'; check: Check; params: unknown[]; error: () => unknown }
);

/** An item a write added to per-batch work (tx.accumulate). */
export interface Contribution {
  owner: WriteState;
  reducer: BatchReducer<unknown>;
  item: unknown;
}

/** A statement to send on the writer. */
export interface Statement {
  sql: string;
  params: unknown[];
}
