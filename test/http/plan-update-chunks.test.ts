// A plan update with update_subscriptions reaches its plan's active subscriptions in
// chunks (src/services/recurring/plan-updates.ts): each a write of its own, so another
// group's sale is answered while a plan of thousands of subscriptions is being updated;
// the update answers after the last chunk with every subscription on the new terms, and
// a job a killed server left part-way is finished from the database by the tick's job.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { tableColumns } from '../../src/store/sql/schema.js';
import { resumePlanUpdates } from '../../src/services/recurring/plan-updates.js';

const PLAN = { name: 'Gold', amount: 3000, billing_cycle: 'monthly', duration: '12', tax: 0 };
const UPDATE = { ...PLAN, description: 'v2', update_subscriptions: true, prorate: false };
const COPIES = 3000;

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

/** A plan of `sb` with one subscription made through the API and COPIES more cloned from it (written directly: the test is about updating them). */
async function planWithSubscriptions(sb: SandboxReply): Promise<{ base: string; planId: string }> {
  const key = sb.keys.manage_transactions!;
  const base = `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/recurring`;
  const plan = await s.call('POST', `${base}/plans`, { key, body: PLAN });
  assert.equal(plan.status, 200, plan.text);
  const sub = await s.call('POST', `${base}/subscription`, { key, body: { plan_id: plan.body.id, customer_id: sb.customer_id, card_id: sb.card_id } });
  assert.equal(sub.status, 200, sub.text);
  const columns = await tableColumns(s.p.db, 'subscriptions');
  const exprs = columns.map((c) => (c === 'id' ? "s.id || '-' || k.i" : `s.${c}`));
  await s.p.db.write((tx) =>
    tx.run(
      `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
       INSERT INTO subscriptions (${columns.join(', ')}) SELECT ${exprs.join(', ')} FROM subscriptions s, k WHERE s.id = ?`,
      [COPIES, sub.body.id],
    ),
  );
  return { base, planId: plan.body.id };
}

const amounts = (planId: string) =>
  s.p.db.all<{ amount: number; n: number }>('SELECT amount, COUNT(*) AS n FROM subscriptions WHERE plan_id = ? GROUP BY amount ORDER BY amount', [planId]);
const job = (planId: string) => s.p.db.get<{ cursor: string }>('SELECT cursor FROM plan_update_jobs WHERE plan_id = ?', [planId]);

test("another group's sale is answered while a plan update reaches thousands of subscriptions; then every one has the new terms", async () => {
  const sb = await newSandbox(s, { demo: true });
  const other = await newSandbox(s);
  const { base, planId } = await planWithSubscriptions(sb);
  const updating = s.call('PUT', `${base}/plans/${planId}`, { key: sb.keys.manage_transactions, body: { ...UPDATE, amount: 4500 } });
  // Once a chunk has committed (the job's cursor moved), another group writes.
  for (;;) {
    const j = await job(planId);
    if (j && j.cursor !== '') break;
    await new Promise((r) => setTimeout(r, 1));
  }
  const sale = await s.call('POST', `/api/v1/groups/${other.group_id}/transaction`, { key: other.keys.manage_transactions, body: saleBody(other.processor_id) });
  assert.equal(sale.status, 200, sale.text);
  assert.ok(await job(planId), "the sale was answered before the plan update's last chunk");
  const r = await updating;
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.amount, 4500);
  assert.deepEqual(await amounts(planId), [{ amount: 4500, n: COPIES + 1 }]);
  assert.equal(await job(planId), undefined, 'the job is over');
  const events = await s.p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE group_id = ? AND type = 'subscription.updated'", [sb.group_id]);
  assert.equal(events!.n, COPIES + 1, 'one subscription.updated per subscription');
});

test('a plan update a killed server left part-way is finished from the database by the tick', async () => {
  const sb = await newSandbox(s, { demo: true });
  const { planId } = await planWithSubscriptions(sb);
  // As a kill -9 leaves it: the plan and its job written (one write), no chunk done.
  await s.p.db.write(async (tx) => {
    await tx.run('UPDATE plans SET amount = 5100 WHERE id = ?', [planId]);
    await tx.repos.plans.beginUpdate(tx, {
      plan_id: planId, group_id: sb.group_id, linked_account_id: sb.linked_account_id, behavior: 'none', cursor: '', updated_at: '2030-01-01T00:00:00.000Z', request_id: null, idempotency_key: null,
    });
  });
  assert.equal(await resumePlanUpdates(s.p), COPIES + 1);
  assert.deepEqual(await amounts(planId), [{ amount: 5100, n: COPIES + 1 }]);
  assert.equal(await job(planId), undefined);
});

test('an update that would take a subscription past the money bound is refused before anything is written', async () => {
  const sb = await newSandbox(s, { demo: true });
  const { base, planId } = await planWithSubscriptions(sb);
  // One subscription carries a proration waiting for its next charge.
  await s.p.db.write((tx) => tx.run("UPDATE subscriptions SET pending_proration = 99999999000 WHERE id = (SELECT MAX(id) FROM subscriptions WHERE plan_id = ?)", [planId]));
  const r = await s.call('PUT', `${base}/plans/${planId}`, { key: sb.keys.manage_transactions, body: { ...UPDATE, amount: 5000 } });
  assert.equal(r.status, 400, r.text);
  assert.deepEqual(r.body.error.fields.map((f: { path: string }) => f.path), ['amount']);
  assert.deepEqual(await amounts(planId), [{ amount: 3000, n: COPIES + 1 }]);
  const plan = await s.call('GET', `${base}/plans/${planId}`, { key: sb.keys.manage_transactions });
  assert.equal(plan.body.amount, 3000);
  assert.equal(await job(planId), undefined);
});
