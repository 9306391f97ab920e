// Crash safety of subscription billing: `payctl clock advance` bills thousands of
// subscriptions (500 per write transaction) and is killed with SIGKILL part-way, several
// times. After each kill: the database whole, no half-written charge (a ledger row without
// its transaction, a transaction without its ledger row, a claimed attempt left pending,
// a subscription whose charge count disagrees with its ledger). After another advance,
// every subscription period due is charged exactly once — no period twice, none skipped —
// and declining cards were retried exactly per policy.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { dataDirOf, demoPlatform, isPgUrl } from '../helpers/platform.js';
import { runCli } from '../helpers/cli.js';
import { createPlan } from '../../src/services/recurring/plans.js';
import { createSubscription } from '../../src/services/recurring/subscriptions.js';
import { assertIntact, openStore } from '../helpers/store.js';
import { addCycles } from '../../src/domain/recurring.js';
import { packageRoot } from '../../src/lib/paths.js';
import { report, seededRandom } from '../helpers/report.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw, withParams } from '../../src/services/use-case.js';

const SUBSCRIPTIONS = Number(process.env.CRASH_SUBSCRIPTIONS ?? 2000);
const ROUNDS = Number(process.env.CRASH_BILLING_ROUNDS ?? 4);
const DECLINING_EVERY = 10; // every 10th subscription pays with a declining card

interface Verified {
  charges: number;
  transactions: number;
}

/** The invariants that hold after any crash: nothing half-written. */
async function verifyWhole(dbPath: string, planId: string, label: string): Promise<Verified> {
  const db = await openStore(dbPath);
  try {
    await assertIntact(db, `${label}: integrity_check`);
    const pending = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM subscription_charges WHERE outcome = 'pending'");
    assert.equal(pending!.n, 0, `${label}: a claimed attempt was committed without its outcome`);
    // Ledger → transaction: every charged attempt points at its transaction of the same subscription.
    const orphanLedger = await db.all(
      `SELECT c.id FROM subscription_charges c LEFT JOIN transactions t ON t.id = c.transaction_id
       WHERE c.outcome IN ('approved', 'declined') AND (t.id IS NULL OR t.subscription_id IS DISTINCT FROM c.subscription_id
         OR (c.outcome = 'approved') = (t.status = 'declined'))`,
    );
    assert.deepEqual(orphanLedger, [], `${label}: ledger rows without their transaction`);
    // Transaction → ledger: every subscription charge has exactly one ledger row.
    const orphanTxn = await db.all(
      `SELECT t.id, COUNT(c.id) AS n FROM transactions t LEFT JOIN subscription_charges c ON c.transaction_id = t.id
       WHERE t.plan_id = ? GROUP BY t.id HAVING COUNT(c.id) <> 1`,
      [planId],
    );
    assert.deepEqual(orphanTxn, [], `${label}: subscription transactions without exactly one ledger row`);
    // Each subscription: its approved regular periods are exactly 0..charge_count-1, once each.
    const wrong = await db.all(
      `SELECT s.id, s.charge_count, COUNT(c.id) AS approved, COUNT(DISTINCT c.period) AS periods, MIN(c.period) AS lo, MAX(c.period) AS hi
       FROM subscriptions s LEFT JOIN subscription_charges c ON c.subscription_id = s.id AND c.kind = 'regular' AND c.outcome = 'approved'
       WHERE s.plan_id = ? GROUP BY s.id, s.charge_count
       HAVING COUNT(c.id) <> s.charge_count OR COUNT(DISTINCT c.period) <> COUNT(c.id)
         OR (COUNT(c.id) > 0 AND (MIN(c.period) <> 0 OR MAX(c.period) <> s.charge_count - 1))`,
      [planId],
    );
    assert.deepEqual(wrong, [], `${label}: a period charged twice or skipped`);
    const charges = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM subscription_charges'))!.n;
    const transactions = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE plan_id = ?', [planId]))!.n;
    return { charges, transactions };
  } finally {
    await db.close();
  }
}

