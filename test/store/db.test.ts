import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sqlite3 from 'sqlite3';
import { Database, assertSqliteVersion } from '../../src/store/sqlite/db.js';
import { type Executor } from '../../src/store/interfaces/db.js';
import { sqliteMigrations as migrations } from '../../src/store/migrations/index.js';
import type { Migration } from '../../src/store/migrations/migration.js';
import { migrate, SchemaTooNewError, LATEST_VERSION } from '../../src/store/sqlite/migrate.js';
import { openPlatform } from '../../src/services/platform.js';
import { tempDbPath } from '../helpers/platform.js';
import { runCli } from '../helpers/cli.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw } from '../../src/services/use-case.js';

test('migrations are applied in order and recorded; running again changes nothing', async () => {
  const db = await Database.open(tempDbPath());
  const first = await migrate(db);
  assert.equal(first.from, 0);
  assert.equal(first.to, LATEST_VERSION);
  const rows = await db.all<{ version: number; name: string }>('SELECT version, name FROM schema_migrations');
  assert.deepEqual(
    rows.map((r) => `${r.version} ${r.name}`).sort(),
    migrations.map((m) => `${m.version} ${m.name}`).sort(),
    'every migration is recorded, under its name',
  );
  const again = await migrate(db);
  assert.equal(again.from, LATEST_VERSION);
  assert.equal((await db.all('SELECT version FROM schema_migrations')).length, rows.length);
  await db.close();

  // Listed out of order, each still runs after the ones below it: version 2 needs version 1's table.
  const other = await Database.open(tempDbPath());
  const list: Migration[] = [
    { version: 3, name: 'row', statements: ['INSERT INTO a (n) SELECT COUNT(*) FROM sqlite_master WHERE name = ?'.replace('?', "'a_n'")] },
    { version: 2, name: 'index', statements: ['CREATE INDEX a_n ON a(n)'] },
    { version: 1, name: 'table', statements: ['CREATE TABLE a (n INTEGER)'] },
  ];
  await migrate(other, list);
  assert.deepEqual(await other.all('SELECT n FROM a'), [{ n: 1 }], 'the index existed when version 3 ran');
  await other.close();
});

test('a database written by a newer payctl is refused with a clear message', async () => {
  const path = tempDbPath();
  const db = await Database.open(path);
  await migrate(db);
  await db.write((tx) => tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [999, 'future', 'now']));
  await db.close();
  await assert.rejects(openPlatform({ db: path }), (err: Error) => {
    assert.ok(err instanceof SchemaTooNewError);
    assert.match(err.message, /schema version 999.*upgrade payctl/);
    return true;
  });
  const cli = await runCli(['group', 'list'], { db: path });
  assert.equal(cli.code, 1);
  assert.match(cli.stderr, /newer than this payctl understands/);
  assert.doesNotMatch(cli.stderr, /\s+at .*\.js:\d+/);
});

test('SQLite versions older than 3.51.3 are refused', () => {
  assert.throws(() => assertSqliteVersion('3.45.1'), /too old/);
  assert.throws(() => assertSqliteVersion('3.51.2'), /too old/);
  assert.doesNotThrow(() => assertSqliteVersion('3.51.3'));
  assert.doesNotThrow(() => assertSqliteVersion('3.52.0'));
});

test('WAL mode, foreign keys and the busy timeout are on, on both connections; the writer syncs fully', async () => {
  const p = await openPlatform({ db: tempDbPath() });
  const pragmas = async (ex: Executor) => ({
    journal_mode: (await ex.get<{ journal_mode: string }>('PRAGMA journal_mode'))?.journal_mode,
    foreign_keys: (await ex.get<{ foreign_keys: number }>('PRAGMA foreign_keys'))?.foreign_keys,
    busy_timeout: (await ex.get<{ timeout: number }>('PRAGMA busy_timeout'))?.timeout,
  });
  const expected = { journal_mode: 'wal', foreign_keys: 1, busy_timeout: 10_000 };
  assert.deepEqual(await pragmas(p.db), expected, 'the read connection');
  const writer = await p.db.write(async (tx) => ({ ...(await pragmas(tx)), synchronous: (await tx.get<{ synchronous: number }>('PRAGMA synchronous'))?.synchronous }));
  assert.deepEqual(writer, { ...expected, synchronous: 2 }, 'the write connection (synchronous 2 = FULL)');
  await p.close();
});

