// The subscription calendar and terms rules, table by table: pure functions of the
// entity, each returning the subscription to save and leaving its argument as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  addCycles,
  afterAttempt,
  backdate,
  changeAmount,
  cyclesElapsed,
  periodBounds,
  planTerms,
  reanchor,
  reschedule,
  scheduledBillDate,
  withTerms,
  type PlanEntity,
  type SubscriptionEntity,
} from '../../src/domain/recurring.js';

const base: SubscriptionEntity = {
  id: 'sub-1',
  group_id: 'g',
  linked_account_id: 'la',
  plan_id: 'plan-1',
  customer_id: 'c',
  processor_id: 'proc',
  description: '',
  currency: 'USD',
  amount: 3000,
  tax_amount: 0,
  shipping_amount: 0,
  initial_amount: null,
  trial_amount: null,
  trial_period_days: null,
  billing_cycle: 'monthly',
  billing_factor: 1,
  duration: 0,
  max_retry_count: 3,
  retry_policy: null,
  start_at: '2027-01-31T00:00:00.000Z',
  anchor_at: '2027-01-31T00:00:00.000Z',
  anchor_count: 0,
  trial_done: false,
  next_bill_date: '2027-01-31T00:00:00.000Z',
  status: 'active',
  charge_count: 0,
  failure_attempt_count: 0,
  retry_count: 0,
  billing_period_start: '2027-01-31T00:00:00.000Z',
  billing_period_end: '2027-02-28T00:00:00.000Z',
  pending_proration: 0,
  proration_result: 'none',
  payment_method: 'card',
  card_id: 'card-1',
  bank_account_id: null,
  token_snapshot: null,
  billing_address: { first_name: 'Ada' },
  version: 0,
  created_at: '2027-01-01T00:00:00.000Z',
  updated_at: '2027-01-01T00:00:00.000Z',
  canceled_at: null,
};
const sub = (patch: Partial<SubscriptionEntity>): SubscriptionEntity => ({ ...base, ...patch });
const frozen = (s: SubscriptionEntity) => Object.freeze({ ...s, billing_address: Object.freeze({ ...s.billing_address }) }) as SubscriptionEntity;

const billDates: Array<[string, Partial<SubscriptionEntity>, string | null]> = [
  ['nothing billed yet: the anchor', {}, '2027-01-31T00:00:00.000Z'],
  ['month-end anchor clamps in February', { charge_count: 1 }, '2027-02-28T00:00:00.000Z'],
  ['…and comes back in March', { charge_count: 2 }, '2027-03-31T00:00:00.000Z'],
  ['counted from a later anchor', { charge_count: 5, anchor_count: 3, anchor_at: '2027-06-15T00:00:00.000Z' }, '2027-08-15T00:00:00.000Z'],
  ['daily every 10 days', { billing_cycle: 'daily', billing_factor: 10, charge_count: 2 }, '2027-02-20T00:00:00.000Z'],
  ['finite duration fully billed: none', { duration: 3, charge_count: 3 }, null],
  ['finite duration not yet billed', { duration: 3, charge_count: 2 }, '2027-03-31T00:00:00.000Z'],
];
for (const [name, patch, expected] of billDates) {
  test(`scheduledBillDate: ${name}`, () => assert.equal(scheduledBillDate(sub(patch)), expected));
}

const periods: Array<[string, Partial<SubscriptionEntity>, number, { start: string; end: string }]> = [
  ['first period', {}, 0, { start: '2027-01-31T00:00:00.000Z', end: '2027-02-28T00:00:00.000Z' }],
  ['third period', {}, 2, { start: '2027-03-31T00:00:00.000Z', end: '2027-04-30T00:00:00.000Z' }],
  ['after a re-anchor', { anchor_at: '2027-03-10T00:00:00.000Z', anchor_count: 2, billing_cycle: 'annual' }, 3, { start: '2028-03-10T00:00:00.000Z', end: '2029-03-10T00:00:00.000Z' }],
];
for (const [name, patch, index, expected] of periods) {
  test(`periodBounds: ${name}`, () => assert.deepEqual(periodBounds(sub(patch), index), expected));
}