test(`kill -9 during clock advances billing ${SUBSCRIPTIONS} subscriptions, ${ROUNDS} times: each period charged exactly once`, async () => {
  const { p, demo, dbPath } = await demoPlatform();
  const plan = await executeRaw(createPlan, p, contextFor(p, demo.group_id), withParams({
    name: 'Crash plan',
    amount: 1500,
    billing_cycle: 'monthly',
    duration: 0,
    max_retry_count: 2,
  }, { linked_account_id: demo.linked_account_id }));
  for (let i = 0; i < SUBSCRIPTIONS; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, SUBSCRIPTIONS - i) }, (_, j) =>
        executeRaw(createSubscription, p, contextFor(p, demo.group_id), withParams({
          plan_id: plan.id,
          customer_id: demo.customer_id,
          ...((i + j) % DECLINING_EVERY === 0 ? { payment_details: { token: 'tok_visa_declined' } } : { card_id: demo.card_id }),
        }, { linked_account_id: demo.linked_account_id })),
      ),
    );
  }
  await p.close();
  await verifyWhole(dbPath, plan.id, 'after creation');

  const random = seededRandom(Number(process.env.RELIABILITY_SEED ?? 10_2026) + 1);
  const killedAt: number[] = [];
  let before = (await verifyWhole(dbPath, plan.id, 'start')).charges;
  for (let round = 1; round <= ROUNDS; round++) {
    // Advance a month in another process; kill it once a random share of this month's charges committed.
    const target = before + 1 + Math.floor(random() * SUBSCRIPTIONS * 0.7);
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), 'clock', 'advance', '31d', '--json'], {
      // A PostgreSQL database's profile lives in a data folder of its own (as runCli gives it).
      env: { ...process.env, NO_COLOR: '1', PAYCTL_DB: dbPath, ...(isPgUrl(dbPath) ? { PAYCTL_DATA_DIR: dataDirOf(dbPath) } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let finished = false;
    void exited.then(() => (finished = true));
    const watcher = await openStore(dbPath);
    let seen = before;
    let finishedFirst = false;
    try {
      while (!finished && seen < target) {
        seen = (await watcher.get<{ n: number }>('SELECT COUNT(*) AS n FROM subscription_charges'))!.n;
        if (seen < target) await new Promise((r) => setTimeout(r, 10)); // polling a condition, not timing
      }
    } finally {
      // Kill before closing the watcher (its close checkpoints, which waits for the writer).
      finishedFirst = finished;
      child.kill('SIGKILL');
      await exited;
      await watcher.close();
    }
    assert.ok(!finishedFirst, `round ${round}: the advance finished before the kill point (${seen}/${target}): ${stderr}`);
    killedAt.push(seen - before);
    const afterKill = await verifyWhole(dbPath, plan.id, `round ${round} after kill`);

    // Another advance (a second) finishes whatever the killed one left due.
    const rest = await runCli(['clock', 'advance', '1s', '--json'], { db: dbPath });
    assert.equal(rest.code, 0, rest.stderr);
    const done = await verifyWhole(dbPath, plan.id, `round ${round} after the next advance`);
    assert.ok(done.charges >= afterKill.charges);
    before = done.charges;
  }

  // Every period due is charged exactly once: compare with the calendar of each subscription.
  const db = await openStore(dbPath);
  try {
    const now = new Date(Date.now() + (await db.get<{ offset_ms: number }>('SELECT offset_ms FROM clock WHERE id = 1'))!.offset_ms).toISOString();
    const subs = await db.all<{ id: string; status: string; anchor_at: string; charge_count: number; next_bill_date: string | null }>(
      'SELECT id, status, anchor_at, charge_count, next_bill_date FROM subscriptions WHERE plan_id = ?',
      [plan.id],
    );
    let approvedSubs = 0;
    let failedSubs = 0;
    for (const s of subs) {
      if (s.status === 'active') {
        let due = 0;
        while (addCycles(s.anchor_at, 'monthly', 1, due) <= now) due++;
        assert.equal(s.charge_count, due, `subscription ${s.id}: ${s.charge_count} periods charged, ${due} due`);
        assert.ok(s.next_bill_date! > now, `subscription ${s.id} still has work due`);
        approvedSubs++;
      } else {
        assert.equal(s.status, 'failed');
        failedSubs++;
      }
    }
    // Declining cards: the first attempt and max_retry_count (2) retries, once each, then failed.
    const retries = await db.all<{ subscription_id: string; n: number }>(
      `SELECT c.subscription_id, COUNT(*) AS n FROM subscription_charges c JOIN subscriptions s ON s.id = c.subscription_id
       WHERE s.plan_id = ? AND s.status = 'failed' GROUP BY c.subscription_id HAVING COUNT(*) <> 3`,
      [plan.id],
    );
    assert.deepEqual(retries, []);
    assert.equal(failedSubs, Math.ceil(SUBSCRIPTIONS / DECLINING_EVERY));
    const totals = await verifyWhole(dbPath, plan.id, 'final');
    report('crash-billing', {
      subscriptions: SUBSCRIPTIONS,
      rounds: ROUNDS,
      killed_after_charges: killedAt,
      charge_attempts: totals.charges,
      transactions: totals.transactions,
      active_all_periods_once: approvedSubs,
      failed_after_retries: failedSubs,
      double_charged: 0,
      skipped: 0,
    });
  } finally {
    await db.close();
  }
});
