// The PostgreSQL store: a pool on the URL (the database made if it does not exist yet),
// the migrations applied once under an advisory lock (two servers starting together
// migrate once), and integers, JSON and instants read back as the repositories read them
// on SQLite (numbers, JSON text, ISO-8601 UTC text: ./types.ts).
import pg from 'pg';
import type { Store } from '../interfaces/db.js';
import { DbTargetError, redactUrl } from '../../config/env.js';
import { PgDatabase } from './db.js';
import { migratePg } from './migrate.js';
import { postgresRepositories } from './repositories.js';
import { sqlState } from './sql.js';
import { PgNotices } from './notices.js';
import { pgTypes, SESSION_OPTIONS } from './types.js';
import { PgSharedState } from './shared.js';

const POOL_SIZE = 10;

export async function openPostgresStore(url: string): Promise<Store> {
  await ensureDatabase(url);
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types: pgTypes, options: SESSION_OPTIONS });
  // An idle connection the server dropped must not take the process down.
  pool.on('error', () => undefined);
  const db = new PgDatabase(pool, redactUrl(url), postgresRepositories, new PgNotices({ connectionString: url }), new PgSharedState(pool));
  try {
    const { to } = await migratePg(db);
    db.schemaVersion = to;
    db.rollupSlot = await rollupSlot(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/** Create the URL's database when the server has none of that name (3D000), through the server's `postgres` database. */
async function ensureDatabase(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (err) {
    if (sqlState(err) !== '3D000') {
      throw new DbTargetError(`--db ${redactUrl(url)}: cannot connect to PostgreSQL (${(err as Error).message || String(err)})`);
    }
  } finally {
    await probe.end().catch(() => undefined);
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)} TEMPLATE template0 ENCODING 'UTF8'`);
  } catch (err) {
    // Made meanwhile by another process (42P04, or 23505 when both created it at once).
    if (sqlState(err) !== '42P04' && sqlState(err) !== '23505') throw err;
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** Slots of the rollups and change counters (migration 27): servers started one after another get different ones, up to this many. */
const ROLLUP_SLOTS = 16;

async function rollupSlot(db: PgDatabase): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT nextval(\'payctl_rollup_slot\') AS n');
  return Number(row?.n ?? 0) % ROLLUP_SLOTS;
}