const reanchors: Array<[string, Partial<SubscriptionEntity>, [SubscriptionEntity['billing_cycle'], number], Partial<SubscriptionEntity>]> = [
  ['same schedule: unchanged', { charge_count: 2 }, ['monthly', 1], {}],
  ['nothing billed: the anchor stays, the cycle changes', {}, ['annual', 1], { billing_cycle: 'annual' }],
  [
    'billed: the new calendar starts at the end of the paid period',
    { charge_count: 2, billing_period_end: '2027-03-31T00:00:00.000Z' },
    ['daily', 7],
    { billing_cycle: 'daily', billing_factor: 7, anchor_at: '2027-03-31T00:00:00.000Z', anchor_count: 2 },
  ],
];
for (const [name, patch, [cycle, factor], changes] of reanchors) {
  test(`reanchor: ${name}`, () => {
    const before = frozen(sub(patch));
    assert.deepEqual(reanchor(before, cycle, factor), { ...before, ...changes });
  });
}

const reschedules: Array<[string, Partial<SubscriptionEntity>, Partial<SubscriptionEntity>]> = [
  ['not active: unchanged', { status: 'canceled', next_bill_date: null, duration: 1, charge_count: 1 }, {}],
  ['finite and fully billed: completed', { duration: 2, charge_count: 2 }, { status: 'completed', next_bill_date: null }],
  ['a retry comes next: unchanged', { retry_count: 1, next_bill_date: '2027-02-01T00:00:00.000Z', charge_count: 1 }, {}],
  ['the trial charge comes next: unchanged', { trial_period_days: 14, next_bill_date: '2027-01-17T00:00:00.000Z' }, {}],
  ['trial done: on the calendar', { trial_period_days: 14, trial_done: true, charge_count: 1, next_bill_date: null }, { next_bill_date: '2027-02-28T00:00:00.000Z' }],
  ['otherwise: the next regular date', { charge_count: 2, next_bill_date: '2027-01-01T00:00:00.000Z' }, { next_bill_date: '2027-03-31T00:00:00.000Z' }],
];
for (const [name, patch, changes] of reschedules) {
  test(`reschedule: ${name}`, () => {
    const before = frozen(sub(patch));
    assert.deepEqual(reschedule(before), { ...before, ...changes });
  });
}

const plan: PlanEntity = {
  id: 'plan-2',
  group_id: 'g',
  linked_account_id: 'la',
  name: 'Pro',
  description: '',
  amount: 5000,
  initial_amount: 7000,
  trial_amount: null,
  trial_period_days: null,
  billing_cycle: 'annual',
  billing_factor: 1,
  duration: 4,
  tax: 400,
  shipping_amount: 100,
  max_retry_count: 2,
  retry_policy: { steps: [{ delay_days: 2 }, { delay_days: 5 }] },
  proration_behavior: 'none',
  custom_fields: null,
  created_at: '2027-01-01T00:00:00.000Z',
  updated_at: '2027-01-01T00:00:00.000Z',
};

test('planTerms: the terms a subscription copies from its plan', () => {
  assert.deepEqual(planTerms(plan), {
    billing_cycle: 'annual',
    billing_factor: 1,
    amount: 5000,
    tax: 400,
    shipping: 100,
    initial_amount: 7000,
    duration: 4,
    max_retry_count: 2,
    retry_policy: { steps: [{ delay_days: 2 }, { delay_days: 5 }] },
  });
});

test('withTerms: re-anchors and copies every term but the amount (prorated separately)', () => {
  const before = frozen(sub({ charge_count: 1, billing_period_end: '2027-02-28T00:00:00.000Z' }));
  const after = withTerms(before, planTerms(plan));
  assert.deepEqual(after, {
    ...before,
    billing_cycle: 'annual',
    anchor_at: '2027-02-28T00:00:00.000Z',
    anchor_count: 1,
    tax_amount: 400,
    shipping_amount: 100,
    initial_amount: 7000,
    duration: 4,
    max_retry_count: 2,
    retry_policy: { steps: [{ delay_days: 2 }, { delay_days: 5 }] },
  });
  assert.equal(after.amount, 3000);
});

