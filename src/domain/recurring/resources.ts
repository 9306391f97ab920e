// Response objects: Plan and Subscription exactly as the spec's resource tables list
// them (plus a few marked extension fields). Used for the OpenAPI document and types.
import { z } from 'zod';
import { timestamp } from '../strings.js';
import { BILLING_CYCLES, PRORATION_BEHAVIORS, PRORATION_RESULTS, SUBSCRIPTION_STATUSES } from './constants.js';

const cents = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
const count = z.int().min(0);

export const planSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    duration: count.describe('Number of cycles; 0 means endless'),
    amount: cents.describe('Amount of each cycle in cents (tax and shipping included)'),
    initial_amount: cents.nullable().describe('First regular charge; null: amount applies'),
    trial_amount: cents.nullable().describe('Charged at the start of the trial; null: nothing is charged'),
    billing_cycle: z.enum(BILLING_CYCLES),
    billing_factor: count.describe('Daily: the interval in days; otherwise 1'),
    linked_account_id: z.string(),
    description: z.string().describe('Empty when not given'),
    tax: cents.describe('Tax included in amount; 0 when not given'),
    shipping_amount: cents.describe('Shipping included in amount; 0 when not given'),
    custom_fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    trial_period_days: count.nullable().describe('null: no trial'),
    max_retry_count: count.max(5),
    retry_policy: z
      .object({ steps: z.array(z.object({ delay_days: count.min(1).max(30) })) })
      .optional()
      .describe('Present when set'),
    proration_behavior: z.enum(PRORATION_BEHAVIORS),
  })
  .meta({ id: 'Plan' });

/** Address object of a response: every part a string, optional parts may be absent. */
const addressResponse = z.object({
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  company: z.string().optional(),
  line_1: z.string().optional(),
  line_2: z.string().optional(),
  city: z.string().optional(),
  subdivision: z.string().optional(),
  postal_code: z.string().optional(),
  country: z.string().optional(),
  email: z.string().optional(),
});

export const subscriptionSchema = z
  .object({
    id: z.string(),
    plan_id: z.string(),
    customer_id: z.string().optional().describe('Extension: the subscribed customer'),
    duration: count.describe('Number of cycles; 0 means endless'),
    amounts: z.object({
      amount: cents.describe('Amount of each cycle (tax and shipping included)'),
      tax_amount: cents.describe('Tax included in each charge'),
      initial_amount: cents.nullable().describe('First regular charge; null: amount applies'),
      shipping_amount: cents.optional().describe('Extension: shipping included in each charge'),
    }),
    billing_cycle: z.enum(BILLING_CYCLES),
    billing_factor: count,
    next_bill_date: timestamp.nullable().describe('null when no charge is due any more (completed or failed)'),
    description: z.string(),
    currency: z.literal('USD'),
    processor_id: z.string(),
    retry_count: count.describe('Retries made for the charge that is currently failing; 0 after a success'),
    metadata: z.object({
      billing_period_start: timestamp,
      billing_period_end: timestamp,
      max_retry_count: count.max(5),
      form_layout_id: z.string().nullable(),
      form_layout_external_id: z.string().nullable(),
      form_entry_id: z.string().nullable(),
      charge_count: count.describe('Successful regular (non-trial) charges; the subscription completes when it reaches duration'),
      failure_attempt_count: count.describe('Failed charge attempts over the life of the subscription'),
    }),
    payment_method: z.enum(['card', 'ach']),
    payment_details: z.object({
      card: z
        .object({ brand: z.string(), card_type: z.string(), first_six: z.string(), last_four: z.string() })
        .optional(),
      bank_account: z
        .object({ account_type: z.string(), last_four: z.string() })
        .optional()
        .describe('Extension: present when paid by ACH'),
    }),
    billing_address: z.object({ address: addressResponse }),
    status: z.enum(SUBSCRIPTION_STATUSES),
    gateway_customer_id: z.string(),
    proration_result: z.enum(PRORATION_RESULTS),
    created_at: timestamp.optional().describe('Extension'),
    updated_at: timestamp.optional().describe('Extension'),
    linked_account_id: z.string().optional().describe('Extension: the linked account of the plan'),
    start_date: timestamp.optional().describe('Extension: when the subscription started (the trial, if any, starts here)'),
    pending_proration_amount: z
      .int()
      .optional()
      .describe('Extension: prorated difference waiting for the next charge (create_prorations); negative = credit'),
    canceled_at: timestamp.nullable().optional().describe('Extension: when the subscription was canceled'),
  })
  .meta({ id: 'Subscription' });

const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.object({ items: z.array(item), total_count: z.int().min(0) }) });

/** GET …/recurring/plans (extension). */
export const planListSchema = listOf(planSchema).meta({ id: 'PlanList' });
/** GET …/recurring/subscription (extension). */
export const subscriptionListSchema = listOf(subscriptionSchema).meta({ id: 'SubscriptionList' });

export type Plan = z.output<typeof planSchema>;
export type Subscription = z.output<typeof subscriptionSchema>;
export type PlanList = z.output<typeof planListSchema>;
export type SubscriptionList = z.output<typeof subscriptionListSchema>;