test('concurrent writes share transactions but a failing write rolls back only itself', async () => {
  const db = await Database.open(tempDbPath());
  await db.execSchema('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const writes = Array.from({ length: 200 }, (_, i) =>
    db.write(async (tx) => {
      await tx.run('INSERT INTO t (id, v) VALUES (?, ?)', [i, `v${i}`]);
      if (i % 50 === 7) throw new Error(`boom ${i}`);
      return i;
    }),
  );
  const results = await Promise.allSettled(writes);
  const failed = results.filter((r) => r.status === 'rejected').length;
  assert.equal(failed, 4);
  const count = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM t');
  assert.equal(count?.n, 196);
  const missing = await db.all<{ id: number }>('SELECT id FROM t WHERE id IN (7, 57, 107, 157)');
  assert.equal(missing.length, 0);
  await db.close();
});

test('a write resolves only after commit: a second connection sees it at once', async () => {
  const path = tempDbPath();
  const a = await Database.open(path);
  await a.execSchema('CREATE TABLE t (id INTEGER PRIMARY KEY)');
  const b = await Database.open(path);
  for (let i = 0; i < 20; i++) {
    await a.write((tx) => tx.run('INSERT INTO t (id) VALUES (?)', [i]));
    const seen = await b.get<{ n: number }>('SELECT COUNT(*) AS n FROM t');
    assert.equal(seen?.n, i + 1);
  }
  await b.close();
  await a.close();
});

test('a CLI process and this process write the same file at once without SQLITE_BUSY', async () => {
  const path = tempDbPath();
  const p = await openPlatform({ db: path });
  const { seedDemo } = await import('../../src/dev/demo.js');
  const { createCustomer } = await import('../../src/services/customers/customers.js');
  const demo = await seedDemo(p);
  const cliRuns = Promise.all(
    Array.from({ length: 3 }, (_, i) => runCli(['customer', 'create', '--group', demo.group_id, '--first-name', `cli${i}`, '--json'], { db: path })),
  );
  const local = Promise.all(Array.from({ length: 100 }, (_, i) => executeRaw(createCustomer, p, contextFor(p, demo.group_id), { first_name: `local${i}` })));
  const [cli] = await Promise.all([cliRuns, local]);
  for (const r of cli) assert.equal(r.code, 0, r.stderr);
  const n = await p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM customers WHERE first_name LIKE 'cli%' OR first_name LIKE 'local%'");
  assert.equal(n?.n, 103);
  await p.close();
});

test('many concurrent first uses of one SQL text share one prepared statement; close succeeds', async () => {
  const db = await Database.open(tempDbPath());
  await db.execSchema('CREATE TABLE t (id INTEGER PRIMARY KEY)');
  await db.write((tx) => tx.run('INSERT INTO t (id) VALUES (1), (2), (3)'));
  const SQL = 'SELECT COUNT(*) AS n FROM t WHERE id > ?';
  // Count the prepares of this SQL text on every connection.
  const proto = sqlite3.Database.prototype;
  const prepare = proto.prepare;
  let prepared = 0;
  proto.prepare = function (this: sqlite3.Database, sql: string, ...rest: unknown[]) {
    if (sql === SQL) prepared++;
    return (prepare as (...a: unknown[]) => sqlite3.Statement).call(this, sql, ...rest);
  } as typeof proto.prepare;
  try {
    const reads = await Promise.all(Array.from({ length: 50 }, () => db.all<{ n: number }>(SQL, [0])));
    assert.deepEqual(new Set(reads.map((r) => r[0]!.n)), new Set([3]));
  } finally {
    proto.prepare = prepare;
  }
  assert.equal(prepared, 1, 'one prepare for 50 concurrent first uses');
  await db.close();
});

test('more distinct SQL texts than the statement cache holds still run (uncached past the cap)', async () => {
  const db = await Database.open(tempDbPath());
  await db.execSchema('CREATE TABLE t (id INTEGER PRIMARY KEY)');
  for (let i = 0; i < 600; i++) {
    await db.write((tx) => tx.run(`INSERT INTO t (id) VALUES (${i})`));
    const row = await db.get<{ n: number }>(`SELECT COUNT(*) + ${i} - ${i} AS n FROM t`);
    assert.equal(row?.n, i + 1);
  }
  await db.close();
});

