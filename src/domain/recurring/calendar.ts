// Billing calendar in UTC. Every bill date is computed from the anchor (the first
// regular bill date) plus n cycles — never by chaining the previous bill date — so a
// month-end anchor clamps in short months and comes back: Jan 31 → Feb 28/29 → Mar 31.
import type { BillingCycle } from './constants.js';
import { instantText } from '../time.js';

const DAY_MS = 86_400_000;

/** Months in one cycle of each month-based billing cycle. */
const CYCLE_MONTHS: Partial<Record<BillingCycle, number>> = {
  monthly: 1,
  quarterly: 3,
  semiannual: 6,
  annual: 12,
};

export type Instant = string | Date;

/** Milliseconds since the epoch of an ISO timestamp (or Date); RangeError when it is not a time. */
export function toMs(t: Instant, name = 'time'): number {
  const ms = t instanceof Date ? t.getTime() : Date.parse(t);
  if (!Number.isFinite(ms)) throw new RangeError(`${name} is not a valid timestamp: ${String(t)}`);
  return ms;
}

/** Fixed width at any distance: a date past year 9999 is END_OF_TIME, never due (src/domain/time.ts). */
function toIso(ms: number): string {
  return instantText(ms);
}

function daysInMonthUtc(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/**
 * The anchor plus `n` cycles, as an RFC 3339 UTC timestamp with milliseconds.
 * daily = `factor` days per cycle; weekly = 7 × factor days; monthly/quarterly/
 * semiannual/annual = 1/3/6/12 × factor months (the schemas only let daily have
 * factor ≠ 1). Month-based cycles keep the anchor's day of month, clamped to the
 * last day of shorter months, and keep the anchor's time of day.
 */
export function addCycles(startIso: Instant, cycle: BillingCycle, factor: number, n: number): string {
  const start = toMs(startIso, 'start');
  if (!Number.isSafeInteger(factor) || factor < 1) throw new RangeError(`billing factor must be a whole number ≥ 1, got ${factor}`);
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`cycle count must be a whole number ≥ 0, got ${n}`);
  if (cycle === 'daily') return toIso(start + n * factor * DAY_MS);
  if (cycle === 'weekly') return toIso(start + n * factor * 7 * DAY_MS);
  const perCycle = CYCLE_MONTHS[cycle];
  if (perCycle === undefined) throw new RangeError(`unknown billing cycle: ${String(cycle)}`);
  const d = new Date(start);
  const months = d.getUTCMonth() + n * factor * perCycle;
  const year = d.getUTCFullYear() + Math.floor(months / 12);
  const month0 = months % 12;
  const day = Math.min(d.getUTCDate(), daysInMonthUtc(year, month0));
  const timeOfDay = start - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return toIso(Date.UTC(year, month0, day) + timeOfDay);
}

/**
 * How many whole cycles lie between `startIso` and `at`: the largest k ≥ 0 with
 * addCycles(start, k) ≤ at (0 when `at` is before the start). Arithmetic, not a walk, so
 * a start decades back costs the same as one yesterday.
 */
export function cyclesElapsed(startIso: Instant, cycle: BillingCycle, factor: number, at: Instant): number {
  const start = toMs(startIso, 'start');
  const end = toMs(at, 'at');
  if (end < start) return 0;
  let k: number;
  if (cycle === 'daily' || cycle === 'weekly') {
    k = Math.floor((end - start) / ((cycle === 'daily' ? 1 : 7) * factor * DAY_MS));
  } else {
    const perCycle = CYCLE_MONTHS[cycle];
    if (perCycle === undefined) throw new RangeError(`unknown billing cycle: ${String(cycle)}`);
    const s = new Date(start);
    const e = new Date(end);
    const months = (e.getUTCFullYear() - s.getUTCFullYear()) * 12 + (e.getUTCMonth() - s.getUTCMonth());
    k = Math.max(0, Math.floor(months / (perCycle * factor)));
  }
  // Day-of-month clamping and time of day can put the estimate one off either way.
  while (k > 0 && toMs(addCycles(startIso, cycle, factor, k)) > end) k--;
  while (toMs(addCycles(startIso, cycle, factor, k + 1)) <= end) k++;
  return k;
}

/**
 * The next regular bill date of a subscription: anchor + chargeCount cycles, where
 * chargeCount is the number of regular (non-trial) cycles already billed. null when a
 * finite subscription (duration > 0) has billed all of its cycles; duration 0 is endless.
 */
export function nextBillDate(opts: {
  anchor: Instant;
  cycle: BillingCycle;
  factor: number;
  chargeCount: number;
  duration: number;
}): string | null {
  if (opts.duration > 0 && opts.chargeCount >= opts.duration) return null;
  return addCycles(opts.anchor, opts.cycle, opts.factor, opts.chargeCount);
}

/** Billing period `index` (0-based): [anchor + index cycles, anchor + index+1 cycles). */
export function billingPeriod(anchor: Instant, cycle: BillingCycle, factor: number, index: number): { start: string; end: string } {
  return { start: addCycles(anchor, cycle, factor, index), end: addCycles(anchor, cycle, factor, index + 1) };
}

/**
 * The first regular bill date: the subscription start, or the end of the trial when
 * the plan has trial_period_days > 0 (a trial charge, if any, happens at the start).
 */
export function billingAnchor(start: Instant, trialPeriodDays?: number | null): string {
  const days = trialPeriodDays ?? 0;
  if (!Number.isSafeInteger(days) || days < 0) throw new RangeError(`trial_period_days must be a whole number ≥ 0, got ${days}`);
  return toIso(toMs(start, 'start') + days * DAY_MS);
}

/** True while `at` is inside the trial [start, start + trialPeriodDays days). */
export function isInTrial(start: Instant, trialPeriodDays: number | null | undefined, at: Instant): boolean {
  if (!trialPeriodDays) return false;
  const s = toMs(start, 'start');
  const t = toMs(at, 'at');
  return t >= s && t < s + trialPeriodDays * DAY_MS;
}

/** `at` plus whole days (for retry scheduling), as an ISO timestamp. */
export function addDays(at: Instant, days: number): string {
  return toIso(toMs(at, 'at') + days * DAY_MS);
}