const due = '2027-03-31T00:00:00.000Z';
const attempts: Array<[string, Partial<SubscriptionEntity>, { trial?: boolean; approved: boolean; carried?: number }, Partial<SubscriptionEntity>]> = [
  [
    'regular charge approved: the period advances, the next date is scheduled',
    { charge_count: 2, next_bill_date: due },
    { approved: true },
    { charge_count: 3, billing_period_start: '2027-03-31T00:00:00.000Z', billing_period_end: '2027-04-30T00:00:00.000Z', next_bill_date: '2027-04-30T00:00:00.000Z' },
  ],
  [
    'approved after retries: the retries reset',
    { charge_count: 2, retry_count: 2, failure_attempt_count: 2, next_bill_date: '2027-04-04T00:00:00.000Z' },
    { approved: true },
    { retry_count: 0, charge_count: 3, billing_period_start: '2027-03-31T00:00:00.000Z', billing_period_end: '2027-04-30T00:00:00.000Z', next_bill_date: '2027-04-30T00:00:00.000Z' },
  ],
  [
    'the last cycle of a finite subscription: completed',
    { duration: 3, charge_count: 2, next_bill_date: due },
    { approved: true },
    { charge_count: 3, billing_period_start: '2027-03-31T00:00:00.000Z', billing_period_end: '2027-04-30T00:00:00.000Z', status: 'completed', next_bill_date: null },
  ],
  [
    'trial charge approved: the trial period is start → anchor, then the first regular date',
    { trial_period_days: 14, start_at: '2027-01-17T00:00:00.000Z', next_bill_date: '2027-01-17T00:00:00.000Z' },
    { trial: true, approved: true },
    { trial_done: true, billing_period_start: '2027-01-17T00:00:00.000Z', billing_period_end: '2027-01-31T00:00:00.000Z', next_bill_date: '2027-01-31T00:00:00.000Z' },
  ],
  [
    'a pending proration paid off: applied',
    { charge_count: 1, pending_proration: 500, proration_result: 'pending', next_bill_date: '2027-02-28T00:00:00.000Z' },
    { approved: true, carried: 0 },
    { charge_count: 2, pending_proration: 0, proration_result: 'applied', billing_period_start: '2027-02-28T00:00:00.000Z', billing_period_end: '2027-03-31T00:00:00.000Z', next_bill_date: '2027-03-31T00:00:00.000Z' },
  ],
  [
    'a credit larger than the charge: the rest is carried, still pending',
    { charge_count: 1, pending_proration: -5000, proration_result: 'pending', next_bill_date: '2027-02-28T00:00:00.000Z' },
    { approved: true, carried: -2000 },
    { charge_count: 2, pending_proration: -2000, billing_period_start: '2027-02-28T00:00:00.000Z', billing_period_end: '2027-03-31T00:00:00.000Z', next_bill_date: '2027-03-31T00:00:00.000Z' },
  ],
  ['declined: the first retry a day later (default schedule 1, 3, 5 days)', { charge_count: 2, next_bill_date: due }, { approved: false }, { failure_attempt_count: 1, retry_count: 1, next_bill_date: '2027-04-01T00:00:00.000Z' }],
  ['declined again: the retry policy\'s next step', { charge_count: 2, retry_count: 1, failure_attempt_count: 1, retry_policy: { steps: [{ delay_days: 2 }, { delay_days: 10 }] }, max_retry_count: 2 }, { approved: false }, { failure_attempt_count: 2, retry_count: 2, next_bill_date: '2027-04-10T00:00:00.000Z' }],
  ['declined with no retry left: failed', { charge_count: 2, retry_count: 3, failure_attempt_count: 3 }, { approved: false }, { failure_attempt_count: 4, status: 'failed', next_bill_date: null }],
  ['ACH is not retried: failed at once', { charge_count: 2, payment_method: 'ach', card_id: null, bank_account_id: 'ba-1' }, { approved: false }, { failure_attempt_count: 1, status: 'failed', next_bill_date: null }],
];
for (const [name, patch, a, changes] of attempts) {
  test(`afterAttempt: ${name}`, () => {
    const before = frozen(sub(patch));
    const after = afterAttempt(before, { trial: a.trial ?? false, approved: a.approved, due_at: due, carried_proration: a.carried ?? 0 });
    assert.deepEqual(after, { ...before, ...changes });
  });
}