test('a write sees the rows that earlier writes of its batch deferred (by id, by scan); failed writes leave none', async () => {
  const { demoPlatform } = await import('../helpers/platform.js');
  const { transactionRepo } = await import('../../src/store/sql/repositories/transactions.js');
  const { createSale } = await import('../../src/services/transactions/sale.js');
  const { saleBody } = await import('../helpers/bodies.js');
  const { newId } = await import('../../src/lib/ids.js');
  const { p, demo } = await demoPlatform();
  try {
    const first = await executeRaw(createSale, p, contextFor(p, demo.group_id), saleBody(demo.processor_id));
    const template = (await transactionRepo.find(p.db, demo.group_id, first.id))!;
    const before = (await p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions'))!.n;
    const a = newId();
    const b = newId();
    // A first write holds the writer while the others queue: they then run as one batch.
    // Each write's rows are deferred until something could see them.
    const batchesBefore = p.db.stats().batches;
    const hold = p.db.write(() => new Promise((r) => setTimeout(r, 50)));
    const results = await Promise.allSettled([
      p.db.write(async (tx) => transactionRepo.insert(tx, { ...template, id: a })),
      p.db.write(async (tx) => (await transactionRepo.find(tx, demo.group_id, a))?.id),
      p.db.write(async (tx) => (await transactionRepo.find(tx, demo.group_id, newId())) ?? 'none'),
      p.db.write(async (tx) => {
        await transactionRepo.insert(tx, { ...template, id: b });
        return (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE group_id = ?', [demo.group_id]))!.n;
      }),
      p.db.write(async (tx) => {
        await transactionRepo.insert(tx, { ...template, id: newId() });
        await tx.get('SELECT COUNT(*) AS n FROM transactions'); // sends this write's row under its savepoint
        throw new Error('fails after its row was sent');
      }),
      p.db.write(async (tx) => transactionRepo.insert(tx, { ...template, id: a })), // duplicate id: this write alone fails
    ]);
    assert.equal(results[0]!.status, 'fulfilled');
    assert.deepEqual(results[1], { status: 'fulfilled', value: a });
    assert.deepEqual(results[2], { status: 'fulfilled', value: 'none' });
    assert.deepEqual(results[3], { status: 'fulfilled', value: before + 2 });
    assert.equal(results[4]!.status, 'rejected');
    assert.equal(results[5]!.status, 'rejected');
    assert.match(String((results[5] as PromiseRejectedResult).reason), /UNIQUE|constraint/i);
    assert.equal((await p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions'))!.n, before + 2);
    await hold;
    assert.equal(p.db.stats().batches - batchesBefore, 2, 'the hold, then the six writes in one batch');
  } finally {
    await p.close();
  }
});

test('deferred compare-and-sets and checks: sent with the batch in order; one that misses fails its write alone', async () => {
  const db = await Database.open(tempDbPath());
  await db.execSchema("CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT NOT NULL DEFAULT '')");
  const run = async (withNul: boolean) => {
    const x = withNul ? 'x\u0000nul' : "x'quote?";
    const hold = db.write(() => new Promise((r) => setTimeout(r, 30)));
    const err = (name: string) => () => new Error(`${name} missed`);
    const results = await Promise.allSettled([
      db.write(async (tx) => tx.deferInsert('t', ['id', 'v'], [x, 'new'])),
      db.write(async (tx) => tx.deferChange({ table: 't', set: 'v = ?', where: 'id = ? AND v = ?' }, x, ['changed', x, 'new'], { changes: 1, error: err('w2') })),
      db.write(async (tx) => tx.deferChange({ table: 't', set: 'v = ?', where: 'id = ?' }, 'missing', ['zzz', 'missing'], { changes: 1, error: err('w3') })),
      db.write(async (tx) => tx.deferCheck({ sql: "SELECT 1 FROM t WHERE id = ? AND v = 'changed'", reads: ['t'] }, [x], err('w4'))),
      db.write(async (tx) => {
        tx.deferInsert('t', ['id', 'v'], [`${x}-5`, 'five']);
        tx.deferCheck({ sql: 'SELECT 1 FROM t WHERE id = ?', reads: ['t'] }, ['nope'], err('w5'));
      }),
      db.write(async (tx) => tx.deferInsert('t', ['id', 'v'], [`${x}-6`, 'six'])),
    ]);
    await hold;
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).message)),
      ['ok', 'ok', 'w3 missed', 'ok', 'w5 missed', 'ok'],
    );
    const rows = await db.all<{ id: string; v: string }>('SELECT id, v FROM t WHERE id LIKE ? ORDER BY id', [`${x}%`]);
    assert.deepEqual(rows, [
      { id: x, v: 'changed' },
      { id: `${x}-6`, v: 'six' },
    ]);
  };
  await run(false); // values with a quote and a ?
  await run(true); // and with a NUL
  await db.close();
});

