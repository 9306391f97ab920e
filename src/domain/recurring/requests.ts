// Request schemas of recurring billing: Create Plan (spec 4), Update plan (spec 5),
// Update subscription (spec 6) and the create-subscription extension. One schema per
// shape, shared by the HTTP routes, the CLI and the OpenAPI document.
//
// Cross-field rules run in one superRefine per object with `when` set, so they are
// reported together with unrelated field errors; a rule only runs when the fields it
// reads are themselves valid (no second error for one mistake).
import { z } from 'zod';
import { amount, uint64, uint64Loose } from '../money.js';
import { customFields, requiredText, text, uuid } from '../strings.js';
import { looseBillingAddress } from '../address.js';
import { instantSchema, readInstant } from '../time.js';
import { pagingQuery } from '../paging.js';
import {
  BILLING_CYCLES,
  MAX_DAYS,
  MAX_RETRY_COUNT,
  MAX_RETRY_DELAY_DAYS,
  MAX_RETRY_TOTAL_DAYS,
  PRORATION_BEHAVIORS,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_UPDATE_CYCLES,
} from './constants.js';

// ---------------------------------------------------------------------------
// Building blocks

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (iss) => (iss.input === undefined ? 'is required' : `must be one of: ${values.join(', ')}`),
  });

const requiredBoolean = z.boolean({
  error: (iss) => (iss.input === undefined ? 'is required' : 'must be true or false'),
});

const maxRetryCount = uint64.max(MAX_RETRY_COUNT, { error: `must be at most ${MAX_RETRY_COUNT}` });
const maxRetryCountLoose = uint64Loose.pipe(
  z.number().max(MAX_RETRY_COUNT, { error: `must be at most ${MAX_RETRY_COUNT}` }),
);

const billingFactor = uint64
  .min(1, { error: 'must be at least 1' })
  .max(MAX_DAYS, { error: `must be at most ${MAX_DAYS}` });
const billingFactorLoose = uint64Loose.pipe(
  z.number().min(1, { error: 'must be at least 1' }).max(MAX_DAYS, { error: `must be at most ${MAX_DAYS}` }),
);
const trialPeriodDays = uint64.max(MAX_DAYS, { error: `must be at most ${MAX_DAYS}` });

const delayDays = uint64
  .min(1, { error: 'must be greater than 0' })
  .max(MAX_RETRY_DELAY_DAYS, { error: `must be at most ${MAX_RETRY_DELAY_DAYS}` });

export const retryPolicySchema = z.strictObject({
  steps: z
    .array(z.strictObject({ delay_days: delayDays }), { error: 'must be an array of steps' })
    .max(MAX_RETRY_COUNT, { error: `must have at most ${MAX_RETRY_COUNT} steps` })
    .optional(),
});

const paymentToken = requiredText(255);

/** RFC 3339 timestamp (any offset) or a date YYYY-MM-DD (midnight UTC) → the fixed-width UTC form (src/domain/time.ts). */
export const startDate = instantSchema({ date: true });

/** The fixed-width UTC form of a start date, or null when it is not a real date/time in range. */
export function parseStartDate(s: string): string | null {
  const r = readInstant(s, { date: true });
  return r.ok ? r.iso : null;
}

// ---------------------------------------------------------------------------
// Cross-field rules

type Issues = z.core.$RefinementCtx['issues'];
type Obj = Record<string, unknown>;

/** The refinement runs whenever the value is an object, even if some fields failed. */
const whenObject = { when: (p: z.core.ParsePayload) => typeof p.value === 'object' && p.value !== null && !Array.isArray(p.value) };

/** No issue was reported at `path` or below it. */
function clean(issues: Issues, ...path: PropertyKey[]): boolean {
  return !issues.some((i) => {
    const p = i.path ?? [];
    return p.length >= path.length && path.every((k, idx) => p[idx] === k);
  });
}
/** No issue was reported exactly at `path` (issues of its children do not count). */
function cleanAt(issues: Issues, ...path: PropertyKey[]): boolean {
  return !issues.some((i) => {
    const p = i.path ?? [];
    return p.length === path.length && path.every((k, idx) => p[idx] === k);
  });
}
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function add(ctx: z.core.$RefinementCtx, path: PropertyKey[], message: string): void {
  ctx.addIssue({ code: 'custom', path, message, continue: true });
}