// Period Jan 31 → Feb 28 2027 (28 days) paid for; the change happens half-way, on Feb 14.
const half = '2027-02-14T00:00:00.000Z';
const paid: Partial<SubscriptionEntity> = { charge_count: 1, billing_period_start: '2027-01-31T00:00:00.000Z', billing_period_end: '2027-02-28T00:00:00.000Z' };
const changes: Array<[string, Partial<SubscriptionEntity>, number, 'none' | 'create_prorations' | 'immediate_action', { diff: number; charge_now?: number; changes: Partial<SubscriptionEntity> }]> = [
  ['none: the new amount from the next charge', paid, 5000, 'none', { diff: 1000, changes: { amount: 5000 } }],
  ['create_prorations: half the difference on the next charge', paid, 5000, 'create_prorations', { diff: 1000, changes: { amount: 5000, pending_proration: 1000, proration_result: 'pending' } }],
  ['create_prorations of a decrease: a credit', paid, 1000, 'create_prorations', { diff: -1000, changes: { amount: 1000, pending_proration: -1000, proration_result: 'pending' } }],
  ['immediate_action of an increase: charged now by the caller', paid, 5000, 'immediate_action', { diff: 1000, charge_now: 1000, changes: { amount: 5000 } }],
  ['immediate_action of a decrease: a credit to the next charge', paid, 1000, 'immediate_action', { diff: -1000, changes: { amount: 1000, pending_proration: -1000, proration_result: 'pending' } }],
  ['nothing billed yet: nothing to prorate', {}, 5000, 'immediate_action', { diff: 0, changes: { amount: 5000 } }],
];
for (const [name, patch, amount, behavior, expected] of changes) {
  test(`changeAmount: ${name}`, () => {
    const before = frozen(sub(patch));
    const got = changeAmount(before, amount, behavior, half);
    assert.equal(got.diff, expected.diff);
    assert.equal(got.charge_now, expected.charge_now);
    assert.deepEqual(got.subscription, { ...before, ...expected.changes });
  });
}

// Backdated starts: the cycles elapsed are computed, not walked, and land exactly.
test('cyclesElapsed: addCycles(k) ≤ at < addCycles(k + 1) for any start 1970–9999 and any cycle', () => {
  const cycles = ['daily', 'weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const;
  const instant = fc.integer({ min: 0, max: Date.UTC(9000, 0, 1) });
  fc.assert(
    fc.property(fc.constantFrom(...cycles), fc.integer({ min: 1, max: 30 }), instant, instant, (cycle, f, a, b) => {
      const factor = cycle === 'daily' ? f : 1;
      const [start, at] = [new Date(Math.min(a, b)).toISOString(), new Date(Math.max(a, b)).toISOString()];
      const k = cyclesElapsed(start, cycle, factor, at);
      assert.ok(Date.parse(addCycles(start, cycle, factor, k)) <= Date.parse(at));
      assert.ok(Date.parse(addCycles(start, cycle, factor, k + 1)) > Date.parse(at));
    }),
    { numRuns: 500 },
  );
});

test('backdate: a start decades back bills the current period, due now; the calendar keeps the start\'s day', () => {
  const now = '2031-03-10T12:00:00.000Z';
  const start = '1999-01-31T00:00:00.000Z';
  const s = frozen(sub({ start_at: start, anchor_at: start, next_bill_date: start, billing_cycle: 'monthly', charge_count: 0, anchor_count: 0 }));
  const b = backdate(s, now);
  assert.equal(b.next_bill_date, now);
  assert.equal(b.anchor_at, start);
  assert.equal(b.anchor_count, -385);
  assert.deepEqual([b.billing_period_start, b.billing_period_end], ['2031-02-28T00:00:00.000Z', '2031-03-31T00:00:00.000Z']);
  // After the first charge the next bill date is the period's end, then the month end again.
  const charged = afterAttempt(b, { trial: false, approved: true, due_at: now, carried_proration: 0 });
  assert.equal(charged.next_bill_date, '2031-03-31T00:00:00.000Z');
  assert.equal(scheduledBillDate({ ...charged, charge_count: 2 }), '2031-04-30T00:00:00.000Z');
  // A change of cycle before anything was billed re-anchors at the current period's start.
  assert.equal(reanchor(b, 'daily', 1).anchor_at, '2031-02-28T00:00:00.000Z');
  assert.equal(backdate(frozen(sub({ next_bill_date: '2031-04-01T00:00:00.000Z' })), now).next_bill_date, '2031-04-01T00:00:00.000Z');
});
