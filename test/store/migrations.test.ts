import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Database } from '../../src/store/sqlite/db.js';
import { migrate } from '../../src/store/sqlite/migrate.js';
import type { Migration } from '../../src/store/migrations/migration.js';
import { sqliteMigrations as migrations } from '../../src/store/migrations/index.js';
import { demoPlatform, tempDbPath } from '../helpers/platform.js';
import { runCli } from '../helpers/cli.js';
import { saleBody } from '../helpers/bodies.js';
import { contextFor } from '../../src/services/context.js';
import { createSale } from '../../src/services/transactions/sale.js';
import { captureTransaction, refundTransaction, voidTransaction } from '../../src/services/transactions/lifecycle.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

interface DailyRow {
  group_id: string;
  day: string;
  status: string;
  tx_count: number;
  net_amount: number;
}

// The rollup recounted from the transactions themselves, in the rollup's key order.
const RECOUNT = `SELECT group_id, substr(created_at, 1, 10) AS day, status, transaction_type, method_detail, COALESCE(brand, '') AS brand,
  source, currency, processor_id, COUNT(*) AS tx_count, SUM(captured_amount - refunded_amount) AS net_amount
  FROM transactions GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`;
const ROLLUP = `SELECT group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id, tx_count, (net_high * 67108864 + net_low) AS net_amount
  FROM transaction_daily WHERE tx_count <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`;

test('the migration runner runs statement lists whole: a trigger body keeps its semicolons', async () => {
  const db = await Database.open(tempDbPath());
  const list: Migration[] = [
    { version: 1, name: 'tables', statements: ['CREATE TABLE a (n INTEGER)', "CREATE TABLE log (what TEXT DEFAULT 'x;y')"] },
    {
      version: 2,
      name: 'trigger',
      statements: ["CREATE TRIGGER a_log AFTER INSERT ON a BEGIN INSERT INTO log (what) VALUES ('one;'); INSERT INTO log (what) VALUES ('two'); END"],
    },
    { version: 3, name: 'up', up: async (tx) => void (await tx.run('INSERT INTO a (n) VALUES (?)', [(await tx.get<{ n: number }>('SELECT 41 AS n'))!.n + 1])) },
  ];
  await migrate(db, list);
  assert.deepEqual(await db.all('SELECT n FROM a'), [{ n: 42 }]);
  assert.deepEqual(await db.all('SELECT what FROM log ORDER BY rowid'), [{ what: 'one;' }, { what: 'two' }]);
  await db.close();
});

test('a failing migration leaves nothing of itself behind and is not recorded', async () => {
  const db = await Database.open(tempDbPath());
  const list: Migration[] = [{ version: 1, name: 'half', statements: ['CREATE TABLE a (n INTEGER)', 'CREATE TABLE a (n INTEGER)'] }];
  await assert.rejects(migrate(db, list), /already exists/);
  assert.equal((await db.all("SELECT name FROM sqlite_master WHERE name = 'a'")).length, 0);
  assert.equal((await db.all('SELECT version FROM schema_migrations')).length, 0);
  await db.close();
});

test('the rollup triggers are part of the schema from the migrations, before any report', async () => {
  const db = await Database.open(tempDbPath());
  await migrate(db);
  const triggers = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'transactions' ORDER BY name");
  // New rows are counted once per write batch by the store; changes and deletes by these.
  assert.deepEqual(
    triggers.map((t) => t.name),
    ['transactions_daily_delete', 'transactions_daily_update'],
  );
  assert.ok(migrations.every((m) => !('sql' in m)), 'no migration is a text to split');
  await db.close();
});

