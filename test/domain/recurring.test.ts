import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { fieldsFromZod } from '../../src/errors.js';
import {
  addCycles,
  billingAnchor,
  billingPeriod,
  chargeAmountFor,
  createPlanSchema,
  createSubscriptionSchema,
  DEFAULT_MAX_RETRY_COUNT,
  divRoundHalfAwayFromZero,
  effectiveAmounts,
  isInTrial,
  maxRetries,
  nextBillDate,
  parseStartDate,
  planSchema,
  planUpdateProrationBehavior,
  prorate,
  prorationPlan,
  retryAt,
  retryDelayDays,
  retrySchedule,
  subscriptionSchema,
  updatePlanSchema,
  updateSubscriptionSchema,
  type BillingCycle,
} from '../../src/domain/recurring.js';
import { US_BILLING } from '../helpers/bodies.js';

// ---------------------------------------------------------------------------
// Helpers for table-driven validation

type Body = Record<string, unknown>;
/** A case: a patch applied to a valid body (undefined deletes the key; dotted keys reach nested objects). */
interface Case {
  name: string;
  patch: Body;
  /** Paths that must be reported (exactly this set); omit for a valid body. */
  errors?: string[];
  /** Expected message fragment for the first error path. */
  message?: RegExp;
}

function apply(base: Body, patch: Body): Body {
  const out: Body = structuredClone(base);
  for (const [key, value] of Object.entries(patch)) {
    const parts = key.split('.');
    let target: Body = out;
    for (const p of parts.slice(0, -1)) {
      if (typeof target[p] !== 'object' || target[p] === null) target[p] = {};
      target = target[p] as Body;
    }
    const last = parts.at(-1)!;
    if (value === undefined) delete target[last];
    else target[last] = value;
  }
  return out;
}

function problems(schema: z.ZodType, body: unknown): { path: string; message: string }[] {
  const r = schema.safeParse(body);
  return r.success ? [] : fieldsFromZod(r.error);
}

function runTable(schema: z.ZodType, base: Body, cases: Case[]): void {
  for (const c of cases) {
    it(c.name, () => {
      const found = problems(schema, apply(base, c.patch));
      const paths = [...new Set(found.map((f) => f.path))].sort();
      assert.deepEqual(paths, [...(c.errors ?? [])].sort(), JSON.stringify(found));
      if (c.message) {
        const first = found.find((f) => f.path === c.errors![0]);
        assert.match(first!.message, c.message);
      }
    });
  }
}

const UUID = '0190c7f2-1234-7abc-8def-0123456789ab';
const UUID2 = '0190c7f2-1234-7abc-8def-0123456789ac';

// ---------------------------------------------------------------------------
// Create Plan (spec 4)

const planBase: Body = { name: 'Gold', amount: 1999, billing_cycle: 'monthly', duration: 12 };

