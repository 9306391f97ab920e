// One server's writes run at once on PostgreSQL (lanes, each a transaction of its own on a
// connection of its own): what one process running its writes one at a time got for free
// must still hold. Many clients selling through one server, several sending the same
// Idempotency-Key at once, then voids of one sale racing each other, while a reader
// follows the event log: one transaction per key, one void per sale, every event read
// once in position order with none skipped, the rollup equal to the rows, and each lane
// counting into a slot of its own. PostgreSQL pass only (test/run-postgres.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlatform } from '../../src/services/platform.js';
import { seedDemo } from '../../src/dev/demo.js';
import { startServer } from '../../src/http/app.js';
import { tempDbPath } from '../helpers/platform.js';
import { saleBody } from '../helpers/bodies.js';
import type { PgDatabase } from '../../src/store/postgres/db.js';

const CLIENTS = 16;
const SALES_PER_CLIENT = 6;
const KEYS = 12;
const SENDS_PER_KEY = 4;
const VOIDS_PER_SALE = 3;

/** A platform on a new database whose store runs eight writes at once, each lane opened as soon as a write is queued, whatever the defaults. */
function openWithLanes() {
  return openPlatform({ db: tempDbPath(), env: { ...process.env, PAYCTL_PG_WRITERS: '8', PAYCTL_PG_LANE_WAIT_MS: '0' } });
}

test('one server, writes at once: one transaction per Idempotency-Key, one void per sale, the log read whole and in order, rollups exact, a slot per lane', async () => {
  const p = await openWithLanes();
  const db = p.db as PgDatabase;
  assert.equal(db.writers, 8, 'the platform environment set the store writers');
  const demo = await seedDemo(p);
  const server = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off' });
  const post = async (path: string, body: unknown, key?: string) => {
    const res = await fetch(`${server.url}/api/v1/groups/${demo.group_id}${path}`, {
      method: 'POST',
      headers: { authorization: demo.keys.manage_transactions, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { id?: string; status?: string } };
  };

  // A reader following the log as the live stream does, from before the load.
  const seen: Array<{ id: string; seq: number }> = [];
  let cursor = await db.repos.events.lastSeq(db);
  const start = cursor;
  let stop = false;
  const follow = (async () => {
    for (;;) {
      const finished = stop;
      const rows = await db.repos.events.after(db, demo.group_id, cursor, 1000);
      for (const r of rows) {
        assert.ok(r.seq > cursor, `positions only grow (${r.seq} after ${cursor})`);
        seen.push({ id: r.id, seq: r.seq });
        cursor = r.seq;
      }
      if (finished && rows.length === 0) return;
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 5));
    }
  })();

  try {
    const sales = Array.from({ length: CLIENTS }, async (_, c) => {
      const out: Array<{ status: number; body: { id?: string; status?: string } }> = [];
      for (let i = 0; i < SALES_PER_CLIENT; i++) out.push(await post('/transaction', saleBody(demo.processor_id, { amount: 1000 + c * 100 + i, token: i % 3 === 0 ? 'tok_mastercard' : 'tok_visa' })));
      return out;
    });
    const keyed = Array.from({ length: KEYS }, (_, k) =>
      Promise.all(Array.from({ length: SENDS_PER_KEY }, () => post('/transaction', saleBody(demo.processor_id, { amount: 5000 + k, orderId: `race-${k}` }), `race-${k}`))),
    );
    const plain = (await Promise.all(sales)).flat();
    const raced = await Promise.all(keyed);

    assert.deepEqual([...new Set(plain.map((r) => r.status))], [200], JSON.stringify(plain.find((r) => r.status !== 200)));
    assert.equal(new Set(plain.map((r) => r.body.id)).size, plain.length, 'a transaction per sale');
    for (const [k, replies] of raced.entries()) {
      for (const r of replies) assert.ok(r.status === 200 || r.status === 409, `key race-${k}: ${r.status} ${JSON.stringify(r.body)}`);
      const ok = replies.filter((r) => r.status === 200);
      assert.ok(ok.length >= 1, `key race-${k}: an answer`);
      assert.equal(new Set(ok.map((r) => r.body.id)).size, 1, `key race-${k}: one transaction, the same answer`);
      const n = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE group_id = ? AND order_id = ?', [demo.group_id, `race-${k}`]);
      assert.equal(n!.n, 1, `key race-${k}: one row`);
    }

    // Voids of one sale racing each other: one wins, the others are told it changed.
    const voidable = plain.filter((r) => r.body.status === 'pending' || r.body.status === 'authorized').slice(0, 8);
    const auths = voidable.length > 0 ? voidable : await Promise.all(Array.from({ length: 8 }, (_, i) => post('/transaction', saleBody(demo.processor_id, { type: 'auth', amount: 700 + i }))));
    for (const a of auths) assert.equal(a.status, 200, JSON.stringify(a.body));
    const voids = await Promise.all(auths.map((a) => Promise.all(Array.from({ length: VOIDS_PER_SALE }, () => post(`/transaction/${a.body.id}/void`, {})))));
    for (const replies of voids) {
      assert.equal(replies.filter((r) => r.status === 200).length, 1, `one void wins: ${JSON.stringify(replies.map((r) => r.status))}`);
      for (const r of replies) assert.ok(r.status === 200 || (r.status >= 400 && r.status < 500), `never a 500: ${r.status} ${JSON.stringify(r.body)}`);
    }

    stop = true;
    await follow;
    // The reader saw every event committed after it started, once each, in position order.
    const logged = await db.all<{ id: string; seq: number }>('SELECT id, seq FROM events WHERE group_id = ? AND seq > ? ORDER BY seq', [demo.group_id, start]);
    assert.ok(logged.length >= plain.length + KEYS + auths.length, `events of every sale and void (${logged.length})`);
    assert.deepEqual(seen, logged, 'the follower read the log whole, in order');
    const voided = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE group_id = ? AND seq > ? AND type = 'transaction.voided'", [demo.group_id, start]);
    assert.equal(voided!.n, auths.length, 'one void event per sale');

    // The rollup, summed over slots, says what the rows say (voids moved counts between statuses).
    const fromRows = await db.all<{ day: string; status: string; brand: string; n: number; amount: number }>(
      `SELECT ${db.dialect.utcDay('created_at')} AS day, status, COALESCE(brand, '') AS brand, COUNT(*) AS n, SUM(captured_amount - refunded_amount) AS amount
       FROM transactions WHERE group_id = ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`, [demo.group_id]);
    const fromRollup = await db.all<{ day: string; status: string; brand: string; n: number; amount: number }>(
      `SELECT day, status, brand, SUM(tx_count) AS n, SUM(net_high) * 67108864 + SUM(net_low) AS amount FROM transaction_daily
       WHERE group_id = ? GROUP BY 1, 2, 3 HAVING SUM(tx_count) <> 0 ORDER BY 1, 2, 3`, [demo.group_id]);
    assert.deepEqual(fromRollup, fromRows);

    // Writes ran at once (a second lane is taken only while the first is busy), each lane in a slot of its own.
    const slots = db.rollupSlots;
    assert.ok(slots.length > 1, `more than one lane wrote (slots: ${slots.join(', ')})`);
    assert.equal(new Set(slots).size, slots.length, `distinct slots: ${slots.join(', ')}`);
    const used = await db.all<{ slot: number }>('SELECT DISTINCT slot FROM transaction_daily WHERE group_id = ? ORDER BY 1', [demo.group_id]);
    for (const u of used) assert.ok(u.slot === 0 || slots.includes(u.slot), `rollup rows only in this server's slots (and the seed's): ${u.slot}`);
  } finally {
    stop = true;
    await follow.catch(() => undefined);
    await server.close();
    await p.close();
  }
});

