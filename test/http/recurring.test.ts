// Recurring endpoints over the real server: every endpoint's 200 and its 400s, auth and
// isolation, Idempotency-Key on create, and billing seen through the API after the clock moves.
import '../helpers/env.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createGroup, createLinkedAccount, createProcessor } from '../../src/services/groups/groups.js';
import { createKey } from '../../src/services/groups/keys.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { planSchema, subscriptionSchema } from '../../src/domain/recurring.js';
import { US_BILLING } from '../helpers/bodies.js';

let s: TestServer;
let key: string;
let base: string;
let cardId: string;
let otherAccount: string;
let otherGroupBase: string;
let otherGroupKey: string;

before(async () => {
  s = await startTestServer();
  key = s.demo.keys.manage_transactions;
  base = `/api/v1/groups/${s.demo.group_id}/processing/${s.demo.linked_account_id}/recurring`;
  cardId = s.demo.card_id as string;
  // A second linked account of the same group, and a whole other group.
  otherAccount = (await execute(createLinkedAccount, s.p, contextFor(s.p, s.demo.group_id), { processor_id: s.demo.processor_id, name: 'Second' })).id;
  const g = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Other merchant' });
  const proc = await execute(createProcessor, s.p, contextFor(s.p, g.id), { type: 'transaction_level' });
  const acct = await execute(createLinkedAccount, s.p, contextFor(s.p, g.id), { processor_id: proc.id });
  otherGroupKey = (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_transactions'] })).key;
  otherGroupBase = `/api/v1/groups/${g.id}/processing/${acct.id}/recurring`;
});
after(() => s.close());

const ADDRESS = US_BILLING;
const PLAN = { name: 'Gold', amount: 3000, billing_cycle: 'monthly', duration: '12', tax: 200 };

/** The distinct field paths of a 400 (one field may have more than one problem). */
const paths = (r: { body: { error?: { fields?: Array<{ path: string }> } } }) => [...new Set((r.body.error?.fields ?? []).map((f) => f.path))].sort();

async function newPlan(body: Record<string, unknown> = {}): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await s.call('POST', `${base}/plans`, { key, body: { ...PLAN, ...body } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}
async function newSubscription(planId: string, body: Record<string, unknown> = {}): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await s.call('POST', `${base}/subscription`, { key, body: { plan_id: planId, customer_id: s.demo.customer_id, card_id: cardId, ...body } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}
function subscriptionUpdate(sub: Record<string, any>, patch: Record<string, unknown> = {}) { // eslint-disable-line @typescript-eslint/no-explicit-any
  return {
    plan_id: sub.plan_id,
    processor_id: sub.processor_id,
    currency: 'USD',
    amounts: { requested_amount: sub.amounts.amount },
    billing_address: ADDRESS,
    billing_cycle: 'monthly',
    duration: '0',
    max_retry_count: '3',
    ...patch,
  };
}

describe('POST …/recurring/plans (Create Plan)', () => {
  test('200: a Plan with every field of the spec', async () => {
    const body = {
      ...PLAN,
      description: 'Gold tier',
      initial_amount: 5000,
      shipping_amount: 100,
      trial_period_days: 7,
      trial_amount: 100,
      max_retry_count: 2,
      retry_policy: { steps: [{ delay_days: 3 }, { delay_days: 10 }] },
      proration_behavior: 'immediate_action',
      custom_fields: { tier: 'gold' },
    };
    const r = await s.call('POST', `${base}/plans`, { key, body });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(planSchema.parse(r.body), r.body);
    assert.deepEqual(Object.keys(r.body).sort(), Object.keys(planSchema.shape).sort());
    assert.deepEqual(
      { ...r.body, id: undefined, created_at: undefined, updated_at: undefined },
      {
        ...body,
        duration: 12,
        billing_factor: 1,
        linked_account_id: s.demo.linked_account_id,
        id: undefined,
        created_at: undefined,
        updated_at: undefined,
      },
    );
  });

  test('200: defaults of absent optional fields; duration as a number', async () => {
    const r = await s.call('POST', `${base}/plans`, { key, body: { name: 'Basic', amount: 999, billing_cycle: 'daily', billing_factor: 14, duration: 0 } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      [r.body.description, r.body.tax, r.body.shipping_amount, r.body.initial_amount, r.body.trial_period_days, r.body.trial_amount, r.body.max_retry_count, r.body.proration_behavior, r.body.custom_fields, 'retry_policy' in r.body, r.body.billing_factor],
      ['', 0, 0, null, null, null, 3, 'create_prorations', null, false, 14],
    );
  });

  const bad: Array<[string, Record<string, unknown>, string[]]> = [
    ['name missing', { name: undefined }, ['name']],
    ['amount negative', { amount: -1 }, ['amount']],
    ['amount as string', { amount: '3000' }, ['amount']],
    ['billing_cycle not in the enum', { billing_cycle: 'yearly' }, ['billing_cycle']],
    ['billing_factor ≠ 1 for monthly', { billing_factor: 2 }, ['billing_factor']],
    ['duration "-1"', { duration: '-1' }, ['duration']],
    ['duration missing', { duration: undefined }, ['duration']],
    ['trial_amount without trial_period_days', { trial_amount: 100 }, ['trial_amount']],
    ['max_retry_count 6', { max_retry_count: 6 }, ['max_retry_count']],
    ['steps count ≠ max_retry_count', { max_retry_count: 2, retry_policy: { steps: [{ delay_days: 1 }] } }, ['retry_policy.steps']],
    ['delay_days 0', { max_retry_count: 1, retry_policy: { steps: [{ delay_days: 0 }] } }, ['retry_policy.steps.0.delay_days']],
    ['delay_days 31', { max_retry_count: 1, retry_policy: { steps: [{ delay_days: 31 }] } }, ['retry_policy.steps.0.delay_days']],
    ['delay_days sum 31', { max_retry_count: 2, retry_policy: { steps: [{ delay_days: 30 }, { delay_days: 1 }] } }, ['retry_policy.steps']],
    ['proration_behavior not in the enum', { proration_behavior: 'always' }, ['proration_behavior']],
    ['tax above amount', { tax: 4000 }, ['amount']],
    ['unknown field', { status: 'active' }, ['status']],
  ];
  for (const [name, patch, expected] of bad) {
    test(`400: ${name}`, async () => {
      const body: Record<string, unknown> = { ...PLAN, ...patch };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const r = await s.call('POST', `${base}/plans`, { key, body });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.type, 'validation_error');
      assert.deepEqual(paths(r), expected);
    });
  }

  test('401 without a key, 403 with another permission or another group\'s key', async () => {
    assert.equal((await s.call('POST', `${base}/plans`, { body: PLAN })).status, 401);
    assert.equal((await s.call('POST', `${base}/plans`, { key: s.demo.keys.view_transactions, body: PLAN })).status, 403);
    assert.equal((await s.call('POST', `${base}/plans`, { key: otherGroupKey, body: PLAN })).status, 403);
  });

  test('404 for a linked account that is not the group\'s', async () => {
    const wrong = `/api/v1/groups/${s.demo.group_id}/processing/0190c7f2-1234-7abc-8def-0123456789ab/recurring/plans`;
    const r = await s.call('POST', wrong, { key, body: PLAN });
    assert.equal(r.status, 404);
    assert.equal(r.body.error.type, 'not_found');
    const otherGroupAccount = otherGroupBase.split('/')[6];
    const cross = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/processing/${otherGroupAccount}/recurring/plans`, { key, body: PLAN });
    assert.equal(cross.status, 404);
  });
});

describe('plans: get and list (extensions)', () => {
  test('GET a plan; 404 for an unknown plan or one of another linked account', async () => {
    const plan = await newPlan({ name: 'Gettable' });
    const r = await s.call('GET', `${base}/plans/${plan.id}`, { key });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, plan);
    const secondBase = `/api/v1/groups/${s.demo.group_id}/processing/${otherAccount}/recurring`;
    assert.equal((await s.call('GET', `${secondBase}/plans/${plan.id}`, { key })).status, 404);
    assert.equal((await s.call('GET', `${base}/plans/0190c7f2-1234-7abc-8def-0123456789ab`, { key })).status, 404);
  });

  test('list newest first with paging; 400 for a bad limit', async () => {
    const a = await newPlan({ name: 'List A' });
    const b = await newPlan({ name: 'List B' });
    const r = await s.call('GET', `${base}/plans?limit=2`, { key });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.items.map((p: { id: string }) => p.id), [b.id, a.id]);
    assert.ok(r.body.data.total_count >= 2);
    const page2 = await s.call('GET', `${base}/plans?limit=1&offset=1`, { key });
    assert.equal(page2.body.data.items[0].id, a.id);
    const bad = await s.call('GET', `${base}/plans?limit=0`, { key });
    assert.equal(bad.status, 400);
    assert.deepEqual(paths(bad), ['limit']);
  });
});

describe('PUT …/recurring/plans/{plan_id} (Update plan)', () => {
  const update = { ...PLAN, description: 'v2', update_subscriptions: false, prorate: false };

  test('200: replaces the plan; billing_factor as a string is accepted', async () => {
    const plan = await newPlan({ retry_policy: { steps: [{ delay_days: 2 }] }, max_retry_count: 1 });
    const r = await s.call('PUT', `${base}/plans/${plan.id}`, { key, body: { ...update, name: 'Gold v2', amount: 3500, billing_factor: '1', max_retry_count: 1 } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.name, r.body.amount, r.body.billing_factor, r.body.description, r.body.id], ['Gold v2', 3500, 1, 'v2', plan.id]);
    assert.deepEqual(r.body.retry_policy, { steps: [{ delay_days: 2 }] }, 'kept while its steps still match max_retry_count');
    assert.deepEqual(planSchema.parse(r.body), r.body);
  });

  const bad: Array<[string, Record<string, unknown>, string[]]> = [
    ['description missing', { description: undefined }, ['description']],
    ['update_subscriptions missing', { update_subscriptions: undefined }, ['update_subscriptions']],
    ['prorate missing', { prorate: undefined }, ['prorate']],
    ['prorate as a string', { prorate: 'yes' }, ['prorate']],
    ['billing_factor "2" for monthly', { billing_factor: '2' }, ['billing_factor']],
    ['billing_factor "x"', { billing_factor: 'x' }, ['billing_factor']],
    ['retry_policy is not part of the update', { retry_policy: { steps: [] } }, ['retry_policy']],
    ['max_retry_count 6', { max_retry_count: 6 }, ['max_retry_count']],
    ['trial_amount without trial_period_days', { trial_amount: 5 }, ['trial_amount']],
  ];
  for (const [name, patch, expected] of bad) {
    test(`400: ${name}`, async () => {
      const plan = await newPlan();
      const body: Record<string, unknown> = { ...update, ...patch };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const r = await s.call('PUT', `${base}/plans/${plan.id}`, { key, body });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(paths(r), expected);
    });
  }

  test('404 for an unknown plan', async () => {
    const r = await s.call('PUT', `${base}/plans/0190c7f2-1234-7abc-8def-0123456789ab`, { key, body: update });
    assert.equal(r.status, 404);
  });

  test('update_subscriptions + prorate reaches active subscriptions; a proration charge may be made', async () => {
    const plan = await newPlan({ amount: 3000, tax: 0 });
    const sub = await newSubscription(plan.id);
    await advanceClock(s.p, 10 * 86_400_000);
    const r = await s.call('PUT', `${base}/plans/${plan.id}`, { key, body: { ...update, amount: 6000, tax: 0, update_subscriptions: true, prorate: true } });
    assert.equal(r.status, 200, r.text);
    const after = await s.call('GET', `${base}/subscription/${sub.id}`, { key });
    assert.equal(after.body.amounts.amount, 6000);
    assert.equal(after.body.proration_result, 'applied');
    const rows = await s.p.db.all<{ requested_amount: number }>('SELECT requested_amount FROM transactions WHERE subscription_id = ? ORDER BY created_at', [sub.id]);
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.requested_amount, 3000);
    // 3000 more × (days left) / (days in the period): 18/28 to 21/31 of it.
    assert.ok(rows[1]!.requested_amount >= 1925 && rows[1]!.requested_amount <= 2035, String(rows[1]!.requested_amount));
  });
});

describe('POST …/recurring/subscription (create, extension)', () => {
  test('200: a Subscription with every field; the first cycle is charged at once', async () => {
    const plan = await newPlan({ amount: 2500, tax: 100, shipping_amount: 50 });
    const sub = await newSubscription(plan.id, { billing_address: ADDRESS, description: 'Gold for Ada' });
    assert.deepEqual(subscriptionSchema.parse(sub), sub);
    assert.deepEqual(
      [sub.plan_id, sub.customer_id, sub.status, sub.currency, sub.processor_id, sub.payment_method, sub.gateway_customer_id, sub.duration, sub.description],
      [plan.id, s.demo.customer_id, 'active', 'USD', s.demo.processor_id, 'card', s.demo.customer_id, 12, 'Gold for Ada'],
    );
    assert.deepEqual(sub.amounts, { amount: 2500, tax_amount: 100, initial_amount: null, shipping_amount: 50 });
    assert.deepEqual(Object.keys(sub.payment_details.card).sort(), ['brand', 'card_type', 'first_six', 'last_four']);
    assert.equal(sub.metadata.charge_count, 1);
    assert.equal(sub.retry_count, 0);
    assert.deepEqual([sub.metadata.form_layout_id, sub.metadata.form_layout_external_id, sub.metadata.form_entry_id], [null, null, null]);
    assert.deepEqual(sub.billing_address, { address: ADDRESS });
    const [t] = await s.p.db.all<Record<string, unknown>>('SELECT * FROM transactions WHERE subscription_id = ?', [sub.id]);
    assert.deepEqual([t!.source, t!.plan_id, t!.requested_amount, t!.included_tax_amount, t!.included_shipping_amount], ['recurring', plan.id, 2500, 100, 50]);
  });

  test('200 with a token; the token is used up', async () => {
    const plan = await newPlan();
    const minted = await s.call('POST', '/api/v1/tokens', {
      body: { card: { number: '5555555555554444', expiration_month: 12, expiration_year: 2099, cvv: '123', holder_name: 'Ada L' } },
    });
    const sub = await newSubscription(plan.id, { card_id: undefined, payment_details: { token: minted.body.token } });
    assert.equal(sub.payment_details.card.last_four, '4444');
    const again = await s.call('POST', `${base}/subscription`, { key, body: { plan_id: plan.id, customer_id: s.demo.customer_id, payment_details: { token: minted.body.token } } });
    assert.equal(again.status, 400);
    assert.equal(again.body.error.type, 'invalid_request');
  });

  test('Idempotency-Key: a retry returns the same subscription and charges once', async () => {
    const plan = await newPlan();
    const body = { plan_id: plan.id, customer_id: s.demo.customer_id, card_id: cardId };
    const headers = { 'idempotency-key': `sub-${plan.id}` };
    const a = await s.call('POST', `${base}/subscription`, { key, body, headers });
    const b = await s.call('POST', `${base}/subscription`, { key, body, headers });
    assert.equal(a.status, 200);
    assert.deepEqual(b.body, a.body);
    const n = await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM subscriptions WHERE plan_id = ?', [plan.id]);
    assert.equal(n!.n, 1);
  });

  const bad: Array<[string, Record<string, unknown>, string[]]> = [
    ['no payment method', { card_id: undefined }, ['card_id']],
    ['card and token', { payment_details: { token: 'tok_visa' } }, ['payment_details.token']],
    ['plan_id not a UUID', { plan_id: 'plan_1' }, ['plan_id']],
    ['unknown plan', { plan_id: '0190c7f2-1234-7abc-8def-0123456789ab' }, ['plan_id']],
    ['unknown customer', { customer_id: '0190c7f2-1234-7abc-8def-0123456789ab' }, ['customer_id']],
    ['card of no such customer card', { card_id: '0190c7f2-1234-7abc-8def-0123456789ab' }, ['card_id']],
    ['unknown processor', { processor_id: 'nope' }, ['processor_id']],
    ['start_date not a date', { start_date: 'tomorrow' }, ['start_date']],
    ['currency EUR', { currency: 'EUR' }, ['currency']],
    ['unknown token', { card_id: undefined, payment_details: { token: 'tok_unknown' } }, ['payment_details.token']],
    ['unknown field', { status: 'active' }, ['status']],
  ];
  for (const [name, patch, expected] of bad) {
    test(`400: ${name}`, async () => {
      const plan = await newPlan();
      const body: Record<string, unknown> = { plan_id: plan.id, customer_id: s.demo.customer_id, card_id: cardId, ...patch };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const r = await s.call('POST', `${base}/subscription`, { key, body });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(paths(r), expected);
    });
  }

  test('a plan of another linked account is a 400 naming plan_id', async () => {
    const secondBase = `/api/v1/groups/${s.demo.group_id}/processing/${otherAccount}/recurring`;
    const r = await s.call('POST', `${secondBase}/plans`, { key, body: PLAN });
    const sub = await s.call('POST', `${base}/subscription`, { key, body: { plan_id: r.body.id, customer_id: s.demo.customer_id, card_id: cardId } });
    assert.equal(sub.status, 400);
    assert.deepEqual(paths(sub), ['plan_id']);
  });
});

describe('PUT …/recurring/subscription/{subscription_id} (Update subscription)', () => {
  test('200: every field applied; null amounts take the plan\'s; strings for duration and max_retry_count', async () => {
    const plan = await newPlan({ amount: 3000, tax: 200, shipping_amount: 100, initial_amount: 4000, proration_behavior: 'none' });
    const sub = await newSubscription(plan.id);
    const body = subscriptionUpdate(sub, {
      amounts: { requested_amount: 3500, included_tax_amount: null, included_shipping_amount: 0, initial_amount: null },
      billing_address: { ...ADDRESS, postal_code: 'SW1A 1AA', country: 'GB', line_2: 'Flat 2', company: 'ACME' },
      billing_cycle: 'daily',
      billing_factor: 30,
      duration: '24',
      max_retry_count: '5',
      description: 'Updated',
    });
    const r = await s.call('PUT', `${base}/subscription/${sub.id}`, { key, body });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(subscriptionSchema.parse(r.body), r.body);
    assert.deepEqual(r.body.amounts, { amount: 3500, tax_amount: 200, initial_amount: 4000, shipping_amount: 0 });
    assert.deepEqual([r.body.billing_cycle, r.body.billing_factor, r.body.duration, r.body.metadata.max_retry_count, r.body.description], ['daily', 30, 24, 5, 'Updated']);
    assert.equal(r.body.billing_address.address.postal_code, 'SW1A 1AA');
    // The new cycle starts where the month already paid for ends.
    assert.equal(r.body.next_bill_date, sub.next_bill_date);
  });

  test('200: proration_behavior override (create_prorations) and a new payment token', async () => {
    const plan = await newPlan({ amount: 3000, proration_behavior: 'none' });
    const sub = await newSubscription(plan.id);
    await advanceClock(s.p, 5 * 86_400_000);
    const r = await s.call('PUT', `${base}/subscription/${sub.id}`, {
      key,
      body: subscriptionUpdate(sub, { amounts: { requested_amount: 6000 }, proration_behavior: 'create_prorations', payment_details: { token: 'tok_amex' } }),
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.proration_result, 'pending');
    assert.ok(r.body.pending_proration_amount > 0);
    assert.equal(r.body.payment_details.card.brand, 'American Express');
  });

  const bad: Array<[string, Record<string, unknown>, string[]]> = [
    ['plan_id missing', { plan_id: undefined }, ['plan_id']],
    ['processor_id missing', { processor_id: undefined }, ['processor_id']],
    ['currency EUR', { currency: 'EUR' }, ['currency']],
    ['requested_amount missing', { amounts: {} }, ['amounts.requested_amount']],
    ['billing_address missing', { billing_address: undefined }, ['billing_address']],
    ['postal_code empty', { billing_address: { ...ADDRESS, postal_code: '' } }, ['billing_address.postal_code']],
    ['postal_code 11 chars', { billing_address: { ...ADDRESS, postal_code: '12345678901' } }, ['billing_address.postal_code']],
    ['postal_code starting with a hyphen', { billing_address: { ...ADDRESS, postal_code: '-1234' } }, ['billing_address.postal_code']],
    ['postal_code with a double space', { billing_address: { ...ADDRESS, postal_code: 'AB  12' } }, ['billing_address.postal_code']],
    ['city over 24 chars', { billing_address: { ...ADDRESS, city: 'x'.repeat(25) } }, ['billing_address.city']],
    ['billing_cycle weekly', { billing_cycle: 'weekly' }, ['billing_cycle']],
    ['billing_factor 2 for monthly', { billing_factor: 2 }, ['billing_factor']],
    ['duration missing', { duration: undefined }, ['duration']],
    ['max_retry_count "6"', { max_retry_count: '6' }, ['max_retry_count']],
    ['max_retry_count missing', { max_retry_count: undefined }, ['max_retry_count']],
    ['proration_behavior not in the enum', { proration_behavior: 'later' }, ['proration_behavior']],
    ['payment_details.token empty', { payment_details: { token: '' } }, ['payment_details.token']],
    ['unknown plan', { plan_id: '0190c7f2-1234-7abc-8def-0123456789ab' }, ['plan_id']],
    ['unknown processor', { processor_id: 'proc_nope' }, ['processor_id']],
    ['tax of the plan above the new amount', { amounts: { requested_amount: 100 } }, ['amounts.requested_amount']],
    ['unknown field', { status: 'failed' }, ['status']],
  ];
  let shared: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const [name, patch, expected] of bad) {
    test(`400: ${name}`, async () => {
      shared ??= await newSubscription((await newPlan({ tax: 200 })).id);
      const body: Record<string, unknown> = subscriptionUpdate(shared, patch);
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const r = await s.call('PUT', `${base}/subscription/${shared.id}`, { key, body });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(paths(r), expected);
    });
  }

  test('404 for an unknown subscription; 400 for a canceled one', async () => {
    const plan = await newPlan();
    const sub = await newSubscription(plan.id);
    assert.equal((await s.call('PUT', `${base}/subscription/0190c7f2-1234-7abc-8def-0123456789ab`, { key, body: subscriptionUpdate(sub) })).status, 404);
    await s.call('POST', `${base}/subscription/${sub.id}/cancel`, { key });
    const r = await s.call('PUT', `${base}/subscription/${sub.id}`, { key, body: subscriptionUpdate(sub) });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.type, 'invalid_request');
  });
});

describe('subscriptions: get, list, cancel (extensions)', () => {
  test('GET a subscription; another linked account\'s path is a 404', async () => {
    const sub = await newSubscription((await newPlan()).id);
    const r = await s.call('GET', `${base}/subscription/${sub.id}`, { key });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, sub);
    const secondBase = `/api/v1/groups/${s.demo.group_id}/processing/${otherAccount}/recurring`;
    assert.equal((await s.call('GET', `${secondBase}/subscription/${sub.id}`, { key })).status, 404);
  });

  test('list with filters; 400 for a bad status', async () => {
    const plan = await newPlan();
    const a = await newSubscription(plan.id);
    const b = await newSubscription(plan.id);
    await s.call('POST', `${base}/subscription/${a.id}/cancel`, { key });
    const all = await s.call('GET', `${base}/subscription?plan_id=${plan.id}`, { key });
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.data.items.map((x: { id: string }) => x.id), [b.id, a.id]);
    assert.equal(all.body.data.total_count, 2);
    const canceled = await s.call('GET', `${base}/subscription?plan_id=${plan.id}&status=canceled`, { key });
    assert.deepEqual(canceled.body.data.items.map((x: { id: string }) => x.id), [a.id]);
    const bad = await s.call('GET', `${base}/subscription?status=paused`, { key });
    assert.equal(bad.status, 400);
    assert.deepEqual(paths(bad), ['status']);
  });

  test('cancel: 200 with status canceled, then 400; 404 for an unknown one', async () => {
    const sub = await newSubscription((await newPlan()).id);
    const r = await s.call('POST', `${base}/subscription/${sub.id}/cancel`, { key });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.status, r.body.next_bill_date], ['canceled', null]);
    assert.ok(r.body.canceled_at);
    const again = await s.call('POST', `${base}/subscription/${sub.id}/cancel`, { key });
    assert.equal(again.status, 400);
    assert.equal((await s.call('POST', `${base}/subscription/0190c7f2-1234-7abc-8def-0123456789ab/cancel`, { key })).status, 404);
  });
});

describe('billing seen through the API', () => {
  test('a declining card retries and ends failed; demo plans and subscriptions exist', async () => {
    const token = 'tok_visa_declined';
    const plan = await newPlan({ max_retry_count: 2, retry_policy: { steps: [{ delay_days: 1 }, { delay_days: 1 }] } });
    const sub = await newSubscription(plan.id, { card_id: undefined, payment_details: { token } });
    assert.deepEqual([sub.status, sub.retry_count, sub.metadata.failure_attempt_count], ['active', 1, 1]);
    await advanceClock(s.p, 3 * 86_400_000);
    const r = await s.call('GET', `${base}/subscription/${sub.id}`, { key });
    assert.deepEqual([r.body.status, r.body.retry_count, r.body.metadata.failure_attempt_count, r.body.next_bill_date], ['failed', 2, 3, null]);

    const planIds = s.demo.plan_ids as string[];
    const subIds = s.demo.subscription_ids as string[];
    assert.ok(planIds.length >= 2 && subIds.length >= 2);
    for (const id of planIds) assert.equal((await s.call('GET', `${base}/plans/${id}`, { key })).status, 200);
    for (const id of subIds) {
      const d = await s.call('GET', `${base}/subscription/${id}`, { key });
      assert.equal(d.status, 200);
      assert.equal(d.body.status, 'active');
      assert.equal(d.body.customer_id, s.demo.customer_id);
    }
  });
});
