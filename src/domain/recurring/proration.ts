// Proration, written once: every plan update, subscription update and the billing
// engine call these two functions.
import type { ProrationBehavior } from './constants.js';
import { toMs, type Instant } from './calendar.js';

/**
 * Integer division rounded half away from zero: 2.5 → 3, -2.5 → -3, 2.4 → 2.
 * Chosen over banker's rounding because it is what people check by hand and it is
 * symmetric: a credit for a downgrade is exactly minus the charge for the same upgrade.
 */
export function divRoundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const neg = numerator < 0n;
  const n = neg ? -numerator : numerator;
  const q = (2n * n + denominator) / (2n * denominator);
  return neg ? -q : q;
}

/**
 * Prorated difference in cents for switching from `oldAmount` to `newAmount` at `at`
 * inside the billed period [periodStart, periodEnd):
 *   round((newAmount − oldAmount) × remainingMs / periodMs), rounding half away from zero,
 * where remainingMs = periodEnd − at, clamped to [0, periodMs] (a change before the
 * period prorates the whole difference, one at or after its end prorates nothing).
 * Positive = the customer owes this much (charge); negative = credit. Exact integer
 * arithmetic (BigInt), so no floating-point error at any amount.
 */
export function prorate(args: {
  oldAmount: number;
  newAmount: number;
  periodStart: Instant;
  periodEnd: Instant;
  at: Instant;
}): number {
  for (const k of ['oldAmount', 'newAmount'] as const) {
    if (!Number.isSafeInteger(args[k])) throw new RangeError(`${k} must be a whole number of cents`);
  }
  const start = toMs(args.periodStart, 'periodStart');
  const end = toMs(args.periodEnd, 'periodEnd');
  const at = toMs(args.at, 'at');
  const period = end - start;
  if (period <= 0) throw new RangeError('periodEnd must be after periodStart');
  const remaining = Math.min(Math.max(end - at, 0), period);
  const diff = BigInt(args.newAmount) - BigInt(args.oldAmount);
  const cents = divRoundHalfAwayFromZero(diff * BigInt(remaining), BigInt(period));
  return Number(cents) || 0; // no -0
}

/**
 * What to do with a prorated difference `diff` (from `prorate`):
 * - `none` (or diff 0) → nothing; the new amount applies from the next cycle.
 * - `create_prorations` → add diff (charge or credit) to the next regular charge.
 * - `immediate_action` → charge diff now; a negative diff cannot be charged, and money
 *   already taken is not refunded, so a credit goes to the next charge instead.
 * `result` is the subscription's proration_result once the action is carried out
 * (for charge_now: `applied` on approval; the engine sets `failed` on a decline).
 */
export type ProrationAction =
  | { action: 'none'; amount: 0; result: 'none' }
  | { action: 'add_to_next_charge'; amount: number; result: 'pending' }
  | { action: 'charge_now'; amount: number; result: 'applied' };

export function prorationPlan(behavior: ProrationBehavior, diff: number): ProrationAction {
  if (!Number.isSafeInteger(diff)) throw new RangeError('diff must be a whole number of cents');
  if (behavior === 'none' || diff === 0) return { action: 'none', amount: 0, result: 'none' };
  if (behavior === 'immediate_action' && diff > 0) return { action: 'charge_now', amount: diff, result: 'applied' };
  return { action: 'add_to_next_charge', amount: diff, result: 'pending' };
}

/**
 * Update plan (spec 5): with update_subscriptions, `prorate: true` takes effect at once
 * and charges the prorated amount for the current partial cycle (immediate_action);
 * `prorate: false` applies the new values from the next cycle (none). Without
 * update_subscriptions existing subscriptions are untouched (null).
 */
export function planUpdateProrationBehavior(update: { update_subscriptions: boolean; prorate: boolean }): ProrationBehavior | null {
  if (!update.update_subscriptions) return null;
  return update.prorate ? 'immediate_action' : 'none';
}
