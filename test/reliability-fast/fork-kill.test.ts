// A fork survives a kill -9: a real `payctl serve` forks a sandbox of 40,000 customers
// (answering 202 at once with the new sandbox's keys) and is killed part-way. The
// database then holds whole chunks only (the rows the fork has are exactly the rows its
// progress record says it copied) and the fork is a sandbox still `forking`; the
// restarted server's tick goes on from there, and at the end the fork has exactly the
// source's rows, no duplicate, none missed, and the keys of the 202 work.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbPath } from '../helpers/platform.js';
import { httpJson, killHard, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { ADMIN, dumpGroup, noonToday } from '../helpers/sandboxes.js';
import { openPlatform } from '../../src/services/platform.js';
import { assertIntact, openStore } from '../helpers/store.js';
import type { Store } from '../../src/store/interfaces/db.js';
import { GROUP_TABLES } from '../../src/store/sql/group-tables.js';
import { PERMISSIONS } from '../../src/domain/permissions.js';

const CUSTOMERS = 40_000;

const counts = async (db: Store, groupId: string) => {
  const rows = await dumpGroup(db, groupId);
  return Object.fromEntries(GROUP_TABLES.filter((t) => !t.forkSkip).map((t) => [t.table, rows[t.table]!.length]));
};

test('kill -9 in the middle of a fork: nothing half-copied, and the restarted server finishes it with exactly the source rows', async () => {
  const dbPath = tempDbPath();
  await (await openPlatform({ db: dbPath })).close(); // migrated, empty
  const env = { PAYCTL_ADMIN_TOKEN: ADMIN, PAYCTL_FORK_ANSWER_MS: '0' };
  const args = ['--tick', '200', '--access-log', 'off'];
  let server: ServeProcess = await spawnServe({ db: dbPath, env, args });
  let source = '';
  let forkId = '';
  let keys: Record<string, string> = {};
  let announced = '';
  try {
    // Its clock at noon: a settlement cutoff (00:00 UTC) passed while the test runs would
    // settle the source's demo sales after the fork copied them, and the counts would differ.
    const sb = (await httpJson(`${server.url}/api/v1/sandboxes`, 'POST', { key: ADMIN, body: { demo: true, clock: noonToday() } })).body;
    source = sb.group_id;
    const seeder = await openStore(dbPath);
    try {
      await seeder.write((tx) =>
        tx.run(
          `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
           INSERT INTO customers (id, group_id, first_name, last_name, created_at, updated_at)
           SELECT 'cus_bulk_' || i, ?, 'Bulk', 'Customer ' || i, '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z' FROM k`,
          [CUSTOMERS, source],
        ),
      );
    } finally {
      await seeder.close();
    }
    const forked = await httpJson(`${server.url}/api/v1/sandboxes/${source}/fork`, 'POST', { key: ADMIN, body: { name: 'killed fork' } });
    assert.equal(forked.status, 202, forked.text);
    keys = forked.body.keys;
    announced = forked.body.group_id;

    // Kill once part of the customers are copied (polling the database, not timing).
    const watcher = await openStore(dbPath);
    try {
      for (;;) {
        const j = await watcher.get<{ fork_id: string; copied: string }>('SELECT fork_id, copied FROM fork_jobs WHERE source_id = ?', [source]);
        if (j && (JSON.parse(j.copied).customers ?? 0) >= 2000) {
          forkId = j.fork_id;
          break;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await killHard(server);
      await watcher.close();
    }

    const db = await openStore(dbPath);
    try {
      await assertIntact(db);
      const j = (await db.get<{ phase: string; copied: string }>('SELECT phase, copied FROM fork_jobs WHERE fork_id = ?', [forkId]))!;
      assert.ok(j, 'the fork is still under way');
      const copied = JSON.parse(j.copied) as Record<string, number>;
      assert.ok(copied.customers! < CUSTOMERS + 1, `killed part-way (${copied.customers} customers copied)`);
      // Whole chunks: the fork holds exactly the rows its progress says were copied.
      const have = await counts(db, forkId);
      for (const [table, n] of Object.entries(have)) assert.equal(n, copied[table] ?? 0, table);
      assert.equal(forkId, announced, 'the fork under way is the sandbox the 202 named');
      assert.equal((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys WHERE group_id = ?', [forkId]))!.n, PERMISSIONS.length, 'its keys were issued at the start');
      assert.equal((await db.get<{ status: string }>('SELECT status FROM groups WHERE id = ?', [forkId]))!.status, 'forking');
    } finally {
      await db.close();
    }

    // The restarted server's tick goes on from the database; the fork then is an active sandbox.
    server = await spawnServe({ db: dbPath, env, args });
    for (;;) {
      const shown = await httpJson(`${server.url}/api/v1/sandboxes/${forkId}`, 'GET', { key: ADMIN });
      assert.equal(shown.status, 200, shown.text);
      if (shown.body.status === 'active') break;
      assert.equal(shown.body.fork.source_id, source);
      await new Promise((r) => setTimeout(r, 50));
    }
    // The keys the 202 answered with work now.
    const made = await httpJson(`${server.url}/api/v1/groups/${forkId}/customers`, 'POST', { key: keys.manage_customers!, body: { first_name: 'After' } });
    assert.equal(made.status, 200, made.text);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  const db = await openStore(dbPath);
  try {
    // The source's rows, and the customer made with the fork's key.
    assert.deepEqual(await counts(db, forkId), { ...(await counts(db, source)), customers: CUSTOMERS + 2 });
    assert.equal((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM customers WHERE group_id = ?', [forkId]))!.n, CUSTOMERS + 2);
    assert.equal((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys WHERE group_id = ?', [forkId]))!.n, PERMISSIONS.length);
  } finally {
    await db.close();
  }
});
