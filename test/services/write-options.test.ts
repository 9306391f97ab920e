// What the catch-up asks of a store means the same on both (this file runs in the
// PostgreSQL pass too): a chunk queued `alone` (CHUNK_WRITE) gets a transaction of its
// own — the writes queued before it have committed when it runs, the writes queued after
// it run once it has committed, nothing else runs inside it — and a chunk's `limit`
// bounds the rows one write takes (the idempotency purge: 1,000 keys per write).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempPlatform, testStore } from '../helpers/platform.js';
import type { Platform } from '../../src/services/platform.js';
import type { Store, Tx, WriteOptions } from '../../src/store/interfaces/db.js';
import { CHUNK_WRITE } from '../../src/services/clock/chunks.js';
import { purgeIdempotencyKeys } from '../../src/services/idempotency.js';

let p: Platform;
before(async () => {
  p = await tempPlatform();
});
after(() => p.close());

test(`${testStore}: a write queued alone runs in a transaction of its own, after the writes before it committed and before the writes after it run`, async () => {
  const order: string[] = [];
  const batchOf: Record<string, number> = {};
  let releaseHold!: () => void;
  const held = new Promise<void>((r) => (releaseHold = r));
  const hold = p.db.write(() => held);
  const write = (name: string, alone = false) =>
    p.db
      .write(async (tx) => {
        order.push(`run ${name}`);
        batchOf[name] = p.db.stats().batches;
        // What the writes before it committed is what the store's reader (another connection) sees.
        if (name === 'chunk') order.push(`sees a=${await p.db.repos.settings.get(p.db, 'wo.a')} b=${await p.db.repos.settings.get(p.db, 'wo.b')}`);
        await tx.repos.settings.put(tx, `wo.${name}`, name);
      }, alone ? CHUNK_WRITE : undefined)
      .then(() => order.push(`committed ${name}`));
  const all = Promise.all([write('a'), write('b'), write('chunk', true), write('c')]);
  releaseHold();
  await hold;
  await all;
  const at = (what: string) => order.indexOf(what);
  assert.ok(at('committed a') < at('run chunk') && at('committed b') < at('run chunk'), order.join(', '));
  assert.equal(order[at('run chunk') + 1], 'sees a=a b=b', 'the writes queued before it committed');
  assert.equal(order[at('run chunk') + 2], 'committed chunk', 'nothing else ran inside its transaction');
  assert.ok(at('committed chunk') < at('run c'));
  assert.ok(batchOf.chunk! > batchOf.b! && batchOf.c! > batchOf.chunk!, `its own batch: ${JSON.stringify(batchOf)}`);
});

test(`${testStore}: a write queued apart (the request journal's) shares no batch with the writes around it (SQLite; PostgreSQL: each write is its own already)`, async () => {
  const batchOf: Record<string, number> = {};
  let releaseHold!: () => void;
  const held = new Promise<void>((r) => (releaseHold = r));
  const hold = p.db.write(() => held);
  const write = (name: string, opts?: WriteOptions) =>
    p.db.write(async (tx) => {
      batchOf[name] = p.db.stats().batches;
      await tx.repos.settings.put(tx, `wo.apart.${name}`, name);
    }, opts);
  const all = Promise.all([write('a'), write('journal', { apart: true }), write('b')]);
  releaseHold();
  await hold;
  await all;
  for (const name of ['a', 'journal', 'b']) assert.equal(await p.db.repos.settings.get(p.db, `wo.apart.${name}`), name);
  if (testStore === 'sqlite') assert.ok(batchOf.journal! > batchOf.a! && batchOf.b! > batchOf.journal!, `its own batch: ${JSON.stringify(batchOf)}`);
});

test(`${testStore}: the idempotency purge deletes at most 1,000 keys per write, only the scope's keys older than its cutoff`, async () => {
  const group = 'wo-purge';
  const keys = (g: string, n: number, prefix: string, at: string) =>
    p.db.write((tx) =>
      tx.run(
        `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
         INSERT INTO idempotency_keys (group_id, key, request_hash, status, body, created_at) SELECT ?, CAST(? AS TEXT) || k.i, 'h', 200, '{}', ? FROM k`,
        [n, g, prefix, at],
      ),
    );
  await keys(group, 2500, 'key-', '2030-01-01T00:00:00.000Z');
  // Kept: the group's keys from the cutoff on, and another group's old keys.
  await keys(group, 50, 'young-', '2030-01-02T00:00:00.000Z');
  await keys('wo-purge-other', 50, 'key-', '2030-01-01T00:00:00.000Z');
  // One write with the chunk's limit takes exactly that many.
  const one = await p.db.write((tx) => tx.repos.idempotency.deleteOlderThan(tx, '2030-01-02T00:00:00.000Z', { groupId: group }, 1000), CHUNK_WRITE);
  assert.equal(one.changes, 1000);
  // The purge's writes, each with what it deleted.
  const deleted: number[] = [];
  const write = p.db.write.bind(p.db);
  p.db.write = ((fn: (tx: Tx) => Promise<unknown>, opts?: WriteOptions) =>
    write(async (tx) => {
      const r = await fn(tx);
      if (opts?.alone) deleted.push((r as { changes: number }).changes);
      return r;
    }, opts)) as Store['write'];
  try {
    assert.equal(await purgeIdempotencyKeys(p, new Date('2030-01-03T00:00:00.000Z'), { groupId: group }), 1500);
  } finally {
    p.db.write = write;
  }
  assert.deepEqual(deleted, [1000, 500], 'the other 1,500 in two chunks');
  const left = await p.db.all<{ group_id: string; key: string }>("SELECT group_id, key FROM idempotency_keys WHERE group_id LIKE 'wo-purge%'");
  const expected = [...Array.from({ length: 50 }, (_, i) => `wo-purge young-${i + 1}`), ...Array.from({ length: 50 }, (_, i) => `wo-purge-other key-${i + 1}`)];
  assert.deepEqual(left.map((r) => `${r.group_id} ${r.key}`).sort(), expected.sort());
});
