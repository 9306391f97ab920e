// A payments integration tested against payctl with node:test: `node --test`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startPayctl } from 'payctl/testing';

let payctl;
before(async () => {
  payctl = await startPayctl(); // its own `payctl serve`, or the one PAYCTL_URL names
});
after(() => payctl.stop());

/** A card sale on the demo customer's stored card (your integration would build this). */
const sale = (sb, cents) => ({
  type: 'sale', source: 'api', processor_id: sb.processorId, currency: 'USD',
  email_address: 'ada@example.com', email_receipt: false, amounts: { requested_amount: cents },
  payment_details: { customer: { customer_id: sb.demo.customer_id, card_id: sb.demo.card_id } },
});

test('checkout: the sale settles at the cutoff and the webhook says so', async () => {
  const sb = await payctl.sandbox({ demo: true });
  const { data: tx } = await sb.client.POST('/api/v1/groups/{group_id}/transaction', { body: sale(sb, 4200) });
  assert.equal(tx.status, 'pending');

  await sb.clock.advance('2d'); // past the daily settlement cutoff
  const ev = await sb.webhooks.next((e) => e.type === 'transaction.settled' && e.data.object.id === tx.id);
  assert.equal(ev.data.object.amounts.requested_amount, 4200);
  await sb.drop();
});

test('subscription: a create whose answer was lost is retried safely, then it renews', async () => {
  const sb = await payctl.sandbox({ demo: true });
  const recurring = '/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring';
  const plan = await sb.request('POST', `${recurring}/plans`, {
    body: { name: 'Membership', amount: 900, billing_cycle: 'monthly', duration: 0 },
  });
  // The first create commits, then its connection drops without an answer.
  await sb.faults.add({ method: 'POST', path: '/api/v1/groups/*/processing/*/recurring/subscription', action: 'timeout_after_commit', first: 1 });
  const create = () => sb.request('POST', `${recurring}/subscription`, {
    body: { plan_id: plan.body.id, customer_id: sb.demo.customer_id, card_id: sb.demo.card_id },
    headers: { 'Idempotency-Key': 'membership-ada-1' },
  });
  await assert.rejects(create()); // what your client sees: a network error
  const sub = await create(); // its retry, with the same Idempotency-Key
  assert.equal(sub.headers.get('idempotent-replayed'), 'true');

  const created = await sb.webhooks.next('subscription.created');
  assert.equal(created.data.object.id, sub.body.id);
  await sb.webhooks.none('subscription.created', { within: 200 }); // one subscription, not two

  await sb.clock.advance('32d');
  const charged = await sb.webhooks.next((e) => e.type === 'subscription.charged' && e.data.object.id === sub.body.id);
  assert.equal(charged.data.object.status, 'active');
  await sb.drop();
});

test('refund: the customer gets the money back, once', async () => {
  const sb = await payctl.sandbox({ demo: true });
  const tx = await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: sale(sb, 2500) });
  await sb.clock.advance('2d');
  await sb.webhooks.next('transaction.settled');

  const refund = await sb.request('POST', `/api/v1/groups/{group_id}/transaction/${tx.body.id}/refund`, {
    body: { amount: 2500 },
  });
  assert.equal(refund.status, 200);
  const ev = await sb.webhooks.next('transaction.refunded');
  assert.equal(ev.data.object.id, tx.body.id);
  await sb.webhooks.none('transaction.refunded', { within: 200 }); // not twice
  await sb.drop();
});