/** Limits: billing_factor must be 1 for every cycle other than daily. */
function billingFactorRule(v: Obj, ctx: z.core.$RefinementCtx): void {
  const { billing_cycle: cycle, billing_factor: factor } = v;
  if (typeof cycle !== 'string' || !num(factor)) return;
  if (!clean(ctx.issues, 'billing_cycle') || !clean(ctx.issues, 'billing_factor')) return;
  if (cycle !== 'daily' && factor !== 1) {
    add(ctx, ['billing_factor'], `must be 1 when billing_cycle is ${cycle} (only daily billing may use another interval)`);
  }
}

/** Tax and shipping are included in the amount they belong to, so they cannot exceed it. */
function includedRule(
  ctx: z.core.$RefinementCtx,
  scope: PropertyKey[],
  amountKey: string,
  taxKey: string,
  shippingKey: string,
  o: Obj,
): void {
  const amount = o[amountKey];
  const tax = o[taxKey] ?? 0;
  const shipping = o[shippingKey] ?? 0;
  if (!num(amount) || !num(tax) || !num(shipping)) return;
  if (![amountKey, taxKey, shippingKey].every((k) => clean(ctx.issues, ...scope, k))) return;
  if (tax + shipping > amount) {
    add(
      ctx,
      [...scope, amountKey],
      `must be at least ${taxKey} + ${shippingKey} (${tax + shipping}): tax and shipping are included in the amount`,
    );
  }
}

function planRules(v: Obj, ctx: z.core.$RefinementCtx): void {
  billingFactorRule(v, ctx);

  // trial_amount requires trial_period_days (a trial of at least one day).
  if (v.trial_amount !== undefined && clean(ctx.issues, 'trial_amount') && clean(ctx.issues, 'trial_period_days')) {
    if (v.trial_period_days === undefined) add(ctx, ['trial_amount'], 'requires trial_period_days');
    else if (v.trial_period_days === 0) add(ctx, ['trial_amount'], 'requires trial_period_days greater than 0');
  }

  includedRule(ctx, [], 'amount', 'tax', 'shipping_amount', v);
}

function retryPolicyRules(v: Obj, ctx: z.core.$RefinementCtx): void {
  const policy = v.retry_policy;
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) return;
  const steps = (policy as Obj).steps ?? [];
  if (!Array.isArray(steps) || !cleanAt(ctx.issues, 'retry_policy', 'steps')) return;

  // Steps count must equal max_retry_count (one step per retry attempt).
  if (clean(ctx.issues, 'max_retry_count')) {
    if (v.max_retry_count === undefined) {
      add(ctx, ['max_retry_count'], 'is required when retry_policy is given (retry_policy.steps has one step per retry)');
    } else if (num(v.max_retry_count) && steps.length !== v.max_retry_count) {
      add(
        ctx,
        ['retry_policy', 'steps'],
        `must have exactly ${v.max_retry_count} step${v.max_retry_count === 1 ? '' : 's'} (count must equal max_retry_count), got ${steps.length}`,
      );
    }
  }

  // Sum of delay_days at most 30 (checked when every step is valid).
  if (clean(ctx.issues, 'retry_policy', 'steps')) {
    const sum = steps.reduce((s: number, step: Obj) => s + (num(step?.delay_days) ? step.delay_days : 0), 0);
    if (sum > MAX_RETRY_TOTAL_DAYS) {
      add(ctx, ['retry_policy', 'steps'], `delay_days must add up to at most ${MAX_RETRY_TOTAL_DAYS} days, got ${sum}`);
    }
  }
}

// ---------------------------------------------------------------------------
// Plans

const PLAN_RULES =
  'Cross-field rules: billing_factor is 1 unless billing_cycle is daily; tax + shipping_amount ≤ amount (both are included in it); trial_amount requires trial_period_days > 0.';