test('a database that was never reported on has exact rollups after sales, captures, voids, refunds, settlement and a seed', async () => {
  const { p, demo } = await demoPlatform();
  const ctx = contextFor(p, demo.group_id);
  const sale = (opts: Parameters<typeof saleBody>[1]) => executeRaw(createSale, p, ctx, saleBody(demo.processor_id, opts));
  const settled = await sale({ amount: 5000 });
  await sale({ token: 'tok_visa_declined', amount: 999 });
  const voided = await sale({ amount: 700 });
  await execute(voidTransaction, p, ctx, { transaction_id: voided.id });
  const auth = await sale({ type: 'auth', amount: 3000 });
  await execute(captureTransaction, p, ctx, { transaction_id: auth.id, capture: { kind: 'exact', amount: 3000, path: 'amount' } });
  await advanceClock(p, 2 * 86_400_000); // settles both
  await execute(refundTransaction, p, ctx, { transaction_id: settled.id, ...{ amount: 1200 } });
  assert.ok((await p.db.all<DailyRow>(RECOUNT)).some((r) => r.status === 'partially_refunded' && r.net_amount === 3800), 'the refund moved the net amount');
  assert.deepEqual(await p.db.all<DailyRow>(ROLLUP), await p.db.all<DailyRow>(RECOUNT));
  const path = p.db.location;
  await p.close();
  // A bulk load in another process: its rows reach the rollup without a trigger per row.
  const seeded = await runCli(['dev', 'seed', '--transactions', '3000', '--json'], { db: path });
  assert.equal(seeded.code, 0, seeded.stderr);

  const db = await Database.open(path);
  const recount = await db.all<DailyRow>(RECOUNT);
  assert.ok(recount.length > 10, 'the seed spread rows over many days');
  assert.deepEqual(await db.all<DailyRow>(ROLLUP), recount);
  await db.close();
});

test('the read connection cannot write, and the store offers no write outside a transaction', async () => {
  const db = await Database.open(tempDbPath());
  await migrate(db);
  assert.equal('run' in db, false);
  // Even reaching past the type, the read connection is query-only.
  await assert.rejects(db.all('DELETE FROM schema_migrations'), /readonly/i);
  assert.ok((await db.all('SELECT version FROM schema_migrations')).length > 0);
  await db.close();
});

test('migration 19 keeps every webhook attempt, now in one b-tree keyed by endpoint, listed newest first', async () => {
  const db = await Database.open(tempDbPath());
  await migrate(db, migrations.filter((m) => m.version < 19));
  const columns = 'id, group_id, endpoint_id, delivery_id, event_id, event_type, attempt, status, response_status, response_body, error, latency_ms, scheduled_at, next_attempt_at, created_at';
  const row = (id: string, endpoint: string, attempt: number) => [id, 'g1', endpoint, 7, 'ev1', 'customer.created', attempt, attempt === 1 ? 'failed' : 'succeeded', attempt === 1 ? 503 : 200, 'body', attempt === 1 ? 'the receiver answered 503' : null, 12, '2026-01-01T00:00:00.000Z', null, '2026-01-01T00:00:01.000Z'];
  await db.write(async (tx) => {
    for (const r of [row('a1', 'ep1', 1), row('a2', 'ep1', 2), row('b1', 'ep2', 1)]) await tx.run(`INSERT INTO webhook_attempts (${columns}) VALUES (${r.map(() => '?').join(', ')})`, r);
  });
  await migrate(db);
  const { sql } = (await db.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'webhook_attempts'"))!;
  assert.match(sql, /WITHOUT ROWID/);
  assert.deepEqual(await db.all("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_attempts' AND sql IS NOT NULL"), []);
  const { attemptRepo } = await import('../../src/store/sql/repositories/webhooks.js');
  const listed = await attemptRepo.list(db, 'g1', 'ep1', { limit: 10 });
  assert.deepEqual(listed.map((a) => [a.id, a.attempt, a.status, a.response_status, a.error]), [
    ['a2', 2, 'succeeded', 200, null],
    ['a1', 1, 'failed', 503, 'the receiver answered 503'],
  ]);
  // Later migrations add columns (021: fault), empty on the rows kept.
  assert.deepEqual(listed[1], { ...Object.fromEntries(columns.split(', ').map((c, i) => [c, row('a1', 'ep1', 1)[i]])), fault: null });
  assert.deepEqual((await attemptRepo.list(db, 'g1', 'ep1', { limit: 10, before: 'a2' })).map((a) => a.id), ['a1']);
  assert.deepEqual((await attemptRepo.list(db, 'g1', 'ep2', { limit: 10 })).map((a) => a.id), ['b1']);
  await db.close();
});

test('LATEST_VERSION (read without loading the migrations) is the newest migration, and the versions are 1…N', async () => {
  const { LATEST_VERSION } = await import('../../src/store/migrations/latest.js');
  assert.deepEqual(
    migrations.map((m) => m.version),
    Array.from({ length: LATEST_VERSION }, (_, i) => i + 1),
  );
});

test('PostgreSQL has a migration under each of the same version numbers, with the same names', async () => {
  const { postgresMigrations: pg } = await import('../../src/store/migrations/index.js');
  assert.deepEqual(pg.map((m) => [m.version, m.name]), migrations.map((m) => [m.version, m.name]));
});
