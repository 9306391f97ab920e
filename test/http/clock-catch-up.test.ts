// A long clock move catches up in chunks: `POST /sandboxes/{id}/clock` over ten years of
// daily billing answers 202 with the progress so far (the answer budget is 0 here), the
// work goes on in the server, another group's writes commit and are acknowledged while
// it runs (observed by order: the sale's answer comes while the catch-up still reports
// running, with part of the charges made), and at the end every period is charged
// exactly once. A backdated start bills once, whatever the start.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, env: { ...process.env, PAYCTL_CLOCK_ANSWER_MS: '0' } });
});
after(() => s.close());

const YEARS_10 = '3650d';

async function dailySubscription(sb: SandboxReply, extra: Record<string, unknown> = {}): Promise<{ id: string; status: number; text: string; body: Record<string, unknown> }> {
  const key = sb.keys.manage_transactions!;
  const g = `/api/v1/groups/${sb.group_id}`;
  const recurring = `${g}/processing/${sb.linked_account_id}/recurring`;
  const customer = await s.call('POST', `${g}/customers`, { key: sb.keys.manage_customers, body: { first_name: 'Catch', last_name: 'Up' } });
  assert.equal(customer.status, 200, customer.text);
  const plan = await s.call('POST', `${recurring}/plans`, { key, body: { name: 'Daily', amount: 700, billing_cycle: 'daily', duration: 0 } });
  assert.equal(plan.status, 200, plan.text);
  const sub = await s.call('POST', `${recurring}/subscription`, {
    key,
    body: { plan_id: plan.body.id, customer_id: customer.body.id, payment_details: { token: 'tok_visa' }, ...extra },
  });
  return { id: sub.body.id, status: sub.status, text: sub.text, body: sub.body };
}

const charges = async (subscriptionId: string) =>
  (await s.p.db.get<{ n: number; periods: number; lo: number; hi: number }>(
    `SELECT COUNT(*) AS n, COUNT(DISTINCT period) AS periods, MIN(period) AS lo, MAX(period) AS hi FROM subscription_charges WHERE subscription_id = ?`,
    [subscriptionId],
  ))!;
const clockOf = async (sb: SandboxReply) => (await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN })).body;

/** Wait for a condition on the server's state (polling it, never a fixed sleep). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a long clock move catches up in chunks', () => {
  test('202 with progress; another group sells while it runs; every period charged once at the end', async () => {
    const [a, b] = await Promise.all([newSandbox(s, { clock: '2030-01-01T00:00:00Z' }), newSandbox(s)]);
    const sub = await dailySubscription(a);
    assert.equal(sub.status, 200, sub.text);

    const moved = await s.call('POST', `/api/v1/sandboxes/${a.group_id}/clock`, { key: a.keys.manage_transactions, body: { advance: YEARS_10 } });
    assert.equal(moved.status, 202, moved.text);
    assert.ok(moved.body.now.startsWith('2039-12-30'), moved.body.now);
    assert.equal(moved.body.catch_up.status, 'running');
    assert.equal(typeof moved.body.work, 'object');
    assert.equal(moved.body.catch_up.subscriptions_due, 1);
    assert.ok(moved.body.catch_up.charges_due > 0 && moved.body.catch_up.charges_due <= 3650, JSON.stringify(moved.body.catch_up));

    // Once the catch-up has made some charges, group B's sale commits and is answered
    // while A's catch-up is still running and still has charges to make.
    await until(() => charges(sub.id), (c) => c.n > 10);
    const sale = await s.call('POST', `/api/v1/groups/${b.group_id}/transaction`, { key: b.keys.manage_transactions, body: saleBody(b.processor_id) });
    assert.equal(sale.status, 200, sale.text);
    const during = await clockOf(a);
    const madeThen = (await charges(sub.id)).n;
    assert.equal(during.catch_up.status, 'running', 'the sale was answered while the catch-up ran');
    assert.ok(madeThen < 3651, `the catch-up still had charges to make (${madeThen})`);
    assert.ok(during.catch_up.charges_due > 0 || during.catch_up.transactions_to_settle > 0, JSON.stringify(during.catch_up));
    assert.equal((await s.p.db.get<{ status: string }>('SELECT status FROM transactions WHERE id = ?', [sale.body.id]))!.status, 'pending', 'B kept its own clock');

    const done = await until(() => clockOf(a), (c) => c.catch_up.status === 'caught_up');
    assert.deepEqual(
      [done.catch_up.subscriptions_due, done.catch_up.charges_due, done.catch_up.transactions_to_settle, done.catch_up.job],
      [0, 0, 0, null],
    );
    // The first charge at creation and one per day for ten years: each period once.
    assert.deepEqual(await charges(sub.id), { n: 3651, periods: 3651, lo: 0, hi: 3650 });
    const txs = await s.p.db.get<{ n: number; settled: number }>(
      "SELECT COUNT(*) AS n, SUM(CASE WHEN status = 'settled' THEN 1 ELSE 0 END) AS settled FROM transactions WHERE subscription_id = ?",
      [sub.id],
    );
    assert.equal(txs!.n, 3651);
    // Charges are stamped with the group's time when the engine makes them (2039-12-30):
    // only the charge made at creation has a cutoff behind it.
    assert.equal(txs!.settled, 1);
  });

  test('a move that finds nothing due answers 200, caught up', async () => {
    const sb = await newSandbox(s);
    const r = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body: { advance: '1d' } });
    // The answer budget is 0: a move whose work is over before the answer is 200 anyway.
    assert.ok(r.status === 200 || r.status === 202, r.text);
    const c = await until(() => clockOf(sb), (x) => x.catch_up.status === 'caught_up');
    assert.equal(c.catch_up.charges_due, 0);
  });

  test('the 202 answer and the catch-up state are in the OpenAPI document', async () => {
    const doc = (await s.call('GET', '/api/v1/openapi.json')).body;
    const op = doc.paths['/api/v1/sandboxes/{group_id}/clock'].post;
    assert.ok(op.responses['202'], Object.keys(op.responses).join(','));
    assert.ok(doc.components.schemas.CatchUp, 'CatchUp schema');
  });
});

describe('backdated starts over the API', () => {
  test('a daily subscription started in 1970 is charged once at creation, in one short write', async () => {
    const sb = await newSandbox(s);
    const sub = await dailySubscription(sb, { start_date: '1970-01-01' });
    assert.equal(sub.status, 200, sub.text);
    assert.deepEqual(await charges(sub.id), { n: 1, periods: 1, lo: 0, hi: 0 });
    const metadata = sub.body.metadata as { billing_period_start: string; charge_count: number };
    assert.equal(metadata.charge_count, 1);
    assert.ok(metadata.billing_period_start.endsWith('T00:00:00.000Z'), 'periods keep the start\'s time of day');
    assert.ok(Date.parse(sub.body.next_bill_date as string) > Date.now(), 'the next bill date is the end of the current period');
  });
});
