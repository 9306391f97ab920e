// Group commit on PostgreSQL (src/store/postgres/lanes.ts, MAX_BATCH): writes queued while
// every lane is busy share one transaction — and a write of such a batch that fails
// (its own error, a deferred check that does not hold, a unique violation) fails alone:
// the batch is rolled back whole and each of its writes runs again in a transaction of
// its own, so the others commit once and the failing one gets its own error. One lane
// here, so that the writes queued behind the first are one batch for certain. Runs only
// in the PostgreSQL pass (test/run-postgres.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { PgDatabase } from '../../src/store/postgres/db.js';
import { tempDbPath } from '../helpers/platform.js';

let db: PgDatabase;

before(async () => {
  db = (await openPostgresStore(tempDbPath(), { PAYCTL_PG_WRITERS: '1' })) as PgDatabase;
  await db.pool.query('CREATE TABLE gc_rows (id text PRIMARY KEY, n bigint NOT NULL)');
});
after(async () => {
  await db.close();
});

const rows = async () => (await db.pool.query<{ id: string }>('SELECT id FROM gc_rows ORDER BY id')).rows.map((r) => r.id);

test('writes queued behind a running one commit together, each resolved with its own value after the COMMIT', async () => {
  const before = db.stats();
  const hooks: string[] = [];
  const writes = Array.from({ length: 20 }, (_, i) =>
    db.write(async (tx) => {
      tx.deferInsert('gc_rows', ['id', 'n'], [`a${String(i).padStart(2, '0')}`, i]);
      tx.afterCommit(() => void hooks.push(`a${i}`));
      return i * 10;
    }),
  );
  assert.deepEqual(await Promise.all(writes), Array.from({ length: 20 }, (_, i) => i * 10));
  await db.afterCommitSettled();
  const after = db.stats();
  assert.equal(after.writes - before.writes, 20);
  // The first ran alone (nothing was queued yet); the 19 behind it went as one transaction.
  assert.equal(after.batches - before.batches, 2, 'two transactions for twenty writes');
  assert.equal((await rows()).filter((id) => id.startsWith('a')).length, 20);
  assert.equal(hooks.length, 20, 'every write’s after-commit work ran');
});

test('a write of a batch that throws, fails a deferred check or hits a unique violation fails alone; the rest commit once', async () => {
  await db.pool.query("INSERT INTO gc_rows VALUES ('taken', 0)");
  const before = db.stats();
  class Refused extends Error {}
  const outcomes = await Promise.allSettled(
    Array.from({ length: 12 }, (_, i) =>
      db.write(async (tx) => {
        if (i === 3) throw new Refused('write 3 refuses');
        if (i === 6) tx.deferCheck({ sql: 'SELECT 1 FROM gc_rows WHERE id = ?', reads: ['gc_rows'] }, ['no-such-row'], () => new Refused('write 6: its check did not hold'));
        tx.deferInsert('gc_rows', ['id', 'n'], [i === 9 ? 'taken' : `b${String(i).padStart(2, '0')}`, i]);
        return i;
      }),
    ),
  );
  const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [[i, String((o.reason as Error).message)]] : []));
  assert.equal(failed.length, 3, JSON.stringify(failed));
  assert.deepEqual(failed[0], [3, 'write 3 refuses']);
  assert.deepEqual(failed[1], [6, 'write 6: its check did not hold']);
  assert.equal(failed[2]![0], 9);
  assert.match(failed[2]![1] as string, /duplicate key/);
  const committed = (await rows()).filter((id) => id.startsWith('b'));
  assert.deepEqual(committed, ['b00', 'b01', 'b02', 'b04', 'b05', 'b07', 'b08', 'b10', 'b11'], 'each other write committed, once');
  const after = db.stats();
  assert.equal(after.writes - before.writes, 12);
  // The first alone, the batch of eleven (rolled back), then each of the eleven alone (the unique violation twice more).
  assert.ok(after.batches - before.batches >= 13, `each write of the failed batch ran again in a transaction of its own (${after.batches - before.batches} transactions)`);
});

test('a write that claims rows never shares a transaction (it runs READ COMMITTED)', async () => {
  const levels = await Promise.all([
    db.write(async (tx) => (await tx.get<{ l: string }>('SELECT current_setting(?) AS l', ['transaction_isolation']))!.l),
    ...Array.from({ length: 3 }, () => db.write(async (tx) => (await tx.get<{ l: string }>('SELECT current_setting(?) AS l', ['transaction_isolation']))!.l, { claims: true })),
    db.write(async (tx) => (await tx.get<{ l: string }>('SELECT current_setting(?) AS l', ['transaction_isolation']))!.l),
  ]);
  assert.deepEqual(levels, ['serializable', 'read committed', 'read committed', 'read committed', 'serializable']);
});
