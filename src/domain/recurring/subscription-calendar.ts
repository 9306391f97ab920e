// A subscription's calendar and terms as pure rules on the record: when it bills next,
// the bounds of a period, what a change of cycle or duration does to the schedule, the
// terms a subscription takes from its plan, what a charge attempt and a change of amount
// do to it. Each returns a new value; the services charge and save.
import { addCycles, addDays, cyclesElapsed } from './calendar.js';
import type { BillingCycle, ProrationBehavior } from './constants.js';
import { retryDelayDays } from './charges.js';
import { prorate, prorationPlan } from './proration.js';
import type { PlanEntity, RetryPolicySteps, SubscriptionEntity } from './entities.js';
import { MAX_AMOUNT } from '../money.js';
import { validationError } from '../../errors.js';

type Schedule = Pick<SubscriptionEntity, 'anchor_at' | 'anchor_count' | 'billing_cycle' | 'billing_factor'>;

/** The regular bill date after `charge_count` charges; null once a finite duration is fully billed. */
export function scheduledBillDate(s: Schedule & Pick<SubscriptionEntity, 'duration' | 'charge_count'>): string | null {
  if (s.duration > 0 && s.charge_count >= s.duration) return null;
  return addCycles(s.anchor_at, s.billing_cycle, s.billing_factor, s.charge_count - s.anchor_count);
}

/** Bounds of regular period `index` (0-based over the whole subscription) under the current anchor. */
export function periodBounds(s: Schedule, index: number): { start: string; end: string } {
  const n = index - s.anchor_count;
  return { start: addCycles(s.anchor_at, s.billing_cycle, s.billing_factor, n), end: addCycles(s.anchor_at, s.billing_cycle, s.billing_factor, n + 1) };
}

/**
 * A new cycle/factor: the anchor moves to the end of the period already paid for (or,
 * when nothing regular was billed yet, to the start of the first period billed: the
 * start, or a backdated start's current period). Unchanged when the schedule is.
 */
export function reanchor<S extends Schedule & Pick<SubscriptionEntity, 'charge_count' | 'billing_period_end'>>(s: S, cycle: BillingCycle, factor: number): S {
  if (s.billing_cycle === cycle && s.billing_factor === factor) return s;
  const anchor =
    s.charge_count > 0
      ? { anchor_at: s.billing_period_end, anchor_count: s.charge_count }
      : s.anchor_count < 0
        ? { anchor_at: addCycles(s.anchor_at, s.billing_cycle, s.billing_factor, -s.anchor_count), anchor_count: 0 }
        : {};
  return { ...s, ...anchor, billing_cycle: cycle, billing_factor: factor };
}

/**
 * A new subscription whose first charge date has passed at `now` (docs/decisions.md#time,
 * backdated starts): it bills once, at creation, never each missed cycle.
 * - Still inside its trial: the trial charge is due now.
 * - Past its first regular bill date: the trial (if any) is over unbilled, and the period
 *   that contains `now` on the start's calendar (same day of month and time of day) is
 *   the first period billed, due now; the missed ones are skipped. `anchor_count` = −k
 *   keeps the calendar exact (bill date n = anchor + n + k cycles) instead of moving the
 *   anchor, which would lose a month-end day to clamping.
 * The next bill date after it is the end of that period; `duration` counts the charges
 * made from here (the skipped periods are neither billed nor counted). A retry of a
 * declined first charge is scheduled from now. A start in the future is unchanged.
 */
export function backdate<S extends SubscriptionEntity>(s: S, now: string): S {
  if (s.next_bill_date === null || s.next_bill_date >= now) return s;
  const inTrial = (s.trial_period_days ?? 0) > 0 && !s.trial_done;
  if (inTrial && s.anchor_at > now) return { ...s, next_bill_date: now };
  const k = cyclesElapsed(s.anchor_at, s.billing_cycle, s.billing_factor, now);
  const shifted = { ...s, trial_done: s.trial_done || inTrial, anchor_count: s.anchor_count - k, next_bill_date: now };
  const first = periodBounds(shifted, s.charge_count);
  return { ...shifted, billing_period_start: first.start, billing_period_end: first.end };
}

type Reschedulable = Schedule &
  Pick<SubscriptionEntity, 'status' | 'duration' | 'charge_count' | 'retry_count' | 'trial_period_days' | 'trial_done' | 'next_bill_date'>;

/**
 * After a change of duration or schedule: a finite subscription that has billed all its
 * cycles is completed, otherwise the next bill date is put on the (new) calendar —
 * unless a retry or the trial charge is what comes next. Only an active one changes.
 */
export function reschedule<S extends Reschedulable>(s: S): S {
  if (s.status !== 'active') return s;
  if (s.duration > 0 && s.charge_count >= s.duration) return { ...s, status: 'completed', next_bill_date: null };
  if (s.retry_count > 0) return s;
  if ((s.trial_period_days ?? 0) > 0 && !s.trial_done) return s;
  return { ...s, next_bill_date: scheduledBillDate(s) };
}

/** The terms a subscription takes from its plan (a plan update) or from its own update. */
export interface SubscriptionTerms {
  billing_cycle: BillingCycle;
  billing_factor: number;
  amount: number;
  tax: number;
  shipping: number;
  initial_amount: number | null;
  duration: number;
  max_retry_count: number;
  retry_policy: RetryPolicySteps | null;
  /** The request field that set `amount`, named when its proration would pass the bound (default `amount`). */
  amount_field?: string;
}