describe('createPlanSchema', () => {
  it('accepts the minimal body and normalizes duration', () => {
    assert.deepEqual(createPlanSchema.parse({ ...planBase, duration: '0' }), { ...planBase, duration: 0 });
  });

  it('accepts a full body', () => {
    const full = {
      ...planBase,
      billing_cycle: 'daily',
      billing_factor: 7,
      initial_amount: 4999,
      description: 'Gold tier',
      proration_behavior: 'immediate_action',
      tax: 150,
      shipping_amount: 300,
      trial_period_days: 14,
      trial_amount: 100,
      max_retry_count: 3,
      retry_policy: { steps: [{ delay_days: 1 }, { delay_days: 5 }, { delay_days: 24 }] },
      custom_fields: { tier: 'gold', seats: 3, vip: true },
    };
    assert.deepEqual(createPlanSchema.parse(full), full);
  });

  runTable(createPlanSchema, planBase, [
    // name
    { name: 'name missing', patch: { name: undefined }, errors: ['name'], message: /required/ },
    { name: 'name empty', patch: { name: '' }, errors: ['name'] },
    { name: 'name not a string', patch: { name: 5 }, errors: ['name'] },
    { name: 'name over 5000 chars', patch: { name: 'x'.repeat(5001) }, errors: ['name'] },
    // amount: uint64
    { name: 'amount missing', patch: { amount: undefined }, errors: ['amount'] },
    { name: 'amount 0', patch: { amount: 0 } },
    { name: 'amount negative', patch: { amount: -1 }, errors: ['amount'], message: /negative/ },
    { name: 'amount fractional', patch: { amount: 10.5 }, errors: ['amount'] },
    { name: 'amount as string', patch: { amount: '1999' }, errors: ['amount'] },
    { name: 'amount at the largest amount', patch: { amount: 99_999_999_999 } },
    { name: 'amount above the largest amount', patch: { amount: 100_000_000_000 }, errors: ['amount'] },
    { name: 'amount above 2^53-1', patch: { amount: 2 ** 53 }, errors: ['amount'] },
    // billing_cycle
    { name: 'billing_cycle missing', patch: { billing_cycle: undefined }, errors: ['billing_cycle'], message: /required/ },
    ...(['daily', 'weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const).map((c) => ({
      name: `billing_cycle ${c}`,
      patch: { billing_cycle: c },
    })),
    { name: 'billing_cycle yearly', patch: { billing_cycle: 'yearly' }, errors: ['billing_cycle'], message: /one of/ },
    // duration: number or digit string, 0 = endless
    { name: 'duration missing', patch: { duration: undefined }, errors: ['duration'] },
    { name: 'duration 0', patch: { duration: 0 } },
    { name: 'duration "24"', patch: { duration: '24' } },
    { name: 'duration "-1"', patch: { duration: '-1' }, errors: ['duration'] },
    { name: 'duration 1.5', patch: { duration: 1.5 }, errors: ['duration'] },
    { name: 'duration "1e3"', patch: { duration: '1e3' }, errors: ['duration'] },
    { name: 'duration true', patch: { duration: true }, errors: ['duration'] },
    // billing_factor: daily ≥ 1; every other cycle exactly 1
    { name: 'daily factor 30', patch: { billing_cycle: 'daily', billing_factor: 30 } },
    { name: 'daily factor 3650', patch: { billing_cycle: 'daily', billing_factor: 3650 } },
    { name: 'daily factor 3651', patch: { billing_cycle: 'daily', billing_factor: 3651 }, errors: ['billing_factor'] },
    { name: 'daily factor 0', patch: { billing_cycle: 'daily', billing_factor: 0 }, errors: ['billing_factor'], message: /at least 1/ },
    { name: 'factor as string on create', patch: { billing_cycle: 'daily', billing_factor: '2' }, errors: ['billing_factor'] },
    ...(['weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const).flatMap((c) => [
      { name: `${c} factor 1`, patch: { billing_cycle: c, billing_factor: 1 } },
      { name: `${c} factor 2`, patch: { billing_cycle: c, billing_factor: 2 }, errors: ['billing_factor'], message: /must be 1/ },
    ]),
    // optional amounts
    { name: 'initial_amount 0', patch: { initial_amount: 0 } },
    { name: 'initial_amount negative', patch: { initial_amount: -5 }, errors: ['initial_amount'] },
    { name: 'tax fractional', patch: { tax: 1.5 }, errors: ['tax'] },
    { name: 'shipping_amount string', patch: { shipping_amount: '5' }, errors: ['shipping_amount'] },
    { name: 'tax + shipping = amount', patch: { tax: 999, shipping_amount: 1000 } },
    { name: 'tax + shipping > amount', patch: { tax: 1000, shipping_amount: 1000 }, errors: ['amount'], message: /included/ },
    // description, proration_behavior
    { name: 'description 5000 chars', patch: { description: 'd'.repeat(5000) } },
    { name: 'description 5001 chars', patch: { description: 'd'.repeat(5001) }, errors: ['description'] },
    ...(['none', 'create_prorations', 'immediate_action'] as const).map((b) => ({
      name: `proration_behavior ${b}`,
      patch: { proration_behavior: b },
    })),
    { name: 'proration_behavior always', patch: { proration_behavior: 'always' }, errors: ['proration_behavior'] },
    // trial
    { name: 'trial_period_days alone', patch: { trial_period_days: 7 } },
    { name: 'trial_amount with trial_period_days', patch: { trial_period_days: 7, trial_amount: 0 } },
    { name: 'trial_amount without trial_period_days', patch: { trial_amount: 100 }, errors: ['trial_amount'], message: /requires trial_period_days/ },
    { name: 'trial_amount with 0 trial days', patch: { trial_amount: 100, trial_period_days: 0 }, errors: ['trial_amount'] },
    { name: 'trial_period_days negative', patch: { trial_period_days: -1 }, errors: ['trial_period_days'] },
    // max_retry_count ≤ 5
    ...[0, 1, 2, 3, 4, 5].map((n) => ({ name: `max_retry_count ${n}`, patch: { max_retry_count: n } })),
    { name: 'max_retry_count 6', patch: { max_retry_count: 6 }, errors: ['max_retry_count'], message: /at most 5/ },
    { name: 'max_retry_count as string on create', patch: { max_retry_count: '3' }, errors: ['max_retry_count'] },
    // retry_policy
    {
      name: 'retry steps equal max_retry_count',
      patch: { max_retry_count: 2, retry_policy: { steps: [{ delay_days: 1 }, { delay_days: 2 }] } },
    },
    { name: 'retry_policy with 0 steps and 0 retries', patch: { max_retry_count: 0, retry_policy: { steps: [] } } },
    {
      name: 'fewer steps than max_retry_count',
      patch: { max_retry_count: 3, retry_policy: { steps: [{ delay_days: 1 }] } },
      errors: ['retry_policy.steps'],
      message: /exactly 3 steps/,
    },
    {
      name: 'more steps than max_retry_count',
      patch: { max_retry_count: 1, retry_policy: { steps: [{ delay_days: 1 }, { delay_days: 1 }] } },
      errors: ['retry_policy.steps'],
    },
    {
      name: 'retry_policy without max_retry_count',
      patch: { retry_policy: { steps: [{ delay_days: 1 }] } },
      errors: ['max_retry_count'],
      message: /required when retry_policy/,
    },
    {
      name: 'delay_days 0',
      patch: { max_retry_count: 1, retry_policy: { steps: [{ delay_days: 0 }] } },
      errors: ['retry_policy.steps.0.delay_days'],
      message: /greater than 0/,
    },
    { name: 'delay_days 30', patch: { max_retry_count: 1, retry_policy: { steps: [{ delay_days: 30 }] } } },
    {
      name: 'delay_days 31',
      patch: { max_retry_count: 1, retry_policy: { steps: [{ delay_days: 31 }] } },
      errors: ['retry_policy.steps.0.delay_days'],
      message: /at most 30/,
    },
    {
      name: 'delay_days sum 30',
      patch: { max_retry_count: 3, retry_policy: { steps: [{ delay_days: 10 }, { delay_days: 10 }, { delay_days: 10 }] } },
    },
    {
      name: 'delay_days sum 31',
      patch: { max_retry_count: 3, retry_policy: { steps: [{ delay_days: 10 }, { delay_days: 10 }, { delay_days: 11 }] } },
      errors: ['retry_policy.steps'],
      message: /at most 30 days, got 31/,
    },
    {
      name: 'six steps',
      patch: { max_retry_count: 5, retry_policy: { steps: Array.from({ length: 6 }, () => ({ delay_days: 1 })) } },
      errors: ['retry_policy.steps'],
    },
    {
      name: 'unknown key in a step',
      patch: { max_retry_count: 1, retry_policy: { steps: [{ delay_days: 1, hours: 2 }] } },
      errors: ['retry_policy.steps.0.hours'],
    },
    { name: 'steps not an array', patch: { max_retry_count: 1, retry_policy: { steps: 'x' } }, errors: ['retry_policy.steps'] },
    // custom_fields, unknown fields
    { name: 'custom_fields null', patch: { custom_fields: null } },
    { name: 'custom_fields nested object', patch: { custom_fields: { a: { b: 1 } } }, errors: ['custom_fields.a'] },
    { name: 'unknown field', patch: { status: 'active' }, errors: ['status'], message: /not a field/ },
    { name: 'update-only field refused on create', patch: { prorate: true }, errors: ['prorate'] },
  ]);

  it('reports cross-field rules together with unrelated field errors', () => {
    const found = problems(createPlanSchema, {
      ...planBase,
      name: '',
      amount: 'lots',
      billing_factor: 2,
      trial_amount: 10,
      max_retry_count: 2,
      retry_policy: { steps: [{ delay_days: 25 }, { delay_days: 0 }, { delay_days: 25 }] },
    });
    const paths = found.map((f) => f.path).sort();
    assert.deepEqual(paths, [
      'amount',
      'billing_factor',
      'name',
      'retry_policy.steps',
      'retry_policy.steps.1.delay_days',
      'trial_amount',
    ]);
  });

  it('does not run a cross-field rule on a field that already failed', () => {
    const found = problems(createPlanSchema, { ...planBase, billing_cycle: 'hourly', billing_factor: 2 });
    assert.deepEqual(found.map((f) => f.path), ['billing_cycle']);
  });

  it('rejects a body that is not an object', () => {
    assert.deepEqual(problems(createPlanSchema, []).map((f) => f.path), ['(body)']);
    assert.deepEqual(problems(createPlanSchema, null).map((f) => f.path), ['(body)']);
  });
});

