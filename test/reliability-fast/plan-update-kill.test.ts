// A plan update over many subscriptions survives a kill -9: a real `payctl serve`
// updates a plan of 10,001 subscriptions (update_subscriptions) and is killed part-way.
// The database then holds whole chunks only (every subscription up to the job's cursor
// on the new amount with its subscription.updated event, none after it); the restarted
// server's tick goes on from there, and at the end every subscription is on the new
// amount with exactly one event each.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbPath } from '../helpers/platform.js';
import { httpJson, killHard, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { ADMIN } from '../helpers/sandboxes.js';
import { openPlatform } from '../../src/services/platform.js';
import { tableColumns } from '../../src/store/sql/schema.js';
import { assertIntact, cellText, openStore } from '../helpers/store.js';

const COPIES = 10_000;
const PLAN = { name: 'Gold', amount: 3000, billing_cycle: 'monthly', duration: '12', tax: 0 };

test('kill -9 in the middle of a plan update: whole chunks, and the restarted server finishes it, each subscription once', async () => {
  const dbPath = tempDbPath();
  await (await openPlatform({ db: dbPath })).close(); // migrated, empty
  const env = { PAYCTL_ADMIN_TOKEN: ADMIN };
  const args = ['--tick', '200', '--access-log', 'off'];
  let server: ServeProcess = await spawnServe({ db: dbPath, env, args });
  let planId = '';
  let groupId = '';
  try {
    const sb = (await httpJson(`${server.url}/api/v1/sandboxes`, 'POST', { key: ADMIN, body: { demo: true } })).body;
    groupId = sb.group_id;
    const key = sb.keys.manage_transactions;
    const base = `${server.url}/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/recurring`;
    const plan = await httpJson(`${base}/plans`, 'POST', { key, body: PLAN });
    assert.equal(plan.status, 200, plan.text);
    planId = plan.body.id;
    const sub = await httpJson(`${base}/subscription`, 'POST', { key, body: { plan_id: planId, customer_id: sb.customer_id, card_id: sb.card_id } });
    assert.equal(sub.status, 200, sub.text);
    const seeder = await openStore(dbPath);
    try {
      const columns = await tableColumns(seeder, 'subscriptions');
      const exprs = columns.map((c) => (c === 'id' ? "s.id || '-' || k.i" : `s.${c}`));
      await seeder.write((tx) =>
        tx.run(
          `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
           INSERT INTO subscriptions (${columns.join(', ')}) SELECT ${exprs.join(', ')} FROM subscriptions s, k WHERE s.id = ?`,
          [COPIES, sub.body.id],
        ),
      );
    } finally {
      await seeder.close();
    }
    // The update's answer never comes (the server is killed): its request is left to fail.
    void httpJson(`${base}/plans/${planId}`, 'PUT', { key, body: { ...PLAN, amount: 4200, description: 'v2', update_subscriptions: true, prorate: false } }).catch(() => undefined);

    // Kill once part of the subscriptions are updated (polling the database, not timing).
    const watcher = await openStore(dbPath);
    try {
      for (;;) {
        const n = (await watcher.get<{ n: number }>('SELECT COUNT(*) AS n FROM subscriptions WHERE plan_id = ? AND amount = 4200', [planId]))!.n;
        if (n >= 1000) break;
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await killHard(server);
      await watcher.close();
    }

    const db = await openStore(dbPath);
    try {
      await assertIntact(db);
      const job = await db.get<{ cursor: string }>('SELECT cursor FROM plan_update_jobs WHERE plan_id = ?', [planId]);
      assert.ok(job, 'the update is still under way');
      // Whole chunks: up to the cursor on the new amount, after it on the old one.
      const done = await db.all<{ amount: number; n: number }>(
        'SELECT amount, COUNT(*) AS n FROM subscriptions WHERE plan_id = ? AND id <= ? GROUP BY amount',
        [planId, job.cursor],
      );
      const left = await db.all<{ amount: number; n: number }>('SELECT amount, COUNT(*) AS n FROM subscriptions WHERE plan_id = ? AND id > ? GROUP BY amount', [planId, job.cursor]);
      assert.equal(done.length, 1, JSON.stringify(done));
      assert.equal(done[0]!.amount, 4200);
      assert.deepEqual(left.map((r) => r.amount), [3000], 'killed part-way');
      const events = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE group_id = ? AND type = 'subscription.updated'", [groupId]))!.n;
      assert.equal(events, done[0]!.n, 'an event with each update, none without');
    } finally {
      await db.close();
    }

    // The restarted server's tick goes on from the database.
    server = await spawnServe({ db: dbPath, env, args });
    const watch = await openStore(dbPath);
    try {
      while (await watch.get('SELECT 1 AS x FROM plan_update_jobs WHERE plan_id = ?', [planId])) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await watch.close();
    }
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  const db = await openStore(dbPath);
  try {
    assert.deepEqual(await db.all('SELECT amount, COUNT(*) AS n FROM subscriptions WHERE plan_id = ? GROUP BY amount', [planId]), [{ amount: 4200, n: COPIES + 1 }]);
    // The subscriptions the events name, counted here rather than in either dialect's JSON functions.
    const events = await db.all<{ data: unknown }>("SELECT data FROM events WHERE group_id = ? AND type = 'subscription.updated'", [groupId]);
    const ids = new Set(events.map((e) => (JSON.parse(cellText(e.data)) as { object: { id: string } }).object.id));
    assert.deepEqual({ n: events.length, ids: ids.size }, { n: COPIES + 1, ids: COPIES + 1 }, 'each subscription updated once');
  } finally {
    await db.close();
  }
});
