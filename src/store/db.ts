// The embedded SQLite database (node-sqlite3). Two connections: a reader for queries
// (WAL lets it read while the writer writes) and a writer that owns every write
// transaction. Writes go through one queue and the writes that arrive together share
// one transaction (group commit): durability (synchronous=FULL) costs one fsync per
// batch, not per request, and two async transactions can never interleave on one
// connection. Each queued write runs in its own SAVEPOINT, so one failing write rolls
// back only itself.
import type sqlite3Types from 'sqlite3';

export type Params = ReadonlyArray<unknown> | Record<string, unknown>;

export interface RunResult {
  changes: number;
}

/** What repositories read through: the read connection, or a write transaction. */
export interface Executor {
  get<T>(sql: string, params?: Params): Promise<T | undefined>;
  all<T>(sql: string, params?: Params): Promise<T[]>;
}

/** A write transaction: the only way to change the database. Also takes callbacks to run after the commit. */
export interface Tx extends Executor {
  run(sql: string, params?: Params): Promise<RunResult>;
  afterCommit(fn: () => void | Promise<void>): void;
}

/** What a request reads and writes: reads on the read connection, writes through one queue. */
export interface Store extends Executor {
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

interface QueuedWrite {
  fn: (tx: Tx) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

const MIN_SQLITE = [3, 51, 3];
const MAX_BATCH = 256;
const MAX_CACHED = 500;

class Connection {
  // The pending prepare is cached, so two first uses of one SQL text share one statement.
  private statements = new Map<string, Promise<sqlite3Types.Statement>>();
  constructor(readonly raw: sqlite3Types.Database) {}

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.raw.exec(sql, (err) => (err ? reject(err) : resolve())));
  }

  private statement(sql: string): Promise<sqlite3Types.Statement> {
    let pending = this.statements.get(sql);
    if (!pending) {
      pending = new Promise<sqlite3Types.Statement>((resolve, reject) => {
        const stmt = this.raw.prepare(sql, (err) => (err ? reject(err) : resolve(stmt)));
      });
      this.statements.set(sql, pending);
      // A statement that fails to prepare is not kept (the next call reports the error again).
      pending.catch(() => this.statements.delete(sql));
    }
    return pending;
  }

  /** Cache up to MAX_CACHED statements; SQL texts past that (e.g. filter lists of varying length) run uncached. */
  private cacheable(sql: string): boolean {
    return this.statements.has(sql) || this.statements.size < MAX_CACHED;
  }

  async run(sql: string, params: Params = []): Promise<RunResult> {
    const done = (resolve: (r: RunResult) => void, reject: (e: Error) => void) =>
      function (this: sqlite3Types.RunResult, err: Error | null) {
        if (err) reject(err);
        else resolve({ changes: this.changes });
      };
    if (!this.cacheable(sql)) return new Promise((resolve, reject) => this.raw.run(sql, params, done(resolve, reject)));
    const stmt = await this.statement(sql);
    return new Promise((resolve, reject) => stmt.run(params as unknown[], done(resolve, reject)));
  }

  async all<T>(sql: string, params: Params = []): Promise<T[]> {
    const done = (resolve: (rows: T[]) => void, reject: (e: Error) => void) => (err: Error | null, rows: T[]) =>
      err ? reject(err) : resolve(rows);
    if (!this.cacheable(sql)) return new Promise((resolve, reject) => this.raw.all(sql, params, done(resolve, reject)));
    const stmt = await this.statement(sql);
    // `all` steps the statement to the end and resets it, so no read snapshot stays open.
    return new Promise((resolve, reject) => stmt.all(params as unknown[], done(resolve, reject)));
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
    await new Promise<void>((resolve, reject) => this.raw.close((err) => (err ? reject(err) : resolve())));
  }
}

function openRaw(sqlite3: typeof sqlite3Types, path: string): Promise<sqlite3Types.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE, (err) =>
      err ? reject(err) : resolve(db),
    );
  });
}

function isBusy(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && (err as { code: string }).code === 'SQLITE_BUSY';
}