// ---------------------------------------------------------------------------
// Update plan (spec 5)

const updatePlanBase: Body = { ...planBase, description: 'Gold', update_subscriptions: true, prorate: false };

describe('updatePlanSchema', () => {
  it('accepts billing_factor as a digit string', () => {
    const out = updatePlanSchema.parse({ ...updatePlanBase, billing_cycle: 'daily', billing_factor: '14' });
    assert.equal(out.billing_factor, 14);
    assert.equal(out.update_subscriptions, true);
    assert.equal(out.prorate, false);
  });

  runTable(updatePlanSchema, updatePlanBase, [
    { name: 'description missing', patch: { description: undefined }, errors: ['description'] },
    { name: 'description empty', patch: { description: '' }, errors: ['description'] },
    { name: 'update_subscriptions missing', patch: { update_subscriptions: undefined }, errors: ['update_subscriptions'], message: /required/ },
    { name: 'prorate missing', patch: { prorate: undefined }, errors: ['prorate'], message: /required/ },
    { name: 'prorate as string', patch: { prorate: 'true' }, errors: ['prorate'] },
    { name: 'prorate without update_subscriptions is allowed', patch: { prorate: true, update_subscriptions: false } },
    { name: 'billing_factor number', patch: { billing_cycle: 'daily', billing_factor: 3 } },
    { name: 'billing_factor "0"', patch: { billing_cycle: 'daily', billing_factor: '0' }, errors: ['billing_factor'] },
    { name: 'billing_factor "x"', patch: { billing_cycle: 'daily', billing_factor: 'x' }, errors: ['billing_factor'] },
    { name: 'monthly billing_factor "2"', patch: { billing_factor: '2' }, errors: ['billing_factor'], message: /must be 1/ },
    { name: 'monthly billing_factor "1"', patch: { billing_factor: '1' } },
    { name: 'retry_policy not accepted', patch: { max_retry_count: 1, retry_policy: { steps: [{ delay_days: 1 }] } }, errors: ['retry_policy'] },
    { name: 'max_retry_count 6', patch: { max_retry_count: 6 }, errors: ['max_retry_count'] },
    { name: 'trial_amount without trial days', patch: { trial_amount: 5 }, errors: ['trial_amount'] },
    { name: 'name missing', patch: { name: undefined }, errors: ['name'] },
    { name: 'amount missing', patch: { amount: undefined }, errors: ['amount'] },
    { name: 'duration "0"', patch: { duration: '0' } },
    { name: 'tax over amount', patch: { tax: 2000 }, errors: ['amount'] },
  ]);
});

// ---------------------------------------------------------------------------
// Update subscription (spec 6)

const address = US_BILLING;
const subBase: Body = {
  plan_id: UUID,
  processor_id: 'proc_1',
  currency: 'USD',
  amounts: { requested_amount: 2500 },
  billing_address: address,
  billing_cycle: 'monthly',
  duration: '12',
  max_retry_count: '3',
};

