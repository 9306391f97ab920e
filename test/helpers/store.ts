// The suite's database seen from outside the platform under test, on whichever store
// the suite runs: a second store on it (as another process would open it), a hold on
// its writes, its tables read whole, and the files its data lives in.
import './env.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Store } from '../../src/store/interfaces/db.js';
import { isPgUrl } from './platform.js';

/** The database opened as a store of its own (migrated, as `openPlatform` would find it); a PostgreSQL store's settings read from `env`. */
export async function openStore(db: string, env: Record<string, string | undefined> = process.env): Promise<Store> {
  if (isPgUrl(db)) return (await import('../../src/store/postgres/index.js')).openPostgresStore(db, env);
  return (await import('../../src/store/sqlite/index.js')).openSqliteStore(db);
}

/** A PostgreSQL client on `db` (a URL), connected. */
async function pgClient(db: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  return client;
}

/**
 * Hold the database so that the platform's writes wait until `release`: SQLite's write
 * lock from a second connection; on PostgreSQL, from a second connection, a SHARE lock
 * on the event log (every write that records an event waits for it at its events'
 * INSERT; reads of the log go on). Resolves once held.
 */
export async function holdWrites(db: string): Promise<{ release(): Promise<void> }> {
  if (isPgUrl(db)) {
    const client = await pgClient(db);
    await client.query('BEGIN');
    await client.query('LOCK TABLE events IN SHARE MODE');
    return {
      async release() {
        await client.query('COMMIT');
        await client.end();
      },
    };
  }
  const { Database } = await import('../../src/store/sqlite/db.js');
  const other = await Database.open(db);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const lock = other.write(async () => {
    locked();
    await held;
  });
  await isLocked;
  return {
    async release() {
      release();
      await lock;
      await other.close();
    },
  };
}

/** The names of the store's own tables (not the engine's catalogue), sorted. */
export async function tableNames(store: Store): Promise<string[]> {
  const rows =
    store.dialect.name === 'postgres'
      ? await store.all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")
      : await store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  return rows.map((r) => r.name).sort();
}

/** Every row of a table, as the store reads it. */
export function tableRows(store: Store, name: string): Promise<Array<Record<string, unknown>>> {
  return store.all<Record<string, unknown>>(`SELECT * FROM "${name.replace(/"/g, '""')}"`);
}

/** A cell as text: a JSON document the driver parsed is its JSON text again, bytes as latin1. */
export function cellText(v: unknown): string {
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (typeof v === 'object' && v !== null) return JSON.stringify(v);
  return String(v);
}

/**
 * The files the database's data is in, to search as raw bytes (deleted rows linger in
 * them): the SQLite file and its -wal; on PostgreSQL, after a CHECKPOINT (so every page
 * is on disk), the files of this database's tables, TOAST tables and indexes — those
 * this process may read (the cluster of the tests runs as another user when we are not
 * root). Needs a superuser on PostgreSQL (the test cluster's user is one).
 */
export async function dataFiles(db: string): Promise<string[]> {
  if (!isPgUrl(db)) return [db, `${db}-wal`].filter((f) => existsSync(f));
  const client = await pgClient(db);
  try {
    await client.query('CHECKPOINT');
    const dir = (await client.query<{ d: string }>("SELECT current_setting('data_directory') AS d")).rows[0]!.d;
    // The schema's tables and indexes, their TOAST tables and those tables' indexes.
    const rels = await client.query<{ f: string }>(
      `WITH own AS (SELECT c.oid, c.reltoastrelid FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'i', 'm')),
            toast AS (SELECT reltoastrelid AS oid FROM own WHERE reltoastrelid <> 0)
       SELECT pg_relation_filepath(oid) AS f FROM own
       UNION ALL SELECT pg_relation_filepath(oid) FROM toast
       UNION ALL SELECT pg_relation_filepath(i.indexrelid) FROM pg_index i JOIN toast ON i.indrelid = toast.oid`,
    );
    // A relation with no storage of its own (a partitioned table) has no path.
    return rels.rows.filter((r) => r.f !== null).map((r) => path.join(dir, r.f)).filter((f) => existsSync(f));
  } finally {
    await client.end();
  }
}

/**
 * The database is whole (after a kill -9): SQLite's integrity_check. PostgreSQL keeps
 * its pages whole through a crash by its own WAL and has no such check built in
 * (amcheck is an extension): nothing to ask it there.
 */
export async function assertIntact(store: Store, label = 'integrity_check'): Promise<void> {
  if (store.dialect.name !== 'sqlite') return;
  const rows = await store.all('PRAGMA integrity_check');
  if (JSON.stringify(rows) !== JSON.stringify([{ integrity_check: 'ok' }])) throw new Error(`${label}: ${JSON.stringify(rows)}`);
}

/**
 * Make `store` (the platform's own) refuse writes, or take them again (`on` false), as
 * a read-only disk or database does: SQLite's writer connection goes query-only
 * (SQLITE_READONLY); on PostgreSQL the database's new sessions are read-only (25006) and
 * the open ones are ended, so every write meets it.
 */
export async function refuseWrites(store: Store, db: string, on: boolean): Promise<void> {
  if (!isPgUrl(db)) {
    await (store as import('../../src/store/sqlite/db.js').Database).execSchema(`PRAGMA query_only = ${on ? 'ON' : 'OFF'}`);
    return;
  }
  const name = new URL(db).pathname.slice(1);
  const admin = new URL(db);
  admin.pathname = '/postgres';
  const client = await pgClient(admin.toString());
  try {
    const ident = client.escapeIdentifier(name);
    await client.query(on ? `ALTER DATABASE ${ident} SET default_transaction_read_only = on` : `ALTER DATABASE ${ident} RESET default_transaction_read_only`);
    await endSessions(client, name);
  } finally {
    await client.end();
  }
}

/** End every session on database `name` but `client`'s (pg_terminate_backend: 57P01 to each). Returns how many. */
export async function endSessions(client: { query(sql: string, params?: unknown[]): Promise<{ rows: Array<{ ended: boolean }> }> }, name: string): Promise<number> {
  const { rows } = await client.query('SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  return rows.filter((r) => r.ended).length;
}