const planFields = {
  name: requiredText().describe('Shown to end-users'),
  amount: amount.describe('Amount of each cycle in cents; tax and shipping_amount are included in it'),
  billing_cycle: oneOf(BILLING_CYCLES),
  billing_factor: billingFactor.optional().describe('For daily: the interval in days; every other cycle: must be 1'),
  duration: uint64Loose.describe('Number of cycles; 0 means endless (number or digit string)'),
  initial_amount: amount.optional().describe('Used only for the first regular charge; then amount applies'),
  description: text().optional().describe('Shown to end-users'),
  proration_behavior: oneOf(PRORATION_BEHAVIORS).optional(),
  tax: amount.optional().describe('Tax included in amount, in cents; tax + shipping_amount ≤ amount'),
  shipping_amount: amount.optional().describe('Shipping included in amount, in cents; tax + shipping_amount ≤ amount'),
  trial_period_days: trialPeriodDays.optional(),
  trial_amount: amount.optional().describe('Charged once at the start of the trial; requires trial_period_days > 0'),
  max_retry_count: maxRetryCount.optional(),
  custom_fields: customFields.nullable().optional(),
};

/** POST …/recurring/plans (spec 4). */
export const createPlanSchema = z
  .strictObject({
    ...planFields,
    retry_policy: retryPolicySchema.optional(),
  })
  .superRefine((v, ctx) => {
    planRules(v as Obj, ctx);
    retryPolicyRules(v as Obj, ctx);
  }, whenObject)
  .meta({ id: 'CreatePlanRequest', description: PLAN_RULES + ' retry_policy.steps has exactly max_retry_count steps (max_retry_count is required with retry_policy) whose delay_days add up to at most 30.' });

/** PUT …/recurring/plans/{plan_id} (spec 5): description required, billing_factor loose, no retry_policy. */
export const updatePlanSchema = z
  .strictObject({
    ...planFields,
    description: requiredText().describe('Shown to end-users'),
    billing_factor: billingFactorLoose.optional().describe('For daily: the interval in days; every other cycle: must be 1'),
    update_subscriptions: requiredBoolean.describe('Update existing subscriptions with these plan values'),
    prorate: requiredBoolean.describe(
      'If true the update takes effect immediately and charges the prorated amount for the current partial cycle; applies only when update_subscriptions is true',
    ),
  })
  .superRefine((v, ctx) => planRules(v as Obj, ctx), whenObject)
  .meta({ id: 'UpdatePlanRequest', description: PLAN_RULES });

// ---------------------------------------------------------------------------
// Subscriptions

const nullableAmount = amount.nullable().optional();

/** PUT …/recurring/subscription/{subscription_id} (spec 6). */
export const updateSubscriptionSchema = z
  .strictObject({
    plan_id: uuid,
    processor_id: requiredText(255),
    currency: z.literal('USD', { error: 'must be USD (the only supported currency)' }),
    amounts: z.strictObject(
      {
        requested_amount: amount,
        included_tax_amount: nullableAmount.describe('null: the plan\'s tax is used'),
        included_shipping_amount: nullableAmount.describe('null: the plan\'s shipping_amount is used'),
        initial_amount: nullableAmount.describe('First transaction only; null: the plan\'s value is used'),
      },
      { error: (iss) => (iss.code !== 'invalid_type' ? undefined : iss.input === undefined ? 'is required' : 'must be an object') },
    ),
    billing_address: looseBillingAddress,
    billing_cycle: oneOf(SUBSCRIPTION_UPDATE_CYCLES),
    billing_factor: billingFactor.optional().describe('How often a cycle runs, e.g. 365 with daily = every 365th day'),
    duration: uint64Loose.describe('Number of cycles; 0 means endless (number or digit string)'),
    max_retry_count: maxRetryCountLoose.describe('After this many failed retries the status becomes failed'),
    description: text().optional(),
    proration_behavior: oneOf(PRORATION_BEHAVIORS).optional().describe('Applies to this update only'),
    payment_details: z.strictObject({ token: paymentToken.optional() }).optional(),
  })
  .superRefine((v, ctx) => {
    billingFactorRule(v as Obj, ctx);
    if (typeof v.amounts === 'object' && v.amounts !== null) {
      includedRule(ctx, ['amounts'], 'requested_amount', 'included_tax_amount', 'included_shipping_amount', v.amounts as Obj);
    }
  }, whenObject)
  .meta({
    id: 'UpdateSubscriptionRequest',
    description: 'Cross-field rules: billing_factor is 1 unless billing_cycle is daily; amounts.included_tax_amount + included_shipping_amount ≤ requested_amount.',
  });

