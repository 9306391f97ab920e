// One node-sqlite3 connection with a cache of prepared statements: the store's reader, and
// the base of the writer (writer-pipe.ts), which starts each statement from the previous
// one's completion callback.
import type sqlite3Types from 'sqlite3';
import type { Params, RunResult, SqlReader } from '../interfaces/db.js';

const MAX_CACHED = 500;

export type StatementKind = 'run' | 'all' | 'exec';
export type Done<T> = (err: Error | null, value?: T) => void;

export class Connection implements SqlReader {
  // The pending prepare is cached, so two first uses of one SQL text share one statement.
  private statements = new Map<string, Promise<sqlite3Types.Statement>>();
  // Prepared statements, for a synchronous start from a completion callback.
  protected ready = new Map<string, sqlite3Types.Statement>();
  constructor(readonly raw: sqlite3Types.Database) {}

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.raw.exec(sql, (err) => (err ? reject(err) : resolve())));
  }

  protected statement(sql: string): Promise<sqlite3Types.Statement> {
    let pending = this.statements.get(sql);
    if (!pending) {
      pending = new Promise<sqlite3Types.Statement>((resolve, reject) => {
        const stmt = this.raw.prepare(sql, (err) => {
          if (err) return reject(err);
          this.ready.set(sql, stmt);
          resolve(stmt);
        });
      });
      this.statements.set(sql, pending);
      // A statement that fails to prepare is not kept (the next call reports the error again).
      pending.catch(() => this.statements.delete(sql));
    }
    return pending;
  }

  /** Cache up to MAX_CACHED statements; SQL texts past that (e.g. filter lists of varying length) run uncached. */
  protected cacheable(sql: string): boolean {
    return this.statements.has(sql) || this.statements.size < MAX_CACHED;
  }

  /** Start one statement now; `done` is called from node-sqlite3's completion callback. */
  protected start(kind: StatementKind, sql: string, params: Params, done: Done<unknown>): void {
    if (kind === 'exec') {
      this.raw.exec(sql, (err) => done(err));
      return;
    }
    const onRun = function (this: sqlite3Types.RunResult, err: Error | null) {
      done(err, err ? undefined : { changes: this.changes });
    };
    const onAll = (err: Error | null, rows: unknown[]) => done(err, rows);
    const stmt = this.ready.get(sql);
    if (stmt) {
      // `all` steps the statement to the end and resets it, so no read snapshot stays open.
      if (kind === 'run') stmt.run(params as unknown[], onRun);
      else stmt.all(params as unknown[], onAll);
    } else if (!this.cacheable(sql)) {
      if (kind === 'run') this.raw.run(sql, params, onRun);
      else this.raw.all(sql, params, onAll);
    } else {
      this.statement(sql).then(
        () => this.start(kind, sql, params, done),
        (err: Error) => done(err),
      );
    }
  }

  protected submit<T>(kind: StatementKind, sql: string, params: Params): Promise<T> {
    return new Promise<T>((resolve, reject) => this.start(kind, sql, params, (err, v) => (err ? reject(err) : resolve(v as T))));
  }

  run(sql: string, params: Params = []): Promise<RunResult> {
    return this.submit<RunResult>('run', sql, params);
  }
  all<T>(sql: string, params: Params = []): Promise<T[]> {
    return this.submit<T[]>('all', sql, params);
  }
  async get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async close(): Promise<void> {
    for (const pending of this.statements.values()) {
      const stmt = await pending.catch(() => undefined);
      if (stmt) await new Promise<void>((r) => stmt.finalize(() => r()));
    }
    this.statements.clear();
    this.ready.clear();
    await new Promise<void>((resolve, reject) => this.raw.close((err) => (err ? reject(err) : resolve())));
  }
}

export function openRaw(sqlite3: typeof sqlite3Types, path: string): Promise<sqlite3Types.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE, (err) =>
      err ? reject(err) : resolve(db),
    );
  });
}