test('a deferred check that states it reads the rows’ table keeps them before it; one that reads others lets them travel as one INSERT', async () => {
  const db = await Database.open(tempDbPath());
  await db.execSchema('CREATE TABLE t (id TEXT PRIMARY KEY); CREATE TABLE other (id TEXT PRIMARY KEY); INSERT INTO other VALUES (\'o\')');
  const run = async (check: { sql: string; reads: string[] }, ids: [string, string]) => {
    const statementsBefore = db.stats().statements;
    const hold = db.write(() => new Promise((r) => setTimeout(r, 30)));
    const results = await Promise.allSettled([
      db.write(async (tx) => tx.deferInsert('t', ['id'], [ids[0]])),
      db.write(async (tx) => {
        tx.deferCheck(check, [], () => new Error('check missed'));
        tx.deferInsert('t', ['id'], [ids[1]]);
      }),
    ]);
    await hold;
    return { results: results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).message)), statements: db.stats().statements - statementsBefore };
  };
  // It reads t, where the first write's row goes: sent in order (BEGIN, INSERT, the check, INSERT, COMMIT), it finds it.
  const reads = await run({ sql: "SELECT 1 FROM t WHERE id = 'a'", reads: ['t'] }, ['a', 'b']);
  assert.deepEqual(reads, { results: ['ok', 'ok'], statements: 5 });
  // It reads only `other`: the rows go after it, both in one INSERT (BEGIN, the check, INSERT, COMMIT).
  const apart = await run({ sql: "SELECT 1 FROM other WHERE id = 'o'", reads: ['other'] }, ['c', 'd']);
  assert.deepEqual(apart, { results: ['ok', 'ok'], statements: 4 });
  assert.deepEqual((await db.all<{ id: string }>('SELECT id FROM t ORDER BY id')).map((r) => r.id), ['a', 'b', 'c', 'd']);
  await db.close();
});

test('a batch of deferred rows only is queued whole (BEGIN, one INSERT, COMMIT), its values kept exactly', async () => {
  const db = await Database.open(tempDbPath());
  await db.execSchema('CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT, n INTEGER, r REAL)');
  const values: Array<[string, string | null, number | null, number | null]> = [
    ['a', "it's ? -- /* not */ a comment", 1, 0.5],
    ['b', 'é ü 漢字 🙂 \\ back\\slash "dq"', -9007199254740991, -1e-7],
    ['c', null, null, null],
    ['d', 'nul\u0000inside', 0, 1e300],
  ];
  for (const batch of [values.slice(0, 3), values]) {
    await db.execSchema('DELETE FROM t');
    const statementsBefore = db.stats().statements;
    const hold = db.write(() => new Promise((r) => setTimeout(r, 30)));
    await Promise.all(batch.map((row) => db.write(async (tx) => tx.deferInsert('t', ['id', 'v', 'n', 'r'], row))));
    await hold;
    const rows = await db.all<{ id: string; v: string | null; n: number | null; r: number | null }>('SELECT id, v, n, r FROM t ORDER BY id');
    assert.deepEqual(rows.map((x) => [x.id, x.v, x.n, x.r]), batch);
    // The hold wrote nothing: no statement of its own.
    assert.equal(db.stats().statements - statementsBefore, 3);
  }
  await db.close();
});