/**
 * POST …/recurring/subscription (extension): subscribe a customer to a plan, paid by a
 * stored card (card_id), a stored bank account (bank_account_id) or a payment token —
 * exactly one of them. Amounts left out (or null) are the plan's; start_date defaults to
 * now on the platform clock.
 */
export const createSubscriptionSchema = z
  .strictObject({
    plan_id: uuid,
    customer_id: uuid,
    card_id: uuid.optional().describe('A stored card of the customer'),
    bank_account_id: uuid.optional().describe('A stored bank account of the customer (ACH: failed charges are not retried)'),
    payment_details: z.strictObject({ token: paymentToken.optional() }).optional(),
    processor_id: requiredText(255).optional(),
    currency: z.literal('USD', { error: 'must be USD (the only supported currency)' }).optional(),
    start_date: startDate.optional().describe('RFC 3339 timestamp (a date YYYY-MM-DD is accepted too: midnight UTC); years 1970 to 9999'),
    amounts: z
      .strictObject({
        requested_amount: nullableAmount,
        included_tax_amount: nullableAmount,
        included_shipping_amount: nullableAmount,
        initial_amount: nullableAmount,
      })
      .optional(),
    billing_address: looseBillingAddress.optional(),
    description: text().optional(),
  })
  .superRefine((v, ctx) => {
    const o = v as Obj;
    const pd = o.payment_details as Obj | undefined;
    const hasCard = o.card_id !== undefined;
    const hasBank = o.bank_account_id !== undefined;
    const hasToken = typeof pd === 'object' && pd !== null && pd.token !== undefined;
    if (!hasCard && !hasBank && !hasToken && clean(ctx.issues, 'payment_details')) {
      add(ctx, ['card_id'], 'is required unless bank_account_id or payment_details.token is given (pay by a stored card, a stored bank account or a token)');
    } else if (hasToken && (hasCard || hasBank)) {
      add(ctx, ['payment_details', 'token'], `must not be given together with ${hasCard ? 'card_id' : 'bank_account_id'} (one payment method only)`);
    } else if (hasCard && hasBank) {
      add(ctx, ['bank_account_id'], 'must not be given together with card_id (one payment method only)');
    }
    const amounts = o.amounts as Obj | undefined;
    if (typeof amounts === 'object' && amounts !== null && num(amounts.requested_amount)) {
      includedRule(ctx, ['amounts'], 'requested_amount', 'included_tax_amount', 'included_shipping_amount', amounts);
    }
  }, whenObject)
  .meta({
    id: 'CreateSubscriptionRequest',
    description:
      'Cross-field rules: exactly one payment method — card_id, bank_account_id or payment_details.token; amounts.included_tax_amount + included_shipping_amount ≤ requested_amount. Amounts left out (or null) are the plan\'s; start_date defaults to now (platform clock).',
  });

// ---------------------------------------------------------------------------
// List queries (extensions): limit 1..1000 (default 50), offset ≥ 0, newest first.

/** GET …/recurring/plans. */
export const planListQuerySchema = z.strictObject({
  ...pagingQuery,
});

/** GET …/recurring/subscription: paging plus filters by status, plan and customer. */
export const subscriptionListQuerySchema = z.strictObject({
  ...pagingQuery,
  status: oneOf(SUBSCRIPTION_STATUSES).optional(),
  plan_id: uuid.optional(),
  customer_id: uuid.optional(),
});

export type PlanListQuery = z.output<typeof planListQuerySchema>;
export type SubscriptionListQuery = z.output<typeof subscriptionListQuerySchema>;
export type CreatePlanInput = z.output<typeof createPlanSchema>;
export type UpdatePlanInput = z.output<typeof updatePlanSchema>;
export type UpdateSubscriptionInput = z.output<typeof updateSubscriptionSchema>;
export type CreateSubscriptionInput = z.output<typeof createSubscriptionSchema>;
export type RetryPolicy = z.output<typeof retryPolicySchema>;
