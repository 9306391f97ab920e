// The PostgreSQL store: a pool on the URL (the database made if it does not exist yet),
// the migrations applied once under an advisory lock (two servers starting together
// migrate once), and integers, JSON and instants read back as the repositories read them
// on SQLite (numbers, JSON text, ISO-8601 UTC text: ./types.ts).
import pg from 'pg';
import type { Store } from '../interfaces/db.js';
import { DbTargetError, ENV, envInteger, redactUrl, type Env } from '../../config/env.js';
import { PgDatabase } from './db.js';
import { migratePg } from './migrate.js';
import { postgresRepositories } from './repositories.js';
import { sqlState } from './sql.js';
import { asStoreUnavailable } from '../errors.js';
import { PgNotices } from './notices.js';
import { pgTypes, SESSION_OPTIONS } from './types.js';
import { PgSharedState } from './shared.js';
import { tickCorkedStream } from './socket.js';

const POOL_SIZE = 10;
/** Connections kept for reads beside the writes (a write may read on the store's reader while it runs). */
const READ_CONNECTIONS = 2;
/** How long a query waits for a pool connection (all busy, or the server slow to accept) before it fails. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Writes a process runs at once at most (PAYCTL_PG_WRITERS; its range and default, and why,
 * in config/env.ts ENV_INTEGERS). A write that keeps failing on SERIALIZABLE's predicate
 * locks runs again alone (retry.ts ALONE_AFTER), so many lanes do not starve one.
 */
export function pgWriters(env: Env = process.env): number {
  return envInteger(env, ENV.pgWriters);
}

/** How long a write waits for a busy lane before another opens (PAYCTL_PG_LANE_WAIT_MS; lanes.ts laneOpens). */
export function pgLaneWaitMs(env: Env = process.env): number {
  return envInteger(env, ENV.pgLaneWaitMs);
}

/** The store at `url`, its settings (writers, lane wait) read from `env`: the platform's, or the process's. */
export async function openPostgresStore(url: string, env: Env = process.env): Promise<Store> {
  await ensureDatabase(url);
  const writers = pgWriters(env);
  const pool = new pg.Pool({
    connectionString: url,
    max: Math.max(POOL_SIZE, writers + READ_CONNECTIONS),
    types: pgTypes,
    // Statements are prepared (sql.ts) but planned for their values, as unprepared ones
    // are: a generic plan of a claim or a report can be far worse for the values it runs
    // with. Writes that claim nothing allow generic plans (db.ts, at BEGIN). Sessions in
    // UTC with ISO dates (types.ts).
    options: `${SESSION_OPTIONS} -c plan_cache_mode=force_custom_plan`,
    // A write's statements are sent without waiting for each answer (tx.ts): one trip for a sale.
    pipeline: true,
    stream: tickCorkedStream,
    // A request never waits on the pool without bound: past this it is a 503 (pool_exhausted).
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle connection the server dropped must not take the process down.
  pool.on('error', () => undefined);
  // Nor one the server ended just as it was handed out: the pool takes its idle listener
  // off at checkout and calls back in the same parse of the socket's bytes, so an error
  // that came in the same packet as the connection's first ReadyForQuery (a backend
  // ended by pg_terminate_backend or a restart right after connecting) would be emitted
  // with no listener at all — an uncaught exception. Every connection keeps this one; the
  // query that then finds it unusable fails and is classified (src/store/errors.ts).
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new PgDatabase(pool, redactUrl(url), postgresRepositories, new PgNotices({ connectionString: url }), new PgSharedState(pool), writers, pgLaneWaitMs(env));
  try {
    const { to } = await migratePg(db);
    db.schemaVersion = to;
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
      // The outage it is, if one (payctl serve waits for the store to come up: cli/wait-for-store.ts).
      const outage = asStoreUnavailable(err);
      throw new DbTargetError(`--db ${redactUrl(url)}: cannot connect to PostgreSQL (${(err as Error).message || String(err)})`, outage ? { cause: outage } : undefined);
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