test('a batch of compare-and-sets of one SQL text is one UPDATE; two on one row, or one that misses, fail their write alone', async () => {
  const db = await Database.open(tempDbPath());
  await db.execSchema("CREATE TABLE t (id TEXT PRIMARY KEY, status TEXT NOT NULL, n INTEGER NOT NULL, at TEXT NOT NULL DEFAULT '')");
  const ids = Array.from({ length: 8 }, (_, i) => `r${i}'?`);
  await db.write(async (tx) => {
    for (const id of ids) await tx.run("INSERT INTO t (id, status, n) VALUES (?, 'open', 10)", [id]);
  });
  const update = { table: 't', set: 'status = ?, n = ?, at = ?', where: "id = ? AND status = 'open' AND ? <= n" };
  const change = (id: string, n: number, name: string) => (tx: import('../../src/store/interfaces/db.js').Tx) =>
    Promise.resolve(tx.deferChange(update, id, ['done', n, `at-${name}`, id, n], { changes: 1, error: () => new Error(`${name} missed`) }));
  const run = async (writes: Array<[string, number, string]>) => {
    const statementsBefore = db.stats().statements;
    const hold = db.write(() => new Promise((r) => setTimeout(r, 30)));
    const results = await Promise.allSettled(writes.map(([id, n, name]) => db.write(change(id, n, name))));
    await hold;
    return { results: results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).message)), statements: db.stats().statements - statementsBefore };
  };
  // Four on four rows: BEGIN, the UPDATE, its check, COMMIT, queued at once.
  const four = await run(ids.slice(0, 4).map((id, i) => [id, i + 1, `w${i}`]));
  assert.deepEqual(four.results, ['ok', 'ok', 'ok', 'ok']);
  assert.equal(four.statements, 4);
  // A row changed twice in one batch (the second finds it done), one beyond its amount, one missing.
  const mixed = await run([
    [ids[4]!, 5, 'a'],
    [ids[4]!, 6, 'b'],
    [ids[5]!, 11, 'c'],
    ['missing', 1, 'd'],
    [ids[6]!, 7, 'e'],
  ]);
  assert.deepEqual(mixed.results, ['ok', 'b missed', 'c missed', 'd missed', 'ok']);
  const rows = await db.all<{ id: string; status: string; n: number; at: string }>('SELECT id, status, n, at FROM t ORDER BY id');
  assert.deepEqual(
    rows.map((r) => [r.id, r.status, r.n, r.at]),
    [
      [ids[0], 'done', 1, 'at-w0'],
      [ids[1], 'done', 2, 'at-w1'],
      [ids[2], 'done', 3, 'at-w2'],
      [ids[3], 'done', 4, 'at-w3'],
      [ids[4], 'done', 5, 'at-a'],
      [ids[5], 'open', 10, ''],
      [ids[6], 'done', 7, 'at-e'],
      [ids[7], 'open', 10, ''],
    ],
  );
  await db.close();
});

