// Lanes that open on need (src/store/postgres/lanes.ts laneOpens): a process runs one write
// transaction while it keeps up — the writes queued meanwhile go in its next batch — and
// opens another lane (up to PAYCTL_PG_WRITERS) only once a write has waited
// PAYCTL_PG_LANE_WAIT_MS for one, as behind a write stuck on a row lock another
// connection holds. PAYCTL_PG_LANE_WAIT_MS=0 opens them as soon as a write is queued.
// Runs only in the PostgreSQL pass (test/run-postgres.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { openPostgresStore, pgLaneWaitMs } from '../../src/store/postgres/index.js';
import type { PgDatabase } from '../../src/store/postgres/db.js';
import { tempDbPath } from '../helpers/platform.js';

/** A store on a new database with four lanes at most, opened after `waitMs`. */
async function openStore(waitMs: number): Promise<{ db: PgDatabase; url: string }> {
  const url = tempDbPath();
  const db = (await openPostgresStore(url, { PAYCTL_PG_WRITERS: '4', PAYCTL_PG_LANE_WAIT_MS: String(waitMs) })) as PgDatabase;
  await db.pool.query('CREATE TABLE lane_rows (id text PRIMARY KEY, n bigint NOT NULL)');
  return { db, url };
}

/** Forty inserts sent at once; the transactions they took. */
async function burst(db: PgDatabase): Promise<number> {
  const before = db.stats().batches;
  const values = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      db.write(async (tx) => {
        tx.deferInsert('lane_rows', ['id', 'n'], [`w${i}`, i]);
        return i;
      }),
    ),
  );
  assert.deepEqual(values, Array.from({ length: 40 }, (_, i) => i));
  const { rows } = await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM lane_rows WHERE id LIKE 'w%'");
  assert.equal(Number(rows[0]!.n), 40, 'every write committed once');
  return db.stats().batches - before;
}

test('PAYCTL_PG_LANE_WAIT_MS: a whole number of milliseconds up to 10000 (unset or blank: 20); another value is refused', () => {
  assert.equal(pgLaneWaitMs({}), 20);
  for (const blank of ['', ' ']) assert.equal(pgLaneWaitMs({ PAYCTL_PG_LANE_WAIT_MS: blank }), 20);
  assert.equal(pgLaneWaitMs({ PAYCTL_PG_LANE_WAIT_MS: '0' }), 0);
  assert.equal(pgLaneWaitMs({ PAYCTL_PG_LANE_WAIT_MS: '250' }), 250);
  for (const bad of ['-1', '2.5', '10001', 'soon']) assert.throws(() => pgLaneWaitMs({ PAYCTL_PG_LANE_WAIT_MS: bad }), /PAYCTL_PG_LANE_WAIT_MS: must be a whole number from 0 to 10000/, `'${bad}'`);
});

test('writes queued behind a quick one go in its next batch on the same lane: one lane, two transactions', async () => {
  const { db } = await openStore(10_000);
  try {
    assert.equal(await burst(db), 2, 'the first alone, the 39 queued behind it together');
    assert.equal(db.rollupSlots.length, 1, `one lane wrote (slots: ${db.rollupSlots.join(', ')})`);
  } finally {
    await db.close();
  }
});

test('with PAYCTL_PG_LANE_WAIT_MS=0 every lane opens as soon as a write is queued', async () => {
  const { db } = await openStore(0);
  try {
    // Four lanes take the first four writes alone; the rest go together as lanes free.
    assert.ok((await burst(db)) >= 5, 'more transactions than lanes');
    assert.equal(db.rollupSlots.length, 4, `four lanes wrote (slots: ${db.rollupSlots.join(', ')})`);
  } finally {
    await db.close();
  }
});

test('a write stuck on a row lock holds its lane; the next write gets a lane of its own once it waited, and both commit', async () => {
  const WAIT_MS = 150;
  const { db, url } = await openStore(WAIT_MS);
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await db.pool.query("INSERT INTO lane_rows VALUES ('held', 0)");
    await holder.query('BEGIN');
    await holder.query("SELECT n FROM lane_rows WHERE id = 'held' FOR UPDATE");
    const order: string[] = [];
    const stuck = db.write(async (tx) => {
      await tx.run("UPDATE lane_rows SET n = n + 1 WHERE id = 'held'");
    }).then(() => order.push('stuck'));
    // Let the stuck write reach its lock before the next is queued.
    await waitFor(async () => (await db.pool.query("SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'")).rows[0].n > 0);
    const queuedAt = performance.now();
    await db.write(async (tx) => void tx.deferInsert('lane_rows', ['id', 'n'], ['next', 1]));
    const waited = performance.now() - queuedAt;
    order.push('next');
    assert.ok(waited >= WAIT_MS - 5, `it waited for the busy lane first (${waited.toFixed(0)} ms)`);
    assert.deepEqual(order, ['next'], 'it committed while the stuck write still waited');
    await holder.query('COMMIT');
    await stuck;
    assert.deepEqual(order, ['next', 'stuck']);
    assert.equal(db.rollupSlots.length, 2, `a second lane wrote (slots: ${db.rollupSlots.join(', ')})`);
    const { rows } = await db.pool.query<{ id: string; n: string }>("SELECT id, n FROM lane_rows WHERE id IN ('held', 'next') ORDER BY id");
    assert.deepEqual(rows.map((r) => [r.id, Number(r.n)]), [['held', 1], ['next', 1]]);
  } finally {
    await holder.end().catch(() => undefined);
    await db.close();
  }
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail('the stuck write never reached its lock');
}
