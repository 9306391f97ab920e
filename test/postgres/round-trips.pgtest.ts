// Trips to PostgreSQL a request does not need. The store's connections write once per
// tick (src/store/postgres/socket.ts): statements sent together leave in one socket
// write, not one each. The first version of the corking socket was undone by
// `net.Socket#connect` (it resets an instance's own `write`), and every statement went
// out in its own system call unnoticed — so this counts the writes that reach the socket
// of a connection of the store's own pool, after it connected. And the counters every
// request reads are one read for the requests asking together (getShared), each still
// seeing every commit made before it asked. Runs only in the PostgreSQL pass
// (test/run-postgres.ts).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type net from 'node:net';
import type pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { PgDatabase } from '../../src/store/postgres/db.js';
import { tempDbPath } from '../helpers/platform.js';

let db: PgDatabase;
/** A second store on the same database: another server. */
let other: PgDatabase;

before(async () => {
  const url = tempDbPath();
  db = (await openPostgresStore(url)) as PgDatabase;
  other = (await openPostgresStore(url)) as PgDatabase;
});
after(async () => {
  await other.close();
  await db.close();
});

/** The socket writes (system calls: `_write` for one buffer, `_writev` for several) of a pool connection from now on. */
function countWrites(client: pg.PoolClient): { count: () => number } {
  const socket = (client as unknown as { connection: { stream: net.Socket } }).connection.stream;
  let n = 0;
  const s = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  for (const key of ['_write', '_writev'] as const) {
    const original = s[key].bind(socket);
    s[key] = (...args: unknown[]) => {
      n++;
      return original(...args);
    };
  }
  return { count: () => n };
}

test('statements sent in one tick on a store connection leave in one socket write', async () => {
  const client = await db.pool.connect();
  try {
    const writes = countWrites(client);
    // Three extended-protocol statements (parse/bind/describe/execute/sync each) and a simple one.
    const answers = await Promise.all([
      client.query({ text: 'SELECT $1::int AS n', values: [1] }),
      client.query({ name: 'cork_probe', text: 'SELECT $1::text AS t', values: ['a'] }),
      client.query({ text: 'SELECT $1::int + 1 AS n', values: [2] }),
      client.query('SELECT 4 AS n'),
    ]);
    assert.deepEqual(
      answers.map((a) => Object.values(a.rows[0] as object)[0]),
      [1, 'a', 3, 4],
    );
    assert.equal(writes.count(), 1, 'four statements sent together: one write');
    // Later ticks write again (the cork never stays on): one write per tick.
    await client.query({ name: 'cork_probe', text: 'SELECT $1::text AS t', values: ['b'] });
    await client.query('SELECT 5 AS n');
    assert.equal(writes.count(), 3);
  } finally {
    client.release();
  }
});

test('a connection the pool opens later (after a reconnect) corks too', async () => {
  const first = await db.pool.connect();
  // Drop this connection: the pool opens a new socket for the next checkout.
  first.release(new Error('dropped by the test'));
  const client = await db.pool.connect();
  try {
    const writes = countWrites(client);
    await Promise.all([client.query('SELECT 1'), client.query({ text: 'SELECT $1::int', values: [2] })]);
    assert.equal(writes.count(), 1);
  } finally {
    client.release();
  }
});

test('callers asking together share one read of a counter, and each sees what was committed before it asked', async () => {
  const SQL = 'SELECT n FROM config_version WHERE id = 1';
  const pool = db.pool as unknown as { query: (...args: unknown[]) => unknown };
  const query = pool.query.bind(db.pool);
  let reads = 0;
  pool.query = (...args: unknown[]) => {
    reads++;
    return query(...args);
  };
  try {
    await db.getShared(SQL);
    reads = 0;
    const together = await Promise.all(Array.from({ length: 50 }, () => db.getShared<{ n: number }>(SQL)));
    assert.equal(new Set(together.map((r) => r?.n)).size, 1);
    assert.ok(reads <= 2, `50 callers, ${reads} statements`);
    // Another server changes the groups (a trigger bumps the counter) while a shared read runs: callers asking after its COMMIT see it.
    for (let i = 1; i <= 10; i++) {
      const before = (await db.getShared<{ n: number }>(SQL))!.n;
      const running = db.getShared<{ n: number }>(SQL);
      await other.write((tx) => tx.run("INSERT INTO groups (id, name, pricing, created_at, updated_at) VALUES (?, 'g', 'flat', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')", [`grp_shared_${i}`]));
      const after = await Promise.all([db.getShared<{ n: number }>(SQL), db.getShared<{ n: number }>(SQL)]);
      assert.ok(after.every((r) => r!.n > before), `read after the commit: ${after.map((r) => r?.n).join(', ')}, before ${before}`);
      assert.ok((await running)!.n >= before);
    }
  } finally {
    pool.query = query;
  }
});