test('deferred rows of two tables, alternating write by write, go as one INSERT per table; a foreign key between them still holds', async () => {
  const db = await Database.open(tempDbPath());
  await db.execSchema('CREATE TABLE a (id TEXT PRIMARY KEY, v TEXT); CREATE TABLE b (id TEXT PRIMARY KEY, a_id TEXT REFERENCES a(id), v TEXT)');
  const batch = async (writes: Array<(tx: import('../../src/store/interfaces/db.js').Tx) => void>) => {
    const statementsBefore = db.stats().statements;
    const hold = db.write(() => new Promise((r) => setTimeout(r, 30)));
    const results = await Promise.allSettled(writes.map((fn) => db.write(async (tx) => fn(tx))));
    await hold;
    return { results: results.map((r) => r.status), statements: db.stats().statements - statementsBefore };
  };
  const pair = (i: number) => (tx: import('../../src/store/interfaces/db.js').Tx) => {
    tx.deferInsert('a', ['id', 'v'], [`a${i}`, `va${i}`]);
    tx.deferInsert('b', ['id', 'a_id', 'v'], [`b${i}`, `a${i}`, `vb${i}`]);
  };
  // Ten writes, a then b each: BEGIN, an INSERT per table, COMMIT.
  const grouped = await batch(Array.from({ length: 10 }, (_, i) => pair(i)));
  assert.deepEqual(new Set(grouped.results), new Set(['fulfilled']));
  assert.equal(grouped.statements, 4);
  // A b row whose a row comes later in the batch: grouping by table would put it first
  // (b before a breaks the key), so the work is resent write by write, in order.
  const crossed = await batch([
    (tx) => tx.deferInsert('b', ['id', 'a_id', 'v'], ['b-free', null, 'x']),
    (tx) => {
      tx.deferInsert('a', ['id', 'v'], ['a-late', 'y']);
      tx.deferInsert('b', ['id', 'a_id', 'v'], ['b-late', 'a-late', 'z']);
    },
    (tx) => tx.deferInsert('b', ['id', 'a_id', 'v'], ['b-bad', 'no-such-a', 'w']),
  ]);
  assert.deepEqual(crossed.results, ['fulfilled', 'fulfilled', 'rejected']);
  const count = async (t: string) => (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`))!.n;
  assert.equal(await count('a'), 11);
  assert.equal(await count('b'), 12);
  await db.close();
});

test('a shared read serves the callers that ask together, and each sees every commit made before it asked', async () => {
  const path = tempDbPath();
  const db = await Database.open(path);
  await db.execSchema('CREATE TABLE c (id INTEGER PRIMARY KEY, n INTEGER NOT NULL); INSERT INTO c VALUES (1, 0)');
  const other = await Database.open(path);
  const SQL = 'SELECT n FROM c WHERE id = 1';
  const proto = sqlite3.Statement.prototype;
  const all = proto.all;
  let reads = 0;
  proto.all = function (this: sqlite3.Statement, ...args: unknown[]) {
    reads++;
    return (all as (...a: unknown[]) => sqlite3.Statement).apply(this, args);
  } as typeof proto.all;
  try {
    await db.getShared(SQL); // prepared
    reads = 0;
    const together = await Promise.all(Array.from({ length: 50 }, () => db.getShared<{ n: number }>(SQL)));
    assert.deepEqual(new Set(together.map((r) => r?.n)), new Set([0]));
    assert.ok(reads <= 2, `50 callers, ${reads} statements`);
    // A change committed (by another connection) while a shared read runs: callers asking after it see it.
    for (let i = 1; i <= 20; i++) {
      const running = db.getShared<{ n: number }>(SQL);
      await other.write((tx) => tx.run('UPDATE c SET n = ? WHERE id = 1', [i]));
      const after = await Promise.all([db.getShared<{ n: number }>(SQL), db.getShared<{ n: number }>(SQL)]);
      assert.deepEqual(after.map((r) => r?.n), [i, i]);
      assert.ok((await running)!.n >= i - 1);
    }
  } finally {
    proto.all = all;
  }
  await other.close();
  await db.close();
});

test('the batch UPDATE of compare-and-sets finds each row by its key, not by walking an index of its other condition', async () => {
  const { changeEach } = await import('../../src/store/sqlite/batch-sql.js');
  const { transactionRepo } = await import('../../src/store/sql/repositories/transactions.js');
  const p = await openPlatform({ db: tempDbPath() });
  try {
    // The capture's compare-and-set, as the batch sends it.
    let update: import('../../src/store/interfaces/db.js').Update | undefined;
    const tx = { deferChange: (u: typeof update) => (update = u) } as unknown as import('../../src/store/interfaces/db.js').Tx;
    transactionRepo.deferCapture(tx, 'x', 1, 'captured', 'now', () => new Error('missed'));
    const batch = changeEach(update!)!;
    assert.ok(batch, JSON.stringify(update));
    for (const analyzed of [false, true]) {
      if (analyzed) await p.db.write((t) => t.run('ANALYZE'));
      const plan = await p.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${batch}`, [JSON.stringify([['captured', 1, 'now', 'x', 1]])]);
      const transactions = plan.map((r) => r.detail).filter((d) => /\btransactions\b/.test(d));
      assert.deepEqual(transactions.length, 1, JSON.stringify(plan));
      assert.match(transactions[0]!, /SEARCH transactions USING (INDEX sqlite_autoindex_transactions_1|PRIMARY KEY) \(id=\?\)/, JSON.stringify(plan));
    }
  } finally {
    await p.close();
  }
});

test('a write queued alone (a catch-up chunk) gets a transaction of its own: the writes before it commit without waiting for it', async () => {
  const db = await Database.open(tempDbPath());
  try {
    await db.execSchema('CREATE TABLE log (n INTEGER)');
    const order: string[] = [];
    const before = db.stats().batches;
    let releaseHold!: () => void;
    const hold = db.write(() => new Promise<void>((r) => (releaseHold = r)));
    const write = (name: string, opts?: { alone: boolean }) =>
      db.write(async (tx) => {
        order.push(`run ${name}`);
        await tx.run('INSERT INTO log (n) VALUES (1)');
      }, opts).then(() => order.push(`committed ${name}`));
    const all = Promise.all([write('a'), write('b'), write('chunk', { alone: true }), write('c')]);
    releaseHold();
    await hold;
    await all;
    // a and b share a batch and commit before the chunk runs; c waits for the next batch.
    assert.deepEqual(order, ['run a', 'run b', 'committed a', 'committed b', 'run chunk', 'committed chunk', 'run c', 'committed c']);
    assert.equal(db.stats().batches - before, 4, 'the hold, a + b, the chunk, c');
  } finally {
    await db.close();
  }
});