test('writes that keep meeting on one row all commit: one that failed a few times runs again alone', async () => {
  const p = await openWithLanes();
  const db = p.db as PgDatabase;
  const WRITES = 200;
  try {
    await db.pool.query('CREATE TABLE lane_counter (id bigint PRIMARY KEY, n bigint NOT NULL)');
    await db.pool.query('INSERT INTO lane_counter VALUES (1, 0)');
    // Each write reads the row and writes what it read plus one: under SERIALIZABLE two at
    // once cannot both commit, so the lanes fail each other round after round.
    const results = await Promise.allSettled(
      Array.from({ length: WRITES }, () =>
        db.write(async (tx) => {
          const row = await tx.get<{ n: number }>('SELECT n FROM lane_counter WHERE id = 1');
          await new Promise((r) => setTimeout(r, 20));
          await tx.run('UPDATE lane_counter SET n = ? WHERE id = 1', [row!.n + 1]);
        }),
      ),
    );
    const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
    assert.deepEqual(failed, [], 'no write gave up');
    const { rows } = await db.pool.query<{ n: string }>('SELECT n FROM lane_counter WHERE id = 1');
    assert.equal(Number(rows[0]!.n), WRITES, 'every write counted once');
    const retried = Object.entries(db.stats().retries ?? {}).filter(([k]) => k.startsWith('40001')).reduce((a, [, v]) => a + v, 0);
    assert.ok(retried > 0, 'the writes did meet (some ran again)');
  } finally {
    await p.close();
  }
});
