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

test('subscription: a renewal the bank declines is retried the next day, and goes through', async () => {
  // No demo data: the demo's own subscriptions would take the fault's one charge.
  const sb = await payctl.sandbox();
  const customer = await sb.request('POST', '/api/v1/groups/{group_id}/customers', {
    body: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  });
  const card = await sb.request('POST', `/api/v1/groups/{group_id}/processing/{linked_account_id}/customers/${customer.body.id}/payment_methods/card`, {
    body: { token: 'tok_visa', billing_address: { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' } },
  });
  const recurring = '/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring';
  const plan = await sb.request('POST', `${recurring}/plans`, {
    body: { name: 'Gold', amount: 1500, billing_cycle: 'monthly', duration: 0, max_retry_count: 3 },
  });
  const sub = await sb.request('POST', `${recurring}/subscription`, {
    body: { plan_id: plan.body.id, customer_id: customer.body.id, card_id: card.body.card_id },
  });
  // The next charge of the billing engine is declined: insufficient funds.
  await sb.faults.add({ operation: 'subscription_charge', action: 'decline', response_code: '51', first: 1 });
  const ofSub = (type) => (e) => e.type === type && e.data.object.id === sub.body.id;
  await sb.webhooks.next(ofSub('subscription.charged')); // the first month, charged when it started

  await sb.clock.advance('31d');
  await sb.webhooks.next(ofSub('subscription.payment_failed'));
  const declined = await sb.webhooks.next((e) => e.type === 'transaction.declined' && e.data.object.subscription_id === sub.body.id);
  assert.equal(declined.data.object.response_code, '51'); // the fault's decline, recorded like any other
  await sb.clock.advance('1d'); // the retry
  const renewed = await sb.webhooks.next(ofSub('subscription.charged'));
  assert.equal(renewed.data.object.status, 'active');
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
