// A catch-up survives a kill -9: a real `payctl serve` moves a sandbox's clock ten years
// over a daily subscription (the answer comes at once, 202, the work goes on) and is
// killed part-way. The database then holds whole chunks only (no claimed attempt without
// its outcome, no charge without its ledger row, periods 0..n-1 once each); the restarted
// server's tick resumes from the database, and at the end every period is charged once:
// no duplicate, none missed.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbPath } from '../helpers/platform.js';
import { httpJson, killHard, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { ADMIN } from '../helpers/sandboxes.js';
import { openPlatform } from '../../src/services/platform.js';
import { assertIntact, openStore } from '../helpers/store.js';

const PERIODS = 3651; // the charge at creation, then one a day for 3650 days

/** The invariants after any crash: whole chunks only. Returns the charges made. */
async function verifyWhole(dbPath: string, subscriptionId: string, label: string): Promise<number> {
  const db = await openStore(dbPath);
  try {
    await assertIntact(db, `${label}: integrity_check`);
    const c = (await db.get<{ n: number; pending: number; periods: number; lo: number; hi: number; linked: number }>(
      `SELECT COUNT(*) AS n, SUM(CASE WHEN outcome = 'pending' THEN 1 ELSE 0 END) AS pending, COUNT(DISTINCT period) AS periods, MIN(period) AS lo, MAX(period) AS hi,
              COUNT(DISTINCT transaction_id) AS linked
       FROM subscription_charges WHERE subscription_id = ?`,
      [subscriptionId],
    ))!;
    const s = (await db.get<{ charge_count: number }>('SELECT charge_count FROM subscriptions WHERE id = ?', [subscriptionId]))!;
    const t = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE subscription_id = ?', [subscriptionId]))!;
    assert.equal(c.pending, 0, `${label}: a claimed attempt without its outcome`);
    assert.deepEqual([c.periods, c.lo, c.hi, c.linked, t.n, s.charge_count], [c.n, 0, c.n - 1, c.n, c.n, c.n], `${label}: each period once, with its transaction`);
    return c.n;
  } finally {
    await db.close();
  }
}

test('kill -9 in the middle of a ten-year catch-up: the restarted server finishes it, each period charged exactly once', async () => {
  const dbPath = tempDbPath();
  await (await openPlatform({ db: dbPath })).close(); // migrated, empty
  const env = { PAYCTL_CLOCK_ANSWER_MS: '0', PAYCTL_ADMIN_TOKEN: ADMIN };
  const args = ['--tick', '200', '--access-log', 'off'];
  let server: ServeProcess = await spawnServe({ db: dbPath, env, args });
  let subscriptionId = '';
  let groupId = '';
  try {
    const call = (method: string, path: string, key: string, body?: unknown) => httpJson(`${server.url}${path}`, method, { key, body });
    const sb = (await call('POST', '/api/v1/sandboxes', ADMIN, { clock: '2030-01-01T00:00:00Z' })).body;
    groupId = sb.group_id;
    const g = `/api/v1/groups/${sb.group_id}`;
    const recurring = `${g}/processing/${sb.linked_account_id}/recurring`;
    const customer = await call('POST', `${g}/customers`, sb.keys.manage_customers, { first_name: 'Kill', last_name: 'Nine' });
    const plan = await call('POST', `${recurring}/plans`, sb.keys.manage_transactions, { name: 'Daily', amount: 300, billing_cycle: 'daily', duration: 0 });
    const sub = await call('POST', `${recurring}/subscription`, sb.keys.manage_transactions, {
      plan_id: plan.body.id,
      customer_id: customer.body.id,
      payment_details: { token: 'tok_visa' },
    });
    assert.equal(sub.status, 200, sub.text);
    subscriptionId = sub.body.id;

    const moved = await call('POST', `/api/v1/sandboxes/${groupId}/clock`, ADMIN, { advance: '3650d' });
    assert.equal(moved.status, 202, moved.text);

    // Kill once part of the charges committed (polling the database, not timing).
    const watcher = await openStore(dbPath);
    let seen = 0;
    try {
      while (seen < 300) {
        seen = (await watcher.get<{ n: number }>('SELECT COUNT(*) AS n FROM subscription_charges WHERE subscription_id = ?', [subscriptionId]))!.n;
        if (seen < 300) await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await killHard(server);
      await watcher.close();
    }
    const atKill = await verifyWhole(dbPath, subscriptionId, 'after the kill');
    assert.ok(atKill < PERIODS, `killed part-way (${atKill} of ${PERIODS})`);

    // The restarted server's tick goes on from the database; the clock route reports it.
    server = await spawnServe({ db: dbPath, env, args });
    for (;;) {
      const c = await call('GET', `/api/v1/sandboxes/${groupId}/clock`, ADMIN);
      assert.equal(c.status, 200, c.text);
      assert.ok(['running', 'pending', 'caught_up'].includes(c.body.catch_up.status), c.text);
      if (c.body.catch_up.status === 'caught_up') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  assert.equal(await verifyWhole(dbPath, subscriptionId, 'after the restart'), PERIODS);
});
