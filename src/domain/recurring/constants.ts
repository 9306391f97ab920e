// Enumerations and defaults of recurring billing. The defaults fill the spec's gaps
// (docs/decisions.md#recurring-defaults).

export const BILLING_CYCLES = ['daily', 'weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** Update subscription accepts only these three cycles (spec section 6). */
export const SUBSCRIPTION_UPDATE_CYCLES = ['annual', 'monthly', 'daily'] as const;

export const PRORATION_BEHAVIORS = ['none', 'create_prorations', 'immediate_action'] as const;
export type ProrationBehavior = (typeof PRORATION_BEHAVIORS)[number];

/**
 * Spec: subscription states shown are active and failed. Extensions: completed = a finite
 * duration fully billed; canceled = stopped by the cancel operation (nothing is billed any more).
 */
export const SUBSCRIPTION_STATUSES = ['active', 'failed', 'completed', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * proration_result of a subscription: none = the last change had nothing to prorate;
 * pending = the prorated difference is added to the next charge; applied = charged
 * (or credited) at once; failed = the immediate proration charge was declined.
 */
export const PRORATION_RESULTS = ['none', 'pending', 'applied', 'failed'] as const;
export type ProrationResult = (typeof PRORATION_RESULTS)[number];

/** Limits table: max_retry_count at most 5; retry delays 1..30 days, at most 30 in total. */
export const MAX_RETRY_COUNT = 5;
export const MAX_RETRY_DELAY_DAYS = 30;
export const MAX_RETRY_TOTAL_DAYS = 30;

/** Bound on day counts (daily billing_factor, trial_period_days) so dates stay representable: ten years. */
export const MAX_DAYS = 3650;

/** Gap-filling defaults (not in the spec). */
export const DEFAULT_MAX_RETRY_COUNT = 3;
/** Days between a failed charge and each retry when a plan has no retry_policy; sums to 23 ≤ 30. */
export const DEFAULT_RETRY_DELAYS_DAYS: readonly number[] = [1, 3, 5, 7, 7];
export const DEFAULT_PRORATION_BEHAVIOR: ProrationBehavior = 'create_prorations';
