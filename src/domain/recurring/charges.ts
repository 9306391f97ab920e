// What a subscription charges next, and when a failed charge is retried.
import { DEFAULT_MAX_RETRY_COUNT, DEFAULT_RETRY_DELAYS_DAYS } from './constants.js';
import { addDays, type Instant } from './calendar.js';

// ---------------------------------------------------------------------------
// Retries

/** The retry settings of a subscription (copied from its plan, max_retry_count overridable). */
export interface RetrySettings {
  max_retry_count?: number | null;
  retry_policy?: { steps: ReadonlyArray<{ delay_days: number }> } | null;
  /** Spec 4: retry logic applies to subscriptions paid by card, not ACH. */
  payment_method?: string | null;
}

/** Retries allowed after a failed charge: max_retry_count (default 3); 0 for ACH. */
export function maxRetries(settings: RetrySettings): number {
  if (settings.payment_method === 'ach') return 0;
  return settings.max_retry_count ?? DEFAULT_MAX_RETRY_COUNT;
}

/**
 * Days to wait before retry number `attemptIndex` (0 = the first retry), counted from
 * the previous failed attempt (so the steps' sum is the whole retry window, ≤ 30 days).
 * Step i of retry_policy when the policy has it, otherwise step i of the default
 * schedule 1, 3, 5, 7, 7 days. null when no retry is left (attemptIndex ≥ max
 * retries): the subscription becomes `failed`.
 */
export function retryDelayDays(settings: RetrySettings, attemptIndex: number): number | null {
  if (!Number.isSafeInteger(attemptIndex) || attemptIndex < 0) throw new RangeError('attemptIndex must be a whole number ≥ 0');
  if (attemptIndex >= maxRetries(settings)) return null;
  const step = settings.retry_policy?.steps[attemptIndex];
  return step?.delay_days ?? DEFAULT_RETRY_DELAYS_DAYS[attemptIndex] ?? DEFAULT_RETRY_DELAYS_DAYS.at(-1)!;
}

/** The whole retry schedule in days (one entry per retry allowed). */
export function retrySchedule(settings: RetrySettings): number[] {
  const out: number[] = [];
  for (let i = 0; i < maxRetries(settings); i++) out.push(retryDelayDays(settings, i)!);
  return out;
}

/** When retry `attemptIndex` runs, given the time the previous attempt failed; null = none left. */
export function retryAt(failedAt: Instant, settings: RetrySettings, attemptIndex: number): string | null {
  const days = retryDelayDays(settings, attemptIndex);
  return days === null ? null : addDays(failedAt, days);
}

// ---------------------------------------------------------------------------
// Amounts

/**
 * The amounts a subscription bills with: its own value where it has one, otherwise the
 * plan's (spec 6: "when null the plan's value is used"; an absent field means the same).
 */
export function effectiveAmounts(
  plan: { amount: number; tax?: number | null; shipping_amount?: number | null; initial_amount?: number | null },
  override: {
    requested_amount?: number | null;
    included_tax_amount?: number | null;
    included_shipping_amount?: number | null;
    initial_amount?: number | null;
  } = {},
): { amount: number; tax: number; shipping: number; initialAmount: number | null } {
  return {
    amount: override.requested_amount ?? plan.amount,
    tax: override.included_tax_amount ?? plan.tax ?? 0,
    shipping: override.included_shipping_amount ?? plan.shipping_amount ?? 0,
    initialAmount: override.initial_amount ?? plan.initial_amount ?? null,
  };
}

export interface ChargeInput {
  /** Successful regular (non-trial) charges so far: metadata.charge_count. */
  chargeCount: number;
  /** The charge falls inside the trial (see isInTrial); only counts when trialPeriodDays > 0. */
  inTrial: boolean;
  trialPeriodDays?: number | null;
  trialAmount?: number | null;
  initialAmount?: number | null;
  amount: number;
  tax?: number | null;
  shipping?: number | null;
  /** Prorations waiting for the next charge (create_prorations); negative = credit. */
  pendingProration?: number;
}

export interface ChargeBreakdown {
  kind: 'trial' | 'initial' | 'regular';
  /** trial_amount, initial_amount or amount. */
  base: number;
  /** The part of pendingProration applied to this charge. */
  proration: number;
  /** amounts.requested_amount of the transaction; 0 means no transaction is made. */
  total: number;
  /** amounts.included_tax_amount / included_shipping_amount: parts of total, not added to it. */
  tax: number;
  shipping: number;
  /** Proration not used by this charge (a credit beyond the total, or anything during a trial); keep it for the next one. */
  carriedProration: number;
}

/**
 * The next charge of a subscription. Rules:
 * - During a trial (inTrial and trialPeriodDays > 0) the charge is trial_amount (0 when
 *   unset = nothing charged), with no tax or shipping; pending prorations wait.
 * - The first regular charge (chargeCount 0) is initial_amount when set, otherwise amount;
 *   every later charge is amount. The trial charge is not a regular charge.
 * - Tax and shipping are INCLUDED in the amount, as in a sale's included_tax_amount /
 *   included_shipping_amount: total = base + proration, never amount + tax + shipping.
 *   They are reported on the transaction, clamped so tax + shipping ≤ total.
 * - A credit larger than the charge makes the total 0 and carries the rest forward.
 */
export function chargeAmountFor(input: ChargeInput): ChargeBreakdown {
  const pending = input.pendingProration ?? 0;
  if (input.inTrial && (input.trialPeriodDays ?? 0) > 0) {
    const base = input.trialAmount ?? 0;
    return { kind: 'trial', base, proration: 0, total: base, tax: 0, shipping: 0, carriedProration: pending };
  }
  const initial = input.chargeCount === 0 && input.initialAmount !== null && input.initialAmount !== undefined;
  const base = initial ? input.initialAmount! : input.amount;
  const raw = base + pending;
  const total = Math.max(raw, 0);
  const proration = total - base;
  const tax = Math.min(input.tax ?? 0, total);
  const shipping = Math.min(input.shipping ?? 0, total - tax);
  return { kind: initial ? 'initial' : 'regular', base, proration, total, tax, shipping, carriedProration: raw < 0 ? raw : 0 };
}