/** A plan's terms, as its subscriptions copy them. */
export function planTerms(plan: PlanEntity): SubscriptionTerms {
  return {
    billing_cycle: plan.billing_cycle,
    billing_factor: plan.billing_factor,
    amount: plan.amount,
    tax: plan.tax,
    shipping: plan.shipping_amount,
    initial_amount: plan.initial_amount,
    duration: plan.duration,
    max_retry_count: plan.max_retry_count,
    retry_policy: plan.retry_policy,
  };
}

/**
 * New terms on a subscription, except the amount (its change is prorated: see
 * `prorationPlan`): the calendar re-anchored, amounts and retry terms copied.
 */
export function withTerms<S extends SubscriptionEntity>(s: S, terms: SubscriptionTerms): S {
  return {
    ...reanchor(s, terms.billing_cycle, terms.billing_factor),
    tax_amount: terms.tax,
    shipping_amount: terms.shipping,
    initial_amount: terms.initial_amount,
    duration: terms.duration,
    max_retry_count: terms.max_retry_count,
    retry_policy: terms.retry_policy,
  };
}

/** A charge attempt of a subscription, as the billing engine made it. */
export interface Attempt {
  /** The trial charge (otherwise the regular charge of period `charge_count`). */
  trial: boolean;
  approved: boolean;
  /** When it was due (a retry is scheduled from there). */
  due_at: string;
  /** Proration still owed after this charge (chargeAmountFor's carriedProration). */
  carried_proration: number;
}

/**
 * What an attempt does. Approved: the retries reset, the trial ends (its period is start →
 * anchor) or the period advances, a pending proration is carried (applied once none is
 * left), and the next bill date is scheduled — none left completes the subscription.
 * Declined: one more failed attempt, and a retry on the retry policy, or `failed`.
 */
export function afterAttempt<S extends SubscriptionEntity>(s: S, a: Attempt): S {
  if (!a.approved) {
    const delay = retryDelayDays(s, s.retry_count);
    const failed = { ...s, failure_attempt_count: s.failure_attempt_count + 1 };
    return delay === null
      ? { ...failed, status: 'failed', next_bill_date: null }
      : { ...failed, retry_count: s.retry_count + 1, next_bill_date: addDays(a.due_at, delay) };
  }
  let next: S;
  if (a.trial) {
    next = { ...s, retry_count: 0, trial_done: true, billing_period_start: s.start_at, billing_period_end: s.anchor_at };
  } else {
    const period = periodBounds(s, s.charge_count);
    const proration =
      s.pending_proration !== 0
        ? { pending_proration: a.carried_proration, ...(a.carried_proration === 0 ? { proration_result: 'applied' as const } : {}) }
        : {};
    next = { ...s, retry_count: 0, charge_count: s.charge_count + 1, billing_period_start: period.start, billing_period_end: period.end, ...proration };
  }
  const date = scheduledBillDate(next);
  return date === null ? { ...next, status: 'completed', next_bill_date: null } : { ...next, next_bill_date: date };
}

/**
 * A new amount from now, the difference prorated over the period already paid for (the
 * last billed regular period) with `behavior`: none = nothing; create_prorations = the
 * difference (or credit) added to the next charge; immediate_action = a positive
 * difference to charge at once (`charge_now`: the caller charges it and sets the
 * proration_result, applied or failed). During a trial or before the first regular charge
 * nothing is prorated: the new amount applies to the first regular charge.
 */
export function changeAmount<S extends SubscriptionEntity>(
  s: S,
  amount: number,
  behavior: ProrationBehavior,
  at: string,
  amountField = 'amount',
): { subscription: S; diff: number; charge_now?: number } {
  const paidFor = s.status === 'active' && s.charge_count > 0;
  const diff = paidFor ? prorate({ oldAmount: s.amount, newAmount: amount, periodStart: s.billing_period_start, periodEnd: s.billing_period_end, at }) : 0;
  const action = prorationPlan(behavior, diff);
  const next = { ...s, amount };
  if (action.action === 'charge_now') return { subscription: next, diff, charge_now: action.amount };
  const pending = next.pending_proration + (action.action === 'add_to_next_charge' ? action.amount : 0);
  checkProrationBound(amount, pending, amountField);
  return { subscription: { ...next, pending_proration: pending, proration_result: pending !== 0 ? 'pending' : 'none' }, diff };
}

/**
 * Prorations add up across updates (up, down, up …): what waits for the next charge is
 * held to the money bound (docs/decisions.md#amounts), so the next charge (amount + pending)
 * is at most MAX_AMOUNT and a carried credit at most MAX_AMOUNT. An update that would
 * pass it is refused with a 400 naming the field that set the amount.
 */
export function checkProrationBound(amount: number, pending: number, field: string): void {
  if (amount + pending > MAX_AMOUNT) {
    throw validationError([{
      path: field,
      message: `this change would make the next charge ${amount} + ${pending} prorated = ${amount + pending} cents, above the largest amount ${MAX_AMOUNT} (let the pending proration be charged first, or update with proration_behavior none)`,
    }]);
  }
  if (pending < -MAX_AMOUNT) {
    throw validationError([{
      path: field,
      message: `this change would make the credit waiting for the next charge ${-pending} cents, above the largest amount ${MAX_AMOUNT} (update with proration_behavior none)`,
    }]);
  }
}