describe('updateSubscriptionSchema', () => {
  it('parses loose numbers and keeps null amounts (null = the plan\'s value)', () => {
    const out = updateSubscriptionSchema.parse(
      apply(subBase, { 'amounts.included_tax_amount': null, 'amounts.initial_amount': 100, max_retry_count: 5 }),
    );
    assert.equal(out.duration, 12);
    assert.equal(out.max_retry_count, 5);
    assert.deepEqual(out.amounts, { requested_amount: 2500, included_tax_amount: null, initial_amount: 100 });
  });

  runTable(updateSubscriptionSchema, subBase, [
    { name: 'plan_id missing', patch: { plan_id: undefined }, errors: ['plan_id'] },
    { name: 'processor_id missing', patch: { processor_id: undefined }, errors: ['processor_id'] },
    { name: 'currency missing', patch: { currency: undefined }, errors: ['currency'] },
    { name: 'currency EUR', patch: { currency: 'EUR' }, errors: ['currency'], message: /USD/ },
    { name: 'amounts missing', patch: { amounts: undefined }, errors: ['amounts'], message: /required/ },
    { name: 'requested_amount missing', patch: { 'amounts.requested_amount': undefined }, errors: ['amounts.requested_amount'] },
    { name: 'requested_amount negative', patch: { 'amounts.requested_amount': -1 }, errors: ['amounts.requested_amount'] },
    ...(['included_tax_amount', 'included_shipping_amount', 'initial_amount'] as const).flatMap((k) => [
      { name: `${k} null`, patch: { [`amounts.${k}`]: null } },
      { name: `${k} 0`, patch: { [`amounts.${k}`]: 0 } },
      { name: `${k} fractional`, patch: { [`amounts.${k}`]: 0.5 }, errors: [`amounts.${k}`] },
    ]),
    {
      name: 'included tax + shipping over requested_amount',
      patch: { 'amounts.included_tax_amount': 2000, 'amounts.included_shipping_amount': 501 },
      errors: ['amounts.requested_amount'],
      message: /included/,
    },
    { name: 'unknown key in amounts', patch: { 'amounts.authorized_amount': 1 }, errors: ['amounts.authorized_amount'] },
    // billing address: loose postal code (1 to 10, capture variant A rules)
    { name: 'billing_address missing', patch: { billing_address: undefined }, errors: ['billing_address'] },
    { name: 'postal code "K1A 0B1"', patch: { 'billing_address.postal_code': 'K1A 0B1' } },
    { name: 'postal code "1"', patch: { 'billing_address.postal_code': '1' } },
    { name: 'postal code "123" for US (loose rules)', patch: { 'billing_address.postal_code': '123' } },
    { name: 'postal code "12345-6789"', patch: { 'billing_address.postal_code': '12345-6789' } },
    { name: 'postal code empty', patch: { 'billing_address.postal_code': '' }, errors: ['billing_address.postal_code'] },
    { name: 'postal code 11 chars', patch: { 'billing_address.postal_code': '12345678901' }, errors: ['billing_address.postal_code'] },
    { name: 'postal code double space', patch: { 'billing_address.postal_code': 'AB  12' }, errors: ['billing_address.postal_code'] },
    { name: 'postal code leading hyphen', patch: { 'billing_address.postal_code': '-1234' }, errors: ['billing_address.postal_code'] },
    { name: 'postal code trailing space', patch: { 'billing_address.postal_code': '1234 ' }, errors: ['billing_address.postal_code'] },
    { name: 'email missing', patch: { 'billing_address.email': undefined }, errors: ['billing_address.email'] },
    { name: 'city 25 chars', patch: { 'billing_address.city': 'c'.repeat(25) }, errors: ['billing_address.city'] },
    { name: 'company and line_2 optional', patch: { 'billing_address.company': 'ACME', 'billing_address.line_2': 'Apt 2' } },
    { name: 'country 3 chars', patch: { 'billing_address.country': 'USA' }, errors: ['billing_address.country'] },
    // billing cycle: annual, monthly, daily only
    ...(['annual', 'monthly', 'daily'] as const).map((c) => ({ name: `billing_cycle ${c}`, patch: { billing_cycle: c } })),
    ...(['weekly', 'quarterly', 'semiannual'] as const).map((c) => ({
      name: `billing_cycle ${c} refused`,
      patch: { billing_cycle: c },
      errors: ['billing_cycle'],
    })),
    { name: 'billing_cycle missing', patch: { billing_cycle: undefined }, errors: ['billing_cycle'] },
    { name: 'daily every 365th day', patch: { billing_cycle: 'daily', billing_factor: 365 } },
    { name: 'monthly factor 2', patch: { billing_factor: 2 }, errors: ['billing_factor'] },
    { name: 'factor 0', patch: { billing_cycle: 'daily', billing_factor: 0 }, errors: ['billing_factor'] },
    // duration, max_retry_count: loose, required
    { name: 'duration missing', patch: { duration: undefined }, errors: ['duration'] },
    { name: 'duration 0', patch: { duration: 0 } },
    { name: 'duration "1.5"', patch: { duration: '1.5' }, errors: ['duration'] },
    { name: 'max_retry_count missing', patch: { max_retry_count: undefined }, errors: ['max_retry_count'] },
    { name: 'max_retry_count "5"', patch: { max_retry_count: '5' } },
    { name: 'max_retry_count "6"', patch: { max_retry_count: '6' }, errors: ['max_retry_count'], message: /at most 5/ },
    { name: 'max_retry_count 6', patch: { max_retry_count: 6 }, errors: ['max_retry_count'] },
    { name: 'max_retry_count -1', patch: { max_retry_count: -1 }, errors: ['max_retry_count'] },
    // optional fields
    { name: 'description', patch: { description: 'Monthly box' } },
    { name: 'proration_behavior override', patch: { proration_behavior: 'none' } },
    { name: 'proration_behavior bad', patch: { proration_behavior: 'later' }, errors: ['proration_behavior'] },
    { name: 'payment_details.token', patch: { 'payment_details.token': 'tok_visa' } },
    { name: 'payment_details empty', patch: { payment_details: {} } },
    { name: 'payment_details.card refused', patch: { 'payment_details.card': { number: '4111' } }, errors: ['payment_details.card'] },
    { name: 'payment_details.token empty', patch: { 'payment_details.token': '' }, errors: ['payment_details.token'] },
    { name: 'unknown field', patch: { status: 'failed' }, errors: ['status'] },
  ]);
});

// ---------------------------------------------------------------------------
// Create subscription (extension)

const createSubBase: Body = { plan_id: UUID, customer_id: UUID2, card_id: UUID };