export class Database implements Store {
  private queue: QueuedWrite[] = [];
  private draining: Promise<void> | null = null;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly writer: Connection,
    private readonly reader: Connection,
  ) {}

  static async open(path: string): Promise<Database> {
    const { default: sqlite3 } = await import('sqlite3');
    const writerRaw = await openRaw(sqlite3, path);
    const writer = new Connection(writerRaw);
    const version = (await writer.get<{ v: string }>('SELECT sqlite_version() AS v'))!.v;
    assertSqliteVersion(version);
    await writer.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;',
    );
    const reader = new Connection(await openRaw(sqlite3, path));
    await reader.exec('PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000; PRAGMA query_only = ON;');
    return new Database(path, writer, reader);
  }

  get<T>(sql: string, params?: Params): Promise<T | undefined> {
    return this.reader.get<T>(sql, params);
  }
  all<T>(sql: string, params?: Params): Promise<T[]> {
    return this.reader.all<T>(sql, params);
  }

  /** Run schema statements outside the queue (migrations, at open time only). */
  execSchema(sql: string): Promise<void> {
    return this.writer.exec(sql);
  }

  /**
   * Run `fn` inside a write transaction. Resolves only after the commit, so an
   * acknowledged write is durable. `fn` must use only `tx` (never `db.write` again).
   */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('database is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      // A write queued after the loop saw an empty queue but before this ran.
      if (this.queue.length > 0) this.kick();
    });
  }

  private async begin(): Promise<void> {
    // busy_timeout already waits 10 s for another process; keep waiting past that
    // rather than surfacing SQLITE_BUSY to a caller.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.writer.exec('BEGIN IMMEDIATE');
      } catch (err) {
        if (!isBusy(err) || attempt >= 5) throw err;
      }
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      const afterCommit: Array<() => void | Promise<void>> = [];
      try {
        await this.begin();
      } catch (error) {
        for (const item of batch) item.reject(error);
        continue;
      }
      for (const item of batch) {
        const hooks: Array<() => void | Promise<void>> = [];
        const tx: Tx = {
          run: (s, p) => this.writer.run(s, p),
          get: (s, p) => this.writer.get(s, p),
          all: (s, p) => this.writer.all(s, p),
          afterCommit: (fn) => hooks.push(fn),
        };
        // Savepoints stay open until COMMIT (no RELEASE per write): ROLLBACK TO w undoes
        // only the newest savepoint named w, this write's, and skipping the RELEASE saves
        // one of the few SQLite round trips a write costs on the one writer connection
        // (the writer is the bottleneck of concurrent sales).
        await this.writer.exec('SAVEPOINT w');
        try {
          const value = await item.fn(tx);
          outcomes.push({ ok: true, value });
          afterCommit.push(...hooks);
        } catch (error) {
          await this.writer.exec('ROLLBACK TO w');
          outcomes.push({ ok: false, error });
        }
      }
      try {
        await this.writer.exec('COMMIT');
      } catch (error) {
        await this.writer.exec('ROLLBACK').catch(() => undefined);
        for (const item of batch) item.reject(error);
        continue;
      }
      batch.forEach((item, i) => {
        const o = outcomes[i]!;
        if (o.ok) item.resolve(o.value);
        else item.reject(o.error);
      });
      // After-commit work (e.g. SMTP delivery) runs outside this loop: it may take seconds
      // and may write its outcome, a write that would queue behind the loop awaiting it.
      for (const hook of afterCommit) {
        void Promise.resolve()
          .then(hook)
          .catch(() => undefined); // it records its own failures
      }
    }
  }

  /** Wait for queued writes, then close both connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.draining) await this.draining;
    await this.reader.close();
    // A checkpoint on close merges the WAL into the main file.
    await this.writer.exec('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => undefined);
    await this.writer.close();
  }
}

export function assertSqliteVersion(version: string): void {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const have = parts[i] ?? 0;
    const need = MIN_SQLITE[i]!;
    if (have > need) return;
    if (have < need) {
      throw new Error(
        `SQLite ${version} is too old: payctl needs ${MIN_SQLITE.join('.')} or newer (WAL-reset corruption fix). Reinstall sqlite3 (npm rebuild sqlite3).`,
      );
    }
  }
}
