// A store outage on demand, on whichever store the suite runs: the platform under test
// opens `target`, `cut()` takes its store away and `restore()` gives it back.
// PostgreSQL: a TCP proxy in front of the test cluster (helpers/tcp-proxy.ts) closes —
// open connections reset, new ones refused. SQLite: another connection holds the write
// lock (BEGIN IMMEDIATE) past the platform's busy timeout, which `shortenBusyTimeout`
// lowers from 10 s so that a test need not wait it out: writes fail `locked`, reads go on
// (WAL). `outside(sql)` writes to the database meanwhile as another process still
// reaching it would (PostgreSQL: a connection around the proxy; SQLite: in the held
// transaction, committed at `restore()`), e.g. to move the clock so work falls due
// during the outage.
import './env.js';
import sqlite3 from 'sqlite3';
import { tempDbPath, isPgUrl } from './platform.js';
import { TcpProxy } from './tcp-proxy.js';
import type { Store } from '../../src/store/interfaces/db.js';

/** The platform's SQLite busy timeout during these tests (ms): a held lock is an outage after this. */
export const SHORT_BUSY_TIMEOUT_MS = 300;

export interface StoreOutage {
  /** The database itself (around any proxy). */
  db: string;
  /** What the platform under test opens (through the proxy on PostgreSQL). */
  target: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Run a statement on the database while it is cut, as another process reaching it would (`?` placeholders). */
  outside(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

export async function storeOutage(): Promise<StoreOutage> {
  const db = tempDbPath();
  if (isPgUrl(db)) {
    const cluster = new URL(process.env.PAYCTL_TEST_PG_URL!);
    const proxy = new TcpProxy({ host: cluster.hostname, port: Number(cluster.port) });
    await proxy.start();
    return {
      db,
      target: proxy.url(db),
      cut: () => proxy.stop(),
      restore: () => proxy.start(),
      async outside(sql, params = []) {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: db });
        await client.connect();
        try {
          let n = 0;
          await client.query(sql.replace(/\?/g, () => `$${++n}`), params);
        } finally {
          await client.end();
        }
      },
      close: () => proxy.stop(),
    };
  }
  let other: sqlite3.Database | undefined;
  const run = (sql: string, params: unknown[] = []) =>
    new Promise<void>((resolve, reject) => other!.run(sql, params, (err) => (err ? reject(err) : resolve())));
  const restore = async () => {
    if (!other) return;
    await run('COMMIT');
    await new Promise<void>((resolve) => other!.close(() => resolve()));
    other = undefined;
  };
  return {
    db,
    target: db,
    async cut() {
      other = await sqliteWriteLock(db);
    },
    restore,
    async outside(sql, params) {
      if (!other) throw new Error('outside() is for while the store is cut');
      await run(sql, params);
    },
    close: restore,
  };
}

/** SQLite's write lock taken by a connection of its own (BEGIN IMMEDIATE), as another process holding it; COMMIT or ROLLBACK and close it to let go. */
export async function sqliteWriteLock(file: string): Promise<sqlite3.Database> {
  const other = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => other.exec(sql, (err) => (err ? reject(err) : resolve())));
  // Asked again at once, not through SQLite's busy handler: its sleeps grow to 100 ms, and a
  // writer running chunks back to back takes the lock again in between — it won for 1.6 s
  // under load, long enough for the jobs a test meant to cut to finish first.
  await exec('PRAGMA busy_timeout = 0');
  for (const until = Date.now() + LOCK_WAIT_MS; ; ) {
    try {
      await exec('BEGIN IMMEDIATE');
      return other;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > until) throw err;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/** How long sqliteWriteLock tries for the lock before it fails. */
const LOCK_WAIT_MS = 10_000;

/** A SQLite store under test gives up on a held lock after SHORT_BUSY_TIMEOUT_MS (a no-op on PostgreSQL). */
export async function shortenBusyTimeout(store: Store): Promise<void> {
  if (store.dialect.name !== 'sqlite') return;
  await (store as import('../../src/store/sqlite/db.js').Database).execSchema(`PRAGMA busy_timeout = ${SHORT_BUSY_TIMEOUT_MS}`);
}
