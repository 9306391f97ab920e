// The current object as its full Update body, which the CLI's update commands edit: only
// the flags given change, and the body is checked as the API's own.
import type { Plan, Subscription } from './resources.js';

/** A plan as an Update plan body (for the CLI, which changes only the flags given). */
export function planToUpdateBody(plan: Plan): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: plan.name,
    amount: plan.amount,
    billing_cycle: plan.billing_cycle,
    billing_factor: plan.billing_factor,
    duration: plan.duration,
    description: plan.description,
    tax: plan.tax,
    shipping_amount: plan.shipping_amount,
    max_retry_count: plan.max_retry_count,
    proration_behavior: plan.proration_behavior,
    update_subscriptions: false,
    prorate: false,
  };
  if (plan.initial_amount !== null) body.initial_amount = plan.initial_amount;
  if (plan.trial_period_days !== null) body.trial_period_days = plan.trial_period_days;
  if (plan.trial_amount !== null) body.trial_amount = plan.trial_amount;
  if (plan.custom_fields) body.custom_fields = plan.custom_fields;
  return body;
}

/** A subscription as an Update subscription body (for the CLI, which changes only the flags given). */
export function subscriptionToUpdateBody(s: Subscription): Record<string, unknown> {
  return {
    plan_id: s.plan_id,
    processor_id: s.processor_id,
    currency: s.currency,
    amounts: {
      requested_amount: s.amounts.amount,
      included_tax_amount: s.amounts.tax_amount,
      included_shipping_amount: s.amounts.shipping_amount ?? null,
      initial_amount: s.amounts.initial_amount,
    },
    billing_address: s.billing_address.address,
    billing_cycle: s.billing_cycle,
    billing_factor: s.billing_factor,
    duration: s.duration,
    max_retry_count: s.metadata.max_retry_count,
    description: s.description,
  };
}
