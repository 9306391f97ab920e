// Another process holds SQLite's write lock past the 10 s busy timeout: the batch that
// waited fails as StoreUnavailable `locked`, and so do the writes queued behind it, at once
// (they waited as long) — not each after 10 s more in turn (docs/operations.md). The
// reliability suite met the old way: a journal flush waited first, the sales queued behind
// it began their wait 10 s late and outlasted a 12 s hold. Takes ~10 s: the real timeout.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sqlite3 from 'sqlite3';
import { Database } from '../../src/store/sqlite/db.js';
import { StoreUnavailable } from '../../src/store/errors.js';
import { tempDbPath } from '../helpers/platform.js';

test('a lock held past the busy timeout fails the waiting batch and the writes queued behind it together; the next write goes through', async () => {
  const file = tempDbPath();
  const db = await Database.open(file);
  await db.execSchema('CREATE TABLE t (n INTEGER)');
  const other = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => other.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec('BEGIN IMMEDIATE');
  const started = performance.now();
  const settle = (p: Promise<unknown>) => p.then(() => ({ ok: true as const, at: performance.now() - started }), (error: unknown) => ({ ok: false as const, error, at: performance.now() - started }));
  // The first write is a batch of its own (apart), as the journal's flush is; two more queue behind it.
  const first = settle(db.write((tx) => tx.run('INSERT INTO t (n) VALUES (1)'), { apart: true }));
  await new Promise((r) => setTimeout(r, 200));
  const behind = [2, 3].map((n) => settle(db.write((tx) => tx.run('INSERT INTO t (n) VALUES (?)', [n]))));
  const timer = setTimeout(() => void exec('ROLLBACK'), 13_000); // held 13 s: past one timeout, short of two
  try {
    const results = await Promise.all([first, ...behind]);
    for (const r of results) {
      assert.equal(r.ok, false, 'refused while the lock was held');
      assert.ok(!r.ok && r.error instanceof StoreUnavailable && r.error.reason === 'locked', `locked: ${!r.ok && String(r.error)}`);
    }
    const last = Math.max(...results.map((r) => r.at));
    assert.ok(last < 12_500, `the queued writes failed with the first (${Math.round(last)} ms), not after a wait of their own`);
  } finally {
    clearTimeout(timer);
  }
  await exec('ROLLBACK').catch(() => undefined);
  await new Promise<void>((resolve) => other.close(() => resolve()));
  await db.write((tx) => tx.run('INSERT INTO t (n) VALUES (4)'));
  assert.deepEqual(await db.all('SELECT n FROM t'), [{ n: 4 }], 'nothing of the refused writes stored; the next one is');
  await db.close();
});