describe('createSubscriptionSchema', () => {
  runTable(createSubscriptionSchema, createSubBase, [
    { name: 'stored card', patch: {} },
    { name: 'token instead of card', patch: { card_id: undefined, 'payment_details.token': 'tok_visa' } },
    { name: 'neither card nor token', patch: { card_id: undefined }, errors: ['card_id'], message: /payment_details.token/ },
    { name: 'card and token', patch: { 'payment_details.token': 'tok_visa' }, errors: ['payment_details.token'] },
    { name: 'plan_id missing', patch: { plan_id: undefined }, errors: ['plan_id'] },
    { name: 'customer_id not a UUID', patch: { customer_id: 'cus_1' }, errors: ['customer_id'] },
    { name: 'start_date date', patch: { start_date: '2025-01-31' } },
    { name: 'start_date RFC 3339', patch: { start_date: '2025-01-31T10:00:00.5+02:00' } },
    { name: 'start_date Feb 30', patch: { start_date: '2025-02-30' }, errors: ['start_date'] },
    { name: 'start_date no offset', patch: { start_date: '2025-01-31T10:00:00' }, errors: ['start_date'] },
    { name: 'start_date hour 24', patch: { start_date: '2025-01-31T24:00:00Z' }, errors: ['start_date'] },
    { name: 'start_date words', patch: { start_date: 'tomorrow' }, errors: ['start_date'] },
    { name: 'amount overrides', patch: { amounts: { requested_amount: 500, included_tax_amount: null, initial_amount: 0 } } },
    { name: 'override tax above amount', patch: { amounts: { requested_amount: 5, included_tax_amount: 6 } }, errors: ['amounts.requested_amount'] },
    { name: 'currency EUR', patch: { currency: 'EUR' }, errors: ['currency'] },
    { name: 'description', patch: { description: 'hello' } },
    { name: 'unknown field', patch: { status: 'active' }, errors: ['status'] },
  ]);

  it('normalizes start_date to RFC 3339 UTC with milliseconds', () => {
    assert.equal(createSubscriptionSchema.parse({ ...createSubBase, start_date: '2024-02-29' }).start_date, '2024-02-29T00:00:00.000Z');
    assert.equal(
      createSubscriptionSchema.parse({ ...createSubBase, start_date: '2025-01-31T01:30:00-02:00' }).start_date,
      '2025-01-31T03:30:00.000Z',
    );
    assert.equal(parseStartDate('2023-02-29'), null);
    assert.equal(parseStartDate('2025-01-01T10:00:00+25:00'), null);
  });
});

// ---------------------------------------------------------------------------
// Response schemas

describe('planSchema and subscriptionSchema', () => {
  const plan = {
    id: UUID,
    name: 'Gold',
    duration: 0,
    amount: 1999,
    initial_amount: null,
    trial_amount: null,
    billing_cycle: 'monthly',
    billing_factor: 1,
    linked_account_id: UUID2,
    description: '',
    tax: 0,
    shipping_amount: 0,
    custom_fields: null,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    trial_period_days: null,
    max_retry_count: 3,
    proration_behavior: 'create_prorations',
  };
  const subscription = {
    id: UUID,
    plan_id: UUID2,
    duration: 12,
    amounts: { amount: 1999, tax_amount: 0, initial_amount: null },
    billing_cycle: 'monthly',
    billing_factor: 1,
    next_bill_date: '2025-02-01T00:00:00.000Z',
    description: '',
    currency: 'USD',
    processor_id: 'proc_1',
    retry_count: 0,
    metadata: {
      billing_period_start: '2025-01-01T00:00:00.000Z',
      billing_period_end: '2025-02-01T00:00:00.000Z',
      max_retry_count: 3,
      form_layout_id: null,
      form_layout_external_id: null,
      form_entry_id: null,
      charge_count: 1,
      failure_attempt_count: 0,
    },
    payment_method: 'card',
    payment_details: { card: { brand: 'visa', card_type: 'credit', first_six: '411111', last_four: '1111' } },
    billing_address: { address: { first_name: 'Ada', country: 'US', postal_code: '62701' } },
    status: 'active',
    gateway_customer_id: UUID,
    proration_result: 'applied',
  };

  it('describe a Plan with every field of the spec', () => {
    assert.deepEqual(planSchema.parse(plan), plan);
    const withPolicy = { ...plan, retry_policy: { steps: [{ delay_days: 2 }] } };
    assert.deepEqual(planSchema.parse(withPolicy), withPolicy);
    assert.equal(planSchema.safeParse({ ...plan, proration_behavior: undefined }).success, false);
    const keys = Object.keys(planSchema.shape).sort();
    assert.deepEqual(keys, [
      'amount', 'billing_cycle', 'billing_factor', 'created_at', 'custom_fields', 'description', 'duration', 'id',
      'initial_amount', 'linked_account_id', 'max_retry_count', 'name', 'proration_behavior', 'retry_policy',
      'shipping_amount', 'tax', 'trial_amount', 'trial_period_days', 'updated_at',
    ]);
  });

  it('describe a Subscription with every field of the spec', () => {
    assert.deepEqual(subscriptionSchema.parse(subscription), subscription);
    assert.equal(subscriptionSchema.safeParse({ ...subscription, status: 'paused' }).success, false);
    for (const key of ['id', 'plan_id', 'duration', 'amounts', 'billing_cycle', 'billing_factor', 'next_bill_date',
      'description', 'currency', 'processor_id', 'retry_count', 'metadata', 'payment_method', 'payment_details',
      'billing_address', 'status', 'gateway_customer_id', 'proration_result']) {
      assert.ok(key in subscriptionSchema.shape, key);
    }
  });
});

// ---------------------------------------------------------------------------
// Calendar

const iso = (d: string) => `${d}T10:00:00.000Z`;
function series(anchor: string, cycle: BillingCycle, factor: number, count: number): string[] {
  return Array.from({ length: count }, (_, n) => addCycles(anchor, cycle, factor, n).slice(0, 10));
}

