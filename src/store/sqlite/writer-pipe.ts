// The writer connection of the SQLite store: its statements run strictly in submission
// order, each started from the previous one's completion callback.
import { performance } from 'node:perf_hooks';
import type { Params } from '../interfaces/db.js';
import { Connection, type Done, type StatementKind } from './connection.js';

interface PipeOp {
  kind: StatementKind;
  sql: string;
  params: Params;
  done: Done<unknown>;
}

/**
 * The writer connection: statements run one at a time in the order they were submitted
 * (node-sqlite3 would run cached statements side by side, in no fixed order), the next
 * started from the previous one's completion callback. A statement that fails fails
 * every statement queued behind it unrun: a batch's later statements assume the
 * earlier ones (BEGIN, a flush of deferred rows, a savepoint) succeeded.
 */
export class WriterPipe extends Connection {
  private ops: PipeOp[] = [];
  private busy = false;
  statementsRun = 0;
  readonly byKind: Record<string, { n: number; ms: number }> = {};

  protected override submit<T>(kind: StatementKind, sql: string, params: Params): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.ops.push({ kind, sql, params, done: (err, v) => (err ? reject(err) : resolve(v as T)) });
      if (!this.busy) this.next();
    });
  }

  override exec(sql: string): Promise<void> {
    return this.submit<void>('exec', sql, []);
  }

  private next(): void {
    const op = this.ops.shift();
    if (!op) {
      this.busy = false;
      return;
    }
    this.busy = true;
    this.statementsRun++;
    const started = performance.now();
    this.start(op.kind, op.sql, op.params, (err, value) => {
      const kind = (/^\s*(\w+)/.exec(op.sql)?.[1] ?? '?').toUpperCase();
      const k = (this.byKind[kind] ??= { n: 0, ms: 0 });
      k.n++;
      k.ms += performance.now() - started;
      if (err) {
        for (const queued of this.ops.splice(0)) queued.done(err);
      }
      // The next statement starts before this one's caller continues.
      this.next();
      op.done(err, value);
    });
  }
}
