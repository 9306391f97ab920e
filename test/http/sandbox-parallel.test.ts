// Twenty workers share one server, each in its own sandbox: create it, sell, subscribe,
// move its clock (settle, then bill a month), check that only its own world moved, and
// drop it. Every worker's rows and clock are checked against what it alone did.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, dumpGroup, newSandbox, rowCount } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const DAY = 86_400_000;
const WORKERS = 20;

async function worker(i: number): Promise<void> {
  const sb = await newSandbox(s, { name: `worker ${i}` });
  const key = sb.keys.manage_transactions!;
  const g = `/api/v1/groups/${sb.group_id}`;
  const recurring = `${g}/processing/${sb.linked_account_id}/recurring`;
  const clock = async () => (await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key })).body.offset_ms as number;
  const move = async (advance: string) => {
    const r = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key, body: { advance } });
    assert.equal(r.status, 200, r.text);
  };

  const sold = await s.call('POST', `${g}/transaction`, { key, body: saleBody(sb.processor_id, { amount: 1000 + i }) });
  assert.equal(sold.status, 200, sold.text);
  const customer = await s.call('POST', `${g}/customers`, { key: sb.keys.manage_customers, body: { first_name: `W${i}` } });
  const plan = await s.call('POST', `${recurring}/plans`, { key, body: { name: `Plan ${i}`, amount: 500 + i, billing_cycle: 'monthly', duration: 0 } });
  const sub = await s.call('POST', `${recurring}/subscription`, {
    key,
    body: { plan_id: plan.body.id, customer_id: customer.body.id, payment_details: { token: 'tok_visa' } },
  });
  assert.equal(sub.status, 200, sub.text);

  // Other workers move their clocks meanwhile: this sandbox's sale waits for its own cutoff.
  const status = async () => (await s.call('GET', `${g}/transaction/${sold.body.id}`, { key })).body.status as string;
  assert.equal(await status(), 'pending');
  assert.equal(await clock(), 0);
  await move('2d');
  assert.equal(await status(), 'settled');
  await move(`${29 + (i % 3)}d`);
  assert.equal(await clock(), (31 + (i % 3)) * DAY);

  const charges = (await s.p.db.all<{ requested_amount: number }>('SELECT requested_amount FROM transactions WHERE subscription_id = ?', [sub.body.id]));
  assert.deepEqual(charges.map((c) => c.requested_amount), [500 + i, 500 + i], `worker ${i}: the first cycle and one renewal`);
  const amounts = await s.p.db.all<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE group_id = ?', [sb.group_id]);
  assert.equal(amounts[0]!.n, 3, `worker ${i}: its sale and two charges, nobody else's`);

  const dropped = await s.call('DELETE', `/api/v1/sandboxes/${sb.group_id}`, { key: ADMIN });
  assert.equal(dropped.status, 200, dropped.text);
  assert.equal((await s.call('GET', `${g}/transaction/${sold.body.id}`, { key })).status, 401);
  assert.equal(rowCount(await dumpGroup(s.p.db, sb.group_id, { traffic: true })), 0);
}

test(`${WORKERS} parallel workers, each in its own sandbox with its own clock, do not interfere`, async () => {
  const demoBefore = await dumpGroup(s.p.db, s.demo.group_id);
  const results = await Promise.allSettled(Array.from({ length: WORKERS }, (_, i) => worker(i)));
  const failures = results.flatMap((r, i) => (r.status === 'rejected' ? [`worker ${i}: ${String(r.reason)}`] : []));
  assert.deepEqual(failures, []);
  assert.deepEqual(await dumpGroup(s.p.db, s.demo.group_id), demoBefore);
  assert.deepEqual((await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data, []);
});