describe('addCycles over a year', () => {
  it('monthly from Jan 31 clamps and returns to the 31st (2025)', () => {
    assert.deepEqual(series(iso('2025-01-31'), 'monthly', 1, 13), [
      '2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30', '2025-05-31', '2025-06-30', '2025-07-31',
      '2025-08-31', '2025-09-30', '2025-10-31', '2025-11-30', '2025-12-31', '2026-01-31',
    ]);
  });

  it('monthly from Jan 31 in a leap year: Feb 29 then Mar 31', () => {
    assert.deepEqual(series(iso('2024-01-31'), 'monthly', 1, 4), ['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30']);
  });

  it('monthly from the 30th and the 29th', () => {
    assert.deepEqual(series(iso('2025-01-30'), 'monthly', 1, 4), ['2025-01-30', '2025-02-28', '2025-03-30', '2025-04-30']);
    assert.deepEqual(series(iso('2023-12-29'), 'monthly', 1, 4), ['2023-12-29', '2024-01-29', '2024-02-29', '2024-03-29']);
  });

  it('is anchored, not chained', () => {
    const chained = addCycles(addCycles(iso('2025-01-31'), 'monthly', 1, 1), 'monthly', 1, 1);
    assert.equal(chained, iso('2025-03-28'));
    assert.equal(addCycles(iso('2025-01-31'), 'monthly', 1, 2), iso('2025-03-31'));
  });

  it('quarterly from Nov 30 through a leap February', () => {
    assert.deepEqual(series(iso('2023-11-30'), 'quarterly', 1, 5), [
      '2023-11-30', '2024-02-29', '2024-05-30', '2024-08-30', '2024-11-30',
    ]);
  });

  it('semiannual from Aug 31', () => {
    assert.deepEqual(series(iso('2023-08-31'), 'semiannual', 1, 4), ['2023-08-31', '2024-02-29', '2024-08-31', '2025-02-28']);
  });

  it('annual from Feb 29 clamps to Feb 28 and returns in the next leap year', () => {
    assert.deepEqual(series(iso('2024-02-29'), 'annual', 1, 5), [
      '2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29',
    ]);
  });

  it('weekly over a year', () => {
    assert.deepEqual(series(iso('2025-01-01'), 'weekly', 1, 3), ['2025-01-01', '2025-01-08', '2025-01-15']);
    assert.equal(addCycles(iso('2025-01-01'), 'weekly', 1, 52), iso('2025-12-31'));
    assert.equal(addCycles(iso('2024-02-26'), 'weekly', 1, 1), iso('2024-03-04')); // across Feb 29
  });

  it('daily with a factor, over leap and common years', () => {
    assert.deepEqual(series(iso('2024-02-27'), 'daily', 1, 4), ['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    assert.equal(addCycles(iso('2024-01-01'), 'daily', 1, 366), iso('2025-01-01'));
    assert.equal(addCycles(iso('2025-01-01'), 'daily', 1, 365), iso('2026-01-01'));
    assert.equal(addCycles(iso('2024-01-01'), 'daily', 365, 1), iso('2024-12-31'));
    assert.deepEqual(series(iso('2025-01-01'), 'daily', 14, 3), ['2025-01-01', '2025-01-15', '2025-01-29']);
  });

  it('keeps the time of day and normalizes to UTC', () => {
    assert.equal(addCycles('2025-01-31T23:59:59.999Z', 'monthly', 1, 1), '2025-02-28T23:59:59.999Z');
    assert.equal(addCycles('2025-01-31T22:00:00-05:00', 'monthly', 1, 1), '2025-03-01T03:00:00.000Z');
    assert.equal(addCycles(new Date('2025-12-15T00:00:00Z'), 'monthly', 1, 1), '2026-01-15T00:00:00.000Z');
  });

  it('rejects invalid input', () => {
    assert.throws(() => addCycles('nope', 'monthly', 1, 1), RangeError);
    assert.throws(() => addCycles(iso('2025-01-01'), 'monthly', 0, 1), RangeError);
    assert.throws(() => addCycles(iso('2025-01-01'), 'monthly', 1, -1), RangeError);
    assert.throws(() => addCycles(iso('2025-01-01'), 'hourly' as BillingCycle, 1, 1), RangeError);
  });
});

describe('nextBillDate, billingPeriod, trial', () => {
  const anchor = iso('2025-01-31');
  it('is anchor + chargeCount cycles, null after the last cycle', () => {
    assert.equal(nextBillDate({ anchor, cycle: 'monthly', factor: 1, chargeCount: 0, duration: 3 }), anchor);
    assert.equal(nextBillDate({ anchor, cycle: 'monthly', factor: 1, chargeCount: 2, duration: 3 }), iso('2025-03-31'));
    assert.equal(nextBillDate({ anchor, cycle: 'monthly', factor: 1, chargeCount: 3, duration: 3 }), null);
    assert.equal(nextBillDate({ anchor, cycle: 'monthly', factor: 1, chargeCount: 120, duration: 0 }), iso('2035-01-31'));
  });
  it('gives the billed period', () => {
    assert.deepEqual(billingPeriod(anchor, 'monthly', 1, 1), { start: iso('2025-02-28'), end: iso('2025-03-31') });
  });
  it('starts regular billing after the trial', () => {
    assert.equal(billingAnchor(iso('2025-01-31'), 14), iso('2025-02-14'));
    assert.equal(billingAnchor(iso('2025-01-31'), null), iso('2025-01-31'));
    assert.equal(isInTrial(iso('2025-01-31'), 14, iso('2025-01-31')), true);
    assert.equal(isInTrial(iso('2025-01-31'), 14, '2025-02-14T09:59:59.999Z'), true);
    assert.equal(isInTrial(iso('2025-01-31'), 14, iso('2025-02-14')), false);
    assert.equal(isInTrial(iso('2025-01-31'), 0, iso('2025-01-31')), false);
  });
});

// ---------------------------------------------------------------------------
// Proration

/** Day-by-day proration over [first, next month): day d changes at 00:00 UTC of day d (d = last+1 is the period end). */
function dayByDay(year: number, month0: number, days: number, oldAmount: number, newAmount: number): number[] {
  const periodStart = new Date(Date.UTC(year, month0, 1)).toISOString();
  const periodEnd = new Date(Date.UTC(year, month0 + 1, 1)).toISOString();
  return Array.from({ length: days + 1 }, (_, i) =>
    prorate({ oldAmount, newAmount, periodStart, periodEnd, at: new Date(Date.UTC(year, month0, 1 + i)).toISOString() }),
  );
}

describe('prorate', () => {
  it('30-day month (April 2025), +$10.00, every day', () => {
    assert.deepEqual(dayByDay(2025, 3, 30, 2000, 3000), [
      1000, 967, 933, 900, 867, 833, 800, 767, 733, 700, 667, 633, 600, 567, 533, 500, 467, 433, 400, 367, 333, 300, 267,
      233, 200, 167, 133, 100, 67, 33, 0,
    ]);
  });

  it('30-day month, −$10.00 credit is the exact mirror', () => {
    assert.deepEqual(dayByDay(2025, 3, 30, 3000, 2000), dayByDay(2025, 3, 30, 2000, 3000).map((c) => (c === 0 ? 0 : -c)));
  });

  it('31-day month (January 2025), −$29.99, every day', () => {
    assert.deepEqual(dayByDay(2025, 0, 31, 4999, 2000), [
      -2999, -2902, -2806, -2709, -2612, -2515, -2419, -2322, -2225, -2128, -2032, -1935, -1838, -1741, -1645, -1548,
      -1451, -1354, -1258, -1161, -1064, -967, -871, -774, -677, -580, -484, -387, -290, -193, -97, 0,
    ]);
  });

  it('31-day month (January 2025), +$49.99, every day', () => {
    assert.deepEqual(dayByDay(2025, 0, 31, 0, 4999), [
      4999, 4838, 4676, 4515, 4354, 4193, 4031, 3870, 3709, 3548, 3386, 3225, 3064, 2903, 2741, 2580, 2419, 2258, 2096,
      1935, 1774, 1613, 1451, 1290, 1129, 968, 806, 645, 484, 323, 161, 0,
    ]);
  });

  it('rounds halves away from zero (not to even)', () => {
    // diff 15 over 30 days: remaining 29 days = 14.5 → 15, 25 days = 12.5 → 13 (banker's would give 14 and 12).
    const up = dayByDay(2025, 3, 30, 0, 15);
    assert.deepEqual(up, [15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0]);
    assert.deepEqual(dayByDay(2025, 3, 30, 15, 0), up.map((c) => (c === 0 ? 0 : -c)));
    assert.equal(divRoundHalfAwayFromZero(5n, 2n), 3n);
    assert.equal(divRoundHalfAwayFromZero(-5n, 2n), -3n);
    assert.equal(divRoundHalfAwayFromZero(7n, 5n), 1n);
    assert.equal(divRoundHalfAwayFromZero(-7n, 5n), -1n);
  });

  it('clamps outside the period and handles mid-day changes', () => {
    const p = { oldAmount: 1000, newAmount: 4000, periodStart: '2025-04-01T00:00:00.000Z', periodEnd: '2025-05-01T00:00:00.000Z' };
    assert.equal(prorate({ ...p, at: '2025-03-15T00:00:00.000Z' }), 3000);
    assert.equal(prorate({ ...p, at: '2025-05-02T00:00:00.000Z' }), 0);
    assert.equal(prorate({ ...p, at: '2025-04-16T12:00:00.000Z' }), 1450); // 14.5 of 30 days × 3000
    assert.equal(prorate({ ...p, newAmount: 1000, at: '2025-04-10T00:00:00.000Z' }), 0);
    assert.equal(Object.is(prorate({ ...p, newAmount: 0, at: '2025-05-01T00:00:00.000Z' }), -0), false);
  });

  it('is exact for the largest amounts', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const p = { oldAmount: 0, newAmount: max, periodStart: '2025-04-01T00:00:00.000Z', periodEnd: '2025-05-01T00:00:00.000Z' };
    assert.equal(prorate({ ...p, at: '2025-04-01T00:00:00.000Z' }), max);
    assert.equal(prorate({ ...p, at: '2025-04-16T00:00:00.000Z' }), 4503599627370496); // 9007199254740991 / 2 = …495.5 → …496
  });

  it('rejects an empty period and non-integer amounts', () => {
    assert.throws(() => prorate({ oldAmount: 1, newAmount: 2, periodStart: '2025-04-01T00:00:00Z', periodEnd: '2025-04-01T00:00:00Z', at: '2025-04-01T00:00:00Z' }), RangeError);
    assert.throws(() => prorate({ oldAmount: 1.5, newAmount: 2, periodStart: '2025-04-01T00:00:00Z', periodEnd: '2025-05-01T00:00:00Z', at: '2025-04-01T00:00:00Z' }), RangeError);
  });
});

describe('prorationPlan', () => {
  const table: [Parameters<typeof prorationPlan>[0], number, ReturnType<typeof prorationPlan>][] = [
    ['none', 500, { action: 'none', amount: 0, result: 'none' }],
    ['none', -500, { action: 'none', amount: 0, result: 'none' }],
    ['create_prorations', 500, { action: 'add_to_next_charge', amount: 500, result: 'pending' }],
    ['create_prorations', -500, { action: 'add_to_next_charge', amount: -500, result: 'pending' }],
    ['create_prorations', 0, { action: 'none', amount: 0, result: 'none' }],
    ['immediate_action', 500, { action: 'charge_now', amount: 500, result: 'applied' }],
    ['immediate_action', -500, { action: 'add_to_next_charge', amount: -500, result: 'pending' }],
    ['immediate_action', 0, { action: 'none', amount: 0, result: 'none' }],
  ];
  for (const [behavior, diff, expected] of table) {
    it(`${behavior} with ${diff}`, () => assert.deepEqual(prorationPlan(behavior, diff), expected));
  }
  it('maps plan updates to a behavior', () => {
    assert.equal(planUpdateProrationBehavior({ update_subscriptions: true, prorate: true }), 'immediate_action');
    assert.equal(planUpdateProrationBehavior({ update_subscriptions: true, prorate: false }), 'none');
    assert.equal(planUpdateProrationBehavior({ update_subscriptions: false, prorate: true }), null);
  });
});

// ---------------------------------------------------------------------------
// Retries

describe('retry schedule', () => {
  it('uses the default 1, 3, 5, 7, 7 days capped by max_retry_count', () => {
    assert.deepEqual(retrySchedule({ max_retry_count: 5 }), [1, 3, 5, 7, 7]);
    assert.deepEqual(retrySchedule({ max_retry_count: 2 }), [1, 3]);
    assert.deepEqual(retrySchedule({ max_retry_count: 0 }), []);
    assert.equal(DEFAULT_MAX_RETRY_COUNT, 3);
    assert.deepEqual(retrySchedule({}), [1, 3, 5]);
    assert.deepEqual(retrySchedule({ max_retry_count: null }), [1, 3, 5]);
  });

  it('uses the plan\'s retry_policy steps', () => {
    const s = { max_retry_count: 3, retry_policy: { steps: [{ delay_days: 2 }, { delay_days: 10 }, { delay_days: 18 }] } };
    assert.deepEqual([0, 1, 2, 3].map((i) => retryDelayDays(s, i)), [2, 10, 18, null]);
  });

  it('falls back to the default step when max_retry_count outgrew the policy', () => {
    const s = { max_retry_count: 3, retry_policy: { steps: [{ delay_days: 4 }] } };
    assert.deepEqual(retrySchedule(s), [4, 3, 5]);
  });

  it('never retries ACH', () => {
    assert.equal(maxRetries({ max_retry_count: 5, payment_method: 'ach' }), 0);
    assert.equal(retryDelayDays({ max_retry_count: 5, payment_method: 'ach' }, 0), null);
    assert.equal(maxRetries({ max_retry_count: 5, payment_method: 'card' }), 5);
  });

  it('dates each retry from the previous failure', () => {
    assert.equal(retryAt('2025-01-31T10:00:00.000Z', { max_retry_count: 2 }, 0), '2025-02-01T10:00:00.000Z');
    assert.equal(retryAt('2025-02-01T10:00:00.000Z', { max_retry_count: 2 }, 1), '2025-02-04T10:00:00.000Z');
    assert.equal(retryAt('2025-02-04T10:00:00.000Z', { max_retry_count: 2 }, 2), null);
  });

  it('rejects a negative attempt index', () => {
    assert.throws(() => retryDelayDays({}, -1), RangeError);
  });
});

// ---------------------------------------------------------------------------
// Charge amounts

describe('chargeAmountFor', () => {
  const plan = { amount: 2000, tax: 150, shipping: 300, initialAmount: 5000, trialPeriodDays: 14, trialAmount: 100 };
  const table: { name: string; input: Parameters<typeof chargeAmountFor>[0]; expected: Partial<ReturnType<typeof chargeAmountFor>> }[] = [
    {
      name: 'trial charge: trial_amount, no tax or shipping',
      input: { ...plan, chargeCount: 0, inTrial: true },
      expected: { kind: 'trial', base: 100, total: 100, tax: 0, shipping: 0, proration: 0, carriedProration: 0 },
    },
    {
      name: 'trial without trial_amount charges nothing',
      input: { ...plan, trialAmount: null, chargeCount: 0, inTrial: true },
      expected: { kind: 'trial', total: 0 },
    },
    {
      name: 'inTrial ignored without trial days',
      input: { ...plan, trialPeriodDays: 0, chargeCount: 0, inTrial: true },
      expected: { kind: 'initial', total: 5000 },
    },
    {
      name: 'first regular charge: initial_amount, tax and shipping included',
      input: { ...plan, chargeCount: 0, inTrial: false },
      expected: { kind: 'initial', base: 5000, total: 5000, tax: 150, shipping: 300 },
    },
    {
      name: 'initial_amount 0 is a free first cycle',
      input: { ...plan, initialAmount: 0, chargeCount: 0, inTrial: false },
      expected: { kind: 'initial', base: 0, total: 0, tax: 0, shipping: 0 },
    },
    {
      name: 'first charge without initial_amount: amount',
      input: { ...plan, initialAmount: null, chargeCount: 0, inTrial: false },
      expected: { kind: 'regular', base: 2000, total: 2000, tax: 150, shipping: 300 },
    },
    {
      name: 'later charges: amount (not amount + tax + shipping)',
      input: { ...plan, chargeCount: 1, inTrial: false },
      expected: { kind: 'regular', base: 2000, total: 2000, tax: 150, shipping: 300 },
    },
    {
      name: 'pending proration is added',
      input: { ...plan, chargeCount: 3, inTrial: false, pendingProration: 667 },
      expected: { total: 2667, proration: 667, carriedProration: 0 },
    },
    {
      name: 'credit is subtracted',
      input: { ...plan, chargeCount: 3, inTrial: false, pendingProration: -500 },
      expected: { total: 1500, proration: -500, tax: 150, shipping: 300, carriedProration: 0 },
    },
    {
      name: 'credit beyond the charge carries over; included parts clamp',
      input: { ...plan, chargeCount: 3, inTrial: false, pendingProration: -2300 },
      expected: { total: 0, proration: -2000, tax: 0, shipping: 0, carriedProration: -300 },
    },
    {
      name: 'tax fills first, shipping gets the rest',
      input: { ...plan, chargeCount: 3, inTrial: false, pendingProration: -1800 },
      expected: { total: 200, tax: 150, shipping: 50 },
    },
    {
      name: 'proration waits during the trial',
      input: { ...plan, chargeCount: 0, inTrial: true, pendingProration: 400 },
      expected: { kind: 'trial', total: 100, proration: 0, carriedProration: 400 },
    },
  ];
  for (const { name, input, expected } of table) {
    it(name, () => {
      const out = chargeAmountFor(input);
      for (const [k, v] of Object.entries(expected)) assert.equal(out[k as keyof typeof out], v, k);
    });
  }

  it('effectiveAmounts: the subscription\'s values win, null means the plan\'s', () => {
    const p = { amount: 2000, tax: 150, shipping_amount: 300, initial_amount: 5000 };
    assert.deepEqual(effectiveAmounts(p), { amount: 2000, tax: 150, shipping: 300, initialAmount: 5000 });
    assert.deepEqual(
      effectiveAmounts(p, { requested_amount: 2500, included_tax_amount: null, included_shipping_amount: 0, initial_amount: null }),
      { amount: 2500, tax: 150, shipping: 0, initialAmount: 5000 },
    );
    assert.deepEqual(effectiveAmounts({ amount: 100 }), { amount: 100, tax: 0, shipping: 0, initialAmount: null });
  });
});
